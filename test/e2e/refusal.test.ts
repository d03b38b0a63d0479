// Point 3 of issue #3 on the real engine: when the engine refuses a window anyway (its model is denser than the
// pager's prior), the note advises a window from the engine's own count, that window is read, and the next page
// of the same file is not refused again: the density was learned. And the refused window's density does not size
// the rest of the file: after it, each window's usage sizes the next (issue #12).
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 180_000;
/** count_tokens answers this many times the npm tokenizer's count: a denser model than the pager expects. */
const DENSER = 2.5;

const CASES = [
  { name: 'at the default cap', cap: undefined, effectiveCap: 25_000, lines: 1500 },
  { name: `with the cap forced down to 3000 by CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS`, cap: 3000, effectiveCap: 3000, lines: 300 },
];

describe(`a refusal by a denser model (count_tokens × ${DENSER})`, () => {
  for (const k of CASES) {
    it(`gets advice from the engine's count, the advice works, and the next page is not refused, ${k.name}`, async () => {
      const dir = tempDir('refusal');
      const path = put(dir, 'prose.txt', prose(k.lines, 21));
      const s = await readSession({ cwd: dir, hooks: 'pager', cap: k.cap, scale: DENSER, targets: [{ path, offset: 1, limit: k.lines }] });
      expect(s.ok, s.run.stderr).toBe(true);
      const c = s.cursor(path);
      const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${st.isError ? 'REFUSED ' : ''}${st.decision}`).join('\n');

      // The pager's clamp was refused: the engine's count is the number the note is built on.
      const [refused, retry, ...rest] = c.steps;
      expect(refused?.isError, trail).toBe(true);
      const m = /\((\d+) tokens\) exceeds maximum allowed tokens \((\d+)\)/.exec(refused!.content);
      expect(m, refused!.content).not.toBeNull();
      expect(Number(m![2])).toBe(k.effectiveCap);
      const note = refused!.notes.join('\n');
      expect(note, 'the note quotes the engine\'s count').toContain(`${m![1]} tokens`);
      expect(refused!.advice, note).toBeDefined();
      expect(refused!.advice!.offset).toBe(1);

      // The advised window is read as advised, whole, and the engine counted it under the cap.
      expect(retry?.asked).toMatchObject({ offset: refused!.advice!.offset, limit: refused!.advice!.limit });
      expect(retry?.isError, retry?.content).toBe(false);
      expect(retry!.lines.length).toBe(refused!.advice!.limit);
      const page = retry!.lines.map(([, t]) => t).join('\n');
      const counted = s.counts.find((x) => x.text === page);
      expect(counted?.tokens).toBeLessThanOrEqual(k.effectiveCap);
      expect(counted!.tokens, 'the advice is no needlessly small window').toBeGreaterThan(k.effectiveCap * 0.5);

      // Learned: nothing after it is refused, and later pages are clamped to fit from the start.
      expect(rest.length, trail).toBeGreaterThan(0);
      expect(rest.filter((st) => st.isError).length, trail).toBe(0);
      const cov = coverage(path, c.received);
      expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) }, trail)
        .toEqual({ missing: '', duplicated: '', wrong: '' });

      const without = await readSession({ cwd: dir, hooks: 'none', cap: k.cap, scale: DENSER, targets: [{ path, offset: 1, limit: k.lines }] });
      console.log(`denser model, ${k.name}: refusals ${c.refusals} with the pager | ${without.refusals} without; calls ${c.steps.length} | ${without.calls}`);
      expect(c.refusals).toBeLessThanOrEqual(without.refusals);
      expect(c.steps.length).toBeLessThanOrEqual(without.calls);
    }, ENGINE_TIMEOUT);
  }
});

describe('after a refusal of a file\'s dense start, each window\'s usage sizes the next', () => {
  // A model that counts the file's first 2,000 lines (marked "§") at 1.5 characters a token and the rest at 4.3:
  // the refusal teaches the dense start's density, and the rest of the file is read in windows sized by the usage
  // of the window before each (the stand-in reports it, as the API does), not by that refusal. A line number in a
  // result counts as real tokenizers count it: a token per three digits, and one for the tab before an empty line.
  const DENSE_LINES = 2000;
  const lineTokens = (line: string) => {
    const numbered = /^(\d+)\t/.exec(line);
    const text = numbered ? line.slice(numbered[0].length) : line;
    const prefix = numbered ? Math.ceil(numbered[1]!.length / 3) + (text === '' ? 1 : 0) : 0;
    return prefix + Math.ceil(text.length / (text.includes('§') ? 1.5 : 4.3));
  };
  const count = (text: string) => text.split('\n').reduce((n, line) => n + lineTokens(line), 0);

  it('the windows of the sparser rest hold twice as many lines as the advised one, and nothing is refused again', async () => {
    const dir = tempDir('refusal-sparser');
    const lines = prose(12_000, 31).split('\n');
    const text = lines.map((l, i) => (i < DENSE_LINES ? `§ ${l}` : l)).join('\n');
    const path = put(dir, 'mixed.txt', text);
    const s = await readSession({ cwd: dir, hooks: 'pager', count, usage: true, thinkMs: 500, targets: [{ path }] });
    expect(s.ok, s.run.stderr).toBe(true);
    const c = s.cursor(path);
    const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${st.isError ? 'REFUSED ' : `${st.lines.length} lines `}${st.decision}`).join('\n');
    const [refused, advised, ...rest] = c.steps;
    expect(refused?.isError, trail).toBe(true);
    expect(advised?.isError, trail).toBe(false);
    expect(rest.filter((st) => st.isError), trail).toHaveLength(0);
    // Windows sized by the usage of a window wholly past the dense start, but the last (the file's rest). Without
    // the usage after a refusal, they were sized by the refused window's count, as small as the advised one.
    const sparse = rest.slice(1, -1).filter((_, i) => rest[i]!.lines[0]![0] > DENSE_LINES);
    expect(sparse.length, trail).toBeGreaterThan(2);
    for (const st of sparse) expect(st.lines.length, trail).toBeGreaterThan(advised!.lines.length * 2);
    // Each holds what the model counts as under the cap, and every line came back once.
    for (const st of rest) {
      const page = st.lines.map(([, t]) => t).join('\n');
      expect(s.counts.find((x) => x.text === page)?.tokens ?? count(page), trail).toBeLessThanOrEqual(25_000);
    }
    const cov = coverage(path, c.received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) }, trail)
      .toEqual({ missing: '', duplicated: '', wrong: '' });
  }, ENGINE_TIMEOUT);
});
