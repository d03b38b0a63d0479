// Learning a file's density from the usage the transcript records, through the built binary: the engine writes each
// assistant message with the API's usage (the request's whole input), so what a window's result added to the next
// request is the model's own count of it, or a little more (docs/ENGINE.md 9.7). The next hook learns it: the
// window after is sized by it, and a named continuation it no longer fits is clamped before the engine refuses it.
// So the continuation after a file's first window is named wide, for the next `pre` to trim by that count. The same
// harness plays the engine's refusals: a refused Read of the model's starts a reading that the notes lead.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineRead, failureEvent, postEvent, preEvent, runHook } from '../helpers/hook';
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

describe('a Read of the model\'s refused: the advice starts a reading that the notes lead to the end', () => {
  // A model whose count is twice the estimate (2 characters per token where the estimate takes prose at about 4):
  // its Read of the whole file, which `pre` makes a window of (the file is over 256 KiB), is refused.
  let denseFile: string;
  beforeAll(() => {
    denseFile = join(dir, 'dense.txt');
    writeFileSync(denseFile, prose(14_000, 7));
  });

  function readWhole(name: string) {
    const session = `sess-${name}`;
    const transcript = join(dir, `${name}.jsonl`);
    writeFileSync(transcript, '');
    const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, `state-${name}`) };
    let input = SYSTEM;
    const windows: { first: number; lines: number; refused: boolean; note: string }[] = [];
    let ask: Record<string, unknown> | undefined = { file_path: denseFile };
    for (let n = 1; ask && n <= 40; n++) {
      const id = `toolu_${name}_${n}`;
      appendFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: {
        id: `msg_${name}_${n}`, model: 'claude-test', role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'Read', input: ask }],
        usage: { input_tokens: input, output_tokens: WRITTEN },
      } })}\n`);
      const pre = runHook('pre', { ...preEvent(session, id, ask, dir), transcript_path: transcript }, env);
      const ran = pre.json?.hookSpecificOutput?.updatedInput ?? ask;
      const response = engineRead(denseFile, ran.offset, ran.limit);
      const tokens = Math.round((response.file.content.length + 1) / 2);
      const refused = tokens > 25_000;
      const result = refused
        ? `File content (${tokens} tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters.`
        : response.file.content.split('\n').map((l, i) => `${response.file.startLine + i}\t${l}`).join('\n');
      const post = refused
        ? runHook('post', { ...failureEvent(session, id, ran, result, dir), transcript_path: transcript }, env)
        : runHook('post', { ...postEvent(session, id, ran, response, dir), transcript_path: transcript }, env);
      const note: string = post.json?.hookSpecificOutput?.additionalContext ?? '';
      windows.push({ first: response.file.startLine, lines: refused ? 0 : response.file.numLines, refused, note });
      appendFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: result }] } })}\n`);
      input += WRITTEN + (refused ? 40 : tokens + response.file.numLines);
      // The model follows the last window a note names, and stops when none is named.
      const named = [...note.matchAll(/offset=(\d+) limit=(\d+)/g)].at(-1);
      ask = named ? { file_path: denseFile, offset: Number(named[1]), limit: Number(named[2]) } : undefined;
    }
    return windows;
  }

  it('after the advised window comes back, the note names the rest, and following the notes reads every line once', () => {
    const windows = readWhole('refused-first');
    expect(windows[0]!.refused).toBe(true);
    const retry = windows[1]!;
    expect(retry.refused).toBe(false);
    // The advised window came back whole; the note after it goes on with the model's read of the whole file.
    expect(retry.note).toContain(`continuing a read of the whole file`);
    expect(retry.note).toContain(`offset=${retry.first + retry.lines} `);
    expect(windows.filter((w) => w.refused)).toHaveLength(1);
    const read = windows.filter((w) => !w.refused);
    for (let i = 1; i < read.length; i++) expect(read[i]!.first).toBe(read[i - 1]!.first + read[i - 1]!.lines);
    expect(read.at(-1)!.first + read.at(-1)!.lines - 1).toBeGreaterThanOrEqual(14_000);
  });
});
