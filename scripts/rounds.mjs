#!/usr/bin/env node
// `npm run bench:rounds`: rounds, the number of Read calls a reader needs to see every line of a file, on real
// files (scripts/rounds-corpus.json), for every file × tokenizer × mode. Three readers per case: (a) the scripted
// model of the e2e tests (test/e2e/harness/reader.mjs) on the simulated engine alone, (b) the same reader with the
// pager's real hooks (src/hooks/io.ts, bundled at run time) in front of the simulated engine, (c) the oracle, who
// knows the tokenizer and takes the largest window the engine accepts from each line (the least any reader needs).
// The engine is a simulation of Claude Code 2.1.332's Read (scripts/lib/engine-sim.mjs), checked against the real
// engine by test/e2e/rounds-sim.test.ts. docs/ROUNDS.md explains the table.
//
// Usage: node scripts/rounds.mjs [--file PATTERN] [--tokenizer NAME[,NAME]] [--mode windows|whole] [--cap N]
//                                [--json FILE] [--trail] [--verify] [--from-json FILE] [--keep-state] [--path FILE]...
//                                [--held-out | --list FILE] [--again] [--changed | --replaced]
//   --file: a regular expression on the file's id (package/path); --trail: print each Read of each case run (each
//     note cut at 300 characters, unless TRAIL_FULL=1 is set);
//   --path FILE (repeatable): measure these files in place of the corpus (your own, or text the corpus lacks);
//   --held-out: the files of scripts/rounds-held-out.json in place of the corpus (a check on text nobody tuned on);
//   --list FILE: the files of another list of that shape (scripts/rounds-held-out-2.json to -8, or your own);
//   --tokenizer NAME*FACTOR: a model none of the five is, NAME's counts times FACTOR (claude-dense*1.3);
//   --tokenizer r50k, --tokenizer mistral: real tokenizers none of the five is (GPT-2 and GPT-3; Mistral 7B's
//     SentencePiece, slower: about 7 minutes for the held-out set), held out of every fit and default run;
//   --tokenizer NAME@length: an API without count_tokens (as behind many gateways): the engine counts each window
//     by its length, round(chars / 4), / 2 for JSON (docs/ENGINE.md 3.3), and NAME counts the model's usage;
//   --verify: check the fast window counts against whole-text counts on sampled windows, then run as usual;
//   --from-json: print the tables of an earlier --json run (filters apply) without running anything;
//   --keep-state: keep each machine's state directory (sessions, what memory.v1.json learned) and print where;
//   --again: after each file's reading, the same reader reads an identical copy of it at another path, in a new
//     session on the same machine (a later session in another clone or worktree): the `again` column, what the
//     pager's memory of the file is worth.
//   --changed: before each file's reading, an earlier version of it (a tenth of its lines, from a seeded line, not
//     there yet) is read at a scratch path in a session of its own; then the file as it is now, at that path, in a
//     later session on another machine of the same model: the `changed` column, what the memory of a file that was
//     edited or grew since is worth. --replaced: the same, but what was read there first is the corpus's file before
//     this one (another text at the same path, as a scratch file rewritten by another command): what it costs.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { rng } from './lib/corpus.mjs';
import { estimate, simFile } from './lib/engine-sim.mjs';
import { oracle } from './lib/oracle.mjs';
import { corpusFiles, HELD_OUT_LIST } from './lib/rounds-corpus.mjs';
import { loadHooks, SimClock, simulateSession, WINDOW_LINES } from './lib/sim-session.mjs';
import { TOKENIZER_NAMES, countText, tokenizerNamed, verifyAdditivity, windowCounter } from './lib/token-count.mjs';

const MODES = /** @type {const} */ (['windows', 'whole']);

const BY_LENGTH = '@length';
/** The tokenizer of a name, without the `@length` that plays an API without count_tokens. */
const baseOf = (/** @type {string} */ t) => (t.endsWith(BY_LENGTH) ? t.slice(0, -BY_LENGTH.length) : t);

