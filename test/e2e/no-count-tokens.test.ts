// An API without count_tokens (many gateways answer it 404), on the real engine: the engine then counts a window by
// its length, round(chars / 4) (/ 2 for JSON; docs/ENGINE.md §3.3), and refuses by that. The pager recognises such a
// count in the first refusal, sizes every later window exactly by it, and remembers it for the model: in the next
// session the first window is sized so too, where the tokenizer's estimate would clamp it to a fraction of it.
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import { cjsonPretty, engineLines, prose, put } from './harness/files.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 300_000;
const CAP = 25_000;

/** Prose indented by 48 spaces: the pager's estimate counts the indentation as about one token, the engine by
 * length as twelve, so its prior is refused by the engine's count whatever the words. */
const indented = (lines: number, seed: number) =>
  prose(lines, seed).split('\n').map((l) => (l ? ' '.repeat(48) + l : l)).join('\n');

/** The engine's count of a .txt window without count_tokens: its length over 4, rounded. */
const byLength = (lines: string[]) => Math.round((lines.reduce((n, l) => n + l.length, 0) + lines.length - 1) / 4);

type Cursor = ReturnType<Session['cursor']>;

/** A reading's Reads as the test failure shows them. */
const trailOf = (c: Cursor) => c.steps.map((st) =>
  `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${st.isError ? 'REFUSED' : st.lines.length}`).join('\n');

/** Checks that each of these Reads that stopped short of the file's end is exactly as long as the engine accepts:
 * within the cap by length, and over it with one line more. Returns how many it checked. */
function expectExactWindows(steps: Cursor['steps'], file: string[], cap: number, trail: string): number {
  let exact = 0;
  for (const st of steps) {
    const last = st.lines.at(-1)![0];
    if (last >= file.length - 1) continue;
    const text = st.lines.map(([, t]) => t);
    expect(byLength(text), trail).toBeLessThanOrEqual(cap);
    expect(byLength([...text, file[last]!]), `one line more would be refused:\n${trail}`).toBeGreaterThan(cap);
    exact++;
  }
  return exact;
}

describe('an API without count_tokens', () => {
  it('after one refusal, every window is the largest the engine accepts, and every line is read once', async () => {
    const dir = tempDir('nocount');
    const path = put(dir, 'prose.txt', indented(6000, 31));
    const file = engineLines(path);
    const s = await readSession({ cwd: dir, hooks: 'pager', noCountTokens: true, usage: true, thinkMs: 300,
      targets: [{ path, offset: 1, limit: 2000 }] });
    expect(s.ok, s.run.stderr).toBe(true);
    const c = s.cursor(path);
    const trail = trailOf(c);
    expect(s.counts, 'the stand-in counted nothing').toEqual([]);
    // The pager's estimate of the text is sparser than its length over 4: its first window is refused, once.
    expect(c.steps[0]!.isError, trail).toBe(true);
    expect(c.refusals, trail).toBe(1);
    // Each window after it that stopped short of the file's end is exactly as long as the engine accepts.
    expect(expectExactWindows(c.steps.slice(1), file, CAP, trail), trail).toBeGreaterThan(3);
    const cov = coverage(path, c.received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated) }, trail).toEqual({ missing: '', duplicated: '' });

    const bare = await readSession({ cwd: dir, hooks: 'none', noCountTokens: true, targets: [{ path, offset: 1, limit: 2000 }] });
    console.log(`no count_tokens, indented prose in 2000-line windows: calls ${c.steps.length} (refusals ${c.refusals}) with the pager | ${bare.calls} (${bare.refusals}) without`);
    expect(c.steps.length).toBeLessThan(bare.calls);
  }, ENGINE_TIMEOUT);

  it('a partial page\'s banner shows it too: after a whole read of a file under 256 KiB, every window fits exactly', async () => {
    const dir = tempDir('nocount-banner');
    const path = put(dir, 'notes.txt', indented(1800, 34));
    const file = engineLines(path);
    // At a cap of 5,000 (CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS) the file takes a dozen windows.
    const cap = 5000;
    const s = await readSession({ cwd: dir, hooks: 'pager', cap, noCountTokens: true, usage: true, thinkMs: 300, targets: [{ path }] });
    expect(s.ok, s.run.stderr).toBe(true);
    const c = s.cursor(path);
    const trail = trailOf(c);
    expect(c.refusals, trail).toBe(0);
    // The engine's page (sized by its count of the whole file, by length), then windows the note names: from the
    // second on, each is as long as the engine accepts.
    expect(expectExactWindows(c.steps.slice(2), file, cap, trail), trail).toBeGreaterThan(5);
    const cov = coverage(path, c.received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated) }, trail).toEqual({ missing: '', duplicated: '' });
  }, ENGINE_TIMEOUT);

  it('the next session sizes a Korean file\'s first window by length at once; a machine that never saw the model does not', async () => {
    const dir = tempDir('nocount-memory');
    const home = tempDir('nocount-home');
    const english = put(dir, 'prose.txt', indented(2000, 32));
    const first = await readSession({ cwd: dir, hooks: 'pager', noCountTokens: true, home,
      targets: [{ path: english, offset: 1, limit: 2000, once: true }] });
    expect(first.ok, first.run.stderr).toBe(true);
    expect(first.cursor(english).steps[0]!.isError, 'refused on length: the pager learns it here').toBe(true);

    // Hangul in a .txt: the tokenizer counts it about one token a letter, the engine (by length) a quarter of that.
    const korean = put(dir, 'ko.txt', cjsonPretty('ko', 1500, 33));
    const target = { path: korean, offset: 1, limit: 10_000, once: true };
    const [next, control] = await Promise.all([
      readSession({ cwd: dir, hooks: 'pager', noCountTokens: true, home, targets: [target] }),
      readSession({ cwd: dir, hooks: 'pager', noCountTokens: true, home: tempDir('nocount-home2'), targets: [target] }),
    ]);
    expect(next.ok, next.run.stderr).toBe(true);
    expect(control.ok, control.run.stderr).toBe(true);
    const step = next.cursor(korean).steps[0]!;
    const other = control.cursors[0]!.steps[0]!;
    expect(step.isError, step.content.slice(0, 200)).toBe(false);
    expect(other.isError, other.content.slice(0, 200)).toBe(false);
    expect(expectExactWindows([step], engineLines(korean), CAP, 'the largest window the engine accepts'), 'checked').toBe(1);
    console.log(`no count_tokens, Korean .txt, first window of a new session: ${step.lines.length} lines with the memory | ${other.lines.length} without`);
    expect(step.lines.length).toBeGreaterThan(2 * other.lines.length);
  }, ENGINE_TIMEOUT);
});
