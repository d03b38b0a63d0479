// C as a parser generator writes it (symbol names, then tables of numbers), over 256 KiB, read whole on the real
// engine with a stand-in that counts with o200k and reports each request's usage. o200k counts the names at 0.70 of
// the estimate and the tables at 0.88-0.91: the window after the first, the names' last lines and then the tables,
// sized by the names' density with the margin for changed text, was refused. Its share of text the names lacked is
// taken at the estimate's own density (`newTextAllowance`, src/estimate/weights.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from './harness/engine.mjs';
import { readWholeUnderO200k } from './read-whole';
import { generatedParser } from '../helpers/text';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 300_000;

describe('a generated parser, whose text turns from names to tables of numbers, over 256 KiB, read whole', () => {
  it('every line once and no refusal, in fewer calls than the bare engine', async () => {
    const { fills, trail, calls, bareCalls } = await readWholeUnderO200k('generated-parser', 'parser.c',
      generatedParser(12_000, 1600));
    // readWholeUnderO200k has checked every line once and no refusal; the windows after the first two are tables.
    expect(fills.length, trail).toBeGreaterThanOrEqual(5);
    expect(Math.min(...fills.slice(2, -1)), `${fills.map((f) => f.toFixed(3)).join(' ')}\n${trail}`).toBeGreaterThan(0.9);
    expect(calls, trail).toBeLessThan(bareCalls);
  }, ENGINE_TIMEOUT);
});
