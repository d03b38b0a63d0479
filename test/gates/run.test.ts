// The gates in-process on synthetic hook inputs and transcripts shaped like the engine's (2.1.332): the rules of
// issue #8 one by one, and every case where a gate must stay silent.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Gate } from '../../src/gates/names.js';
import * as run from '../../src/gates/run.js';
import { gateAfterRead, gateDeny } from '../../src/gates/run.js';
import { apiClearedReads } from '../../src/gates/transcript.js';
import { answer, contextFor } from '../../src/hooks/io.js';

const root = mkdtempSync(join(tmpdir(), 'rcp-gates-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function session() {
  const dir = join(root, `s${++n}`);
  mkdirSync(dir);
  const transcript = join(dir, 'session.jsonl');
  writeFileSync(transcript, '');
  const env = { READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
  const sessionId = `sess${n}`;
  let ids = 0;
  const ctx = () => contextFor(Date.now(), env);
  const file = (name: string, lineCount: number) => {
    const p = join(dir, name);
    writeFileSync(p, `${Array.from({ length: lineCount }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    return p;
  };
  const record = (r: object) => appendFileSync(transcript, `${JSON.stringify(r)}\n`);
  const common = (extra: object = {}) => ({ session_id: sessionId, transcript_path: transcript, cwd: dir, permission_mode: 'default', ...extra });
  /** The model calls a tool: its tool_use goes to the transcript, then PreToolUse runs. */
  const pre = (gates: Gate[], tool: string, input: Record<string, unknown>, extra: object = {}) => {
    const id = `toolu_${++ids}`;
    record({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: tool, input }] } });
    return { id, reason: gateDeny({ ...common(extra), hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: id }, new Set(gates), ctx()) };
  };
  /** A Read that ran: its result goes to the transcript, then PostToolUse runs. */
  const read = (
    gates: Gate[], input: Record<string, unknown>,
    returned: { startLine: number; numLines: number; totalLines: number }, extra: object = {},
  ) => {
    const { id, reason } = pre(gates, 'Read', input, extra);
    if (reason) return { id, reason };
    record({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: 'text' }] } });
    gateAfterRead({ ...common(extra), hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: input, tool_use_id: id,
      tool_response: { type: 'text', file: { filePath: input.file_path, content: 'text', ...returned } } }, new Set(gates), ctx());
    return { id, reason };
  };
  /** The user rejects the call in the permission dialog (the engine's record of it). */
  /** A denial as the engine records it: the user's in the permission dialog by default; 'classifier' is an auto-mode
   * classifier block as 2.1.332 writes it (seen in test/e2e/gates-permission.test.ts); 'hook' a hook's deny. */
  const reject = (id: string, by: 'user_reject' | 'classifier' | 'hook' = 'user_reject') => record({
    type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: 'No.', is_error: true, tool_use_id: id }] },
    toolUseResult: 'Error: No.',
    ...(by === 'classifier'
      ? { toolDenialKind: 'automode-blocked', permissionDecision: { decision: 'reject', source: 'config', reasonType: 'classifier', reasonCode: 'classifier:auto-mode:block' } }
      : { toolDenialKind: 'permission-rule', permissionDecision: { decision: 'reject', source: by, reasonCode: 'unknown' } }),
  });
  return { dir, transcript, env, ctx, file, record, pre, read, reject, common };
}

const C: Gate[] = ['covered-reread'];
const E: Gate[] = ['edit-after-reject'];
const R: Gate[] = ['rejected-calls'];

describe('covered re-read', () => {
  it('denies a covered window once, then lets the same Read run', () => {
    const s = session();
    const a = s.file('a.txt', 30);
    s.read(C, { file_path: a, offset: 1, limit: 10 }, { startLine: 1, numLines: 10, totalLines: 31 });
    s.read(C, { file_path: a, offset: 11, limit: 10 }, { startLine: 11, numLines: 10, totalLines: 31 });
    expect(s.pre(C, 'Read', { file_path: a, offset: 5, limit: 12 }).reason).toMatch(/lines 5-16 of .*a\.txt are already/);
    expect(s.pre(C, 'Read', { file_path: a, offset: 5, limit: 12 }).reason).toBeUndefined();
    expect(s.pre(C, 'Read', { file_path: a, offset: 15, limit: 10 }).reason).toBeUndefined();
  });
  it('stays silent when the file changed, for PDF pages, and when the gate is off', () => {
    const s = session();
    const a = s.file('a.txt', 30);
    s.read(C, { file_path: a }, { startLine: 1, numLines: 31, totalLines: 31 });
    expect(s.pre([], 'Read', { file_path: a, offset: 2, limit: 2 }).reason).toBeUndefined();
    expect(s.pre(['rejected-calls', 'edit-after-reject'], 'Read', { file_path: a, offset: 2, limit: 2 }).reason).toBeUndefined();
    expect(s.pre(C, 'Read', { file_path: a, pages: '1' }).reason).toBeUndefined();
    appendFileSync(a, 'more\n');
    expect(s.pre(C, 'Read', { file_path: a, offset: 2, limit: 2 }).reason).toBeUndefined();
  });
  it('a subagent has its own record and does not see its parent\'s Reads', () => {
    const s = session();
    const a = s.file('a.txt', 30);
    s.read(C, { file_path: a }, { startLine: 1, numLines: 31, totalLines: 31 });
    expect(s.pre(C, 'Read', { file_path: a, offset: 2, limit: 2 }, { agent_id: 'agent1' }).reason).toBeUndefined();
    s.read(C, { file_path: a, offset: 1, limit: 5 }, { startLine: 1, numLines: 5, totalLines: 31 }, { agent_id: 'agent1' });
    expect(s.pre(C, 'Read', { file_path: a, offset: 3, limit: 2 }, { agent_id: 'agent1' }).reason).toMatch(/lines 3-4/);
    expect(s.pre(C, 'Read', { file_path: a, offset: 3, limit: 2 }, { agent_id: 'agent2' }).reason).toBeUndefined();
  });
  it('a result lost to a compaction, cleared, or missing from the transcript covers nothing', () => {
    for (const loss of [
      { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' },
      { type: 'system', subtype: 'microcompact_boundary' },
      { type: 'user', isCompactSummary: true, message: { role: 'user', content: 'summary' } },
    ]) {
      const s = session();
      const a = s.file('a.txt', 30);
      s.read(C, { file_path: a }, { startLine: 1, numLines: 31, totalLines: 31 });
      s.record(loss);
      expect(s.pre(C, 'Read', { file_path: a, offset: 2, limit: 2 }).reason, JSON.stringify(loss)).toBeUndefined();
    }
    const s = session();
    const a = s.file('a.txt', 30);
    const { id } = s.read(C, { file_path: a }, { startLine: 1, numLines: 31, totalLines: 31 });
    s.record({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: '[Old tool result content cleared]' }] } });
    expect(s.pre(C, 'Read', { file_path: a, offset: 2, limit: 2 }).reason).toBeUndefined();
    writeFileSync(s.transcript, ''); // a transcript that no longer holds the result
    expect(s.pre(C, 'Read', { file_path: a, offset: 3, limit: 2 }).reason).toBeUndefined();
  });
  it('a result the engine cut from the conversation (a tool_results_cut record) covers nothing; others still do', () => {
    const s = session();
    const a = s.file('a.txt', 30);
    const b = s.file('b.txt', 30);
    const cut = s.read(C, { file_path: a }, { startLine: 1, numLines: 31, totalLines: 31 });
    s.read(C, { file_path: b }, { startLine: 1, numLines: 31, totalLines: 31 });
    // As 2.1.332 writes it after clearing old results: the result records stay as they were.
    s.record({ type: 'attachment', attachment: { type: 'tool_results_cut', callIds: ['toolu_other', cut.id], standIn: '[Old tool result content cleared]', roughTokens: 900 } });
    expect(s.pre(C, 'Read', { file_path: a, offset: 2, limit: 2 }).reason).toBeUndefined();
    expect(s.pre(C, 'Read', { file_path: b, offset: 2, limit: 2 }).reason).toMatch(/lines 2-3/);
  });
  it('a Read whose result is not the text (an unchanged-file stub, an image) covers nothing', () => {
    const s = session();
    const a = s.file('a.txt', 30);
    for (const type of ['file_unchanged', 'image']) {
      const { id } = s.pre(C, 'Read', { file_path: a });
      s.record({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: 'File unchanged since last read.' }] } });
      gateAfterRead({
        ...s.common(), hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: a }, tool_use_id: id,
        tool_response: { type, file: { filePath: a, startLine: 1, numLines: 31, totalLines: 31 } },
      }, new Set(C), s.ctx());
    }
    expect(s.pre(C, 'Read', { file_path: a, offset: 2, limit: 2 }).reason).toBeUndefined();
  });
  it('results the API cleared (applied_edits on the assistant record) cover nothing: the first N Reads stand for them', () => {
    const s = session();
    const [a, b, c] = ['a.txt', 'b.txt', 'c.txt'].map((f) => s.file(f, 30));
    for (const f of [a, b, c]) s.read(C, { file_path: f }, { startLine: 1, numLines: 31, totalLines: 31 });
    s.pre(C, 'Bash', { command: 'make' }); // the API may have counted it among the cleared, or left it out
    // As 2.1.332 keeps the API's report on the answer it came with.
    s.record({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Back.' }],
      context_management: { applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: 900 }], client_sent_keep_tool_uses: 12 } } });
    expect(s.pre(C, 'Read', { file_path: a!, offset: 2, limit: 2 }).reason).toBeUndefined();
    expect(s.pre(C, 'Read', { file_path: b!, offset: 2, limit: 2 }).reason).toBeUndefined();
    expect(s.pre(C, 'Read', { file_path: c!, offset: 2, limit: 2 }).reason).toMatch(/lines 2-3/);
  });
  it('with the API clearing and no sight of where the conversation starts, no result counts', () => {
    const read = (id: string) => JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name: 'Read', input: {} }] } });
    const cleared = JSON.stringify({ type: 'assistant', message: { content: [], context_management: { applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 1 }] } } });
    const text = [read('t1'), read('t2'), read('t3'), cleared].join('\n');
    expect([...apiClearedReads(text, -1, true) as Set<string>]).toEqual(['t1']);
    expect(apiClearedReads(text, -1, false)).toBe('all');
    // After a compaction the count starts again there.
    const boundary = JSON.stringify({ type: 'system', subtype: 'compact_boundary' });
    const after = [read('t1'), boundary, read('t2'), read('t3'), cleared].join('\n');
    expect([...apiClearedReads(after, after.indexOf(boundary), true) as Set<string>]).toEqual(['t2']);
    expect(apiClearedReads([read('t1'), read('t2')].join('\n'), -1, false)).toEqual(new Set());
  });
  it('a request that asked the API to clear (its api-request record, written before the answer) clears all but the newest kept', () => {
    const use = (id: string, name = 'Read') => JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name, input: {} }] } });
    const request = (edit: object | undefined) => JSON.stringify({ type: 'api-request', params: { context_management: { edits: [{ type: 'clear_thinking_20251015' }, ...(edit ? [edit] : [])] } } });
    const clear = (trigger: number, keep: number) => ({ type: 'clear_tool_uses_20250919', trigger: { type: 'tool_uses', value: trigger }, keep: { type: 'tool_uses', value: keep } });
    const history = [use('t1'), use('b1', 'Bash'), use('t2'), use('t3'), use('t4')];
    const ids = (x: Set<string> | 'all') => [...(x as Set<string>)];
    expect(ids(apiClearedReads([...history, request(clear(3, 2))].join('\n'), -1, true))).toEqual(['t1', 't2']);
    // Not past the trigger: nothing cleared; past it but no sight of the start: taken as past.
    expect(ids(apiClearedReads([...history, request(clear(5, 2))].join('\n'), -1, true))).toEqual([]);
    expect(ids(apiClearedReads([...history, request(clear(5, 2))].join('\n'), -1, false))).toEqual(['t1', 't2']);
    // A Read made in the answer to that request is newer than it; a later request without the edit clears nothing.
    expect(ids(apiClearedReads([...history, request(clear(3, 2)), use('t5')].join('\n'), -1, true))).toEqual(['t1', 't2']);
    expect(ids(apiClearedReads([...history, request(clear(3, 2)), use('t5'), request(undefined)].join('\n'), -1, true))).toEqual([]);
  });
  it('only the results still there count: the rest must cover on its own', () => {
    const s = session();
    const a = s.file('a.txt', 30);
    s.read(C, { file_path: a, offset: 1, limit: 10 }, { startLine: 1, numLines: 10, totalLines: 31 });
    s.record({ type: 'system', subtype: 'compact_boundary' });
    s.read(C, { file_path: a, offset: 11, limit: 10 }, { startLine: 11, numLines: 10, totalLines: 31 });
    expect(s.pre(C, 'Read', { file_path: a, offset: 5, limit: 10 }).reason).toBeUndefined();
    expect(s.pre(C, 'Read', { file_path: a, offset: 12, limit: 3 }).reason).toMatch(/an earlier Read returned lines 11-20/);
  });
});

describe('re-read after a rejected edit', () => {
  it('denies the next Edit or Write of the file until it is read; other files run', () => {
    const s = session();
    const a = s.file('a.txt', 5);
    const b = s.file('b.txt', 5);
    s.read(E, { file_path: a }, { startLine: 1, numLines: 6, totalLines: 6 });
    const edit = { file_path: a, old_string: 'line 2\n', new_string: 'two\n', replace_all: false };
    const first = s.pre(E, 'Edit', edit);
    expect(first.reason).toBeUndefined();
    s.reject(first.id);
    expect(s.pre(E, 'Edit', { ...edit, new_string: 'TWO\n' }).reason).toMatch(/rejected an Edit or Write of .*a\.txt.*Read .*a\.txt first/);
    expect(s.pre(E, 'Write', { file_path: a, content: 'x' }).reason).toMatch(/this Write was not run/);
    expect(s.pre(E, 'Edit', { file_path: b, old_string: 'line 1', new_string: 'one' }).reason).toBeUndefined();
    s.read(E, { file_path: a, offset: 1, limit: 2 }, { startLine: 1, numLines: 2, totalLines: 6 });
    expect(s.pre(E, 'Edit', { ...edit, new_string: 'TWO\n' }).reason).toBeUndefined();
  });
  it('a Read right after the rejection (no hook in between) answers it; a classifier or hook denial is no rejection', () => {
    const s = session();
    const a = s.file('a.txt', 5);
    const first = s.pre(E, 'Edit', { file_path: a, old_string: 'x', new_string: 'y' });
    s.reject(first.id);
    s.read(E, { file_path: a }, { startLine: 1, numLines: 6, totalLines: 6 });
    expect(s.pre(E, 'Edit', { file_path: a, old_string: 'x', new_string: 'z' }).reason).toBeUndefined();
    const second = s.pre(E, 'Write', { file_path: a, content: 'q' });
    s.reject(second.id, 'classifier');
    const third = s.pre(E, 'Write', { file_path: a, content: 'r' });
    expect(third.reason).toBeUndefined();
    s.reject(third.id, 'hook');
    expect(s.pre(E, 'Write', { file_path: a, content: 's' }).reason).toBeUndefined();
  });
  it('drops the covered-reread record of the file, so the Read it asks for runs', () => {
    const s = session();
    const both: Gate[] = ['covered-reread', 'edit-after-reject'];
    const a = s.file('a.txt', 5);
    s.read(both, { file_path: a }, { startLine: 1, numLines: 6, totalLines: 6 });
    s.reject(s.pre(both, 'Edit', { file_path: a, old_string: 'x', new_string: 'y' }).id);
    expect(s.pre(both, 'Edit', { file_path: a, old_string: 'x', new_string: 'y' }).reason).toMatch(/first/);
    expect(s.pre(both, 'Read', { file_path: a }).reason).toBeUndefined();
  });
});

describe('rejected-call memory', () => {
  it('denies the same tool with the same input again; another input or tool runs', () => {
    const s = session();
    const call = { command: 'rm -rf build', description: 'clean' };
    const first = s.pre(R, 'Bash', call);
    expect(first.reason).toBeUndefined();
    s.reject(first.id);
    expect(s.pre(R, 'Bash', { description: 'clean', command: 'rm -rf build' }).reason).toMatch(/rejected this same Bash call/);
    expect(s.pre(R, 'Bash', { command: 'rm -rf dist', description: 'clean' }).reason).toBeUndefined();
    expect(s.pre([], 'Bash', call).reason).toBeUndefined();
    expect(s.pre(C, 'Bash', call).reason).toBeUndefined();
  });
  it('keeps a rejection after it left the transcript tail; a classifier denial is not kept', () => {
    const s = session();
    const first = s.pre(R, 'WebFetch', { url: 'https://example.com', prompt: 'p' });
    s.reject(first.id);
    expect(s.pre(R, 'WebFetch', { url: 'https://example.com', prompt: 'p' }).reason).toBeDefined();
    writeFileSync(s.transcript, '');
    expect(s.pre(R, 'WebFetch', { url: 'https://example.com', prompt: 'p' }).reason).toBeDefined();
    const other = s.pre(R, 'Bash', { command: 'make' });
    s.reject(other.id, 'classifier');
    expect(s.pre(R, 'Bash', { command: 'make' }).reason).toBeUndefined();
  });
});

describe('wire', () => {
  it('a deny is the only blocking answer, and it wins over the clamp; gate with no gates says nothing', () => {
    const s = session();
    const a = s.file('a.txt', 5);
    const first = s.pre(R, 'Read', { file_path: a, offset: 1, limit: 2 });
    s.reject(first.id);
    s.record({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w', name: 'Read', input: { file_path: a, offset: 1, limit: 2 } }] } });
    const event = { ...s.common(), hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'toolu_w', tool_input: { file_path: a, offset: 1, limit: 2 } };
    const out = JSON.parse(answer('pre', JSON.stringify(event), s.ctx(), { on: new Set(R), run }));
    expect(out).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/rejected this same Read/) } });
    expect(answer('pre', JSON.stringify(event), s.ctx())).toBe('');
    expect(answer('gate', JSON.stringify({ ...event, tool_name: 'Bash', tool_input: { command: 'x' } }), s.ctx())).toBe('');
    expect(answer('gate', '{not json', s.ctx(), { on: new Set(R), run })).toBe('');
  });
});
