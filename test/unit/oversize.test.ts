// A line that alone is over the cap: the note names its estimate, and that estimate is the one that judged it, with
// the weights a model's counts taught (a line "about 21168 tokens" was called over a cap of 25,000 before).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WEIGHTS, type Weights } from '../../src/estimate/weights';
import { budgetFor, measureWindow, skipOversize, sizingFor } from '../../src/hooks/measure';

const dir = mkdtempSync(join(tmpdir(), 'rcp-oversize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('skipOversize: the estimate of a line no window holds', () => {
  const path = join(dir, 'bundle.js');
  const long = Array.from({ length: 6000 }, (_, i) => `var a${i}=function(b){return b+${i}};`).join('');
  writeFileSync(path, `"use strict";\n${long}\nmodule.exports = a1;\n`);
  const point = measureWindow(path, 2, 1, Date.now() + 10_000).pointTokens;

  it('is the line\'s point estimate with the calibrated weights', () => {
    const past = skipOversize(path, 2, 3, budgetFor(path, 25_000, sizingFor(undefined), 1), Date.now() + 10_000);
    expect(past?.oversize).toMatchObject({ first: 2, last: 2 });
    expect(past?.oversize?.tokens).toBeCloseTo(point, 6);
    expect(past?.nextFitting).toBe(3);
  });

  it('is raised by the weights a model\'s counts taught, as the decision was', () => {
    // A model that counts this text 1.5 times the calibration's estimate.
    const weights = Object.fromEntries(Object.entries(WEIGHTS).map(([k, w]) => [k, w * 1.5])) as Weights;
    const sizing = { ...sizingFor(undefined), weights };
    const past = skipOversize(path, 2, 3, budgetFor(path, 25_000, sizing, 1), Date.now() + 10_000);
    expect(past?.oversize?.tokens).toBeCloseTo(point * 1.5, 3);
  });
});
