// Lines that alone may be over the cap: the note names a line's estimate as the one that judged it, with the weights
// a model's counts taught (a line "about 21168 tokens" was called over a cap of 25,000 before), and a line that only
// the margin keeps out is read, not passed over.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRIOR_SAFETY, WEIGHTS, type Weights } from '../../src/estimate/weights';
import { budgetFor, continuation, measureWindow, skipOversize, sizingFor } from '../../src/hooks/measure';

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

describe('continuation past a line that only the margin keeps out', () => {
  // A line whose estimate is under the cap, and over it with the prior's margin: it may well fit, so the reading
  // goes on with it alone, where it was passed over as a line no window holds (and never read).
  const path = join(dir, 'near.txt');
  const unit = 'alpha beta gamma delta ';
  const probe = join(dir, 'probe.txt');
  writeFileSync(probe, unit.repeat(1000));
  const perUnit = measureWindow(probe, 1, 1, Date.now() + 10_000).pointTokens / 1000;
  const near = unit.repeat(Math.floor((25_000 * 0.96) / perUnit));
  writeFileSync(path, `short line\n${near}\nafter it\n`);

  it('names the line alone, not as a line over the cap', () => {
    expect(measureWindow(path, 2, 1, Date.now() + 10_000).pointTokens).toBeLessThan(25_000);
    expect(measureWindow(path, 2, 1, Date.now() + 10_000).pointTokens * PRIOR_SAFETY).toBeGreaterThan(25_000);
    const next = continuation(path, 2, 3, 25_000, sizingFor(undefined), Date.now() + 10_000);
    expect(next?.oversize).toBeUndefined();
    expect(next?.window).toEqual({ first: 2, lines: 1 });
  });

  it('passes over a line whose estimate alone is over the cap', () => {
    const over = join(dir, 'over.txt');
    writeFileSync(over, `short line\n${near}${near}\nafter it\n`);
    const next = continuation(over, 2, 3, 25_000, sizingFor(undefined), Date.now() + 10_000);
    expect(next?.oversize).toMatchObject({ first: 2, last: 2 });
    expect(next?.window).toEqual({ first: 3, lines: 1 });
  });
});
