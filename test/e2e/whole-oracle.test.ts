// Issue #12 on the real engine: a whole-file read (no limit) of a file over 256 KiB, with the pager, takes no more
// Read calls than the oracle plus one (plus two in one file of seven, where a window is refused). The oracle
// (scripts/lib/oracle.mjs, docs/ROUNDS.md) is the reader that knows the tokenizer: from each line it takes the largest
// window the engine would not refuse, judged by the rounds simulation's judgeWindow with the same count_tokens the
// stand-in answers here. The reader is the harness's (it follows every note); the bare engine reads the same file with
// the same reader, for the record.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CAP, SIZE_CAP, simFile, type SimFile } from '../../scripts/lib/engine-sim.mjs';
import { largestWindow, oracle } from '../../scripts/lib/oracle.mjs';
import { countText, tokenizerNamed, windowCounter } from '../../scripts/lib/token-count.mjs';
import { coverage, ranges } from './harness/check.mjs';
import { REPO, removeTempDirs, tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 300_000;
// The suite's stand-in tokenizer (harness/tokenizer.mjs, without E2E_TOKENIZER), passed explicitly so the engine's
// count_tokens and the oracle's counts are the same function whatever E2E_TOKENIZER says. E2E_ORACLE_TOKENIZER
// names another of scripts/lib/token-count.mjs's (claude-dense: the density the pager's estimate is leveled to).
const TOKENIZER = process.env.E2E_ORACLE_TOKENIZER || 'o200k';
const count = countText(TOKENIZER);

/** A real file nobody here wrote, installed by `npm ci` with an exact devDependency version. */
function installed(rel: string): () => string {
  return () => {
    const p = join(REPO, 'node_modules', rel);
    if (!existsSync(p)) throw new Error(`${rel} is gone: pick another real file over 256 KiB (a devDependency changed?)`);
    return readFileSync(p, 'utf8');
  };
}

interface Case {
  name: string;
  file: string;
  text: () => string;
}

// The pager session's stand-in reports each request's input tokens as the API does (`usage: true`): the engine
// records that usage in the transcript, and the pager learns a file's density from what a window's result added. Its
// first window is sized by the estimate; each window after it is named wide and trimmed by `pre` with the usage of
// the one before it. The stand-in answers after MODEL_THINK_MS, as a model takes its time: the engine's transcript
// writes settle meanwhile, as for a user, and runs repeat. Answering at once, it raced those writes, and a window was
// sized from an earlier usage in some runs. The record of the reply that made a call can still land after that
// call's `pre` starts, which then waits for it (usage.ts): until it did, every file's second window was sized by the
// estimate.
const MODEL_THINK_MS = 500;
const CASES: Case[] = [
  {
    name: 'TypeScript declarations (typescript/lib/typescript.d.ts)', file: 'typescript.d.ts',
    text: installed('typescript/lib/typescript.d.ts'),
  },
  {
    name: 'a JavaScript library (fast-check/lib/fast-check.js)', file: 'fast-check.js',
    // Its third window, sized from the first one's usage, was refused (by 25 to 120 tokens) where the text grows
    // denser, until each window was sized from the last one's usage: the oracle plus two before.
    text: installed('fast-check/lib/fast-check.js'),
  },
  {
    name: 'a Korean JSON catalogue (typescript/lib/ko/diagnosticMessages.generated.json)',
    file: 'diagnosticMessages.generated.json', text: installed('typescript/lib/ko/diagnosticMessages.generated.json'),
  },
  { name: 'generated prose', file: 'prose.txt', text: () => F.proseOfSize(400_000, 81) },
  {
    name: 'generated Korean JSON', file: 'ko.json', text: () => F.cjsonPretty('ko', 900, 82),
  },
  { name: 'generated prose with CRLF line ends', file: 'crlf.txt', text: () => F.crlf(F.proseOfSize(300_000, 74)) },
  // A window holds fewer than 100 of its lines: each window's usage sizes the next only because its two halves hold
  // text alike (hooks/measure.ts, isSampleOfItsText).
  { name: 'generated GeoJSON features, one to a line', file: 'features.jsonl', text: () => F.featureLines(300, 75) },
];

/** One Read as it ran: the lines the engine returned and the stand-in's count of them, or the refusal. */
interface Window {
  first: number; lines: number; refused: boolean;
  /** The stand-in's count of the lines returned, or the count a refusal named (none for a refusal by size). */
  tokens: number | undefined;
  /** The most lines the engine takes from `first` (largestWindow), and their count. */
  best: number; bestTokens: number;
}
interface Run {
  bytes: number;
  file: SimFile;
  oracle: ReturnType<typeof oracle>;
  oracleTokens: number[];
  pager: { session: Session; path: string; windows: Window[] };
  bare: { session: Session; path: string; windows: Window[] };
}

const runs = new Map<string, Promise<Run>>();

/** Both sessions and the oracle for one case, once: its tests share them. */
function run(c: Case): Promise<Run> {
  let r = runs.get(c.name);
  if (!r) { r = start(c); runs.set(c.name, r); }
  return r;
}

async function start(c: Case): Promise<Run> {
  const text = c.text();
  const path = F.put(tempDir('oracle-on'), c.file, text);
  const bare = F.put(tempDir('oracle-off'), c.file, text);
  const file = simFile(path);
  const counter = windowCounter(file, tokenizerNamed(TOKENIZER));
  const best = oracle(file, counter, DEFAULT_CAP);
  const [on, off] = await Promise.all([
    readSession({ cwd: dirname(path), hooks: 'pager', count, usage: true, thinkMs: MODEL_THINK_MS, targets: [{ path }], timeoutMs: ENGINE_TIMEOUT - 20_000 }),
    readSession({ cwd: dirname(bare), hooks: 'none', count, targets: [{ path: bare }], timeoutMs: ENGINE_TIMEOUT - 20_000 }),
  ]);
  const windows = (s: Session, p: string): Window[] => s.cursor(p).steps.map((st) => {
    const out = s.ran.get(st.toolUseId)?.file;
    if (st.isError || !out) {
      const first = Math.max(1, st.asked.offset ?? 1);
      const named = /\((\d+) tokens\)/.exec(st.content)?.[1];
      return { first, lines: 0, tokens: named ? Number(named) : undefined, refused: true, best: 0, bestTokens: 0 };
    }
    const first = out.startLine as number;
    const lines = out.numLines as number;
    const b = largestWindow(file, counter, DEFAULT_CAP, first);
    return {
      first, lines, tokens: counter.count(first - 1, first - 1 + lines), refused: false,
      best: b, bestTokens: counter.count(first - 1, first - 1 + b),
    };
  });
  return {
    bytes: statSync(path).size, file, oracle: best,
    oracleTokens: best.windows.map(([f, n]) => counter.count(f - 1, f - 1 + n)),
    pager: { session: on, path, windows: windows(on, path) },
    bare: { session: off, path: bare, windows: windows(off, bare) },
  };
}

const trail = (w: Window[]) => w
  .map((x) => (x.refused ? `refused from ${x.first} (${x.tokens ?? 'size'})` : `${x.first}+${x.lines} (${x.tokens})`)).join(', ');

describe(`a whole-file read of a file over 256 KiB, with the pager, against the oracle (cap ${DEFAULT_CAP}, count_tokens by ${TOKENIZER})`, () => {
  for (const c of CASES) {
    it(`${c.name}: every line returned exactly once`, async () => {
      const r = await run(c);
      expect(r.pager.session.ok, r.pager.session.run.stderr).toBe(true);
      expect(r.bare.session.ok, r.bare.session.run.stderr).toBe(true);
      expect(r.bytes, 'the case is a file the engine will not read whole').toBeGreaterThan(SIZE_CAP);
      const cov = coverage(r.pager.path, r.pager.session.cursor(r.pager.path).received, { except: r.oracle.oversize });
      const got = { missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) };
      expect(got, trail(r.pager.windows)).toEqual({ missing: '', duplicated: '', wrong: '' });
    }, ENGINE_TIMEOUT);

    // The bound, as issue #12 states it: the oracle plus one. One refusal more is let through per file (the test below
    // allows it in one file of the seven): a later window's margin follows how alike its text is to the last window's,
    // and a few percent of windows count denser than that margin allows. typescript.d.ts under o200k is one: its
    // third window holds text 5.5% denser than the second by the engine's count, with shares of the estimate 0.028
    // apart (the 1.05 margin's band), and is refused. Not met on #12; docs/ROUNDS.md "What is left".
    it(`${c.name}: no more Read calls than the oracle plus one, or plus two with a refusal`, async () => {
      const r = await run(c);
      expect(r.pager.session.ok, r.pager.session.run.stderr).toBe(true);
      const refusals = r.pager.windows.filter((w) => w.refused).length;
      expect(callsOver(r), `pager ${trail(r.pager.windows)}\noracle ${r.oracle.windows.map(([f, n]) => `${f}+${n}`).join(', ')}`)
        .toBeLessThanOrEqual(1 + Math.min(1, refusals));
    }, ENGINE_TIMEOUT);
  }

  it('the seven files: at most one takes more calls than the oracle plus one', async () => {
    const over = [];
    for (const c of CASES) if (callsOver(await run(c)) > 1) over.push(c.file);
    expect(over.length, over.join(', ')).toBeLessThanOrEqual(1);
  }, ENGINE_TIMEOUT * CASES.length);
});

