// The margin on a density the usage taught follows how far a window's text differs from the window it was taught by
// (weights.ts, `safetyForChange`): narrower for text alike, wider for text that changed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GROUP_COUNT, scriptDistance, shareDistance, sharesOf } from '../../src/estimate/groups';
import {
  CALM_SAFETY_MIN,
  CALM_STEPS,
  CHANGED_TEXT_SAFETY,
  LEARNED_SAFETY,
  NEW_TEXT_DENSITY,
  newTextAllowance,
  SAME_TEXT_SAFETY,
  safetyForChange,
  STEADY_MULTIPLE,
  STEADY_STEPS,
} from '../../src/estimate/weights';
import { densityShifts, densitySteps } from '../../src/hooks/usage';
import { budgetFor, fitWindow, fitsAtPoint, mayGamble, measureWindow } from '../../src/hooks/measure';
import { sizingFor } from '../../src/hooks/sizing';
import { isLearned } from '../../src/state/session';
import { prose } from '../helpers/text';

/** The estimate of a fitted window as the sizing's weights make it, times its density: what its margin multiplies. */
function tokensOf(m: { pointTokens: number }, sizing: { ratio: number }): number {
  return m.pointTokens * sizing.ratio;
}

const dir = mkdtempSync(join(tmpdir(), 'rcp-same-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const soon = () => Date.now() + 10_000;

describe('safetyForChange and shareDistance', () => {
  it('text alike keeps the narrow margin, text that changed the wide one, and the plain margin lies between', () => {
    expect(safetyForChange(0)).toBe(SAME_TEXT_SAFETY);
    expect(safetyForChange(0.02)).toBe(LEARNED_SAFETY);
    expect(safetyForChange(0.5)).toBe(CHANGED_TEXT_SAFETY);
    expect(SAME_TEXT_SAFETY).toBeLessThan(LEARNED_SAFETY);
    expect(CHANGED_TEXT_SAFETY).toBeGreaterThan(LEARNED_SAFETY);
  });

  it('a file whose density held still over text alike gets a narrower margin for text alike, and only for it', () => {
    // Twice the largest step, between the floor and the margin for text alike.
    expect(safetyForChange(0, 0.001)).toBe(CALM_SAFETY_MIN);
    expect(safetyForChange(0, 0.008)).toBeCloseTo(1.016, 12);
    expect(safetyForChange(0, 0.05)).toBe(SAME_TEXT_SAFETY);
    // Text that changed is not sized by how still the file held before it.
    expect(safetyForChange(0.02, 0.001)).toBe(LEARNED_SAFETY);
    expect(safetyForChange(0.5, 0.001)).toBe(CHANGED_TEXT_SAFETY);
  });

  it('the share of a window in groups the counted window held less of is taken at the estimate\'s own density', () => {
    const names = sharesOf([37, 63, 0, 0, 0, 0]);
    const tables = sharesOf([9, 61, 0, 0, 30, 0]);
    // Density 0.7 where 30% of the window is new text (digits): 0.7 × 0.7 + 1 × 0.3 = 0.79, 1.129 times 0.7.
    expect(newTextAllowance(tables, names, 0.7)).toBeCloseTo(0.79 / 0.7, 2);
    // Nothing new (the counted window's mix), or a density already at the estimate's.
    expect(newTextAllowance(names, names, 0.7)).toBe(1);
    expect(newTextAllowance(tables, names, NEW_TEXT_DENSITY)).toBe(1);
    expect(newTextAllowance(tables, names, 1.2)).toBe(1);
    // Nothing counted in common: the window is taken at the estimate's density, no more.
    expect(newTextAllowance(sharesOf([0, 0, 0, 0, 1, 0]), sharesOf([1, 0, 0, 0, 0, 0]), 0.5)).toBeCloseTo(2, 12);
    expect(newTextAllowance(tables, names, 0)).toBe(1);
  });

  it('shares add up to 1, and the distance runs from 0 (alike) to 2 (no group in common)', () => {
    const a = sharesOf([30, 10, 0, 0, 0, 0]);
    expect(a.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(shareDistance(a, a)).toBe(0);
    expect(shareDistance(a, sharesOf([0, 0, 5, 0, 0, 0]))).toBeCloseTo(2, 12);
    expect(shareDistance(a, sharesOf([29, 11, 0, 0, 0, 0]))).toBeCloseTo(0.05, 12);
    expect(sharesOf([0, 0, 0])).toEqual([0, 0, 0]);
  });

  it('the distance by scripts counts only the groups of letters past ASCII', () => {
    // Words and code, then digits: far apart by their shares, in no script at all.
    expect(scriptDistance(sharesOf([30, 10, 0, 0, 0, 0]), sharesOf([10, 10, 0, 0, 20, 0]))).toBe(0);
    // Han (group 2) against Cyrillic (group 3), each half of its text.
    expect(scriptDistance(sharesOf([10, 0, 10, 0, 0, 0]), sharesOf([10, 0, 0, 10, 0, 0]))).toBeCloseTo(1, 12);
    // Thai (three-byte letters) after English prose.
    expect(scriptDistance(sharesOf([10, 0, 0, 0, 0, 0]), sharesOf([5, 0, 0, 0, 0, 5]))).toBeCloseTo(0.5, 12);
  });
});

describe('fitWindow with a density the usage taught', () => {
  // Prose, then Korean: a density taught by a window of the prose sizes the rest of the prose with the narrow margin,
  // and the Korean, whose shares by token group are far from the prose's, with the wide one.
  const path = join(dir, 'mixed.txt');
  const korean = Array.from({ length: 3000 }, (_, i) => `${i} 번째 줄에는 한국어 문장이 들어 있습니다 그리고 조금 더 깁니다`);
  writeFileSync(path, `${prose(6000)}\n${korean.join('\n')}\n`);
  const taught = sharesOf(measureWindow(path, 1, 1000, soon()).groups);
  const learned = { ratio: 1, shares: taught };
  const plain = { ratio: 1 };
  const fit = (from: number, l: { ratio: number; shares?: number[] }) =>
    fitWindow(path, from, budgetFor(path, 25_000, sizingFor(l, true), 100_000), soon());

  it('text like the taught window: the narrow margin, so more lines than the plain margin allows', () => {
    const narrow = fit(1001, learned);
    const wide = fit(1001, plain);
    expect(narrow.safeTokens / narrow.pointTokens).toBeCloseTo(SAME_TEXT_SAFETY, 12);
    expect(narrow.lines).toBeGreaterThan(wide.lines);
    expect(narrow.safeTokens).toBeLessThanOrEqual(25_000);
  });

  it('text unlike it: the wide margin, so fewer lines than the plain margin allows', () => {
    const changed = fit(6001, learned);
    const wide = fit(6001, plain);
    expect(changed.safeTokens / changed.pointTokens).toBeCloseTo(CHANGED_TEXT_SAFETY, 12);
    expect(changed.lines).toBeLessThan(wide.lines);
  });

  it('a window judged by its point estimate is not given a margin', () => {
    const sizing = sizingFor(learned, true);
    const atPoint = fitsAtPoint(path, 1001, 100_000, 25_000, sizing, soon());
    const narrow = fit(1001, learned);
    // At its point estimate the window holds more than at any margin: its tokens are the cap's worth, or nearly.
    expect(atPoint.tokens).toBeGreaterThan(narrow.safeTokens / SAME_TEXT_SAFETY);
  });

  it('a count of the engine\'s own (a refusal) keeps the plain margin; a usage after it, the margin by likeness', () => {
    const byRefusal = sizingFor({ ratio: 1, refused: true }, true);
    const refused = fitWindow(path, 1001, budgetFor(path, 25_000, byRefusal, 100_000), soon());
    expect(refused.safeTokens / refused.pointTokens).toBeCloseTo(LEARNED_SAFETY, 12);
    const byUsage = sizingFor({ ...learned, refused: true }, true);
    const after = fitWindow(path, 1001, budgetFor(path, 25_000, byUsage, 100_000), soon());
    expect(after.safeTokens / after.pointTokens).toBeCloseTo(SAME_TEXT_SAFETY, 12);
    // A file refused once is never sized to a gamble again, not even its last window.
    expect(mayGamble(byUsage, true)).toBe(false);
    expect(mayGamble(sizingFor(learned, true), true)).toBe(true);
  });
});

describe('densitySteps: how far the density moved from one window of text alike to the next', () => {
  const alike = sharesOf([30, 10, 0, 0, 0, 0]);
  const unlike = sharesOf([0, 0, 5, 0, 0, 0]);
  it('adds each step over text alike, newest last, and keeps the last CALM_STEPS', () => {
    const one = densitySteps({ ratio: 1, shares: alike }, 1.01, alike);
    expect(one).toHaveLength(1);
    expect(one?.[0]).toBeCloseTo(Math.log(1.01), 5);
    const two = densitySteps({ ratio: 1.01, shares: alike, steps: one }, 1.01 / 1.002, alike);
    expect(two).toHaveLength(2);
    expect(two?.[1]).toBeCloseTo(Math.log(1.002), 5);
    const three = densitySteps({ ratio: 1, shares: alike, steps: two }, 1.003, alike);
    expect(three).toHaveLength(CALM_STEPS);
    expect(three?.[CALM_STEPS - 1]).toBeCloseTo(Math.log(1.003), 5);
  });
  it('starts over when the text changed, or when either window held no shares (too few lines to tell)', () => {
    const steps = [0.001, 0.001];
    expect(densitySteps({ ratio: 1, shares: alike, steps }, 1, unlike)).toBeUndefined();
    expect(densitySteps({ ratio: 1, steps }, 1, alike)).toBeUndefined();
    expect(densitySteps({ ratio: 1, shares: alike, steps }, 1, undefined)).toBeUndefined();
    expect(densitySteps(undefined, 1, alike)).toBeUndefined();
  });
});

describe('a file whose density held steady while its text changed (pages of prose and code)', () => {
  it('gets STEADY_MULTIPLE times its largest step for changed text, between the plain margin and the wide one', () => {
    expect(safetyForChange(0.2, undefined, 0.02)).toBeCloseTo(1 + STEADY_MULTIPLE * 0.02, 12);
    expect(safetyForChange(0.2, undefined, 0.001)).toBe(LEARNED_SAFETY);
    expect(safetyForChange(0.2, undefined, 0.05)).toBe(CHANGED_TEXT_SAFETY);
    // Text alike, and text that changed a little, keep their own margins: steadiness never narrows them.
    expect(safetyForChange(0, undefined, 0.001)).toBe(SAME_TEXT_SAFETY);
    expect(safetyForChange(0.02, undefined, 0.001)).toBe(LEARNED_SAFETY);
  });

  const a = sharesOf([30, 10, 0, 0, 0, 0]);
  const b = sharesOf([5, 10, 20, 0, 0, 0]);
  it('densityShifts adds each step over any text, newest last, and keeps the last STEADY_STEPS', () => {
    let shifts: number[] | undefined;
    let ratio = 1;
    for (const [i, next] of [1.01, 1.005, 0.99, 1.02].entries()) {
      shifts = densityShifts({ ratio, shares: i % 2 ? a : b, ...(shifts ? { shifts } : {}) }, next, i % 2 ? b : a);
      ratio = next;
    }
    expect(shifts).toHaveLength(STEADY_STEPS);
    expect(shifts?.[STEADY_STEPS - 1]).toBeCloseTo(Math.abs(Math.log(1.02 / 0.99)), 5);
  });
  it('where the file\'s own weights predicted the window\'s density, the step is how far that prediction was off', () => {
    // The density moved by 8% with the window's mix, as the weights fitted to the file's windows said it would.
    const shifts = densityShifts({ ratio: 1, shares: a, shifts: [0.002, 0.003] }, 1.08, b, 1.075);
    expect(shifts?.at(-1)).toBeCloseTo(Math.log(1.08 / 1.075), 5);
    expect(safetyForChange(0.2, undefined, Math.max(...shifts!))).toBe(LEARNED_SAFETY);
    const byLast = densityShifts({ ratio: 1, shares: a, shifts: [0.002, 0.003] }, 1.08, b)!;
    expect(safetyForChange(0.2, undefined, Math.max(...byLast))).toBe(CHANGED_TEXT_SAFETY);
  });
  it('starts over when either window held no shares (too few lines to tell)', () => {
    expect(densityShifts({ ratio: 1, shifts: [0.001, 0.001] }, 1, a)).toBeUndefined();
    expect(densityShifts({ ratio: 1, shares: a, shifts: [0.001] }, 1, undefined)).toBeUndefined();
  });

  // A file of two kinds of text in turn, a window of each: its windows are far apart by their shares.
  const path = join(dir, 'prose-and-code.txt');
  const code = Array.from({ length: 300 }, (_, i) => `  if (x${i} > ${i}) { y[${i}] = f(x${i}, "${i}"); }`).join('\n');
  writeFileSync(path, `${prose(300)}\n${code}\n${prose(300)}\n${code}\n`);
  const first = measureWindow(path, 1, 300, soon());
  const fit = (shifts?: number[]) => {
    const sizing = sizingFor({ ratio: 1, shares: sharesOf(first.groups), ...(shifts ? { shifts } : {}) }, true);
    return fitWindow(path, 301, budgetFor(path, 6_000, sizing, 300), soon());
  };
  it('after STEADY_STEPS small steps, a window of changed text keeps more lines; fewer steps, or a large one, do not', () => {
    const usual = fit();
    expect(usual.safeTokens / usual.pointTokens).toBeCloseTo(CHANGED_TEXT_SAFETY, 12);
    const steady = fit([0.004, 0.02, 0.002]);
    expect(steady.safeTokens / steady.pointTokens).toBeCloseTo(1 + STEADY_MULTIPLE * 0.02, 12);
    expect(steady.lines).toBeGreaterThan(usual.lines);
    expect(fit([0.004, 0.02]).lines).toBe(usual.lines);
    expect(fit([0.004, 0.04, 0.002]).lines).toBe(usual.lines);
  });

  it('with the file\'s own weights, the steady margin holds for a mix like the ones they were fitted to, not past it', () => {
    // Fitted to a window of prose and one of code: a window of prose again is within their reach, one of CSV rows
    // (numbers, commas) is not, and how well they predicted the windows before says nothing of it.
    const rows = Array.from({ length: 300 }, (_, i) =>
      `${i},${(i * 7919) % 100_000},${(i % 13) * 1.5},${i * 31},${(i * 104_729) % 1e6},${(i * 31) % 977}.${i % 100},${i * 7}`);
    const mixed = join(dir, 'prose-code-rows.txt');
    writeFileSync(mixed, `${prose(300)}\n${code}\n${prose(300)}\n${rows.join('\n')}\n`);
    const counted = [measureWindow(mixed, 1, 300, soon()), measureWindow(mixed, 301, 300, soon())];
    const learned = {
      ratio: 1,
      shares: sharesOf(counted[1]!.groups),
      shifts: [0.004, 0.01, 0.002],
      countedWindows: counted.map((m) => [m.pointTokens, ...m.parts!]),
    };
    const sizing = sizingFor(learned, true);
    expect(sizing.weights).toBeDefined();
    const margin = (first: number) => {
      const m = fitWindow(mixed, first, budgetFor(mixed, 6_000, sizing, 300), soon());
      return m.safeTokens / tokensOf(m, sizing);
    };
    expect(margin(601)).toBeCloseTo(LEARNED_SAFETY, 9);
    expect(margin(901)).toBeCloseTo(CHANGED_TEXT_SAFETY, 9);
  });
});

describe('fitWindow for a file that held still', () => {
  // Rows of one CSV shape: alike from window to window.
  const path = join(dir, 'rows.csv');
  writeFileSync(path, Array.from({ length: 40_000 }, (_, i) => `${i},${(i * 7919) % 100_000},row ${i % 97},${(i % 13) * 1.5}`).join('\n'));
  const shares = sharesOf(measureWindow(path, 1, 2000, soon()).groups);
  const fit = (steps?: number[]) => {
    const sizing = sizingFor({ ratio: 1, shares, ...(steps ? { steps } : {}) }, true);
    return fitWindow(path, 2001, budgetFor(path, 25_000, sizing, 100_000), soon());
  };

  it('after CALM_STEPS small steps, a window of the same text is sized with the narrower margin: more lines', () => {
    const calm = fit([0.006, 0.007]);
    const usual = fit();
    expect(calm.safeTokens / calm.pointTokens).toBeCloseTo(1.014, 12);
    expect(calm.lines).toBeGreaterThan(usual.lines);
    expect(usual.safeTokens / usual.pointTokens).toBeCloseTo(SAME_TEXT_SAFETY, 12);
  });

  it('one step is not enough to call a file calm, and a large step keeps the usual margin', () => {
    expect(fit([0.001]).lines).toBe(fit().lines);
    expect(fit([0.001, 0.02]).lines).toBe(fit().lines);
  });
});

describe('isLearned: shares read back from a file anyone could have damaged', () => {
  const base = { size: 1, mtimeMs: 1, ratio: 1, at: 1 };
  it('keeps one share per token group, each between 0 and 1', () => {
    expect(isLearned({ ...base, shares: new Array(GROUP_COUNT).fill(1 / GROUP_COUNT) })).toBe(true);
    expect(isLearned(base)).toBe(true);
  });
  it('drops the entry when the shares are malformed', () => {
    expect(isLearned({ ...base, shares: [1] })).toBe(false);
    expect(isLearned({ ...base, shares: new Array(GROUP_COUNT).fill('0.1') })).toBe(false);
    expect(isLearned({ ...base, shares: new Array(GROUP_COUNT).fill(2) })).toBe(false);
    expect(isLearned({ ...base, shares: { length: GROUP_COUNT } })).toBe(false);
  });
  it('keeps at most STEADY_STEPS shifts, each a finite number of 0 or more', () => {
    expect(isLearned({ ...base, shifts: new Array(STEADY_STEPS).fill(0.001) })).toBe(true);
    expect(isLearned({ ...base, shifts: new Array(STEADY_STEPS + 1).fill(0) })).toBe(false);
    expect(isLearned({ ...base, shifts: [Number.NaN] })).toBe(false);
    expect(isLearned({ ...base, shifts: [-1] })).toBe(false);
  });
  it('keeps at most CALM_STEPS steps, each a finite number of 0 or more', () => {
    expect(isLearned({ ...base, steps: [0.001, 0] })).toBe(true);
    expect(isLearned({ ...base, steps: new Array(CALM_STEPS + 1).fill(0) })).toBe(false);
    expect(isLearned({ ...base, steps: [-0.1] })).toBe(false);
    expect(isLearned({ ...base, steps: ['0.1'] })).toBe(false);
    expect(isLearned({ ...base, steps: 0.1 })).toBe(false);
  });
});
