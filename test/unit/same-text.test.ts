// The margin on a density the usage taught follows how far a window's text differs from the window it was taught by
// (weights.ts, `safetyForChange`): narrower for text alike, wider for text that changed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GROUP_COUNT, shareDistance, sharesOf } from '../../src/estimate/groups';
import {
  CHANGED_TEXT_SAFETY,
  LEARNED_SAFETY,
  SAME_TEXT_SAFETY,
  safetyForChange,
} from '../../src/estimate/weights';
import { budgetFor, fitWindow, fitsAtPoint, measureWindow, sizingFor } from '../../src/hooks/measure';
import { isLearned } from '../../src/state/session';
import { prose } from '../helpers/text';

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

  it('shares add up to 1, and the distance runs from 0 (alike) to 2 (no group in common)', () => {
    const a = sharesOf([30, 10, 0, 0, 0, 0]);
    expect(a.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(shareDistance(a, a)).toBe(0);
    expect(shareDistance(a, sharesOf([0, 0, 5, 0, 0, 0]))).toBeCloseTo(2, 12);
    expect(shareDistance(a, sharesOf([29, 11, 0, 0, 0, 0]))).toBeCloseTo(0.05, 12);
    expect(sharesOf([0, 0, 0])).toEqual([0, 0, 0]);
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

  it('a count of the engine\'s own (a refusal) keeps the plain margin, shares or not', () => {
    const sizing = sizingFor({ ...learned, refused: true }, true);
    const refused = fitWindow(path, 1001, budgetFor(path, 25_000, sizing, 100_000), soon());
    expect(refused.safeTokens / refused.pointTokens).toBeCloseTo(LEARNED_SAFETY, 12);
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
});
