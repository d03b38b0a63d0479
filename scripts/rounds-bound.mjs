#!/usr/bin/env node
// How close can any offline pager come to the oracle when it reads a file whole? Two references beside the pager's
// calls from a `rounds.mjs --json` run, on the same files, from the same first window (the pager's own, sized by the
// prior's margin: "the first window of a file is never a gamble"):
//   first + oracle   the pager's first window, then the oracle's windows: what the first window's margin costs;
//   hindsight        the pager's first window, then windows sized by the exact count of every window read so far
//                    (what no transcript gives: the usage runs over by the line numbers and notes), by one of four
//                    predictors of the next window's ratio to the estimate, times a margin; a refusal's count sizes
//                    the window after it. The best over predictors and margins is what sizing by the past can do.
// docs/ROUNDS.md ("How far the past can size the next window") reads the table.
//
// Usage: node scripts/rounds-bound.mjs RUN.json [--tokenizer NAME[,NAME]] [--all-sizes]
//   RUN.json: a `node scripts/rounds.mjs --mode whole --json RUN.json` run; only its whole reads are used.
//   Files under 256 KiB are left out unless --all-sizes: the engine pages their whole reads itself, which this
//   reader does not play.
import { readFileSync } from 'node:fs';
import { judgeWindow, SIZE_CAP, simFile } from './lib/engine-sim.mjs';
import { loadEstimator } from './lib/load-src.mjs';
import { largestWindow, neededLines } from './lib/oracle.mjs';
import { tokenizerNamed, windowCounter } from './lib/token-count.mjs';

const USAGE = 'usage: node scripts/rounds-bound.mjs RUN.json [--tokenizer NAME[,NAME]] [--all-sizes]';
let runPath;
let only;
let allSizes = false;
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--tokenizer' && process.argv[i + 1]) only = process.argv[++i].split(',');
  else if (a === '--all-sizes') allSizes = true;
  else if (!a.startsWith('--') && runPath === undefined) runPath = a;
  else usage(`unexpected argument: ${a}`);
}
if (!runPath) usage('no run given');
function usage(why) {
  console.error(`rounds-bound: ${why}\n${USAGE}`);
  process.exit(2);
}
let run;
try {
  run = JSON.parse(readFileSync(runPath, 'utf8'));
} catch (e) {
  usage(`cannot read ${runPath}: ${e instanceof Error ? e.message : e}`);
}
const { estimateTokens } = await loadEstimator();

const MARGINS = [1.02, 1.03, 1.05, 1.07];
/** Each predictor gets the windows counted so far, as [count, estimate] with refusals marked, and names the
 * ratio (engine tokens per estimated token) the next window is sized by. */
const PREDICTORS = {
  // The pager's rule: the first window's ratio, raised by a refusal's.
  first: (seen) => Math.max(seen[0].ratio, ...seen.filter((w) => w.refused).map((w) => w.ratio)),
  last: (seen) => seen[seen.length - 1].ratio,
  mean: (seen) => {
    const refused = seen[seen.length - 1].refused ? seen[seen.length - 1].ratio : 0;
    return Math.max(refused, seen.reduce((s, w) => s + w.count, 0) / seen.reduce((s, w) => s + w.estimate, 0));
  },
  ewma: (seen) => seen.reduce((r, w, i) => (i === 0 ? w.ratio : 0.5 * r + 0.5 * w.ratio), 0),
};

/** Per-line estimates as prefix sums: a line's features never run into the next (a newline ends every run). */
const prefixCache = new Map();
function prefixOf(path, file) {
  let p = prefixCache.get(path);
  if (!p) {
    p = [0];
    for (let i = 0; i < file.lines.length; i++) p.push(p[i] + estimateTokens(`${file.lines[i]}\n`));
    prefixCache.set(path, p);
  }
  return p;
}

