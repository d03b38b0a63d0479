import { describe, expect, it } from 'vitest';
import { toolUse } from '../../src/hooks/transcript';

const findToolInput = (jsonl: string, id: string) => toolUse(jsonl, id)?.input;

const line = (id: string, input: object) => JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id, name: 'Read', input }] } });

describe('toolUse finds the model\'s own call in the transcript tail', () => {
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

describe('toolUse reads only the assistant\'s tool_use records', () => {
  it('skips a tool_result or user record that repeats the id, and gives the tool\'s name', () => {
    const jsonl = [
      line('toolu_A', { file_path: '/a', limit: 5 }),
      '{"type":"user","message":{"content":[{"type":"tool_use","id":"toolu_A","name":"Read","input":{"file_path":"/x"}}]}}',
    ].join('\n');
    expect(toolUse(jsonl, 'toolu_A')).toEqual({ name: 'Read', input: { file_path: '/a', limit: 5 } });
  });
});
