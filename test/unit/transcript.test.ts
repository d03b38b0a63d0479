import { describe, expect, it } from 'vitest';
import { findToolInput } from '../../src/hooks/transcript';

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