function parseArgs(/** @type {string[]} */ argv) {
  /** @type {{
   *   file?: RegExp, paths: string[], tokenizers: string[], modes: Array<'windows' | 'whole'>, cap: number,
   *   json?: string, fromJson?: string, trail: boolean, verify: boolean, cold?: boolean, noUsage?: boolean,
   *   keepState?: boolean, list?: string, again?: boolean, changed?: boolean, replaced?: boolean,
   * }} */
  const o = {
    paths: /** @type {string[]} */ ([]), tokenizers: TOKENIZER_NAMES, modes: [...MODES], cap: 25_000, trail: false,
    verify: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => { const v = argv[++i]; if (v === undefined) throw new Error(`${a} needs a value`); return v; };
    if (a === '--file') o.file = new RegExp(value(), 'i');
    else if (a === '--path') o.paths.push(value());
    else if (a === '--tokenizer') o.tokenizers = value().split(',').map((t) => { tokenizerNamed(baseOf(t)); return t; });
    else if (a === '--mode') { const m = value(); if (m !== 'windows' && m !== 'whole') throw new Error('--mode windows|whole'); o.modes = [m]; }
    else if (a === '--cap') o.cap = Number(value());
    else if (a === '--json') o.json = value();
    else if (a === '--from-json') o.fromJson = value();
    else if (a === '--trail') o.trail = true;
    else if (a === '--cold') o.cold = true;
    else if (a === '--keep-state') o.keepState = true;
    else if (a === '--no-usage') o.noUsage = true;
    else if (a === '--verify') o.verify = true;
    else if (a === '--held-out') o.list = HELD_OUT_LIST;
    else if (a === '--list') {
      o.list = resolve(value());
      if (!existsSync(o.list)) throw new Error(`--list ${o.list}: no such file`);
    }
    else if (a === '--again') o.again = true;
    else if (a === '--changed') o.changed = true;
    else if (a === '--replaced') { o.changed = true; o.replaced = true; }
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

/**
 * What one reader's session came to.
 * @param {ReturnType<typeof simulateSession>} s @param {Set<number>} oversize
 * @param {number} needed lines a reader needs
 */
function tally(s, oversize, needed) {
  const seen = new Set(s.cursor.received.map(([n]) => n));
  let neverSeen = 0;
  let neverSeenFits = 0; // of them, lines some window holds
  for (let n = 1; n <= needed; n++) if (!seen.has(n)) { neverSeen++; if (!oversize.has(n)) neverSeenFits++; }
  const refusals = s.steps.filter((st) => st.isError);
  const startOf = (/** @type {any} */ st) => Math.max(1, Number(st.ran.offset ?? 1));
  return {
    calls: s.steps.length,
    refusals: refusals.length,
    // A refused window that starts on a line no window holds could not have been helped by a better limit.
    avoidableRefusals: refusals.filter((st) => !oversize.has(startOf(st))).length,
    firstRefused: s.steps[0]?.isError === true,
    // Calls whose window starts on a line no window holds: the reader's retries there (it halves after a refusal that
    // nothing explains), which no limit can save; the oracle makes none.
    onOversize: s.steps.filter((st) => oversize.has(startOf(st))).length,
    neverSeen,
    neverSeenFits,
    gaveUp: s.cursor.gaveUp || s.hitMaxCalls,
    // Compact: the text that came back is the file's own.
    steps: s.steps.map(({ response: _r, error: _e, content, ...st }) => ({ ...st, content: content.slice(0, 160) })),
  };
}

/** The simulated file of an identical copy of `path` in `dir` (another path, another mtime), with the same lines. */
function copyOf(/** @type {ReturnType<typeof simFile>} */ file, /** @type {string} */ path, /** @type {string} */ dir) {
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, basename(path));
  copyFileSync(path, copy);
  return { ...file, path: copy };
}

/** An earlier version of the file at `path` in `dir`: without a tenth of its lines from a line chosen by `seed`. */
/** @param {ReturnType<typeof simFile>} file @param {string} path @param {string} dir @param {string} seed */
function earlierVersion(file, path, dir, seed) {
  mkdirSync(dir, { recursive: true });
  const at = join(dir, basename(path));
  const n = file.lines.length;
  const k = Math.max(1, Math.round(n / 10));
  const from = Math.floor(rng([...seed].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7))() * Math.max(1, n - k));
  writeFileSync(at, [...file.lines.slice(0, from), ...file.lines.slice(from + k)].join('\n'));
  return at;
}

