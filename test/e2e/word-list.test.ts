// A word list in Russian, one short word a line (as Hunspell's dictionaries are), over 256 KiB, read whole on the
// real engine with a stand-in that reports each request's usage. The tab after each line number is a token of its
// own before a letter past ASCII: read as the text's own, it made each window after the first hold about 0.8 of the
// cap, and the file took more calls than it needs (docs/ROUNDS.md, "Held out fifth").
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from './harness/engine.mjs';
import { readWholeUnderO200k } from './read-whole';
import { russianWordList } from '../helpers/text';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 240_000;

describe('a word list in Russian over 256 KiB, read whole', () => {
  it('every line once, no refusal, and each window after the first holds 0.9 of the cap or more', async () => {
    const { fills, trail, calls, bareCalls } = await readWholeUnderO200k('word-list', 'index.dic', russianWordList(20_000));
    // The first window is sized by the estimate with the prior's margin; the last holds what is left.
    const between = fills.slice(1, -1);
    expect(between.length, trail).toBeGreaterThanOrEqual(2);
    expect(Math.min(...between), `${fills.map((f) => f.toFixed(3)).join(' ')}\n${trail}`).toBeGreaterThan(0.9);
    expect(calls, trail).toBeLessThan(bareCalls);
  }, ENGINE_TIMEOUT);
});
