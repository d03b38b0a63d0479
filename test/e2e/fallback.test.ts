// The engine's fallback mode (docs/ENGINE.md §7.5): an API that refuses role:"system" turns makes the engine
// re-send without them and deliver hook contexts as <system-reminder> text inside the tool_result. The pager's
// notes must reach the model that way too, after a clamp and after a refusal, and lead it through the file.
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { readSession } from './harness/session.mjs';
import { observe } from './harness/standin.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 180_000;

describe('observe() in fallback form', () => {
  const note = 'PostToolUse:Read hook additional context: read-ceiling-pager: /r/a.txt has 9 lines. offset=4 limit=6 is the rest.';
  const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: '/r/a.txt', offset: 1, limit: 9 } });
  const messages = (result: unknown, after: unknown[] = []) => [
    { role: 'user', content: 'Read the files.' },
    { role: 'assistant', content: [use('t1')] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: result }, ...after] },
  ];

  it('moves a reminder appended inside the tool_result string into the context', () => {
    const obs = observe(messages(`1\tone\n2\ttwo\n3\tthree\n\n<system-reminder>\n${note}\n</system-reminder>`));
    expect(obs.results[0]).toMatchObject({ content: '1\tone\n2\ttwo\n3\tthree', reminders: [note], isError: false });
    expect(obs.context).toContain(note);
  });

  it('moves reminders in later text blocks of the tool_result, and reads text blocks after it', () => {
    const obs = observe(messages(
      [{ type: 'text', text: 'File content (4000 tokens) exceeds maximum allowed tokens (3000).' }, { type: 'text', text: `<system-reminder>\n${note}\n</system-reminder>` }],
      [{ type: 'text', text: '<system-reminder>\nsomething else\n</system-reminder>' }],
    ));
    expect(obs.results[0]).toMatchObject({ content: 'File content (4000 tokens) exceeds maximum allowed tokens (3000).', reminders: [note] });
    expect(obs.context).toContain(note);
    expect(obs.context).toContain('something else');
  });

  it('leaves a result that is only a reminder (offset past the end) as the tool\'s own text', () => {
    const text = '<system-reminder>Warning: the file exists but is shorter than the provided offset (40). The file has 9 lines.</system-reminder>';
    const obs = observe(messages(text));
    expect(obs.results[0]).toMatchObject({ content: text, reminders: [] });
  });
});

describe('in fallback mode (the API refuses role:"system" turns)', () => {
  const CASES = [
    { name: 'after a clamp', scale: 1, kind: 'PostToolUse' },
    // count_tokens × 2.5: the pager's clamp is refused, and only the refusal note says what fits.
    { name: 'after a refusal by a denser model', scale: 2.5, kind: 'PostToolUseFailure' },
  ];
  for (const k of CASES) {
    it(`the note reaches the model inside the tool_result, ${k.name}, and the reader follows it to the end`, async () => {
      const dir = tempDir('fallback');
      const path = put(dir, 'prose.txt', prose(300, 71));
      const s = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, scale: k.scale, refuseSystem: true, targets: [{ path, offset: 1, limit: 300 }] });
      expect(s.ok, s.run.stderr).toBe(true);
      // Fallback really was on: a system turn was refused, and no main-loop request held one afterwards.
      expect(s.systemRefusals).toBeGreaterThan(0);
      expect(s.systemAnswered).toBe(0);
      expect(s.conversation.some((m: { role: string }) => m.role === 'system')).toBe(false);

      const c = s.cursor(path);
      const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${st.isError ? 'REFUSED ' : ''}${st.decision}`).join('\n');
      const [first] = c.steps;
      expect(first?.isError, trail).toBe(k.kind === 'PostToolUseFailure');
      // The note came as a <system-reminder> inside the first tool_result, from the event that wrote it.
      const result = s.observations[1]!.results.find((r) => r.tool_use_id === first!.toolUseId)!;
      const notes = result.reminders.filter((t) => t.includes('read-ceiling-pager:'));
      expect(notes.length, result.reminders.join('\n---\n')).toBe(1);
      expect(notes[0]!.startsWith(`${k.kind}:Read hook additional context: read-ceiling-pager:`)).toBe(true);
      expect(result.content).not.toContain('<system-reminder>');
      expect(first!.advice, trail).toBeDefined();
      expect(notes[0]).toContain(`offset=${first!.advice!.offset} limit=${first!.advice!.limit}`);
      if (k.kind === 'PostToolUse') expect(first!.advice).toEqual({ offset: first!.lines.length + 1, limit: 300 - first!.lines.length });
      else expect(first!.advice!.offset).toBe(1);

      // Followed, it reads the file completely: every line once, nothing refused after the first window.
      expect(c.steps.length, trail).toBeGreaterThan(1);
      expect(c.steps.slice(1).filter((st) => st.isError).length, trail).toBe(0);
      const cov = coverage(path, c.received);
      const got = { missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) };
      expect({ ...got, outside: ranges(cov.outside) }, trail)
        .toEqual({ missing: '', duplicated: '', wrong: '', outside: '' });
    }, ENGINE_TIMEOUT);
  }
});
