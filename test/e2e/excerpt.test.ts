// A file under 256 KiB whose first line alone is over the cap, on the real engine. A window holding that line is
// refused, but a Read with no limit is not: the engine shows an excerpt of the line, the first characters that fit
// (docs/ENGINE.md §4.4). So `pre` sends a window from line 1 without limit, and `post` says how much of the line
// the excerpt showed, where the rest of the line is, and which window goes on after it.
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import { engineLines, prose, put } from './harness/files.mjs';
import type { Cursor } from './harness/reader.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);
const CAP = 3000;
const ENGINE_TIMEOUT = 300_000;
const LINE_CHARS = 60_000;

describe('a first line over the cap, in a file under 256 KiB', () => {
  const dir = tempDir('excerpt');
  const text = `${prose(2000, 7).replace(/\n/g, ' ').slice(0, LINE_CHARS)}\n${prose(100, 3)}`;
  const inWindows = put(dir, 'windows.txt', text);
  const whole = put(dir, 'whole.txt', text);
  let withPager: Session;
  let without: Session;

  it('is read by following the notes, with and without the pager', async () => {
    const targets = [{ path: inWindows, offset: 1, limit: 50 }, { path: whole }];
    withPager = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets });
    const once = [{ path: inWindows, offset: 1, limit: 50, once: true }];
    without = await readSession({ cwd: dir, hooks: 'none', cap: CAP, targets: once });
    expect(withPager.ok, withPager.run.stderr).toBe(true);
    expect(without.ok, without.run.stderr).toBe(true);
  }, ENGINE_TIMEOUT);

  /** The characters of line 1 a step showed, and the count the engine's banner and the pager's note give. */
  const excerpt = (c: Cursor) => {
    const step = c.steps[0]!;
    const banner = step.notes.find((t) => t.includes('PARTIAL view'));
    const note = step.notes.find((t) => t.includes('read-ceiling-pager'));
    return {
      step,
      shown: step.lines.find(([n]) => n === 1)?.[1],
      banner: Number(/showing the first (\d+) of/.exec(banner ?? '')?.[1]),
      note: note ?? '',
    };
  };

  it('a window from line 1: without the pager it is refused; with it, the engine shows an excerpt of the line', () => {
    expect(without.cursor(inWindows).steps[0]!.isError).toBe(true);
    const e = excerpt(withPager.cursor(inWindows));
    expect(e.step.isError).toBe(false);
    const line1 = engineLines(inWindows)[0]!;
    expect(e.shown!.length).toBeLessThan(line1.length);
    expect(line1.startsWith(e.shown!)).toBe(true);
    expect(e.note).toContain(`This Read asked for lines 1-50; the pager sent it without limit, which the engine answers with an excerpt where it would refuse a window, and it showed the first ${e.banner} of the ${LINE_CHARS} characters of line 1`);
    expect(e.note).toContain(`cut -c ${e.banner + 1}-${e.banner + 20000}`);
    expect(e.note).toContain('offset=2 limit=49 is the rest of the requested window');
  });

  it('read whole: the note says how much of line 1 the excerpt showed, as the banner does, and what is not shown', () => {
    const e = excerpt(withPager.cursor(whole));
    expect(e.note).toContain(`This Read without limit showed the first ${e.banner} of the ${LINE_CHARS} characters of line 1, the engine's excerpt`);
    expect(e.note).toContain(`cut -c ${e.banner + 1}-${e.banner + 20000}`);
    expect(e.note).toMatch(/Lines 2-101 are not shown yet; offset=2 limit=\d+/);
  });

  it('following the notes reads every other line once, with no refusal at all', () => {
    expect(withPager.refusals).toBe(0);
    for (const [path, last] of [[inWindows, 50], [whole, 101]] as const) {
      const c = withPager.cursor(path);
      const got = c.received.filter(([n]) => n >= 2 && n <= last);
      const cov = coverage(path, got, { except: [1, ...Array.from({ length: 101 - last }, (_, i) => last + 1 + i)] });
      expect([path, ranges(cov.missing), ranges(cov.duplicated), ranges(cov.wrong)]).toEqual([path, '', '', '']);
    }
  });
});

describe('a file that is one line over the cap, whose estimate is low for the model', () => {
  // Arabic with its vowel marks: the estimate takes it at about 0.62 of what o200k counts, so the line is over the
  // cap by the estimate only a little, where a line within 1.7 times the cap is named alone before any count of the
  // file. The engine's excerpt tells that count (it is sized by it), so the note calls the line over the cap, and
  // does not send the model back for the same excerpt.
  const dir = tempDir('excerpt-low');
  const path = put(dir, 'verses.txt', `${'بِسْمِ ٱللَّهِ ٱلرَّحْمَٰنِ ٱلرَّحِيمِ '.repeat(1500)}\n`);

  it('read whole: one Read, the excerpt, and the note says the line is over the cap and nothing is left', async () => {
    const s = await readSession({ cwd: dir, hooks: 'pager', targets: [{ path }] });
    expect(s.ok, s.run.stderr).toBe(true);
    const c = s.cursor(path);
    const trail = c.steps.map((st) => `${JSON.stringify(st.asked)} ${st.notes.join(' | ').slice(0, 400)}`).join('\n');
    expect(c.steps, trail).toHaveLength(1);
    const note = c.steps[0]!.notes.find((t) => t.includes('read-ceiling-pager')) ?? '';
    expect(note, trail).toContain('Line 1 alone is over the cap');
    expect(note, trail).toContain('Nothing is left of the file.');
  }, ENGINE_TIMEOUT);
});
