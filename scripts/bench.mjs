#!/usr/bin/env node
// `npm run bench`: how close to the cap the pager's clamps land, and what `pre` costs. Prints figures; it is
// never a timed test. Usage: node scripts/bench.mjs [--quick] [--no-speed] [--no-quality] [--no-rounds]
// Rounds: the table of scripts/rounds.mjs (`npm run bench:rounds`), Read calls per file against the oracle.
//
// Quality: one file per corpus class, built from held-out files (never used by scripts/calibrate.mjs) or
// generated; windows from several start lines, each asking for the rest of the file. For each window: the
// pager's clamp (fitWindow, as `pre` runs it) and the naive rule (3.5 characters per token, 8-character line
// prefix), then the clamped text's true tokens under each tokenizer: refused when over the cap and longer than
// the never-counted floor; fill = true tokens / cap.
// Speed: whole-process `pre` against bare `node -e 0`, median of many runs, and peak RSS of `pre`.
// Gates: whole-process cost of each hook with the opt-in gates off and on, beside a 1 MB transcript, each run as
// install and the plugin run it: node with its arguments, no shell (exec form).
import { spawnSync, execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLASSES, texts } from './lib/corpus.mjs';
import { loadEstimator, root } from './lib/load-src.mjs';
import { REAL, claudeDense } from './lib/tokenizers.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const CAP = 25_000;
const FILE_CHARS = quick ? 160_000 : 320_000;
const STARTS = quick ? 3 : 5;
const tmp = mkdtempSync(join(tmpdir(), 'rcp-bench-'));
const est = await loadEstimator();


/** Safety factors the margin trade-off compares; PRIOR_SAFETY is the one `pre` uses. */
const SAFETIES = [1.0, 1.05, 1.1, 1.15, 1.2];
const FILL_CLASSES = ['prose', 'markdown', 'ts', 'js', 'python'];