/** `--path` files in place of the corpus: a user's own files, or a kind of text the corpus lacks. */
function ownFiles(/** @type {string[]} */ paths) {
  const files = paths.map((p) => {
    const path = resolve(p);
    if (!statSync(path).isFile()) throw new Error(`--path ${p} is not a file`);
    return { id: relative(process.cwd(), path) || basename(path), path, cls: 'own', pkg: 'own' };
  });
  return { files, skipped: /** @type {string[]} */ ([]) };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.fromJson) {
    const saved = JSON.parse(readFileSync(o.fromJson, 'utf8'));
    const results = saved.results.filter((/** @type {any} */ r) =>
      (!o.file || o.file.test(r.file)) && o.tokenizers.includes(r.tokenizer) && o.modes.includes(r.mode));
    const nFiles = new Set(results.map((/** @type {any} */ r) => r.file)).size;
    printTable(results, { ...o, cap: saved.cap }, nFiles, saved.skipped, saved.ms ?? 0);
    return;
  }
  const started = Date.now();
  const { files: all, skipped } = o.paths.length
    ? ownFiles(o.paths)
    : corpusFiles(o.list ? { list: o.list } : {});
  const files = all.filter((f) => !o.file || o.file.test(f.id));
  if (files.length === 0) {
    console.log(skipped.length ? 'rounds: no corpus file available (offline and not cached); nothing measured.' : 'rounds: no file matches.');
    return;
  }
  const hooks = await loadHooks();
  const stateDir = mkdtempSync(join(tmpdir(), 'rcp-rounds-'));
  const clock = new SimClock();
  /** @type {any[]} */
  const results = [];
  let verified = 0;
  /** @type {any[]} */
  const mismatches = [];
  try {
    /** @type {string | undefined} */
    let previous;
    for (const f of files) {
      const file = simFile(f.path);
      const needed = file.lines.length > 1 && file.lines[file.lines.length - 1] === '' ? file.lines.length - 1 : file.lines.length;
      for (const t of o.tokenizers) {
        const tok = tokenizerNamed(baseOf(t));
        if (o.verify) {
          const bad = verifyAdditivity(file, tok, 6, rng(verified + 1));
          verified += 7;
          mismatches.push(...bad.map((b) => ({ file: f.id, tokenizer: t, ...b })));
        }
        const counted = windowCounter(file, tok);
        // NAME@length: an API without count_tokens, where the engine counts every window by its length (its own
        // estimate) and the model's usage is still NAME's.
        const counter = t.endsWith(BY_LENGTH)
          ? { ...counted, count: (/** @type {number} */ i0, /** @type {number} */ i1) =>
            estimate(file, i1 > i0 ? file.starts[i1] - 1 - file.starts[i0] : 0) }
          : counted;
        const unbounded = oracle(file, counter, o.cap);
        const oversize = new Set(unbounded.oversize);
        for (const mode of o.modes) {
          // In windows mode the oracle asks, like the reader, for at most its window of lines at once.
          const best = mode === 'windows' ? oracle(file, counter, o.cap, WINDOW_LINES) : unbounded;
          // One machine per tokenizer (a model) and mode, reading the files in order, each in a new session: what the
          // pager remembers carries from file to file as on a user's machine, never from one mode's read of a file to
          // the other's. --cold: a fresh machine for every file.
          // A model name as a transcript spells one (no `*`: claude-dense*1.3 plays sim-claude-dense-x1.3).
          const model = `sim-${t.replace('*', '-x').replace('@', '-at-')}`;
          const machine = join(stateDir, `${o.cold ? `${f.id.replace(/\W/g, '_')}-` : ''}${model}-${mode}`);
          const bare = tally(simulateSession({
            file, count: counter.count, mode, hooks: undefined, stateDir: machine, model, cap: o.cap, clock,
          }), oversize, needed);
          const pager = tally(simulateSession({
            file, count: counter.count, mode, hooks, stateDir: machine, model, cap: o.cap, clock,
            ...(o.noUsage ? {} : { countText: countText(baseOf(t)) }),
          }), oversize, needed);
          const again = o.again
            ? tally(simulateSession({
              file: copyOf(file, f.path, join(stateDir, 'copies', `${model}-${mode}`)), count: counter.count, mode, hooks,
              stateDir: machine, model, cap: o.cap, clock, ...(o.noUsage ? {} : { countText: countText(baseOf(t)) }),
            }), oversize, needed)
            : undefined;
          let changed;
          if (o.changed) {
            const scratch = join(stateDir, 'changed', `${model}-${mode}`);
            const at = o.replaced ? join(scratch, basename(f.path)) : earlierVersion(file, f.path, scratch, f.id);
            if (o.replaced) { mkdirSync(scratch, { recursive: true }); copyFileSync(previous ?? f.path, at); }
            const before = simFile(at);
            const changedMachine = `${machine}-changed`;
            const withUsage = o.noUsage ? {} : { countText: countText(baseOf(t)) };
            simulateSession({
              file: before, count: windowCounter(before, tok).count, mode, hooks, stateDir: changedMachine, model,
              cap: o.cap, clock, ...withUsage,
            });
            copyFileSync(f.path, at);
            const later = new Date(Date.now() + 60_000);
            utimesSync(at, later, later);
            changed = tally(simulateSession({
              file: { ...file, path: at }, count: counter.count, mode, hooks, stateDir: changedMachine, model,
              cap: o.cap, clock, ...withUsage,
            }), oversize, needed);
          }
          const r = {
            file: f.id, cls: f.cls, pkg: f.pkg, bytes: file.size, lines: needed, tokenizer: t, mode,
            oracle: { calls: best.calls, oversize: best.oversize.length, windows: best.windows },
            bare, pager, ...(again ? { again } : {}), ...(changed ? { changed } : {}),
          };
          results.push(r);
          if (o.trail) printTrail(r);
        }
      }
      previous = f.path;
      process.stderr.write('.');
    }
  } finally {
    if (o.keepState) console.error(`\nthe machines' state (sessions, memory.v1.json): ${stateDir}`);
    else rmSync(stateDir, { recursive: true, force: true });
  }
  process.stderr.write('\n');
  if (o.verify) console.log(`verify: ${verified} windows counted both ways, ${mismatches.length} mismatches${mismatches.length ? `: ${JSON.stringify(mismatches.slice(0, 5))}` : ''}`);
  printTable(results, o, files.length, skipped, Date.now() - started);
  if (o.json) {
    writeFileSync(o.json, `${JSON.stringify({ cap: o.cap, files: files.length, skipped, ms: Date.now() - started, results }, null, 1)}\n`);
    console.log(`per-file results: ${o.json}`);
  }
}

