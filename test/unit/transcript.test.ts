import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentTranscript, callOnceWritten, findBannerCount, findResultTokens, findToolInput, findToolUse, findUsageToCome, otherReads } from '../../src/hooks/transcript';

const line = (id: string, input: object) => JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id, name: 'Read', input }] } });

describe('findToolInput finds the model\'s own input in the transcript tail', () => {
  it('by tool_use id, among parallel calls and other records', () => {
    const jsonl = [
      '{"type":"user","message":{"content":"go"}}',
      line('toolu_A', { file_path: '/a', offset: 1, limit: 3000 }),
      line('toolu_B', { file_path: '/b', limit: 10 }),
      '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_A","content":"…"}]}}',
    ].join('\n');
    expect(findToolInput(jsonl, 'toolu_A')).toEqual({ file_path: '/a', offset: 1, limit: 3000 });
    expect(findToolInput(jsonl, 'toolu_B')).toEqual({ file_path: '/b', limit: 10 });
    expect(findToolInput(jsonl, 'toolu_C')).toBeUndefined();
  });

  it('survives a tail that starts mid-line and ids that need escaping', () => {
    const jsonl = `ent":[{"type":"tool_use","id":"toolu_A","input":{}}]}}\n${line('to"lu', { file_path: '/q' })}\n`;
    expect(findToolInput(jsonl, 'toolu_A')).toBeUndefined();
    expect(findToolInput(jsonl, 'to"lu')).toEqual({ file_path: '/q' });
  });
});

describe('what else the transcript tail tells', () => {
  it('the model that wrote a tool_use', () => {
    const jsonl = `${JSON.stringify({ type: 'assistant', message: { model: 'claude-opus-5-5', content: [{ type: 'tool_use', id: 'toolu_M', name: 'Read', input: { file_path: '/m' } }] } })}\n`;
    expect(findToolUse(jsonl, 'toolu_M')).toEqual({ name: 'Read', input: { file_path: '/m' }, model: 'claude-opus-5-5', conversation: 'session' });
  });

  it('the engine\'s whole-file count from the banner of a partial page (its read_truncation_notice record)', () => {
    const banner = '[Truncated: PARTIAL view — /r/a.txt: showing lines 1-1053 of 2601 total (52481 tokens, cap 25000). Call Read with offset=1054 limit=1053 for the next page.]';
    const jsonl = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_P', content: '1\tx' }] } }),
      JSON.stringify({ type: 'attachment', attachment: { type: 'read_truncation_notice', banner, toolUseID: 'toolu_P' } }),
      JSON.stringify({ type: 'attachment', attachment: { type: 'hook_success', toolUseID: 'toolu_Q', stdout: '(1 tokens, cap 2)' } }),
    ].join('\n');
    // And the lines the page showed: the page is the first part of the counted file.
    expect(findBannerCount(jsonl, 'toolu_P')).toEqual({ tokens: 52481, cap: 25000, banner, page: { first: 1, lines: 1053 } });
    expect(findBannerCount(jsonl, 'toolu_Q')).toBeUndefined();
    expect(findBannerCount(jsonl, 'toolu_R')).toBeUndefined();
    // A character excerpt names no lines.
    const excerpt = '[Truncated: PARTIAL view — /r/b.json: showing the first 40000 of 163000 characters (99000 tokens, cap 25000). …]';
    const cut = JSON.stringify({ type: 'attachment', attachment: { type: 'read_truncation_notice', banner: excerpt, toolUseID: 'toolu_X' } });
    expect(findBannerCount(cut, 'toolu_X')).toEqual({ tokens: 99000, cap: 25000, banner: excerpt });
  });

  it('the same count where an engine before 2.1.205 put the banner: at the head of the Read\'s tool_result', () => {
    // As 2.1.204 and 2.1.150 write it (the content a string, or a first text block).
    const banner = '<system-reminder>[Truncated: PARTIAL view — showing lines 1-1589 of 2501 total (33427 tokens, cap 25000). Call Read with offset=1590 limit=1589 for the next page, or Grep to find a specific section. Do NOT answer from this page alone if the answer may be further in the file.]</system-reminder>\n\n';
    const result = (id: string, content: unknown) => JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] } });
    const jsonl = [
      result('toolu_S', `${banner}1\tx\n2\ty`),
      result('toolu_T', [{ type: 'text', text: `${banner}1\tx` }]),
      // A file whose own first line reads like a banner: the numbered line comes first, so it is text of the file.
      result('toolu_U', '1\t<system-reminder>[Truncated: PARTIAL view — (99 tokens, cap 10)]</system-reminder>\n2\ty'),
      // A banner in another call's result says nothing of this one.
      result('toolu_V', '1\tx'),
    ].join('\n');
    const shown = banner.slice('<system-reminder>'.length, banner.indexOf('</system-reminder>'));
    expect(findBannerCount(jsonl, 'toolu_S')).toEqual({ tokens: 33427, cap: 25000, banner: shown, page: { first: 1, lines: 1589 } });
    expect(findBannerCount(jsonl, 'toolu_T')).toEqual({ tokens: 33427, cap: 25000, banner: shown, page: { first: 1, lines: 1589 } });
    expect(findBannerCount(jsonl, 'toolu_U')).toBeUndefined();
    expect(findBannerCount(jsonl, 'toolu_V')).toBeUndefined();
  });
});

