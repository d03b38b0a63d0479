// Learning a file's density from the usage the transcript records, through the built binary: the engine writes each
// assistant message with the API's usage (the request's whole input), so what a window's result added to the next
// request is the model's own count of it, or a little more (docs/ENGINE.md 9.7). The next hook learns it: the
// window after is sized by it, and a named continuation it no longer fits is clamped before the engine refuses it.
// So the continuation after a file's first window is named wide, for the next `pre` to trim by that count.
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
 * result at `charsPerToken` ('constant': the usage of a stand-in that counts nothing; 'none': no usage recorded). */
function reading(name: string, charsPerToken: number | 'constant' | 'none') {
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
      ...(charsPerToken === 'none' ? {} : {
        usage: { input_tokens: charsPerToken === 'constant' ? 10 : input, output_tokens: WRITTEN },
      }),
    } })}\n`);
    const pre = runHook('pre', { ...preEvent(session, id, toolInput, dir), transcript_path: transcript }, env);
    const ran = pre.json?.hookSpecificOutput?.updatedInput ?? toolInput;
    const response = engineRead(file, ran.offset, ran.limit);
    const post = runHook('post', { ...postEvent(session, id, ran, response, dir), transcript_path: transcript }, env);
    const result = response.file.content.split('\n').map((l, i) => `${response.file.startLine + i}\t${l}`).join('\n');
    appendFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: result }] } })}\n`);
    if (typeof charsPerToken === 'number') input += WRITTEN + Math.ceil(result.length / charsPerToken);
    const note: string = post.json?.hookSpecificOutput?.additionalContext ?? '';
    const named = /offset=(\d+) limit=(\d+)/.exec(note);
    return {
      clampedTo: ran.limit === ask.limit ? undefined : (ran.limit as number),
      lines: response.file.numLines,
      chars: response.file.content.length,
      note,
      next: named ? { offset: Number(named[1]), limit: Number(named[2]) } : undefined,
    };
  };
}

/** Three windows: the model's own, then the two continuations the notes name. */
function threeWindows(name: string, charsPerToken: number | 'constant' | 'none') {
  const read = reading(name, charsPerToken);
  const first = read({ offset: 1, limit: 12_000 });
  const second = read(first.next!);
  const third = read(second.next!);
  return { first, second, third };
}

describe('the usage of the request that carried a result teaches the file\'s density', () => {
  it('a sparse count: from the second window on, windows are sized by it and hold more lines', () => {
    const counted = threeWindows('sparse', 6);
    const blind = threeWindows('blind', 'constant');
    // The first window is sized by the estimate alike; the note after it names a wide one, which `pre` trims by
    // the first window's count (or, with nothing counted, by the estimate).
    expect(counted.first.lines).toBe(blind.first.lines);
    expect(counted.first.note).toContain('the pager trims it to the most that fits when it runs');
    expect(counted.second.lines).toBeGreaterThan(blind.second.lines * 1.3);
    expect(counted.third.lines).toBeGreaterThan(blind.third.lines * 1.3);
    // Nothing is lost or read twice.
    expect(counted.second.next?.offset).toBe(counted.first.next!.offset + counted.second.lines);
  });

  it('a dense count: the named continuation is clamped before the engine would refuse it, and the note goes on', () => {
    const counted = threeWindows('dense', 2.2);
    expect(counted.second.clampedTo).toBeLessThan(counted.first.next!.limit);
    // What it holds by the usage's count fits under the cap.
    expect(counted.second.chars / 2.2).toBeLessThan(25_000);
    // Nothing is lost: the note after the clamped continuation names the line after it.
    const secondFirst = counted.first.next!.offset;
    expect(counted.third).toBeDefined();
    expect(counted.second.next?.offset).toBe(secondFirst + counted.second.lines);
  });

  it('an engine that records no usage: the continuation is named by the estimate and runs as named', () => {
    const plain = threeWindows('plain', 'none');
    expect(plain.first.note).not.toContain('the pager trims it');
    expect(plain.first.note).toContain('the most that fits');
    expect(plain.second.clampedTo).toBeUndefined();
    expect(plain.second.lines).toBe(plain.first.next!.limit);
  });
});