function printTrail(/** @type {any} */ r) {
  console.log(`\n${r.file} [${r.tokenizer}, ${r.mode}] oracle ${r.oracle.calls} calls (oversize lines ${r.oracle.oversize})`);
  for (const who of ['bare', 'pager', ...(r.again ? ['again'] : []), ...(r.changed ? ['changed'] : [])]) {
    console.log(`  ${who}: ${r[who].calls} calls, ${r[who].refusals} refused`);
    for (const st of r[who].steps) {
      const win = (/** @type {any} */ i) => `offset=${i.offset ?? '-'} limit=${i.limit ?? '-'}`;
      const ran = JSON.stringify(st.ran) === JSON.stringify(st.asked) ? '' : ` ran ${win(st.ran)}`;
      const got = st.isError ? `REFUSED ${st.content.slice(0, 70)}` : `${st.kind} ${st.lines ?? 0} lines from ${st.first ?? '-'}`;
      console.log(`    asked ${win(st.asked)}${ran} → ${got}`);
      for (const line of st.context.split('\n').filter(Boolean)) console.log(`      | ${process.env.TRAIL_FULL ? line : line.slice(0, 300)}`);
    }
  }
}

/**
 * @param {any[]} results @param {ReturnType<typeof parseArgs>} o @param {number} nFiles @param {string[]} skipped
 * @param {number} ms
 */
