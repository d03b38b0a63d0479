// A window past its margin where its next line is worth the refusal it risks (estimate/stretch.ts): decided by
// expected rounds, without I/O; then through `fitWindow`, on files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TokenTally } from '../../src/estimate/density';
import { sharesOf } from '../../src/estimate/groups';
import { budgetFor, fitWindow, measureWindow } from '../../src/hooks/measure';
import { sizingFor } from '../../src/hooks/sizing';
import { prose } from '../helpers/text';
import { MARGIN_DEVIATIONS, refusalChance, stretchMayPay, stretchPays, upperTail } from '../../src/estimate/stretch';
import { CHANGED_TEXT_SAFETY, LEARNED_SAFETY, SAME_TEXT_SAFETY } from '../../src/estimate/weights';

const CAP = 25_000;

describe('refusalChance', () => {
  it('a window at its margin is refused about once in 44; at its point estimate, one time in two', () => {
    expect(refusalChance(CAP / LEARNED_SAFETY, CAP, LEARNED_SAFETY)).toBeCloseTo(upperTail(MARGIN_DEVIATIONS), 6);
    expect(upperTail(MARGIN_DEVIATIONS)).toBeCloseTo(0.0228, 3);
    expect(refusalChance(CAP, CAP, LEARNED_SAFETY)).toBeCloseTo(0.5, 6);
    expect(refusalChance(CAP * 1.1, CAP, LEARNED_SAFETY)).toBeGreaterThan(0.97);
    expect(refusalChance(0, CAP, LEARNED_SAFETY)).toBe(0);
  });

  it('a narrower margin says the prediction is surer: the same window is refused less often', () => {
    const tokens = CAP / 1.02;
    expect(refusalChance(tokens, CAP, SAME_TEXT_SAFETY)).toBeLessThan(refusalChance(tokens, CAP, LEARNED_SAFETY));
  });

  it('the normal tail is right both ways', () => {
    expect(upperTail(0)).toBeCloseTo(0.5, 6);
    expect(upperTail(1.959964)).toBeCloseTo(0.025, 5);
    expect(upperTail(-1)).toBeCloseTo(0.841345, 5);
  });
});

describe('stretchPays and stretchMayPay', () => {
  const fitted = 19_500; // the fit at 1.05 stopped before a line of 4,500 tokens: 24,000 would not fit 25,000 / 1.05

  it('a line of a fifth of the cap, within 4% of it by its point estimate, is worth the risk', () => {
    expect(stretchMayPay(fitted, CAP, LEARNED_SAFETY)).toBe(true);
    expect(stretchPays(24_000, fitted, CAP, LEARNED_SAFETY)).toBe(true);
  });

  it('the same line, its point estimate within 1% of the cap, is not: a refusal one time in three', () => {
    expect(stretchPays(24_750, fitted, CAP, LEARNED_SAFETY)).toBe(false);
    expect(stretchPays(25_100, fitted, CAP, LEARNED_SAFETY)).toBe(false);
  });

  it('a short line past the margin never pays: it saves a sliver of a round for a chance of a whole one', () => {
    const atMargin = CAP / LEARNED_SAFETY;
    expect(stretchPays(atMargin + 100, atMargin - 20, CAP, LEARNED_SAFETY)).toBe(false);
  });

  it('a fit that stopped within half a percent of its margin (text of short lines) has no line worth measuring', () => {
    for (const safety of [1.01, SAME_TEXT_SAFETY, LEARNED_SAFETY, CHANGED_TEXT_SAFETY]) {
      expect(stretchMayPay((0.995 * CAP) / safety, CAP, safety), String(safety)).toBe(false);
      expect(stretchMayPay((0.9 * CAP) / safety, CAP, safety), String(safety)).toBe(true);
    }
  });

  it('past the margin the risk grows faster than the gain: the next line alone is the one to weigh', () => {
    // So that `stretchMayPay`'s bound holds and no window of more lines can pay more than the one with the next.
    for (const safety of [1.01, SAME_TEXT_SAFETY, LEARNED_SAFETY, CHANGED_TEXT_SAFETY]) {
      const from = CAP / safety;
      for (let tokens = from; tokens < CAP; tokens += 50) {
        expect(stretchPays(tokens + 50, tokens, CAP, safety), `${safety} ${tokens}`).toBe(false);
      }
    }
  });
});

describe('fitWindow past its margin', () => {
  // Short lines of prose, then one line of the same prose of about a fifth of the cap, then short lines again. Taught
  // by a window of that prose, the margin for text alike (1.03) stops the window before the long line when, with it,
  // the window's point estimate comes to `share` of the cap.
  const dir = mkdtempSync(join(tmpdir(), 'rcp-stretch-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const soon = () => Date.now() + 10_000;
  const short = prose(3_000).split('\n').slice(0, 3_000);
  const estimate = (lines: readonly string[]) => {
    const tally = new TokenTally();
    tally.add(lines.join('\n'));
    return tally.tokens();
  };
  /** A file whose first `before` lines estimate at 0.8 of the cap, and whose next line brings it to `share`. */
  function fileAt(share: number): { path: string; before: number } {
    let before = 0;
    while (estimate(short.slice(0, before + 1)) < 0.8 * CAP) before++;
    const words = prose(2_000, 7).split('\n').map((l) => l.replace(/^\d+: /, ''));
    let long = 0;
    while (estimate([...short.slice(0, before), words.slice(0, long + 1).join(' ')]) < share * CAP) long++;
    const path = join(dir, `at-${share}.txt`);
    writeFileSync(path, [...short.slice(0, before), words.slice(0, long).join(' '), ...short.slice(before)].join('\n'));
    return { path, before };
  }
  const taught = sharesOf(measureWindow(fileAt(0.98).path, 1, 1_000, soon()).groups);
  const fit = (path: string, learned: { ratio: number; shares: number[]; refused?: boolean }) =>
    fitWindow(path, 1, budgetFor(path, CAP, sizingFor(learned, true), 100_000), soon());

  it('a long line that brings the window to 0.98 of the cap by its point estimate is taken', () => {
    const { path, before } = fileAt(0.98);
    const got = fit(path, { ratio: 1, shares: taught });
    expect(got.lines).toBe(before + 1);
    expect(got.pointTokens).toBeLessThan(CAP);
    expect(got.pointTokens * SAME_TEXT_SAFETY).toBeGreaterThan(CAP);
  });

  it('one that brings it within half a percent of the cap is not: a refusal one time in three', () => {
    const { path, before } = fileAt(0.995);
    expect(fit(path, { ratio: 1, shares: taught }).lines).toBe(before);
  });

  it('in a file the engine refused once, the margin holds: it has cost its round', () => {
    const { path, before } = fileAt(0.98);
    expect(fit(path, { ratio: 1, shares: taught, refused: true }).lines).toBe(before);
  });
});
