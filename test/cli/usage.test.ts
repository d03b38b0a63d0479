// Learning a file's density from the usage the transcript records, through the built binary: the engine writes each
// assistant message with the API's usage (the request's whole input), so what a window's result added to the next
// request is the model's own count of it, or a little more (docs/ENGINE.md 9.7). The next hook learns it: the
// window after is sized by it, and a named continuation it no longer fits is clamped before the engine refuses it.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineRead, postEvent, preEvent, runHook } from '../helpers/hook';
import { prose } from '../helpers/text';

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-usage-'));
  file = join(dir, 'big.txt');
  writeFileSync(file, prose(12_000));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SYSTEM = 20_000;
const WRITTEN = 50;

/** One model reading the file from line 1 through the hooks, following each note; the API's usage counts each
 * result at `charsPerToken` (undefined: the constant usage of a stand-in that counts nothing). */
function reading(name: string, charsPerToken: number | undefined) {
  const session = `sess-${name}`;
  const transcript = join(dir, `${name}.jsonl`);
  writeFileSync(transcript, '');
  const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, `state-${name}`) };
  let input = SYSTEM;
  let n = 0;
  return (ask: { offset: number; limit: number }) => {
    const id = `toolu_${name}_${++n}`;
    const toolInput = { file_path: file, ...ask };
    appendFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: {
      id: `msg_${name}_${n}`, model: 'claude-test', role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Read', input: toolInput }],
      usage: { input_tokens: charsPerToken === undefined ? 10 : input, output_tokens: WRITTEN },
    } })}\n`);
    const pre = runHook('pre', { ...preEvent(session, id, toolInput, dir), transcript_path: transcript }, env);
    const ran = pre.json?.hookSpecificOutput?.updatedInput ?? toolInput;
    const response = engineRead(file, ran.offset, ran.limit);
    const post = runHook('post', { ...postEvent(session, id, ran, response, dir), transcript_path: transcript }, env);
    const result = response.file.content.split('\n').map((l, i) => `${response.file.startLine + i}\t${l}`).join('\n');
    appendFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: result }] } })}\n`);
    if (charsPerToken !== undefined) input += WRITTEN + Math.ceil(result.length / charsPerToken);
    const note: string = post.json?.hookSpecificOutput?.additionalContext ?? '';
    const named = /offset=(\d+) limit=(\d+)/.exec(note);
    return {
      clampedTo: ran.limit === ask.limit ? undefined : (ran.limit as number),
      lines: response.file.numLines,
      next: named ? { offset: Number(named[1]), limit: Number(named[2]) } : undefined,
    };
  };
}

/** Three windows: the model's own, then the two continuations the notes name. */
function threeWindows(name: string, charsPerToken: number | undefined) {
  const read = reading(name, charsPerToken);
  const first = read({ offset: 1, limit: 12_000 });
  const second = read(first.next!);
  const third = read(second.next!);
  return { first, second, third };
}

describe('the usage of the request that carried a result teaches the file\'s density', () => {
  it('a sparse count: from the third window on, windows are sized by it and hold more lines', () => {
    const counted = threeWindows('sparse', 6);
    const blind = threeWindows('blind', undefined);
    // The first two are sized by the estimate alike: the second is named before the first one's usage exists.
    expect(counted.first.lines).toBe(blind.first.lines);
    expect(counted.second.lines).toBe(blind.second.lines);
    expect(counted.third.lines).toBeGreaterThan(blind.third.lines * 1.3);
    expect(counted.second.clampedTo).toBeUndefined();
  });

  it('a dense count: the named continuation is clamped before the engine would refuse it, and the note goes on', () => {
    const counted = threeWindows('dense', 2.2);
    const blind = threeWindows('blind2', undefined);
    expect(blind.second.clampedTo).toBeUndefined();
    expect(counted.second.clampedTo).toBeLessThan(counted.first.next!.limit);
    // Nothing is lost: the note after the clamped continuation names the line after it.
    const secondFirst = counted.first.next!.offset;
    expect(counted.third).toBeDefined();
    expect(counted.second.next?.offset).toBe(secondFirst + counted.second.lines);
  });
});