function printTable(results, o, nFiles, skipped, ms) {
  // Calls compare only where the bare reader saw as much: a bare reader that gave up on a line no window holds
  // takes fewer calls by never reading what follows it.
  const pagerMore = (/** @type {any} */ r) => r.pager.calls > r.bare.calls && r.bare.neverSeen <= r.pager.neverSeen;
  const sum = (/** @type {any[]} */ rs, /** @type {(r: any) => number} */ f) => rs.reduce((a, r) => a + f(r), 0);
  console.log(`\nROUNDS at cap ${o.cap}: Read calls to see every line, ${nFiles} real files${skipped.length ? ` (${skipped.length} package(s) skipped: offline)` : ''}${ms ? `, ${(ms / 1000).toFixed(0)} s` : ''}`);
  console.log('calls: total over the files; ratio to the oracle (the least possible). refusals: windows the engine refused (first: the');
  console.log('first window of a file). pager>bare: files where the pager took more calls (and the bare reader saw no more');
  console.log('lines). >1 refusal: files with more than one refusal of a window starting on a line some window holds.');
  console.log('unseen: lines never returned (oversize: lines no window holds). lost: unseen lines some window holds.');
  console.log('not oversize: the pager\'s calls less those whose window starts on a line no window holds.');
  const again = results.some((r) => r.again);
  if (again) console.log('again: the same files read again, each an identical copy at another path, in a later session (refusals).');
  const changed = results.some((r) => r.changed);
  if (changed) console.log('changed: each file read in a later session after an earlier version of it, a tenth of its lines short (refusals).');
  const head = ['tokenizer', 'mode', 'oracle', 'pager (ratio)', 'not oversize', 'bare (ratio)', 'refusals p/b', 'first p/b', 'pager>bare', '>1 refusal p/b', 'unseen p/b', 'oversize', 'lost p/b', ...(again ? ['again (ratio)'] : []), ...(changed ? ['changed (ratio)'] : [])];
  const widths = [13, 8, 7, 15, 13, 15, 13, 10, 11, 15, 14, 9, 9, 20];
  const row = (/** @type {string[]} */ cells) => cells.map((c, i) => (i < 2 ? c.padEnd(/** @type {number} */ (widths[i])) : c.padStart(/** @type {number} */ (widths[i])))).join(' ');
  console.log(row(head));
  const groups = [];
  for (const t of o.tokenizers) {
    for (const m of o.modes) groups.push([t, m, results.filter((r) => r.tokenizer === t && r.mode === m)]);
  }
  for (const [t, m, rs] of /** @type {Array<[string, string, any[]]>} */ (groups)) {
    if (rs.length === 0) continue;
    const oc = sum(rs, (r) => r.oracle.calls);
    const pc = sum(rs, (r) => r.pager.calls);
    const bc = sum(rs, (r) => r.bare.calls);
    const po = pc - sum(rs, (r) => r.pager.onOversize ?? 0);
    console.log(row([t, m, String(oc), `${pc} (${(pc / oc).toFixed(2)})`, `${po} (${(po / oc).toFixed(2)})`,
      `${bc} (${(bc / oc).toFixed(2)})`,
      `${sum(rs, (r) => r.pager.refusals)}/${sum(rs, (r) => r.bare.refusals)}`,
      `${sum(rs, (r) => +r.pager.firstRefused)}/${sum(rs, (r) => +r.bare.firstRefused)}`,
      String(rs.filter(pagerMore).length),
      `${rs.filter((r) => r.pager.avoidableRefusals > 1).length}/${rs.filter((r) => r.bare.avoidableRefusals > 1).length}`,
      `${sum(rs, (r) => r.pager.neverSeen)}/${sum(rs, (r) => r.bare.neverSeen)}`,
      String(sum(rs, (r) => r.oracle.oversize)),
      `${sum(rs, (r) => r.pager.neverSeenFits)}/${sum(rs, (r) => r.bare.neverSeenFits)}`,
      ...(again ? [(() => { const ac = sum(rs, (r) => r.again?.calls ?? 0); return `${ac} (${(ac / oc).toFixed(2)}) ${sum(rs, (r) => r.again?.refusals ?? 0)}`; })()] : []),
      ...(changed ? [(() => { const cc = sum(rs, (r) => r.changed?.calls ?? 0); return `${cc} (${(cc / oc).toFixed(2)}) ${sum(rs, (r) => r.changed?.refusals ?? 0)}`; })()] : [])]));
  }
  const ratio = (/** @type {any} */ r) => r.pager.calls / r.oracle.calls;
  /** @type {Map<string, any>} the worst case of each file some window of which fits */
  const byFile = new Map();
  for (const r of results) {
    const w = byFile.get(r.file);
    if (r.oracle.calls > 0 && (!w || ratio(r) > ratio(w))) byFile.set(r.file, r);
  }
  const unreadable = [...new Set(results.filter((r) => r.oracle.calls === 0).map((r) => r.file))];
  if (unreadable.length) {
    console.log(`\nfiles no Read window holds any line of (the oracle makes no call): ${unreadable.join(', ')}`);
  }
  const worst = [...byFile.values()].sort((a, b) => ratio(b) - ratio(a) || b.pager.calls - a.pager.calls).slice(0, 5);
  console.log('\nthe 5 files with the worst pager/oracle ratio, each at its worst (pager calls / oracle calls, refusals, bare calls):');
  for (const r of worst) {
    console.log(`  ${r.file} [${r.tokenizer}, ${r.mode}] ${r.pager.calls}/${r.oracle.calls} = ${ratio(r).toFixed(2)}, `
      + `refusals ${r.pager.refusals}, bare ${r.bare.calls}; ${r.bytes} B, ${r.lines} lines, oversize ${r.oracle.oversize}`);
  }
  const cases = (/** @type {any[]} */ rs, /** @type {(r: any) => string} */ what) => {
    /** @type {Map<string, string[]>} */
    const m = new Map();
    for (const r of rs) m.set(r.file, [...(m.get(r.file) ?? []), `${r.tokenizer} ${r.mode}${what(r)}`]);
    return [...m].map(([f, list]) => `  ${f}: ${list.join(', ')}`);
  };
  const pagerWorse = results.filter(pagerMore);
  if (pagerWorse.length) {
    console.log('\npager took more calls than the bare engine (pager/bare/oracle):');
    for (const l of cases(pagerWorse, (r) => ` ${r.pager.calls}/${r.bare.calls}/${r.oracle.calls}`)) console.log(l);
  }
  const lost = results.filter((r) => r.pager.neverSeenFits > 0);
  if (lost.length) {
    console.log('\npager never returned lines some window holds (lines):');
    for (const l of cases(lost, (r) => ` ${r.pager.neverSeenFits}`)) console.log(l);
  }
  const manyRefused = results.filter((r) => r.pager.avoidableRefusals > 1);
  if (manyRefused.length) {
    console.log('\npager with more than one refusal beyond oversize lines:');
    for (const l of cases(manyRefused, (r) => ` ${r.pager.avoidableRefusals}`)) console.log(l);
  }
  const gaveUp = results.filter((r) => r.pager.gaveUp || r.bare.gaveUp);
  if (gaveUp.length) {
    console.log('\nreaders that gave up (a refused one-line window: nothing smaller to try) or hit the call limit:');
    for (const l of cases(gaveUp, (r) => `: ${[r.pager.gaveUp ? 'pager' : '', r.bare.gaveUp ? 'bare' : ''].filter(Boolean).join('+')}`)) console.log(l);
  }
}

await main();