/** Read calls of the pager's session beyond the oracle's. */
function callsOver(r: Run): number {
  return r.pager.session.cursor(r.pager.path).steps.length - r.oracle.calls;
}

afterAll(async () => {
  const done = await Promise.all(CASES.filter((c) => runs.has(c.name)).map(async (c) => [c, await run(c)] as const));
  if (done.length === 0) return;
  const out = [`Whole-file reads against the oracle (cap ${DEFAULT_CAP}, count_tokens by ${TOKENIZER}): Read calls, and each Read as first+lines (tokens)`];
  for (const [c, r] of done) {
    const pager = r.pager.windows;
    out.push(`  ${c.name}: ${r.bytes} B, ${r.file.lines.length} lines; calls oracle ${r.oracle.calls}, pager ${pager.length}, bare ${r.bare.windows.length}`);
    out.push(`    oracle ${r.oracle.windows.map(([f, n], i) => `${f}+${n} (${r.oracleTokens[i]})`).join(', ')}`);
    out.push(`    pager  ${trail(pager)}`);
    out.push(`    bare   ${trail(r.bare.windows)}`);
    const short = pager.filter((w) => !w.refused && w.lines < w.best);
    if (short.length) {
      out.push(`    pager windows short of the largest the engine takes from the same line: ${short.map((w) => `${w.first}: ${w.lines} of ${w.best} lines, ${w.tokens} of ${w.bestTokens} tokens`).join('; ')}`);
    }
  }
  console.log(out.join('\n'));
});