function quality() {
  const tokenizers = { ...REAL, 'claude-dense': null };
  const names = Object.keys(tokenizers);
  const methods = ['naive', ...SAFETIES.map((x) => `pager@${x}`)];
  if (!SAFETIES.includes(est.PRIOR_SAFETY)) methods.push(`pager@${est.PRIOR_SAFETY}`);
  const ours = `pager@${est.PRIOR_SAFETY}`;
  const stats = {}; // stats[method][cls][tokenizer] = { windows, refused, fill }
  for (const m of methods) stats[m] = {};
  for (const cls of Object.keys(CLASSES)) {
    const text = texts(cls, 'held', FILE_CHARS).map((t) => t.text).join('\n');
    const path = join(tmp, `${cls}.${CLASSES[cls].ext}`);
    writeFileSync(path, text);
    const lines = text.split('\n');
    const count = (k, w) => (k === 'claude-dense' ? claudeDense(w) : tokenizers[k](w));
    for (const m of methods) {
      stats[m][cls] = Object.fromEntries(names.map((k) => [k, { windows: 0, refused: 0, fill: 0 }]));
    }
    const counted = new Map(); // the same window under two methods is tokenized once
    for (let s = 0; s < STARTS; s++) {
      const first = 1 + Math.floor((s / STARTS) * lines.length * 0.7);
      for (const m of methods) {
        let n;
        if (m === 'naive') n = naiveLines(lines, first - 1);
        else {
          const sizing = { ratio: 1, safety: Number(m.slice(6)), noFloor: false, gamble: false };
          const budget = est.budgetFor(path, CAP, sizing, Infinity);
          const fit = est.fitWindow(path, first, budget, Date.now() + 60_000);
          n = fit.whole ? 0 : fit.lines;
        }
        if (n <= 0 || first - 1 + n >= lines.length) continue; // not clamped, or no line fits: nothing to judge
        const key = `${first}:${n}`;
        if (!counted.has(key)) {
          const window = lines.slice(first - 1, first - 1 + n).join('\n');
          const floor = window.length <= est.neverCountedChars(CAP, path);
          counted.set(key, Object.fromEntries(names.map((k) => {
            const t = count(k, window);
            return [k, { t, refused: t > CAP && !floor }];
          })));
        }
        for (const k of names) {
          const st = stats[m][cls][k];
          const c = counted.get(key)[k];
          st.windows++; st.fill += c.t / CAP; if (c.refused) st.refused++;
        }
      }
    }
    process.stderr.write(`  ${cls}`);
  }
  process.stderr.write('\n');
  const sum = (m, classes, k) => classes.reduce((a, c) => {
    const st = stats[m][c][k];
    return { windows: a.windows + st.windows, refused: a.refused + st.refused, fill: a.fill + st.fill };
  }, { windows: 0, refused: 0, fill: 0 });
  const cell = (st) => (st.windows === 0 ? '—'.padStart(14) : `${st.refused}/${st.windows} ${(st.fill / st.windows).toFixed(2)}`.padStart(14));
  const classes = Object.keys(CLASSES);
  console.log(`\nQUALITY at cap ${CAP} (${STARTS} windows per class, each asking for the rest of the file):`);
  console.log('refused/clamped windows and mean fill = true tokens / cap, per class and tokenizer');
  for (const m of ['naive', ours]) {
    console.log(`\n${m === 'naive' ? 'naive rule: (characters + 8 per line) / 3.5 chars per token' : `read-ceiling-pager (PRIOR_SAFETY ${est.PRIOR_SAFETY})`}`);
    console.log(['class'.padEnd(10), ...names.map((k) => k.padStart(14))].join(' '));
    for (const c of classes) console.log([c.padEnd(10), ...names.map((k) => cell(stats[m][c][k]))].join(' '));
    console.log(['prose+code'.padEnd(10), ...names.map((k) => cell(sum(m, FILL_CLASSES, k)))].join(' '));
    console.log(['all'.padEnd(10), ...names.map((k) => cell(sum(m, classes, k)))].join(' '));
  }
  console.log('\nMARGIN trade-off (all classes; a refusal costs one round, then the file\'s density is learned;');
  console.log('a short page costs the part of a round it leaves unread). Rounds to read 100k tokens of a file');
  console.log(`= 100k / (fill × cap) + refusals per file, under claude-dense.`);
  console.log(['safety'.padEnd(8), 'refused any'.padStart(12), 'refused dense'.padStart(14), 'fill prose+code'.padStart(16), 'fill all'.padStart(9), 'rounds/100k'.padStart(12)].join(' '));
  for (const x of SAFETIES) {
    const m = `pager@${x}`;
    const dense = sum(m, classes, 'claude-dense');
    const anyRefused = classes.reduce((a, c) => a + Math.max(...names.map((k) => stats[m][c][k].refused)), 0);
    const fillAll = dense.fill / dense.windows;
    const rounds = 100_000 / (fillAll * CAP) + dense.refused / dense.windows;
    const pc = sum(m, FILL_CLASSES, 'claude-dense');
    console.log([String(x).padEnd(8), String(anyRefused).padStart(12), `${dense.refused}/${dense.windows}`.padStart(14),
      (pc.fill / pc.windows).toFixed(3).padStart(16), fillAll.toFixed(3).padStart(9), rounds.toFixed(2).padStart(12)].join(' '));
  }
}

/** Lines the naive rule allows from line index `from`: (characters + 8-character prefix) / 3.5 per line. */
function naiveLines(lines, from) {
  let tokens = 0;
  let n = 0;
  for (let i = from; i < lines.length; i++) {
    tokens += (lines[i].length + 8) / 3.5;
    if (tokens > CAP) break;
    n++;
  }
  return n;
}

