// A file's own weights, fitted to the counts of its windows (src/estimate/file-weights.ts): pure, no I/O.
import { describe, expect, it } from 'vitest';
import { estimateTokens, TokenTally } from '../../src/estimate/density';
import {
  COUNTED_WINDOWS,
  fileWeights,
  PART_COUNT,
  partFactors,
  pointByPart,
  predictedDensity,
  relativeFactors,
  withCountedWindow,
} from '../../src/estimate/file-weights';
import { toRemember } from '../../src/hooks/sizing';
import { countedWindowsWith, COUNTED_LEAST_SHARE } from '../../src/hooks/usage';
import { isLearned } from '../../src/state/session';

/** A window's estimate by part, with `parts` at the indices given (every other part 0). */
function mix(parts: Record<number, number>): number[] {
  const out = new Array<number>(PART_COUNT).fill(0);
  for (const [i, v] of Object.entries(parts)) out[Number(i)] = v;
  return out;
}

/** What a model whose part costs are `costs` (engine tokens per estimated token) counts for a window of that mix. */
const countOf = (costs: Record<number, number>, parts: number[]) =>
  parts.reduce((sum, p, i) => sum + p * (costs[i] ?? 1), 0);

const predicted = (m: number[], parts: number[]) => parts.reduce((sum, p, i) => sum + p * m[i]!, 0);

const WORDS = 0;
const CASE_CHANGES = 2;
const PUNCT = 5;
const SPACES = 7;
const NEWLINES = 8;

describe('partFactors: what each part of the estimate costs the model in this file', () => {
  // A tokenizer that takes an indented line's newline and spaces as one token (o200k) and a camelCase identifier in
  // fewer tokens than its case changes: the file's density moves with its mix of code.
  const costs = { [WORDS]: 0.8, [CASE_CHANGES]: 0.5, [PUNCT]: 0.9, [SPACES]: 0.1, [NEWLINES]: 0.6 };
  const deep = mix({ [WORDS]: 6000, [CASE_CHANGES]: 2000, [PUNCT]: 8000, [SPACES]: 9000, [NEWLINES]: 5000 });
  const flat = mix({ [WORDS]: 9000, [CASE_CHANGES]: 9000, [PUNCT]: 7000, [SPACES]: 1000, [NEWLINES]: 4000 });
  const middling = mix({ [WORDS]: 7000, [CASE_CHANGES]: 5000, [PUNCT]: 7000, [SPACES]: 5000, [NEWLINES]: 4500 });
  const prose = mix({ [WORDS]: 20_000, [PUNCT]: 2000, [NEWLINES]: 1000 });
  const windows = [deep, flat, middling, prose].map((parts) => [countOf(costs, parts), ...parts]);

  it('windows of different mixes tell each part\'s cost: the next window is sized by its own mix', () => {
    const last = windows.at(-1)!;
    const anchor = last[0]! / last.slice(1).reduce((s, p) => s + p, 0);
    const m = partFactors(windows, anchor)!;
    const next = mix({ [WORDS]: 5000, [CASE_CHANGES]: 1000, [PUNCT]: 9000, [SPACES]: 12_000, [NEWLINES]: 6000 });
    const truth = countOf(costs, next);
    expect(Math.abs(predicted(m, next) / truth - 1)).toBeLessThan(0.02);
    // The last window's density alone (prose) takes this window for a third denser than it is.
    const byLast = anchor * next.reduce((s, p) => s + p, 0);
    expect(byLast / truth).toBeGreaterThan(1.3);
  });

  it('the newest windows weigh most: a file whose model counts its text denser from some point on follows it', () => {
    const denser = { ...costs, [WORDS]: 1.0, [PUNCT]: 1.1 };
    const later = [deep, flat, middling, deep, flat].map((parts) => [countOf(denser, parts), ...parts]);
    const all = [...windows, ...later];
    const last = all.at(-1)!;
    const m = partFactors(all, last[0]! / last.slice(1).reduce((s, p) => s + p, 0))!;
    const truth = countOf(denser, middling);
    const byOldCosts = Math.abs(countOf(costs, middling) / truth - 1);
    expect(Math.abs(predicted(m, middling) / truth - 1)).toBeLessThan(byOldCosts / 2);
  });

  it('a part no window held keeps the file\'s last density', () => {
    const m = partFactors(windows, 0.7)!;
    expect(m[12]).toBeCloseTo(0.7, 3); // three-byte scripts: none here
    expect(m[10]).toBeCloseTo(0.7, 3); // CJK: none either
  });

  it('no part costs under a tenth of the last density, whatever the counts seem to say', () => {
    // Two parts that always move together, one counted as if it took tokens away.
    const a = mix({ [WORDS]: 10_000, [SPACES]: 5000 });
    const b = mix({ [WORDS]: 20_000, [SPACES]: 11_000 });
    const m = partFactors([[9000, ...a], [16_500, ...b]], 0.55)!;
    expect(Math.min(...m)).toBeGreaterThanOrEqual(0.055 - 1e-12);
  });

  it('nothing to fit from fewer than two windows (the density alone tells as much), nor from malformed ones', () => {
    expect(partFactors([windows[0]!], 0.8)).toBeUndefined();
    expect(partFactors([], 0.8)).toBeUndefined();
    expect(partFactors([[0, ...deep], [-1, ...flat]], 0.8)).toBeUndefined();
    expect(partFactors([[1000, 1, 2], [2000, 3, 4]], 0.8)).toBeUndefined();
    expect(partFactors(windows, 0)).toBeUndefined();
  });
});

