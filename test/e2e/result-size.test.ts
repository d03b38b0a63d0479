// A window within the token cap whose numbered result is over 100,000 characters, on whichever engine runs it
// (docs/ENGINE.md 9.9). From 2.1.6 to 2.1.78 the engine shows such a result only as a 2 KB preview, with the rest
// saved to a file (`<persisted-output>`): the model sees a few dozen of the lines it asked for. The pager knows such
// an engine by the version the transcript names and keeps every window's result under that size. Elsewhere it leaves
// the window as asked. `npm run test:engines` runs this file on the verified engines and on the older ones.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSISTED_OVER_CHARS, resultCharsCap } from '../../src/hooks/engine-version';
import { coverage, ranges } from './harness/check.mjs';
import { ENGINE, removeTempDirs, tempDir } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);

// High enough that no window here is over it: the result's length alone decides.
const CAP = 60_000;
const WINDOW = 2000;
const ENGINE_TIMEOUT = 180_000;
const version = /\d+\.\d+\.\d+/.exec(spawnSync(ENGINE[0]!, [...ENGINE.slice(1), '--version'], { encoding: 'utf8' }).stdout)?.[0];
const persists = resultCharsCap(version) !== undefined;
const PERSISTED = '<persisted-output>';

describe(`a window whose numbered result is over ${PERSISTED_OVER_CHARS} characters, on Claude Code ${version}`, () => {
  // 3,000 lines of about 77 characters: 2,000 of them number to about 168,000 characters, under the cap in tokens. A
  // project each, as the two sessions run at once: each writes its own settings.
  const text = prose(3000, 83);
  const path = put(tempDir('result-size-on'), 'notes.txt', text);
  const barePath = put(tempDir('result-size-off'), 'notes.txt', text);
  let withPager: Session;
  let bare: Session;

  beforeAll(async () => {
    [withPager, bare] = await Promise.all([
      readSession({ cwd: dirname(path), hooks: 'pager', cap: CAP, targets: [{ path, offset: 1, limit: WINDOW }] }),
      readSession({ cwd: dirname(barePath), hooks: 'none', cap: CAP, targets: [{ path: barePath, offset: 1, limit: WINDOW }] }),
    ]);
  }, ENGINE_TIMEOUT);

  it('without the pager: shown only as a preview where the engine persists long results, else whole', () => {
    expect(version, 'the engine printed its version').toBeDefined();
    expect(bare.ok, bare.run.stderr).toBe(true);
    const first = bare.cursor(barePath).steps[0]!;
    expect(first.isError).toBe(false);
    if (persists) {
      expect(first.content.startsWith(PERSISTED), first.content.slice(0, 200)).toBe(true);
      expect(first.lines.length).toBeLessThan(100);
    } else {
      expect(first.lines.length).toBe(WINDOW);
    }
  });

  it('with the pager: every result reaches the model whole, and the notes lead through every line once', () => {
    expect(withPager.ok, withPager.run.stderr).toBe(true);
    const steps = withPager.cursor(path).steps;
    const unseen = steps.filter((s) => s.isError || s.content.startsWith(PERSISTED));
    expect(unseen.map((s) => s.content.slice(0, 200))).toEqual([]);
    if (persists) for (const s of steps) expect(s.content.length).toBeLessThanOrEqual(PERSISTED_OVER_CHARS);
    const c = coverage(path, withPager.cursor(path).received);
    expect({ missing: ranges(c.missing), duplicated: ranges(c.duplicated), wrong: c.wrong }).toEqual({
      missing: '',
      duplicated: '',
      wrong: [],
    });
  });

  it('the first window: clamped to what the engine shows whole, and the note says so; else run as asked', () => {
    const first = withPager.cursor(path).steps[0]!;
    const note = first.notes.find((t) => /read-ceiling-pager/.test(t)) ?? '';
    if (persists) {
      expect(first.lines.length).toBeLessThan(WINDOW);
      // Within a few lines of the most the engine shows whole: about 72 characters a numbered line.
      expect(first.content.length).toBeGreaterThan(PERSISTED_OVER_CHARS - 1000);
      expect(note).toContain(`This Read returned lines 1-${first.lines.length} of the requested 1-${WINDOW}, the most this engine shows whole`);
      expect(first.advice?.offset).toBe(first.lines.length + 1);
    } else {
      expect(first.lines.length).toBe(WINDOW);
      expect(note).toBe('');
    }
  });
});