function speed() {
  const bin = join(root, 'bin', 'read-ceiling-pager.js');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  // Without what this machine adds to every Node start (NODE_EXTRA_CA_CERTS: a CA bundle parsed at each start, about
  // 90 ms here), which would hide the bundle's own cost in a larger baseline.
  const { NODE_EXTRA_CA_CERTS: _ca, NODE_OPTIONS: _opts, ...plain } = process.env;
  const env = { ...plain, READ_CEILING_PAGER_STATE_DIR: join(tmp, 'state'), CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '' };
  const tiny = join(tmp, 'tiny.ts');
  writeFileSync(tiny, 'export const x = 1;\n'.repeat(400)); // 8 KB: under the never-counted floor, a stat and an exit
  // 20 KB: over the floor at the smallest cap sessions run at, under it at the default cap.
  const twenty = join(tmp, 'twenty.ts');
  writeFileSync(twenty, 'export const x = 1;\n'.repeat(1000));
  const small = join(tmp, 'small.ts');
  writeFileSync(small, 'export const x = 1;\n'.repeat(3000)); // 60 KB: over the fast-path size, a window that fits
  const big = join(tmp, 'big.ts');
  const unit = readFileSync(join(root, 'src/estimate/density.ts'), 'utf8');
  writeFileSync(big, unit.repeat(Math.ceil((4 << 20) / unit.length)).slice(0, 4 << 20));
  const mid = join(tmp, 'mid.ts');
  writeFileSync(mid, unit.repeat(Math.ceil(200_000 / unit.length)).slice(0, 200_000)); // under 256 KiB, over the cap
  const huge = join(tmp, 'huge.log');
  // 1 GiB: 4 MiB of log text at the start, the rest a sparse hole (read as NUL lines if anyone got that far).
  writeFileSync(huge, readFileSync(big));
  const fd = openSync(huge, 'r+');
  writeSync(fd, Buffer.from('\n'), 0, 1, (1 << 30) - 1);
  closeSync(fd);

  const event = (file, offset, limit, session = 'bench') => JSON.stringify({
    session_id: session, tool_name: 'Read', tool_use_id: `t${Math.random()}`, hook_event_name: 'PreToolUse', cwd: tmp,
    tool_input: { file_path: file, offset, limit },
  });
  const reps = quick ? 15 : 41;
  const timeOf = (argv, input) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, argv, { input, env, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
    return { ms, out: r.stdout };
  };
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
  // post of a Read of the small file that came back whole, as the engine sends it.
  const tinyLines = readFileSync(tiny, 'utf8').split('\n');
  const postSmall = JSON.stringify({
    session_id: 'bench', tool_name: 'Read', tool_use_id: 'tpost', hook_event_name: 'PostToolUse', cwd: tmp,
    tool_input: { file_path: tiny },
    tool_response: { type: 'text', file: { filePath: tiny, content: tinyLines.join('\n'), numLines: tinyLines.length, startLine: 1, totalLines: tinyLines.length } },
  });
  const cases = [
    ['start-up only (Read of a missing file)', event(join(tmp, 'missing.txt'), 1, 500)],
    ['post: small file read whole', postSmall, 'post'],
    ['small file (8 KB: a stat and an exit)', event(tiny, 1, 500)],
    // A session with no state file: no refusal has taught it a cap below the default (one with a file: 60 KB's row).
    ['20 KB file read whole, new session', event(twenty, undefined, undefined, 'fresh')],
    ['60 KB file, 500-line window fits', event(small, 1, 500)],
    ['60 KB file, 5000-line window (estimated)', event(small, 1, 5000)],
    ['200 KB file read whole (engine pages it)', event(mid, undefined, undefined)],
    ['4 MiB file, clamped', event(big, 1, 100000)],
    ['1 GiB file, window near the start', event(huge, 10, 100000)],
  ];
  const baseline = [];
  const times = cases.map(() => []);
  for (let i = 0; i < reps; i++) { // interleaved, so drift on a shared machine hits every case alike
    baseline.push(timeOf(['-e', '0']).ms);
    cases.forEach(([, input, hook = 'pre'], k) => times[k].push(timeOf([bin, hook], input).ms));
  }
  const base = median(baseline);
  console.log(`\nSPEED: whole-process time, median of ${reps} runs; bare \`node -e 0\` = ${base.toFixed(1)} ms`);
  cases.forEach(([name, input, hook = 'pre'], k) => {
    const out = timeOf([bin, hook], input).out.trim();
    const updated = out ? JSON.parse(out).hookSpecificOutput.updatedInput : undefined;
    // No limit in the rewritten input: a window of all of a file under 256 KiB, sent as a read of the whole file.
    const limit = !out ? 'unchanged' : !updated ? 'a note' : updated.limit ?? 'none (read whole)';
    const rss = peakRss(bin, input, env, false, hook);
    console.log(`  ${name.padEnd(40)} ${median(times[k]).toFixed(1).padStart(7)} ms  ${(median(times[k]) / base).toFixed(2)}× node  peak RSS ${rss}  limit → ${limit}`);
  });
  const rssNode = peakRss('-e', '0', env, true);
  console.log(`  ${'bare node -e 0'.padEnd(40)} ${base.toFixed(1).padStart(7)} ms  1.00× node  peak RSS ${rssNode}`);
}