describe('fileWeights: the calibrated weights scaled by each part\'s factor', () => {
  it('their estimate of a text, times the last density, is what the factors predict of its parts', () => {
    const windows = [
      [9000, ...pointByPart(tallied('    if (x) {\n        return fooBar(baz);\n    }\n'.repeat(400)))],
      [12_000, ...pointByPart(tallied('exportName: () => exportName,\n'.repeat(600)))],
      [15_000, ...pointByPart(tallied('The quick brown fox jumps over the lazy dog.\n'.repeat(500)))],
    ];
    const text = '  const someValue = otherThing.call(first, second);\n'.repeat(300);
    const anchor = densityOf(windows.at(-1)!);
    const weights = fileWeights(windows, anchor)!;
    const f = relativeFactors(windows, anchor)!;
    expect(estimateTokens(text, weights) * anchor).toBeCloseTo(anchor * predicted(f, pointByPart(tallied(text))), 6);
    expect(predictedDensity(windows, anchor, pointByPart(tallied(text)))! * estimateTokens(text))
      .toBeCloseTo(estimateTokens(text, weights) * anchor, 6);
  });
});

describe('relativeFactors: the fit tells how the density moves with the mix, the last count where it stands', () => {
  const costs = { [WORDS]: 0.8, [CASE_CHANGES]: 0.5, [PUNCT]: 0.9, [SPACES]: 0.1, [NEWLINES]: 0.6 };
  const deep = mix({ [WORDS]: 6000, [CASE_CHANGES]: 2000, [PUNCT]: 8000, [SPACES]: 9000, [NEWLINES]: 5000 });
  const flat = mix({ [WORDS]: 9000, [CASE_CHANGES]: 9000, [PUNCT]: 7000, [SPACES]: 1000, [NEWLINES]: 4000 });

  it('a window of the last one\'s mix is sized at the last density, however the windows before it counted', () => {
    // The same text, counted 40% denser from the third window on (another script's words, to the estimate's eye the
    // same): the fit alone would split the difference; the last count says where the density stands.
    const windows = [
      [countOf(costs, deep), ...deep],
      [countOf(costs, flat), ...flat],
      [countOf(costs, deep) * 1.4, ...deep],
    ];
    const anchor = densityOf(windows.at(-1)!);
    expect(predictedDensity(windows, anchor, deep)).toBeCloseTo(anchor, 9);
    const byFitAlone = partFactors(windows, anchor)!.reduce((s, m, g) => s + m * deep[g]!, 0) / sum(deep);
    expect(byFitAlone / anchor).toBeLessThan(0.97);
  });

  it('a window of another mix moves from the last density as the fit says the mixes differ', () => {
    const windows = [deep, flat, deep, flat].map((parts) => [countOf(costs, parts), ...parts]);
    const anchor = densityOf(windows.at(-1)!);
    const truth = countOf(costs, deep) / sum(deep);
    expect(Math.abs(predictedDensity(windows, anchor, deep)! / truth - 1)).toBeLessThan(0.01);
    expect(Math.abs(anchor / truth - 1)).toBeGreaterThan(0.2);
  });

  it('nothing where the density was taught by a window that did not join them (too short to tell its mix)', () => {
    const windows = [deep, flat].map((parts) => [countOf(costs, parts), ...parts]);
    expect(relativeFactors(windows, densityOf(windows[1]!) * 1.05)).toBeUndefined();
    expect(fileWeights(windows, densityOf(windows[1]!) * 1.05)).toBeUndefined();
    expect(relativeFactors(windows, densityOf(windows[1]!))).toBeDefined();
  });
});

