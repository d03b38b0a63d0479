// A line passed over before any count of its file, on the real engine: the note after the first window calls a long
// line over the cap by the estimate alone (over 1.7 times the cap, the reach of the sparsest tokenizer measured). A
// model sparser than any measured counts it under the cap; once the usage of a later window tells the file's count,
// a note names the line, and the reading ends with every line read once (a model at 0.75 times o200k, at a cap of
// 10,000, left four lines of xlsx.full.min.js unread on the rounds benchmark).
import { statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { countText } from '../../scripts/lib/token-count.mjs';
import { LONG_LINE_REACH, measureWindow } from '../../src/hooks/measure';
import { coverage, ranges } from './harness/check.mjs';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 180_000;
const CAP = 25_000;
const LONG_AT = 1001;
/** A model that counts half what o200k counts: sparser than any tokenizer measured. */
const count = countText('o200k*0.5');

describe('a long line passed over before any count of the file, read whole by a model sparser than any measured', () => {
  const dir = tempDir('passed-over');
  const lines = F.prose(2500, 91).split('\n');
  lines[LONG_AT - 1] = F.withLongLine(1, 1, 215_000, 92).split('\n')[0]!;
  const path = F.put(dir, 'long.txt', lines.join('\n'));
  const long = F.engineLines(path)[LONG_AT - 1]!;

  it('the estimate puts the line past the reach; the model counts it under the cap', () => {
    expect(statSync(path).size, 'a file the pager reads in windows').toBeGreaterThan(262_144);
    expect(measureWindow(path, LONG_AT, 1, Infinity).pointTokens).toBeGreaterThan(CAP * LONG_LINE_REACH);
    expect(count(`${long}\n`)).toBeLessThan(CAP);
  });

  it('a later note names it, and every line comes back exactly once', async () => {
    const s = await readSession({ cwd: dir, hooks: 'pager', count, usage: true, thinkMs: 300, targets: [{ path }] });
    expect(s.ok, s.run.stderr).toBe(true);
    const c = s.cursor(path);
    const trail = c.steps.map((st) => `${st.asked.offset ?? '-'}+${st.asked.limit ?? '-'} → ${st.decision}`).join('\n');
    const notes = c.steps.flatMap((st) => st.notes);
    expect(notes.some((n) => n.includes(`Line ${LONG_AT} alone is over the cap`)), trail).toBe(true);
    expect(notes.some((n) => n.includes(`Line ${LONG_AT}, passed over by an earlier note before any count of this file`)), trail)
      .toBe(true);
    const cov = coverage(path, c.received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) }, trail)
      .toEqual({ missing: '', duplicated: '', wrong: '' });
    expect(c.refusals, trail).toBe(0);
  }, ENGINE_TIMEOUT);
});