function peakRss(bin, input, env, bare = false, hook = 'pre') {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...(bare ? ['-e', '0'] : [bin, hook])], { input: bare ? '' : input, env, encoding: 'utf8' });
  const kb = Number(r.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? `${(kb / 1024).toFixed(0)} MiB` : 'n/a';
}

function gatesSpeed() {
  const bin = join(root, 'bin', 'read-ceiling-pager.js');
  if (args.includes('--no-speed')) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  const small = join(tmp, 'gate-small.ts');
  writeFileSync(small, 'export const x = 1;\n'.repeat(400));
  // A transcript of 1 MB with no rejection in it: what a gate reads before it lets a call go on.
  const transcript = join(tmp, 'transcript.jsonl');
  const record = (i) => JSON.stringify({ type: i % 2 ? 'user' : 'assistant', uuid: `u${i}`, message: { role: i % 2 ? 'user' : 'assistant',
    content: [i % 2 ? { type: 'tool_result', tool_use_id: `toolu_${i - 1}`, content: 'x'.repeat(900) } : { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: small } }] } });
  writeFileSync(transcript, Array.from({ length: 1100 }, (_, i) => record(i)).join('\n') + '\n');
  const event = (tool, input) => JSON.stringify({
    session_id: 'bench-gates', transcript_path: transcript, tool_name: tool, tool_use_id: `t${Math.random()}`,
    hook_event_name: 'PreToolUse', cwd: tmp, tool_input: input,
  });
  const read = event('Read', { file_path: small, offset: 1, limit: 100 });
  const bash = event('Bash', { command: 'make' });
  const edit = event('Edit', { file_path: small, old_string: 'x', new_string: 'y' });
  const all = 'covered-reread,edit-after-reject,rejected-calls';
  const { NODE_EXTRA_CA_CERTS: _ca, NODE_OPTIONS: _opts, ...plain } = process.env; // as in speed()
  const base = { ...plain, READ_CEILING_PAGER_STATE_DIR: join(tmp, 'gate-state') };
  delete base.READ_CEILING_PAGER_GATES;
  /** [name, command, argv, input, extra env] */
  const cases = [
    ['pre, small Read, no gate on', process.execPath, [bin, 'pre'], read, {}],
    ['gate (Bash), no gate on', process.execPath, [bin, 'gate'], bash, {}],
    ['pre --gates covered-reread, small Read', process.execPath, [bin, 'pre', '--gates', 'covered-reread'], read, {}],
    ['gate --gates rejected-calls (Bash)', process.execPath, [bin, 'gate', '--gates', 'rejected-calls'], bash, {}],
    ['gate --gates edit-after-reject (Edit)', process.execPath, [bin, 'gate', '--gates', 'edit-after-reject'], edit, {}],
    ['pre, all three gates, small Read', process.execPath, [bin, 'pre', '--gates', all], read, {}],
  ];
  const reps = quick ? 15 : 61;
  const timeOf = (cmd, argv, input, extra) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, argv, { input, env: { ...base, ...extra }, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
    return ms;
  };
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
  const baseline = [];
  const times = cases.map(() => []);
  for (let i = 0; i < reps; i++) { // interleaved, so drift on a shared machine hits every case alike
    baseline.push(timeOf(process.execPath, ['-e', '0'], '', {}));
    cases.forEach(([, cmd, argv, input, extra], k) => times[k].push(timeOf(cmd, argv, input, extra)));
  }
  const b = median(baseline);
  console.log(`\nGATES: whole-process time, median of ${reps} runs, 1 MB transcript; bare \`node -e 0\` = ${b.toFixed(1)} ms`);
  cases.forEach(([name], k) => console.log(`  ${name.padEnd(42)} ${median(times[k]).toFixed(1).padStart(7)} ms  ${(median(times[k]) / b).toFixed(2)}× node`));
}

try {
  if (!args.includes('--no-quality')) quality();
  if (!args.includes('--no-speed')) speed();
  if (!args.includes('--no-gates')) gatesSpeed();
  if (!args.includes('--no-rounds')) execFileSync(process.execPath, [join(root, 'scripts', 'rounds.mjs')], { stdio: 'inherit' });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