const sum = (parts: readonly number[]) => parts.reduce((s, p) => s + p, 0);
const densityOf = (w: readonly number[]) => w[0]! / sum(w.slice(1));

describe('the windows a file keeps for its fit', () => {
  it('newest last, at most COUNTED_WINDOWS, each rounded to a tenth of a token', () => {
    let kept: number[][] | undefined;
    for (let i = 1; i <= COUNTED_WINDOWS + 3; i++) {
      kept = withCountedWindow(kept, 1000 * i + 0.123, mix({ 0: i + 0.456 }));
    }
    expect(kept).toHaveLength(COUNTED_WINDOWS);
    expect(kept![0]![0]).toBe(4000.1);
    expect(kept!.at(-1)![0]).toBe(1000 * (COUNTED_WINDOWS + 3) + 0.1);
    expect(kept!.at(-1)![1]).toBe(COUNTED_WINDOWS + 3 + 0.5);
    // No such window: a count of nothing, or an estimate not by part (the session file would not be believed).
    expect(withCountedWindow(kept, 0, mix({ 0: 1 }))).toEqual(kept);
    expect(withCountedWindow(kept, 1000, [1, 2])).toEqual(kept);
    expect(withCountedWindow(undefined, 1000, [1, 2])).toBeUndefined();
  });

  it('a window\'s usage joins them only where it counts a fifth of the cap or more (a short one tells its notes)', () => {
    const parts = mix({ [WORDS]: 10_000 });
    const before = { countedWindows: [[8000, ...parts]] };
    const big = countedWindowsWith(before, { ratio: 0.8, point: 10_000, parts }, 25_000);
    expect(big).toHaveLength(2);
    const justUnder = (COUNTED_LEAST_SHARE * 25_000) / 0.8 - 10;
    const short = countedWindowsWith(before, { ratio: 0.8, point: justUnder, parts }, 25_000);
    expect(short).toEqual(before.countedWindows);
    expect(countedWindowsWith(undefined, { ratio: 0.8, point: 100, parts }, 25_000)).toBeUndefined();
  });

  it('they stay in the session: what the memory keeps for a later session has the density, not the windows', () => {
    const learned = { size: 1, mtimeMs: 1, ratio: 0.8, at: 1, countedWindows: [[9000, ...mix({ 0: 1 })]] };
    const kept = toRemember('/nonexistent/file.js', learned, 'claude-test');
    expect(kept.ratio).toBe(0.8);
    expect(kept).not.toHaveProperty('countedWindows');
  });

  it('a session file\'s damaged windows are not believed: the density stands without them', () => {
    const learned = { size: 1, mtimeMs: 1, ratio: 0.8, at: 1 };
    expect(isLearned({ ...learned, countedWindows: [[9000, ...mix({ 0: 1 })]] })).toBe(true);
    expect(isLearned({ ...learned, countedWindows: [[9000, 1, 2]] })).toBe(false);
    expect(isLearned({ ...learned, countedWindows: [[0, ...mix({ 0: 1 })]] })).toBe(false);
    expect(isLearned({ ...learned, countedWindows: [[9000, ...mix({ 0: -1 })]] })).toBe(false);
    expect(isLearned({ ...learned, countedWindows: 'x' })).toBe(false);
    const tooMany = Array.from({ length: COUNTED_WINDOWS + 1 }, () => [9000, ...mix({ 0: 1 })]);
    expect(isLearned({ ...learned, countedWindows: tooMany })).toBe(false);
  });
});

function tallied(text: string) {
  const t = new TokenTally();
  t.add(text);
  return t.f;
}