/** Calls to read lines [from, end) with windows sized by `predict` × `margin`, starting from what is seen. */
function hindsight(o, from, seen0, predict, margin) {
  const { file, cap, count, estimate, end } = o;
  const seen = [...seen0];
  let calls = 0;
  let refusals = 0;
  let pos = from;
  while (pos < end) {
    const ratio = predict(seen) * margin;
    let lo = pos + 1;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (estimate(pos, mid) * ratio <= cap) lo = mid; else hi = mid - 1;
    }
    calls++;
    const judged = judgeWindow(file, pos, lo, { cap, count, limited: true, whole: false });
    if (judged.over) {
      refusals++;
      if (lo === pos + 1) { pos++; continue; } // a line alone over the cap: everyone skips it
      const e = estimate(pos, lo);
      seen.push({ count: judged.tokens, estimate: e, ratio: judged.tokens / e, refused: true });
      continue;
    }
    const c = count(pos, lo);
    const e = estimate(pos, lo);
    if (e > 0) seen.push({ count: c, estimate: e, ratio: c / e, refused: false });
    pos = lo;
  }
  return { calls, refusals };
}

const tokenizers = [...new Set(run.results.map((r) => r.tokenizer))].filter((t) => !only || only.includes(t));
console.log(`Whole reads of ${allSizes ? 'all files' : `files of ${SIZE_CAP / 1024} KiB or more`}, cap ${run.cap}:`);
console.log('Read calls (refusals): oracle | pager | the pager\'s first window, then the oracle | hindsight by predictor, best margin');
for (const t of tokenizers) {
  const rows = run.results.filter((r) => r.mode === 'whole' && r.tokenizer === t && (allSizes || r.bytes >= SIZE_CAP));
  const total = { oracle: 0, pager: 0, pagerRefusals: 0, firstThenOracle: 0 };
  const byPredictor = Object.fromEntries(
    Object.keys(PREDICTORS).map((k) => [k, MARGINS.map(() => ({ calls: 0, refusals: 0 }))]),
  );
  for (const r of rows) {
    total.oracle += r.oracle.calls;
    total.pager += r.pager.calls;
    total.pagerRefusals += r.pager.refusals;
    // The pager's calls up to its first window that came back, and where that window ended.
    const firstIndex = r.pager.steps.findIndex((st) => !st.isError && st.lines);
    const firstStep = r.pager.steps[firstIndex];
    const path = r.pager.steps[0].ran.file_path;
    const file = simFile(path);
    const end = neededLines(file);
    const after = firstStep ? firstStep.first - 1 + firstStep.lines : end;
    if (!firstStep || after >= end) {
      total.firstThenOracle += r.pager.calls;
      for (const k of Object.keys(PREDICTORS)) for (const m of byPredictor[k]) m.calls += r.pager.calls;
      continue;
    }
    const counter = windowCounter(file, tokenizerNamed(t));
    const p = prefixOf(path, file);
    const o = { file, cap: run.cap, count: counter.count, estimate: (a, b) => p[b] - p[a], end };
    let oracleAfter = 0;
    for (let pos = after; pos < end;) {
      const lines = largestWindow(file, counter, run.cap, pos + 1);
      if (lines > 0) oracleAfter++;
      pos += Math.max(1, lines);
    }
    total.firstThenOracle += firstIndex + 1 + oracleAfter;
    const c0 = counter.count(firstStep.first - 1, after);
    const e0 = o.estimate(firstStep.first - 1, after);
    const seen0 = [{ count: c0, estimate: e0, ratio: c0 / e0, refused: false }];
    for (const [k, predict] of Object.entries(PREDICTORS)) {
      MARGINS.forEach((margin, i) => {
        const h = hindsight(o, after, seen0, predict, margin);
        byPredictor[k][i].calls += firstIndex + 1 + h.calls;
        byPredictor[k][i].refusals += h.refusals;
      });
    }
  }
  const best = Object.entries(byPredictor).map(([k, ms]) => {
    const i = ms.reduce((b, m, j) => (m.calls < ms[b].calls ? j : b), 0);
    return `${k} ${ms[i].calls} (${ms[i].refusals}) at ${MARGINS[i]}`;
  });
  console.log(`${t.padEnd(14)} ${total.oracle} | ${total.pager} (${total.pagerRefusals}) | ${total.firstThenOracle} | ${best.join(', ')}`);
}