describe('findToolUse reads only the assistant\'s tool_use records', () => {
  it('skips a user record that repeats the id, and gives the tool\'s name', () => {
    const jsonl = [
      line('toolu_A', { file_path: '/a', limit: 5 }),
      '{"type":"user","message":{"content":[{"type":"tool_use","id":"toolu_A","name":"Read","input":{"file_path":"/x"}}]}}',
    ].join('\n');
    expect(findToolUse(jsonl, 'toolu_A')).toEqual({ name: 'Read', input: { file_path: '/a', limit: 5 }, model: undefined, conversation: 'session' });
  });

  it('the other Reads: parallel windows of the same message (one assistant record each), and earlier ones', () => {
    const rec = (msg: string, id: string, input: object, name = 'Read') => JSON.stringify({
      type: 'assistant', message: { id: msg, model: 'm', content: [{ type: 'tool_use', id, name, input }] },
    });
    const jsonl = [
      rec('msg_1', 'toolu_A', { file_path: '/f', offset: 1, limit: 300 }),
      rec('msg_1', 'toolu_B', { file_path: '/f', offset: 301, limit: 300 }),
      rec('msg_1', 'toolu_C', { command: 'ls' }, 'Bash'),
      rec('msg_2', 'toolu_D', { file_path: '/f', offset: 601, limit: 300 }),
    ].join('\n');
    const b = { file_path: '/f', offset: 301, limit: 300 };
    const d = { file_path: '/f', offset: 601, limit: 300 };
    expect(otherReads(jsonl, 'toolu_A')).toEqual([b, d]);
    expect(otherReads(jsonl, 'toolu_D')).toEqual([{ file_path: '/f', offset: 1, limit: 300 }, b]);
    // A user record that repeats a tool_use is not the model's call; a cut first line is skipped.
    const noisy = [jsonl.slice(40), '{"type":"user","message":{"content":[{"type":"tool_use","id":"toolu_Z","name":"Read","input":{"file_path":"/z"}}]}}'].join('\n');
    expect(otherReads(noisy, 'toolu_X')).toEqual([b, d]);
  });
});

