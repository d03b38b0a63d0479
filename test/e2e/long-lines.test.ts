// A license list as JSON (four short lines, then a license's whole text on one line of a twentieth to a fifth of a
// window), over 256 KiB, read whole on the real engine with a stand-in that counts with o200k and reports each
// request's usage. The margin that suits text of short lines stopped windows before a long line whose point
// estimate fitted with room: a window takes it where the refusal it risks costs fewer rounds than the line would
// (`stretchPays`, src/estimate/stretch.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs } from './harness/engine.mjs';
import { tokenizer } from './harness/tokenizer.mjs';
import { CAP, readWholeUnderO200k } from './read-whole';
import { licenseRecords } from '../helpers/text';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 300_000;

describe('records whose long lines hold a twentieth to a fifth of a window, over 256 KiB, read whole', () => {
  it('every line once and no refusal; no window after the first leaves out a long line that fits with room', async () => {
    const text = licenseRecords(90);
    const { windows, fills, trail, calls, bareCalls } = await readWholeUnderO200k('long-lines', 'licenses.json', text);
    // readWholeUnderO200k has checked every line once and no refusal.
    const lines = text.split('\n');
    const count = tokenizer({ name: 'o200k' }).count;
    const withNextLong = windows.slice(1, -1).map((w) => {
      let last = w.first + w.lines; // the line after the window, 1-based
      while (lines[last - 1]!.length < 1_000) last++;
      return count(lines.slice(w.first - 1, last).join('\n')) / CAP;
    });
    const shown = `${withNextLong.map((f) => f.toFixed(3)).join(' ')}\nfills ${fills.map((f) => f.toFixed(3)).join(' ')}`;
    expect(withNextLong.length, trail).toBeGreaterThanOrEqual(8);
    expect(Math.min(...withNextLong), `${shown}\n${trail}`).toBeGreaterThan(0.94);
    expect(calls, trail).toBeLessThan(bareCalls);
  }, ENGINE_TIMEOUT);
});
