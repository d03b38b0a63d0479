// Code whose mix of features changes every few hundred lines (indented statements, lists of exported camelCase
// names, declarations, as a compiler's bundle has them), over 256 KiB, read whole on the real engine with a stand-in
// that counts with o200k and reports each request's usage. o200k counts each kind at another share of the estimate:
// sized by the last window's density alone, a window of another mix held 0.79-0.99 of the cap. The file's own
// weights, fitted to the counts of its windows (src/estimate/file-weights.ts), size each window by its own mix.
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from './harness/engine.mjs';
import { readWholeUnderO200k } from './read-whole';
import { mixedCode } from '../helpers/text';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 300_000;

describe('code whose mix changes from window to window, over 256 KiB, read whole', () => {
  it('every line once, no refusal, and once the weights predicted three windows, each holds over 0.93 of the cap', async () => {
    const { fills, trail, calls, bareCalls } = await readWholeUnderO200k('mixed-code', 'bundle.js', mixedCode(16_000));
    // The first window is sized by the prior; the next ones by the windows counted so far, with the margin for text
    // that changed until three of them came out as the weights predicted; the last holds what is left.
    const steady = fills.slice(5, -1);
    expect(steady.length, trail).toBeGreaterThanOrEqual(3);
    expect(Math.min(...steady), `${fills.map((f) => f.toFixed(3)).join(' ')}\n${trail}`).toBeGreaterThan(0.93);
    expect(calls, trail).toBeLessThan(bareCalls);
  }, ENGINE_TIMEOUT);
});