describe('findResultTokens: what a tool result added to the model\'s next request, by the usage the engine records', () => {
  const assistant = (id: string, calls: string[], usage: object, extra: object = {}) =>
    JSON.stringify({
      type: 'assistant',
      message: { id, model: 'm', content: calls.map((c) => ({ type: 'tool_use', id: c, name: 'Read', input: {} })), usage, ...extra },
    });
  const result = (...ids: string[]) => JSON.stringify({
    type: 'user', message: { content: ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: '1\tx' })) },
  });
  const usage = (input: number, output = 50, more: object = {}) =>
    ({ input_tokens: input, output_tokens: output, ...more });

  it('the next request\'s whole input less the calling one\'s and less what that reply wrote back', () => {
    const jsonl = [
      assistant('msg_1', ['toolu_A'], usage(20_000, 50)),
      result('toolu_A'),
      JSON.stringify({ type: 'attachment', attachment: { type: 'hook_additional_context', content: ['note'] } }),
      assistant('msg_2', ['toolu_B'], usage(100, 40, { cache_read_input_tokens: 25_000, cache_creation_input_tokens: 7_000 })),
    ].join('\n');
    expect(findResultTokens(jsonl, 'toolu_A')).toEqual({
      tokens: 100 + 25_000 + 7_000 - 20_000 - 50,
      model: 'm',
      otherNotes: [' hook additional context: note'],
      ownNotes: [],
    });
  });

  it('names the notes of other hooks that joined the result, as the model reads them, and not ours', () => {
    const attachment = (a: object, extra: object = {}) => JSON.stringify({ type: 'attachment', attachment: a, ...extra });
    const context = (event: string, content: unknown) =>
      attachment({ type: 'hook_additional_context', content, hookName: `${event}:Read`, toolUseID: 'toolu_A', hookEvent: event });
    const jsonl = [
      assistant('msg_1', ['toolu_A'], usage(20_000, 50)),
      context('PreToolUse', ['trimmed']),
      result('toolu_A'),
      context('PostToolUse', ['read-ceiling-pager: lines 1-9', 'another plugin\'s note']),
      // Several hooks' notes in one part, joined by newlines as the model's message joins them (docs/ENGINE.md §7.4;
      // 2.1.332 records each hook's note on its own).
      context('PostToolUse', ['a linter\'s note\nread-ceiling-pager: offset=10 limit=5 reads on.\nits second line']),
      context('PostToolUse', ['read-ceiling-pager: only ours']),
      context('PostToolUse', 'a part not in a list'),
      context('PostToolUse', [42, { text: 'not text' }]),
      // A record over 10,000 characters: the engine sends such a note as a preview of a saved file (and records the
      // preview), so this one may not have been read whole.
      context('PostToolUse', ['x'.repeat(10_001)]),
      context('PostToolUse', ['y'.repeat(6_000), 'z'.repeat(6_000)]),
      // What 2.1.332 records for a note of 12,000 characters: the preview the model read.
      context('PostToolUse', ['<persisted-output>\nOutput too large (11.7KB). Preview (first 2KB):\nlint: ok\n</persisted-output>']),
      attachment({ type: 'read_truncation_notice', banner: '[Truncated: PARTIAL view — …]', toolUseID: 'toolu_A' }),
      attachment({ type: 'hook_success', stdout: '{"hookSpecificOutput":{}}' }),
      // A subagent's note is its own conversation's.
      attachment({ type: 'hook_additional_context', content: ['sidechain'], hookName: 'PostToolUse:Read' }, { isSidechain: true, agentId: 'a1' }),
      assistant('msg_2', ['toolu_B'], usage(26_000)),
      context('PostToolUse', ['the next call\'s note']),
    ].join('\n');
    expect(findResultTokens(jsonl, 'toolu_A')?.otherNotes).toEqual([
      'PreToolUse:Read hook additional context: trimmed',
      'PostToolUse:Read hook additional context: another plugin\'s note',
      'PostToolUse:Read hook additional context: a linter\'s note\nits second line',
      'PostToolUse:Read hook additional context: a part not in a list',
      'PostToolUse:Read hook additional context: <persisted-output>\nOutput too large (11.7KB). Preview (first 2KB):\nlint: ok\n</persisted-output>',
    ]);
    // Ours on this call, and the engine's banner of its partial page, apart.
    expect(findResultTokens(jsonl, 'toolu_A')?.ownNotes).toEqual([
      'read-ceiling-pager: lines 1-9',
      'read-ceiling-pager: offset=10 limit=5 reads on.',
      'read-ceiling-pager: only ours',
      '[Truncated: PARTIAL view — …]',
    ]);
  });

  it('a subagent\'s records in between are another conversation: the next reply of this one counts', () => {
    const sidechain = JSON.stringify({ type: 'assistant', isSidechain: true, message: { id: 'msg_s', content: [], usage: usage(900) } });
    const jsonl = [
      assistant('msg_1', ['toolu_A'], usage(20_000, 50)),
      result('toolu_A'),
      sidechain,
      assistant('msg_2', ['toolu_B'], usage(26_000)),
    ].join('\n');
    expect(findResultTokens(jsonl, 'toolu_A')?.tokens).toBe(6_000 - 50);
  });

  /** A record of subagent `agentId`: the engine marks each one so, in its own transcript or (older engines) here. */
  const of = (agentId: string, record: string) => JSON.stringify({ ...JSON.parse(record), isSidechain: true, agentId });

  it('in a subagent\'s own transcript, where every record is its own, its next reply counts', () => {
    const jsonl = [
      of('a1', assistant('msg_1', ['toolu_A'], usage(20_000, 50))),
      of('a1', result('toolu_A')),
      JSON.stringify({ type: 'api-request', agentId: 'a1' }),
      of('a1', assistant('msg_2', [], usage(26_000))),
    ].join('\n');
    expect(findToolUse(jsonl, 'toolu_A')?.conversation).toBe('agent a1');
    expect(findResultTokens(jsonl, 'toolu_A')?.tokens).toBe(6_000 - 50);
  });

  it('another subagent\'s reply in between is another conversation, and so is the session\'s', () => {
    const jsonl = [
      of('a1', assistant('msg_1', ['toolu_A'], usage(20_000, 50))),
      of('a1', result('toolu_A')),
      of('a2', assistant('msg_x', [], usage(90_000))),
      assistant('msg_y', [], usage(70_000)),
      of('a1', assistant('msg_2', [], usage(27_000))),
    ].join('\n');
    expect(findResultTokens(jsonl, 'toolu_A')?.tokens).toBe(7_000 - 50);
  });

  it('nothing for a subagent\'s call whose records do not name it: another subagent\'s reply could not be told apart', () => {
    const unnamed = (record: string) => JSON.stringify({ ...JSON.parse(record), isSidechain: true });
    const jsonl = [
      unnamed(assistant('msg_1', ['toolu_A'], usage(20_000, 50))),
      unnamed(result('toolu_A')),
      unnamed(assistant('msg_x', [], usage(90_000))),
    ].join('\n');
    expect(findToolUse(jsonl, 'toolu_A')?.conversation).toBeUndefined();
    expect(findUsageToCome(jsonl, 'toolu_A')).toBe(false);
    expect(findResultTokens(jsonl, 'toolu_A')).toBeUndefined();
  });

  it('thinking the reply wrote is not subtracted: it may not be sent again, so the result is never undercounted', () => {
    const jsonl = [
      assistant('msg_1', ['toolu_A'], usage(20_000, 1_050, { output_tokens_details: { thinking_tokens: 1_000 } })),
      result('toolu_A'),
      assistant('msg_2', ['toolu_B'], usage(30_000)),
    ].join('\n');
    expect(findResultTokens(jsonl, 'toolu_A')?.tokens).toBe(10_000 - 50);
  });

  it('nothing when the result cannot be told apart or the conversation shrank in between', () => {
    const parallel = [
      assistant('msg_1', ['toolu_A'], usage(20_000)),
      assistant('msg_1', ['toolu_C'], usage(20_000)),
      result('toolu_A'),
      result('toolu_C'),
      assistant('msg_2', ['toolu_B'], usage(40_000)),
    ].join('\n');
    const cleared = [
      assistant('msg_1', ['toolu_A'], usage(20_000)),
      result('toolu_A'),
      assistant('msg_2', ['toolu_B'], usage(24_000), { context_management: { applied_edits: [{ type: 'clear_tool_uses_20250919' }] } }),
    ].join('\n');
    const compacted = [
      assistant('msg_1', ['toolu_A'], usage(20_000)),
      result('toolu_A'),
      JSON.stringify({ type: 'system', subtype: 'compact_boundary' }),
      assistant('msg_2', ['toolu_B'], usage(9_000)),
    ].join('\n');
    const cut = [
      assistant('msg_1', ['toolu_A'], usage(20_000)),
      result('toolu_A'),
      JSON.stringify({ type: 'attachment', attachment: { type: 'tool_results_cut', callIds: ['toolu_0'] } }),
      assistant('msg_2', ['toolu_B'], usage(22_000)),
    ].join('\n');
    const asked = [
      assistant('msg_1', ['toolu_A'], usage(20_000)),
      result('toolu_A'),
      JSON.stringify({ type: 'api-request', params: { context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } } }),
      assistant('msg_2', ['toolu_B'], usage(22_000)),
    ].join('\n');
    const notYet = [assistant('msg_1', ['toolu_A'], usage(20_000)), result('toolu_A')].join('\n');
    const noUsage = [assistant('msg_1', ['toolu_A'], {}), result('toolu_A'), assistant('msg_2', ['toolu_B'], usage(9))].join('\n');
    for (const jsonl of [parallel, cleared, compacted, cut, asked, notYet, noUsage]) expect(findResultTokens(jsonl, 'toolu_A')).toBeUndefined();
  });

  it('findUsageToCome: only a call alone in its message, whose record carries a usage a real request could have', () => {
    expect(findUsageToCome(`${assistant('msg_1', ['toolu_A'], usage(20_000))}\n`, 'toolu_A')).toBe(true);
    // Parallel calls share the next request: no call's share of it is known.
    expect(findUsageToCome(assistant('msg_1', ['toolu_A', 'toolu_B'], usage(20_000)), 'toolu_A')).toBe(false);
    // No usage recorded, or a stand-in's that counts nothing.
    expect(findUsageToCome(JSON.stringify({ type: 'assistant', message: { id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_A', name: 'Read', input: {} }] } }), 'toolu_A')).toBe(false);
    expect(findUsageToCome(assistant('msg_1', ['toolu_A'], usage(10, 10)), 'toolu_A')).toBe(false);
    expect(findUsageToCome(assistant('msg_1', ['toolu_A'], usage(20_000)), 'toolu_X')).toBe(false);
  });
});

describe('agentTranscript: where a subagent\'s calls are written', () => {
  it('its own transcript when the engine keeps one, else the session\'s; an id that is not a name stays out of paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcp-agent-'));
    const session = join(dir, 's1.jsonl');
    writeFileSync(session, '');
    mkdirSync(join(dir, 's1', 'subagents'), { recursive: true });
    const own = join(dir, 's1', 'subagents', 'agent-a1.jsonl');
    writeFileSync(own, '');
    expect(agentTranscript(session, 's1', 'a1')).toBe(own);
    expect(agentTranscript(session, 's1', 'a2')).toBe(session); // none written yet, or an older engine
    expect(agentTranscript(session, 's1', undefined)).toBe(session); // the main conversation
    expect(agentTranscript(session, 's1', '../../s1')).toBe(session);
    expect(agentTranscript(undefined, 's1', 'a1')).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('callOnceWritten: the model\'s call, waited for while its record is on its way', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rcp-call-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const call = (id: string) =>
    `${JSON.stringify({ type: 'assistant', message: { model: 'claude-test', content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: '/f', limit: 5 } }] } })}\n`;
  /** Appends the call's record to `path` 150 ms after the writer has started, as the engine does while the call
   * runs; resolves `started` once it has, so that a loaded machine's slow start of a process is not in the wait. */
  const later = async (path: string, id: string) => {
    const writer = spawn(process.execPath, ['-e', `process.stdout.write('up'); setTimeout(() => require('node:fs')
      .appendFileSync(${JSON.stringify(path)}, ${JSON.stringify(call(id))}), 150)`], { stdio: ['ignore', 'pipe', 'ignore'] });
    const landed = new Promise((done) => writer.on('exit', done));
    await new Promise((up) => writer.stdout.once('data', up));
    return { landed };
  };

  it('waits when the transcript holds the conversation: the engine writes the calls there', async () => {
    const path = join(dir, 'calls.jsonl');
    writeFileSync(path, call('toolu_before'));
    const { landed } = await later(path, 'toolu_own');
    expect(callOnceWritten(path, 'toolu_own')?.input).toEqual({ file_path: '/f', limit: 5 });
    await landed;
    // A transcript that holds only a user's message holds the conversation too.
    const first = join(dir, 'first.jsonl');
    writeFileSync(first, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'read it' } })}\n`);
    const { landed: firstLanded } = await later(first, 'toolu_first');
    expect(callOnceWritten(first, 'toolu_first')?.model).toBe('claude-test');
    await firstLanded;
  });

  it('does not wait on a transcript that holds no message (kept elsewhere, or not written), nor on none', async () => {
    const path = join(dir, 'none.jsonl');
    writeFileSync(path, `${JSON.stringify({ type: 'summary', summary: 'an old session' })}\n`);
    const { landed } = await later(path, 'toolu_own');
    expect(callOnceWritten(path, 'toolu_own')).toBeUndefined();
    await landed;
    expect(callOnceWritten(path, 'toolu_own')?.model).toBe('claude-test');
    expect(callOnceWritten(join(dir, 'missing.jsonl'), 'toolu_own')).toBeUndefined();
    expect(callOnceWritten(undefined, 'toolu_own')).toBeUndefined();
  });
});
