// Issue #12 on the real engine: what a refusal teaches outlives the session. A denser model refuses the pager's
// first window of a file once; in a new session on the same machine, the first window of the same unchanged file
// fits at once, and so does the first window of another kind of text, by what the refusal taught about the model.
// A machine without that memory is refused again (the control).
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import { cjsonPretty, code, engineLines, prose, proseOfSize, put } from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 240_000;
/** count_tokens answers this many times the npm tokenizer's count: a denser model than the pager expects. */
const DENSER = 2.5;
/** And a sparser one: the estimate's prior sizes its first windows short. */
const SPARSER = 0.6;

/** The engine's count of the session's first window of `path`, which came back. */
function firstCount(s: Awaited<ReturnType<typeof readSession>>, path: string): number {
  expect(s.ok, s.run.stderr).toBe(true);
  const step = s.cursor(path).steps[0]!;
  expect(step.isError, step.content.slice(0, 200)).toBe(false);
  const page = step.lines.map(([, t]) => t).join('\n');
  return s.counts.find((c) => c.text === page)!.tokens;
}

describe('memory across sessions', () => {
  it('a density learned in one session makes the same unchanged file\'s first window right in the next', async () => {
    const dir = tempDir('memory');
    const home = tempDir('memory-home');
    const path = put(dir, 'prose.txt', prose(1500, 23));
    const target = { path, offset: 1, limit: 1500, once: true };
    const first = await readSession({ cwd: dir, hooks: 'pager', scale: DENSER, home, targets: [target] });
    expect(first.ok, first.run.stderr).toBe(true);
    expect(first.cursor(path).steps[0]!.isError, 'the prior is too light for this model: refused once').toBe(true);

    const [next, control] = await Promise.all([
      readSession({ cwd: dir, hooks: 'pager', scale: DENSER, home, targets: [target] }),
      readSession({ cwd: tempDir('memory-control'), hooks: 'pager', scale: DENSER, home: tempDir('memory-home2'), targets: [{ ...target, path: put(tempDir('memory-control-files'), 'prose.txt', prose(1500, 23)) }] }),
    ]);
    expect(next.ok, next.run.stderr).toBe(true);
    expect(next.sessionId).not.toBe(first.sessionId);
    const step = next.cursor(path).steps[0]!;
    expect(step.isError, step.content.slice(0, 200)).toBe(false);
    // Clamped to fit, and no needlessly small window: the engine counted it near the cap.
    expect(step.lines.length).toBeLessThan(1500);
    const page = step.lines.map(([, t]) => t).join('\n');
    const counted = next.counts.find((c) => c.text === page);
    expect(counted?.tokens).toBeLessThanOrEqual(25_000);
    expect(counted!.tokens).toBeGreaterThan(25_000 * 0.8);
    // The same Read on a machine that never saw the file is refused, as the first session's was.
    expect(control.ok, control.run.stderr).toBe(true);
    expect(control.cursors[0]!.steps[0]!.isError).toBe(true);
  }, ENGINE_TIMEOUT);

  // A fleet runs each session in its own clone or worktree: the same file at another path, with another mtime. What one
  // session learned of it sizes the others' first window (the memory keeps the content's digest). A sparser model
  // shows it: no refusal teaches the model's prior, and only the file's own density fills its first window.
  it('a density learned in one clone makes the first window of the same file in another clone right', async () => {
    const home = tempDir('memory-clone-home');
    const text = prose(4000, 31);
    const cloneA = put(tempDir('memory-clone-a'), 'notes.txt', text);
    const window = (path: string) => ({ path, offset: 1, limit: 4000 });
    // The stand-in reports each request's input tokens, as the API does: the usage that teaches a file's density.
    const first = await readSession({ cwd: tempDir('memory-clone-a-cwd'), hooks: 'pager', scale: SPARSER, usage: true, home, targets: [window(cloneA)] });
    expect(first.ok, first.run.stderr).toBe(true);
    expect(first.cursor(cloneA).steps.length, 'read in more than one window: the usage taught the density').toBeGreaterThan(1);

    const cloneB = put(tempDir('memory-clone-b'), 'notes.txt', text);
    // Another file of the same kind, never read: sized by the model's prior, on the same machine.
    const other = put(tempDir('memory-clone-other'), 'notes.txt', prose(4000, 32));
    const next = await readSession({ cwd: tempDir('memory-clone-b-cwd'), hooks: 'pager', scale: SPARSER, usage: true, home, targets: [{ ...window(cloneB), once: true }] });
    const control = await readSession({ cwd: tempDir('memory-clone-other-cwd'), hooks: 'pager', scale: SPARSER, usage: true, home, targets: [{ ...window(other), once: true }] });
    const copied = firstCount(next, cloneB);
    const prior = firstCount(control, other);
    expect(copied, `the copy's first window (${copied} tokens) against a file never read (${prior})`).toBeLessThanOrEqual(25_000);
    expect(copied).toBeGreaterThan(25_000 * 0.8);
    expect(prior).toBeLessThan(25_000 * 0.7);
  }, ENGINE_TIMEOUT);

  // A file edited since (lines inserted, others removed: another size and mtime) is mostly the text that was counted.
  // Its first window in a later session is sized by the density counted before the edit, not by the model's prior.
  it('a file edited since an earlier session: its first window sized by the density counted before the edit', async () => {
    const home = tempDir('memory-edit-home');
    const lines = prose(4000, 51).split('\n');
    const path = put(tempDir('memory-edit'), 'notes.txt', lines.join('\n'));
    const window = { path, offset: 1, limit: 4000 };
    const first = await readSession({ cwd: tempDir('memory-edit-cwd'), hooks: 'pager', scale: SPARSER, usage: true, home, targets: [window] });
    expect(first.ok, first.run.stderr).toBe(true);
    expect(first.cursor(path).steps.length, 'read in more than one window: the usage taught the density').toBeGreaterThan(1);

    const editedText = [...lines.slice(0, 300), ...prose(60, 52).split('\n'), ...lines.slice(340)].join('\n');
    const edited = put(dirname(path), 'notes.txt', editedText);
    // The same edited file on a machine that never read it: sized by the model's prior.
    const other = put(tempDir('memory-edit-other'), 'notes.txt', editedText);
    const next = await readSession({ cwd: tempDir('memory-edit-cwd2'), hooks: 'pager', scale: SPARSER, usage: true, home, targets: [{ ...window, path: edited, once: true }] });
    const control = await readSession({ cwd: tempDir('memory-edit-cwd3'), hooks: 'pager', scale: SPARSER, usage: true, home: tempDir('memory-edit-home2'), targets: [{ ...window, path: other, once: true }] });
    const afterEdit = firstCount(next, edited);
    const prior = firstCount(control, other);
    expect(afterEdit, `the edited file's first window (${afterEdit} tokens) against the prior's (${prior})`).toBeLessThanOrEqual(25_000);
    expect(afterEdit).toBeGreaterThan(25_000 * 0.8);
    expect(prior).toBeLessThan(25_000 * 0.7);

    // Another text written at the same path (a scratch file rewritten): not taken for a version of the one counted.
    put(dirname(path), 'notes.txt', prose(4000, 53));
    const rewritten = await readSession({ cwd: tempDir('memory-edit-cwd4'), hooks: 'pager', scale: SPARSER, usage: true, home, targets: [{ ...window, once: true }] });
    expect(firstCount(rewritten, path), 'sized by the prior').toBeLessThan(25_000 * 0.7);
  }, ENGINE_TIMEOUT);

  // Read again, each window is sized by the densities the first reading counted over its own lines, not by the usage
  // of the window before it: where the text changes (prose, code, Korean JSON, prose), the windows stay near the cap.
  it('a file read again in another clone: every window sized by what the first reading counted there', async () => {
    const home = tempDir('memory-map-home');
    const text = prose(1500, 41) + code(150, 42) + cjsonPretty('ko', 250, 43) + prose(1500, 44) + code(150, 45);
    const first = put(tempDir('memory-map-a'), 'mixed.txt', text);
    const again = put(tempDir('memory-map-b'), 'mixed.txt', text);
    const one = await readSession({ cwd: tempDir('memory-map-a-cwd'), hooks: 'pager', usage: true, home, targets: [{ path: first }] });
    expect(one.ok, one.run.stderr).toBe(true);
    const two = await readSession({ cwd: tempDir('memory-map-b-cwd'), hooks: 'pager', usage: true, home, targets: [{ path: again }] });
    expect(two.ok, two.run.stderr).toBe(true);
    const counts = (s: typeof two, path: string) => s.cursor(path).steps.map((step) => {
      expect(step.isError, step.content.slice(0, 200)).toBe(false);
      const page = step.lines.map(([, t]) => t).join('\n');
      return s.counts.find((c) => c.text === page)?.tokens ?? 0;
    });
    const firstReading = counts(one, first);
    const secondReading = counts(two, again);
    const trail = `first reading ${firstReading.join(', ')}; read again ${secondReading.join(', ')}`;
    expect(secondReading.length, trail).toBeLessThanOrEqual(firstReading.length);
    // Every window but the last near the cap: sized by the window before it, the ones after a change of text counted
    // 16,500-17,700 (the first reading's too).
    for (const tokens of secondReading.slice(0, -1)) {
      expect(tokens, trail).toBeLessThanOrEqual(25_000);
      expect(tokens, trail).toBeGreaterThan(25_000 * 0.8);
    }
    const cov = coverage(again, two.cursor(again).received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated) }).toEqual({ missing: '', duplicated: '' });
  }, ENGINE_TIMEOUT);

  // A file under 256 KiB read with no limit takes the engine's partial page first, sized by 0.85 of the engine's count
  // of the whole file. Read again, what the first reading counted over the page's lines is known: the same Read runs as
  // a window that holds more, explicit (it counts as read for an edit), and the reading goes on to the end.
  it('a file under 256 KiB read with no limit again in another clone: a window that holds more than the page', async () => {
    const home = tempDir('memory-page-home');
    const text = proseOfSize(200_000, 61);
    const first = put(tempDir('memory-page-a'), 'notes.txt', text);
    const again = put(tempDir('memory-page-b'), 'notes.txt', text);
    const one = await readSession({ cwd: tempDir('memory-page-a-cwd'), hooks: 'pager', usage: true, home, targets: [{ path: first }] });
    expect(one.ok, one.run.stderr).toBe(true);
    const two = await readSession({ cwd: tempDir('memory-page-b-cwd'), hooks: 'pager', usage: true, home, targets: [{ path: again }] });
    expect(two.ok, two.run.stderr).toBe(true);
    const [page] = one.cursor(first).steps;
    const [window] = two.cursor(again).steps;
    const paged = (s: typeof one, id: string) => s.ran.get(id)?.file?.truncatedByTokenCap === true;
    expect(paged(one, page!.toolUseId), 'the first reading starts with the engine\'s page').toBe(true);
    expect(window!.isError, window!.content.slice(0, 200)).toBe(false);
    expect(paged(two, window!.toolUseId), 'read again, a window').toBe(false);
    expect(window!.lines.length, `page ${page!.lines.length} lines, window ${window!.lines.length}`).toBeGreaterThan(page!.lines.length);
    const counted = two.counts.find((c) => c.text === window!.lines.map(([, t]) => t).join('\n'));
    expect(counted?.tokens).toBeLessThanOrEqual(25_000);
    for (const step of two.cursor(again).steps) expect(step.isError, step.content.slice(0, 200)).toBe(false);
    const cov = coverage(again, two.cursor(again).received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated) }).toEqual({ missing: '', duplicated: '' });
  }, ENGINE_TIMEOUT);

  // Lines over the cap each: the first reading has one refused and the next, text like it, passed over by that count,
  // then a line of other text refused too. The density kept is that last line's, by which the first two (other text)
  // may fit: read again, they were named and refused again (xlsx.full.min.js). The memory keeps the lines themselves.
  it('lines over the cap in one reading: read again in another clone, passed over without a Read', async () => {
    const home = tempDir('memory-over-home');
    const han = '漢字文化圏的書写体系'.repeat(3000);
    const words = 'alpha beta gamma delta '.repeat(4400);
    const text = `${prose(300, 71)}\n${han}\n${han}\n${words}\n${prose(200, 72)}`;
    const first = put(tempDir('memory-over-a'), 'bundle.txt', text);
    const again = put(tempDir('memory-over-b'), 'bundle.txt', text);
    const long = engineLines(first).flatMap((t, i) => (t.length > 20_000 ? [i + 1] : []));
    expect(long).toHaveLength(3);
    // Counted at 1.5 times o200k: each long line over the cap, the prose far under it.
    const one = await readSession({ cwd: tempDir('memory-over-a-cwd'), hooks: 'pager', scale: 1.5, home, targets: [{ path: first }] });
    expect(one.ok, one.run.stderr).toBe(true);
    const refusedAt = (s: typeof one, path: string) => s.cursor(path).steps.filter((st) => st.isError)
      .map((st) => st.asked.offset);
    expect(refusedAt(one, first), 'the first reading: the first line of Han and the line of words refused')
      .toEqual([long[0], long[2]]);
    const two = await readSession({ cwd: tempDir('memory-over-b-cwd'), hooks: 'pager', scale: 1.5, home, targets: [{ path: again }] });
    expect(two.ok, two.run.stderr).toBe(true);
    const trail = two.cursor(again).steps.map((st) => `${st.asked.offset ?? 1}+${st.asked.limit ?? '-'}${st.isError ? ' refused' : ''}`).join(', ');
    expect(refusedAt(two, again), trail).toEqual([]);
    expect(two.cursor(again).steps.map((st) => st.asked.offset), trail).not.toContain(long[0]);
    const cov = coverage(again, two.cursor(again).received, { except: long });
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated) }).toEqual({ missing: '', duplicated: '' });
  }, ENGINE_TIMEOUT);

  it('a refusal of English prose sizes a Korean file\'s first window for the same denser model in the next session', async () => {
    const dir = tempDir('memory-model');
    const home = tempDir('memory-model-home');
    const english = put(dir, 'prose.txt', prose(1500, 24));
    const first = await readSession({ cwd: dir, hooks: 'pager', scale: DENSER, home, targets: [{ path: english, offset: 1, limit: 1500, once: true }] });
    expect(first.ok, first.run.stderr).toBe(true);
    expect(first.cursor(english).steps[0]!.isError, 'the prior is too light for this model: refused once').toBe(true);

    // Korean JSON: Hangul, quoted keys and layout, no English prose. The control machine never saw this model.
    const korean = put(dir, 'ko.json', cjsonPretty('ko', 400, 5));
    const target = { path: korean, offset: 1, limit: 2000, once: true };
    const [next, control] = await Promise.all([
      readSession({ cwd: dir, hooks: 'pager', scale: DENSER, home, targets: [target] }),
      readSession({ cwd: dir, hooks: 'pager', scale: DENSER, home: tempDir('memory-model-home2'), targets: [target] }),
    ]);
    expect(next.ok, next.run.stderr).toBe(true);
    const step = next.cursor(korean).steps[0]!;
    expect(step.isError, step.content.slice(0, 200)).toBe(false);
    // Sized for the model, not needlessly small: the engine counted it near the cap.
    const page = step.lines.map(([, t]) => t).join('\n');
    const counted = next.counts.find((c) => c.text === page);
    expect(counted?.tokens).toBeLessThanOrEqual(25_000);
    expect(counted!.tokens).toBeGreaterThan(25_000 * 0.75);
    expect(control.ok, control.run.stderr).toBe(true);
    expect(control.cursor(korean).steps[0]!.isError, 'without the memory the same window is refused').toBe(true);
  }, ENGINE_TIMEOUT);
});
