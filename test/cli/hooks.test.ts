// The built binary, run as the engine runs it: hook JSON on stdin, real files on disk.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WINDOWS, engineRead, failureEvent, followNotes, hookCommand, hookEnv, hookInput, hookPath, postEvent, preEvent,
  runHook,
} from '../helpers/hook';
import { prose } from '../helpers/text';
import { estimateTokens } from '../../src/estimate/density';
import { LEARNED_SAFETY, SAME_TEXT_SPREAD } from '../../src/estimate/weights';

let dir: string;
let env: NodeJS.ProcessEnv;
const session = 'sess-cli-1';
const DENSER = 'the quick brown fox, and the lazy dog; then 12 more of them';
const SPARSER = 'The quick brown foxes jumped over the lazy dogs and went on.';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-cli-'));
  env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
  writeFileSync(join(dir, 'big.txt'), prose(3000));
  writeFileSync(join(dir, 'small.txt'), prose(20));
  writeFileSync(join(dir, 'huge.txt'), prose(5000)); // over 256 KiB
  writeFileSync(join(dir, 'crlf.txt'), prose(3000).replace(/\n/g, '\r\n'));
  writeFileSync(join(dir, 'long-line.txt'), `short first line\n${'x'.repeat(450_000)}\nthird\nfourth\n`);
  writeFileSync(join(dir, 'long-last.txt'), `short first line\n${'x'.repeat(450_000)}\n`);
  writeFileSync(join(dir, 'one-long.txt'), `${'x'.repeat(450_000)}\n`);
  // Under 256 KiB: 700 lines of prose, then one minified line that swells the engine's count of the whole file.
  writeFileSync(join(dir, 'bundle.js'), `${prose(700)}${'q=[1,2];'.repeat(20_000)}\n`);
  writeFileSync(join(dir, 'one-long-no-newline.txt'), 'x'.repeat(450_000));
  // Two kinds of prose the estimate tells apart by about a fifth (characters per token 3.0 and 3.6).
  writeFileSync(join(dir, 'thinning.txt'), `${`${DENSER}\n`.repeat(1500)}${`${SPARSER}\n`.repeat(3000)}`);
  mkdirSync(join(dir, 'a-dir'));
  execFileSync('mkfifo', [join(dir, 'fifo.txt')]); // under Wine too: a Unix FIFO seen through drive Z:
  symlinkSync(join(dir, 'loop-b'), join(dir, 'loop-a'));
  symlinkSync(join(dir, 'loop-a'), join(dir, 'loop-b'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The hooks' environment at a cap of 3,000 tokens. */
const cap3000 = () => ({ ...env, CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '3000' });

function state(): any {
  return JSON.parse(readFileSync(join(dir, 'state', `${session}.json`), 'utf8'));
}

describe('a UTF-16LE file, as the engine that runs the hook decodes it', () => {
  // 2.1.299 and later decode it after its FF FE mark; earlier engines read it as UTF-8, its NULs and all, as they
  // read the same bytes behind a UTF-16BE mark (docs/ENGINE.md §3.1).
  const text = Buffer.from(prose(600, 3), 'utf16le');
  const clamp = (name: string, engine: string) => {
    const input = { file_path: join(dir, name), offset: 1, limit: 3000 };
    const r = runHook('pre', preEvent(`sess-u16-${engine}-${name}`, `t-${name}`, input), { ...cap3000(), AI_AGENT: `claude-code_${engine}_harness` });
    return r.json.hookSpecificOutput.updatedInput.limit as number;
  };
  beforeAll(() => {
    writeFileSync(join(dir, 'u16le.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), text]));
    writeFileSync(join(dir, 'u16le-behind-be-mark.txt'), Buffer.concat([Buffer.from([0xfe, 0xff]), text]));
    writeFileSync(join(dir, 'u16le-as-text.txt'), prose(600, 3));
  });

  it('decoded on 2.1.299 and later: clamped as the same text in UTF-8', () => {
    expect(clamp('u16le.txt', '2-1-337')).toBe(clamp('u16le-as-text.txt', '2-1-337'));
    expect(clamp('u16le.txt', '2-1-299')).toBe(clamp('u16le-as-text.txt', '2-1-299'));
  });

  it('read as UTF-8 before 2.1.299: clamped as the same bytes behind a mark no engine knows, to fewer lines', () => {
    const old = clamp('u16le.txt', '2-1-296');
    expect(old).toBe(clamp('u16le-behind-be-mark.txt', '2-1-296'));
    expect(old).toBeLessThan(clamp('u16le.txt', '2-1-337'));
  });

  it('an engine that names no version to its hooks (before 2.1.144) is known by its transcript, in pre and in post', () => {
    const path = join(dir, 'u16le.txt');
    const input = { file_path: path, offset: 1, limit: 3000 };
    const refusal = 'File content (9000 tokens) exceeds maximum allowed tokens (3000).';
    /** The window pre sends and the one post names after the engine refused it, in a session of that engine. */
    const run = (s: string, engine: { transcript?: string; agent?: string }) => {
      // A state directory of its own: what a session learns of the file is remembered for the next.
      const own = { ...cap3000(), READ_CEILING_PAGER_STATE_DIR: join(dir, `state-${s}`) };
      const hookEnv = engine.agent ? { ...own, AI_AGENT: `claude-code_${engine.agent}_harness` } : own;
      const transcript = engine.transcript ? { transcript_path: hookPath(transcriptNaming(s, engine.transcript)) } : {};
      const pre = runHook('pre', { ...preEvent(s, 'u1', input), ...transcript }, hookEnv);
      const post = runHook('post', { ...failureEvent(s, 'u1', input, refusal), ...transcript }, hookEnv);
      const note = post.json.hookSpecificOutput.additionalContext as string;
      return { sent: pre.json.hookSpecificOutput.updatedInput.limit as number, named: /offset=1 limit=(\d+)/.exec(note)?.[1] };
    };
    const told = run('sess-u16-transcript-old', { transcript: '2.1.100' });
    expect(told).toEqual(run('sess-u16-agent-296', { agent: '2-1-296' }));
    expect(told.sent).toBeLessThan(run('sess-u16-transcript-new', { transcript: '2.1.337' }).sent);
  });
});

/** A transcript whose records name this engine version, as an engine writes one. */
function transcriptNaming(s: string, version: string): string {
  const path = join(dir, `transcript-${s}.jsonl`);
  const record = (type: string) => JSON.stringify({ type, sessionId: s, version, message: { role: type, content: 'Read it.' } });
  writeFileSync(path, `${record('user')}\n${record('assistant')}\n`);
  return path;
}

describe('pre clamps a window over the cap', () => {
  it('lowers only limit, keeps every other field, and records its plan', () => {
    const input = { file_path: join(dir, 'big.txt'), offset: 1, limit: 3000, some_future_field: [1, 2] };
    const r = runHook('pre', preEvent(session, 'toolu_clamp', input), env);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.json.hookSpecificOutput;
    expect(out.hookEventName).toBe('PreToolUse');
    expect(out.permissionDecision).toBeUndefined();
    expect(Object.keys(r.json)).toEqual(['hookSpecificOutput']);
    const { limit, ...rest } = out.updatedInput;
    expect(rest).toEqual({ file_path: hookPath(input.file_path), offset: 1, some_future_field: [1, 2] });
    expect(Number.isInteger(limit)).toBe(true);
    expect(limit).toBeGreaterThan(100);
    expect(limit).toBeLessThan(3000);
    // The text sent must be over the never-counted floor, or the clamp was needlessly small.
    const sent = engineRead(input.file_path, 1, limit).file.content;
    expect(sent.length).toBeGreaterThan(25_000);
    expect(state().plans.toolu_clamp).toMatchObject({ askedFirst: 1, askedLines: 3000, sentLines: limit, cap: 25000 });
  });

  it('post names the exact window that continues, and the plan is gone after', () => {
    const input = { file_path: join(dir, 'big.txt'), offset: 1, limit: 3000 };
    const pre = runHook('pre', preEvent(session, 'toolu_note', input), env);
    const ran = pre.json.hookSpecificOutput.updatedInput;
    const post = runHook('post', postEvent(session, 'toolu_note', ran, engineRead(ran.file_path, ran.offset, ran.limit)), env);
    expect(post.status).toBe(0);
    expect(post.json.hookSpecificOutput.hookEventName).toBe('PostToolUse');
    const note: string = post.json.hookSpecificOutput.additionalContext;
    const n = ran.limit;
    expect(note.startsWith(`read-ceiling-pager: ${hookPath(input.file_path)} has 3001 lines. This Read returned lines 1-${n} of the requested 1-3000, the most that fits under the 25000-token Read cap. Lines ${n + 1}-3000 are not shown yet; offset=${n + 1} limit=`)).toBe(true);
    expect(state().plans.toolu_note).toBeUndefined();
  });

  it('following the notes reads every asked line once, and no named window is clamped again', () => {
    const steps = followNotes('sess-follow', { file_path: join(dir, 'big.txt'), offset: 1, limit: 3000 }, env, 'f');
    expect(steps.length).toBeGreaterThan(2);
    // Only the model's own first window is clamped; every window a note named runs as named.
    steps.slice(1).forEach((s) => expect(s.ran).toEqual(s.asked));
    expect(steps.map((s) => [s.first, s.last]))
      .toEqual(steps.map((s, i) => [i === 0 ? 1 : steps[i - 1]!.last + 1, s.last]));
    expect(steps.at(-1)!.last).toBe(3000);
    expect(steps.at(-1)!.note).toBeUndefined();
    // Each note after the first goes on with the same reading.
    steps.slice(1, -1).forEach((s) => expect(s.note).toContain(`continuing the requested 1-3000`));
  });

  it('when the rest of the requested window fits with room to spare, the note also names the longer window reading on', () => {
    const steps = followNotes('sess-on', { file_path: join(dir, 'big.txt'), offset: 1, limit: 1500 }, env, 'o');
    const first = steps[0]!;
    expect(first.note).toMatch(new RegExp(`offset=${first.last + 1} limit=${1500 - first.last} is the rest of the requested window, and offset=${first.last + 1} limit=\\d+ \\(to line \\d+\\) the most that fits reading on\\.`));
    // A reader reading on takes the longer one: it runs as named, and the reading of lines 1-1500 is complete.
    expect(steps).toHaveLength(2);
    expect(steps[1]!.ran).toEqual(steps[1]!.asked);
    expect(steps[1]!.last).toBeGreaterThan(1500);
    expect(steps[1]!.note).toBeUndefined();
  });

  it('reading on stops before lines another Read of the file already asked for, in an earlier message too', () => {
    const file = join(dir, 'big.txt');
    const transcript = join(dir, 'transcript-read-on.jsonl');
    const use = (msg: string, id: string, input: object) => JSON.stringify({
      type: 'assistant', message: { id: msg, model: 'm', content: [{ type: 'tool_use', id, name: 'Read', input }] },
    });
    // An earlier message read from line 1601; this one asks for lines 1-1500.
    const input = { file_path: file, offset: 1, limit: 1500 };
    writeFileSync(transcript, `${use('msg_1', 'on_0', { file_path: hookPath(file), offset: 1601, limit: 500 })}\n${use('msg_2', 'on_1', input)}\n`);
    const ran = runHook('pre', { ...preEvent('sess-on-stop', 'on_1', input), transcript_path: transcript }, env)
      .json.hookSpecificOutput.updatedInput;
    const note: string = runHook('post', { ...postEvent('sess-on-stop', 'on_1', ran, engineRead(file, 1, ran.limit)), transcript_path: transcript }, env)
      .json.hookSpecificOutput.additionalContext;
    const m = /offset=(\d+) limit=(\d+) \(to line (\d+)\) the most that fits reading on/.exec(note);
    expect(m, note).toBeTruthy();
    expect(Number(m![3])).toBe(1600);
  });

  it('offset 0 is sent as offset 1, and the note counts lines as the file does', () => {
    const input = { file_path: join(dir, 'big.txt'), offset: 0, limit: 3000 };
    const pre = runHook('pre', preEvent(session, 'toolu_zero', input), env);
    expect(pre.json.hookSpecificOutput.updatedInput.offset).toBe(1);
  });

  it('a window starting deep in the file is clamped from its own first line', () => {
    const input = { file_path: join(dir, 'big.txt'), offset: 1001, limit: 2000 };
    const pre = runHook('pre', preEvent(session, 'toolu_deep', input), env);
    const ran = pre.json.hookSpecificOutput.updatedInput;
    expect(ran.offset).toBe(1001);
    const post = runHook('post', postEvent(session, 'toolu_deep', ran, engineRead(ran.file_path, ran.offset, ran.limit)), env);
    const last = 1000 + ran.limit;
    expect(post.json.hookSpecificOutput.additionalContext).toContain(`returned lines 1001-${last} of the requested 1001-3000`);
    expect(post.json.hookSpecificOutput.additionalContext).toContain(`offset=${last + 1} limit=${3000 - last}`);
  });

  it('CRLF text is counted as the engine counts it (CR dropped): the clamp is no smaller than for LF', () => {
    // Each the first window of its file in its session: sized alike.
    const lf = runHook('pre', preEvent('sess-lf', 'toolu_lf', { file_path: join(dir, 'big.txt'), limit: 3000 }), env);
    const crlf = runHook('pre', preEvent('sess-crlf', 'toolu_crlf', { file_path: join(dir, 'crlf.txt'), limit: 3000 }), env);
    expect(crlf.json.hookSpecificOutput.updatedInput.limit).toBe(lf.json.hookSpecificOutput.updatedInput.limit);
  });

  it('a lower cap from the environment gives a smaller window', () => {
    const low = runHook('pre', preEvent(session, 'toolu_low', { file_path: join(dir, 'big.txt'), limit: 3000 }),
      { ...env, CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '5000' });
    const normal = runHook('pre', preEvent(session, 'toolu_normal', { file_path: join(dir, 'big.txt'), limit: 3000 }), env);
    expect(low.json.hookSpecificOutput.updatedInput.limit)
      .toBeLessThan(normal.json.hookSpecificOutput.updatedInput.limit / 3);
    expect(state().plans.toolu_low.cap).toBe(5000);
  });
});

describe('reads without a limit', () => {
  it('a whole-file read of a file over 256 KiB becomes a window that fits, with a note after', () => {
    const input = { file_path: join(dir, 'huge.txt') };
    const pre = runHook('pre', preEvent(session, 'toolu_huge', input), env);
    const ran = pre.json.hookSpecificOutput.updatedInput;
    expect(ran).toEqual({ file_path: hookPath(input.file_path), limit: ran.limit });
    const post = runHook('post', postEvent(session, 'toolu_huge', ran, engineRead(ran.file_path, undefined, ran.limit)), env);
    const note: string = post.json.hookSpecificOutput.additionalContext;
    expect(note).toContain('A Read without limit is refused for a file over 256 KiB');
    expect(note).toMatch(new RegExp(`offset=${ran.limit + 1} limit=\\d+ \\(lines ${ran.limit + 1}-\\d+\\) is the most that fits next`));
  });

  it('reading a file over 256 KiB whole by following the notes: every line once, no window clamped twice', () => {
    const steps = followNotes('sess-huge', { file_path: join(dir, 'huge.txt') }, env, 'h');
    steps.slice(1).forEach((s) => expect(s.ran).toEqual(s.asked));
    expect(steps.map((s) => s.first)).toEqual(steps.map((_, i) => (i === 0 ? 1 : steps[i - 1]!.last + 1)));
    // The last window asks for a line more than is left, so it came back shorter than asked: the end, plainly.
    const last = steps.at(-1)!;
    expect(last.last).toBe(5001); // the empty line the engine counts after the final newline
    expect(last.last - last.first + 1).toBeLessThan(Number(last.ran.limit));
    expect(steps.at(-1)!.note).toBeUndefined();
  });

  it('a whole-file read under 256 KiB is left to the engine\'s partial page, or with READ_CEILING_PAGER_WHOLE_READS=window becomes a window', () => {
    expect(runHook('pre', preEvent(session, 'toolu_whole', { file_path: join(dir, 'big.txt') }), env).stdout).toBe('');
    const windowed = { ...env, READ_CEILING_PAGER_WHOLE_READS: 'window' };
    const r = runHook('pre', preEvent('sess-window', 'toolu_whole2', { file_path: join(dir, 'big.txt') }), windowed);
    const ran = r.json.hookSpecificOutput.updatedInput;
    expect(ran).toEqual({ file_path: hookPath(join(dir, 'big.txt')), limit: ran.limit });
    const post = runHook('post', postEvent('sess-window', 'toolu_whole2', ran, engineRead(ran.file_path, undefined, ran.limit)), windowed);
    expect(post.json.hookSpecificOutput.additionalContext).toContain('would return a partial page, which does not count as reading the file for Edit');
  });

  it('a whole-file read whose partial page would be a fraction of what fits: a window, and a note that says why', () => {
    const file = join(dir, 'bundle.js');
    const pre = runHook('pre', preEvent('sess-bundle', 'b1', { file_path: file }), env);
    const ran = pre.json.hookSpecificOutput.updatedInput;
    // Every line before the minified one; the engine's page, sized by the whole file's count, would hold about 150.
    expect(ran).toEqual({ file_path: hookPath(file), limit: 700 });
    const post = runHook('post', postEvent('sess-bundle', 'b1', ran, engineRead(ran.file_path, undefined, 700)), env);
    const note: string = post.json.hookSpecificOutput.additionalContext;
    expect(note).toMatch(/would return the engine's partial page of about \d+ lines/);
    const page = Number(/partial page of about (\d+) lines/.exec(note)![1]);
    expect(page).toBeLessThan(700 / 3);
    expect(note).toContain('this Read returned lines 1-700 as a window');
    expect(note).toContain('Line 701 alone is over the cap');
    expect(note).toMatch(/Nothing is left of the file\.$/);
  });

  it('a window that reaches the end of the file, whose last line alone is over the cap: the file has ended', () => {
    // Said of the window only, a reader paging on asks for the line no window holds, and is refused.
    const file = join(dir, 'bundle.js');
    const asked = { file_path: file, offset: 1, limit: 2000 };
    const pre = runHook('pre', preEvent('sess-bundle-window', 'bw1', asked), env);
    const ran = pre.json.hookSpecificOutput.updatedInput;
    expect(ran).toEqual({ ...asked, file_path: hookPath(file), limit: 700 });
    const response = engineRead(ran.file_path, 1, 700);
    const post = runHook('post', postEvent('sess-bundle-window', 'bw1', ran, response), env);
    const note: string = post.json.hookSpecificOutput.additionalContext;
    expect(note).toContain('Line 701 alone is over the cap');
    expect(note).toMatch(/Nothing is left of the file\.$/);
  });

  it('after the engine\'s own partial page: a note with what is unseen and a continuation that fits', () => {
    const file = join(dir, 'big.txt');
    const page = engineRead(file, undefined, 1000);
    const response = { ...page, file: { ...page.file, truncatedByTokenCap: true } };
    const post = runHook('post', postEvent('sess-partial', 'p1', { file_path: file }, response), env);
    const note: string = post.json.hookSpecificOutput.additionalContext;
    expect(note).toContain("This Read without limit showed lines 1-1000 (33% of the file's lines), the engine's partial page, which does not count as having read the file for Write; a window does.");
    const m = /offset=1001 limit=(\d+)/.exec(note);
    expect(m).not.toBeNull();
    expect(runHook('pre', preEvent('sess-partial', 'p2', { file_path: file, offset: 1001, limit: Number(m![1]) }), env).stdout).toBe('');
    // The engine's page of 1000 lines says how densely it counted the file: the next window is sized from that,
    // about as long as the page (the engine's page holds 85% of the cap; the next window fills the cap).
    expect(Number(m![1])).toBeGreaterThan(1000);
  });

  it('a first line over the cap: a window from it runs without limit, and after the engine\'s excerpt the note says how much of the line it showed', () => {
    const file = join(dir, 'line-over-cap.txt');
    const line1 = prose(2000).replace(/\n/g, ' ').slice(0, 60_000);
    writeFileSync(file, `${line1}\n${prose(100)}`);
    const s = 'sess-excerpt';
    const pre = runHook('pre', preEvent(s, 'x1', { file_path: file, offset: 1, limit: 50 }), cap3000());
    expect(pre.json.hookSpecificOutput.updatedInput).toEqual({ file_path: hookPath(file) });
    // The engine's excerpt: the first 14,336 characters of line 1, which it counts as one line returned.
    const excerpt = { type: 'text', file: { filePath: file, content: line1.slice(0, 14_336), numLines: 1, startLine: 1, totalLines: 102, truncatedByTokenCap: true } };
    const note: string = runHook('post', postEvent(s, 'x1', { file_path: file }, excerpt), cap3000()).json.hookSpecificOutput.additionalContext;
    expect(note).toContain('This Read asked for lines 1-50; the pager sent it without limit, which the engine answers with an excerpt where it would refuse a window, and it showed the first 14336 of the 60000 characters of line 1');
    expect(note).toContain(`cut -c 14337-34336`);
    expect(note).toContain('offset=2 limit=49 is the rest of the requested window');
    // The model's own read with no limit, excerpted the same way.
    const own: string = runHook('post', postEvent(s, 'x2', { file_path: file }, excerpt), cap3000()).json.hookSpecificOutput.additionalContext;
    expect(own).toContain('This Read without limit showed the first 14336 of the 60000 characters of line 1, the engine\'s excerpt');
    expect(own).toMatch(/Lines 2-101 are not shown yet; offset=2 limit=\d+/);
  });

  it('after a partial page whose banner is not in the transcript yet: the next window keeps a first one\'s margin, and the banner is read once it comes', () => {
    const file = join(dir, 'big.txt');
    const fresh = runHook('pre', preEvent('sess-banner-fresh', 'b0', { file_path: file, offset: 1, limit: 3000 }), env).json.hookSpecificOutput.updatedInput.limit;
    const transcript = join(dir, 'transcript-banner.jsonl');
    writeFileSync(transcript, '');
    const page = engineRead(file, undefined, 1000);
    const response = { ...page, file: { ...page.file, truncatedByTokenCap: true } };
    runHook('post', { ...postEvent('sess-banner', 'b1', { file_path: file }, response), transcript_path: transcript }, env);
    // The engine writes the banner after the hooks, and under load after the next Read's pre starts.
    const early = runHook('pre', { ...preEvent('sess-banner', 'b2', { file_path: file, offset: 1, limit: 3000 }), transcript_path: transcript }, env);
    expect(early.json.hookSpecificOutput.updatedInput.limit).toBe(fresh);
    // Its post finds no banner either: the note's continuation keeps the margin, and the page is still looked for.
    const ran = early.json.hookSpecificOutput.updatedInput;
    const after = runHook('post', { ...postEvent('sess-banner', 'b2', ran, engineRead(file, ran.offset, ran.limit)), transcript_path: transcript }, env);
    expect(after.json.hookSpecificOutput.additionalContext).toContain(`offset=${fresh + 1} limit=`);
    // Once there, it is read: a count far denser than the estimate clamps the next window far shorter.
    const banner = `[Truncated: PARTIAL view — ${file}: showing lines 1-1000 of 3001 total (90000 tokens, cap 25000). Call Read with offset=1001 limit=1000 for the next page.]`;
    writeFileSync(transcript, `${JSON.stringify({ type: 'attachment', attachment: { type: 'read_truncation_notice', banner, toolUseID: 'b1' } })}\n`);
    const late = runHook('pre', { ...preEvent('sess-banner', 'b3', { file_path: file, offset: 1, limit: 3000 }), transcript_path: transcript }, env);
    expect(late.json.hookSpecificOutput.updatedInput.limit).toBeLessThan(fresh * 0.85);
  });

  it('a read past the end of a file over 256 KiB with no limit gets a limit, so the engine answers with its line count', () => {
    const r = runHook('pre', preEvent(session, 'toolu_past', { file_path: join(dir, 'huge.txt'), offset: 6000 }), env);
    expect(r.json.hookSpecificOutput.updatedInput).toEqual({ file_path: hookPath(join(dir, 'huge.txt')), offset: 6000, limit: 1 });
    expect(runHook('pre', preEvent(session, 'toolu_past2', { file_path: join(dir, 'big.txt'), offset: 6000 }), env).stdout).toBe('');
  });

  it('offset without a limit on a large remainder gets a limit', () => {
    const r = runHook('pre', preEvent(session, 'toolu_rest', { file_path: join(dir, 'big.txt'), offset: 10 }), env);
    expect(r.json.hookSpecificOutput.updatedInput).toMatchObject({ offset: 10 });
    expect(r.json.hookSpecificOutput.updatedInput.limit).toBeGreaterThan(100);
  });

  it('offset without a limit near the end, under the cap, is left alone', () => {
    const r = runHook('pre', preEvent(session, 'toolu_tail', { file_path: join(dir, 'big.txt'), offset: 2900 }), env);
    expect(r.stdout).toBe('');
  });
});

describe('a window of all of a file under 256 KiB, over the cap only by the margin', () => {
  // The cap just over the file's point estimate: the first window's margin calls the window over, the point under.
  const text = prose(1500);
  const cap = () => String(Math.ceil(estimateTokens(text) * 1.04));
  const input = () => ({ file_path: join(dir, 'all-of-it.txt'), offset: 1, limit: 2000 });
  beforeAll(() => writeFileSync(join(dir, 'all-of-it.txt'), text));

  it('pre sends it with no limit (the engine returns it whole or pages it, never refuses it), and post says nothing when it comes back whole', () => {
    const capped = { ...env, CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: cap() };
    const pre = runHook('pre', preEvent('sess-all', 'a1', input()), capped);
    const ran = pre.json.hookSpecificOutput.updatedInput;
    expect(ran).toEqual({ file_path: hookPath(input().file_path) });
    expect(pre.json.hookSpecificOutput.additionalContext).toBeUndefined();
    const post = runHook('post', postEvent('sess-all', 'a1', ran, engineRead(ran.file_path, undefined, 1501)), capped);
    expect(post.status).toBe(0);
    expect(post.stdout).toBe('');
  });

  it('when the engine pages it: the note names what is unseen and the window that continues', () => {
    const capped = { ...env, CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: cap() };
    const ran = runHook('pre', preEvent('sess-all-paged', 'p1', input()), capped).json.hookSpecificOutput.updatedInput;
    const page = engineRead(ran.file_path, undefined, 1200);
    const response = { ...page, file: { ...page.file, truncatedByTokenCap: true } };
    const post = runHook('post', postEvent('sess-all-paged', 'p1', ran, response), capped);
    const note: string = post.json.hookSpecificOutput.additionalContext;
    expect(note).toContain('This Read asked for lines 1-2000, all of the file; the pager sent it without limit');
    expect(note).toContain('showed lines 1-1200');
    expect(note).toMatch(/offset=1201 limit=\d+/);
  });
});

describe('pass-through: no output at all, exit 0', () => {
  const cases: [string, () => unknown][] = [
    ['a window that fits', () => preEvent(session, 't', { file_path: join(dir, 'big.txt'), offset: 5, limit: 50 })],
    ['a small file', () => preEvent(session, 't', { file_path: join(dir, 'small.txt'), limit: 3000 })],
    ['allow_large', () => preEvent(session, 't', { file_path: join(dir, 'big.txt'), limit: 3000, allow_large: true })],
    ['a PDF page range', () => preEvent(session, 't', { file_path: join(dir, 'big.txt'), limit: 3000, pages: '1-2' })],
    ['a missing file', () => preEvent(session, 't', { file_path: join(dir, 'nope.txt'), limit: 3000 })],
    ['a directory', () => preEvent(session, 't', { file_path: join(dir, 'a-dir'), limit: 3000 })],
    ['a FIFO (never opened)', () => preEvent(session, 't', { file_path: join(dir, 'fifo.txt'), limit: 3000 })],
    ['a device', () => preEvent(session, 't', { file_path: '/dev/zero', limit: 3000 })],
    ['a symlink loop', () => preEvent(session, 't', { file_path: join(dir, 'loop-a'), limit: 3000 })],
    ['an offset past the end', () => preEvent(session, 't', { file_path: join(dir, 'big.txt'), offset: 9000, limit: 3000 })],
    ['another tool', () => ({ ...preEvent(session, 't', { file_path: join(dir, 'big.txt'), limit: 3000 }), tool_name: 'Write' })],
    ['a fractional limit', () => preEvent(session, 't', { file_path: join(dir, 'big.txt'), limit: 3000.5 })],
    ['a string limit', () => preEvent(session, 't', { file_path: join(dir, 'big.txt'), limit: '3000' })],
    ['no file_path', () => preEvent(session, 't', { limit: 3000 })],
    ['no session_id', () => ({ ...preEvent(session, 't', { file_path: join(dir, 'big.txt'), limit: 3000 }), session_id: undefined })],
    ['malformed JSON', () => '{"session_id": "s", "tool_input": {'],
    ['empty stdin', () => ''],
    ['a JSON array', () => '[1,2,3]'],
  ];
  for (const [name, make] of cases) {
    it(name, () => {
      const r = runHook('pre', make(), env);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('');
    });
  }

  it('post says nothing after a complete window', () => {
    const input = { file_path: join(dir, 'big.txt'), offset: 5, limit: 50 };
    expect(runHook('post', postEvent(session, 'p1', input, engineRead(input.file_path, 5, 50)), env).stdout).toBe('');
    const tail = { file_path: join(dir, 'big.txt'), offset: 2990, limit: 100 };
    expect(runHook('post', postEvent(session, 'p2', tail, engineRead(tail.file_path, 2990, 100)), env).stdout).toBe('');
  });

  it('a window that stops only at the empty line after the final newline is complete', () => {
    const input = { file_path: join(dir, 'big.txt'), offset: 2990, limit: 11 };
    const response = engineRead(input.file_path, 2990, 11);
    response.file.numLines = 11; // lines 2990-3000; line 3001 is the empty one
    expect(runHook('post', postEvent(session, 'p4', { ...input, limit: 12 }, { ...response, file: { ...response.file } }), env).stdout).toBe('');
  });
});

describe('a window shortened by another hook', () => {
  it('post finds the model\'s own ask in the transcript and names the rest', () => {
    const file = join(dir, 'big.txt');
    const transcript = join(dir, 'transcript.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_other', name: 'Read', input: { file_path: hookPath(file), offset: 100, limit: 200 } }] } })}\n`);
    const ran = { file_path: file, offset: 100, limit: 50 }; // what another hook let run
    const event = { ...postEvent('sess-other-hook', 'toolu_other', ran, engineRead(file, 100, 50)), transcript_path: transcript };
    const r = runHook('post', event, env);
    expect(r.json.hookSpecificOutput.additionalContext).toContain('returned lines 100-149 of the requested 100-299 (the window was shortened before it ran)');
    expect(r.json.hookSpecificOutput.additionalContext).toContain('offset=150 limit=150');
    // Without the transcript there is nothing to say: the window that ran came back whole.
    expect(runHook('post', postEvent('sess-other-hook', 'toolu_other', ran, engineRead(file, 100, 50)), env).stdout).toBe('');
  });

  it('post waits for the model\'s call when its record lands after the hook started', async () => {
    // The engine writes the call's record while the call runs (docs/ENGINE.md §9.1): a fast Read's post hooks may
    // start before it lands. The transcript holds an earlier call, so this one's record is on its way.
    const file = join(dir, 'big.txt');
    const transcript = join(dir, 'transcript-late.jsonl');
    const call = (id: string, input: object) =>
      `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id, name: 'Read', input }] } })}\n`;
    writeFileSync(transcript, call('toolu_before', { file_path: hookPath(file), offset: 1, limit: 10 }));
    const own = call('toolu_late', { file_path: hookPath(file), offset: 100, limit: 200 });
    const appender = spawn(process.execPath, ['-e', `setTimeout(() => require('node:fs').appendFileSync(${
      JSON.stringify(transcript)}, ${JSON.stringify(own)}), 150)`], { stdio: 'ignore' });
    const ran = { file_path: file, offset: 100, limit: 50 };
    const event = { ...postEvent('sess-late-record', 'toolu_late', ran, engineRead(file, 100, 50)), transcript_path: transcript };
    const r = runHook('post', event, env);
    await new Promise((done) => appender.on('exit', done));
    expect(r.json.hookSpecificOutput.additionalContext).toContain('returned lines 100-149 of the requested 100-299 (the window was shortened before it ran)');
  });

  it('of a small file too (which the small bundle answers alone when nothing can be short)', () => {
    const file = join(dir, 'lines.txt');
    writeFileSync(file, Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n'));
    const transcript = join(dir, 'transcript-small.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_small', name: 'Read', input: { file_path: hookPath(file), offset: 10, limit: 100 } }] } })}\n`);
    const ran = { file_path: file, offset: 10, limit: 20 };
    const event = { ...postEvent('sess-small-other', 'toolu_small', ran, engineRead(file, 10, 20)), transcript_path: transcript };
    expect(runHook('post', event, env).json.hookSpecificOutput.additionalContext).toContain('returned lines 10-29 of the requested 10-109 (the window was shortened before it ran)');
    // To the end of the file, with no limit, or refused: nothing to say.
    const tail = { file_path: file, offset: 250, limit: 100 };
    expect(runHook('post', { ...postEvent('sess-small-other', 'toolu_small', tail, engineRead(file, 250, 100)), transcript_path: transcript }, env).stdout).toBe('');
    const whole = { file_path: file };
    expect(runHook('post', postEvent('sess-small-other', 'toolu_w', whole, engineRead(file, undefined, undefined)), env).stdout).toBe('');
    expect(runHook('post', failureEvent('sess-small-other', 'toolu_f', ran, 'File content (40000 tokens) exceeds maximum allowed tokens (25000).'), env).stdout).toBe('');
  });
});

describe('post after a refusal', () => {
  /** A Read of lines 1-`limit` of a file whose first line is short and second long: clamped to line 1, whose note
   * names line 2 alone (`named`); then line 2 refused at `count` tokens. Returns the advice after the refusal. */
  function lineTwoRefused(s: string, file: string, limit: number, count: number, named: string): string {
    const asked = { file_path: file, offset: 1, limit };
    expect(runHook('pre', preEvent(s, `${s}-1`, asked), env).json.hookSpecificOutput.updatedInput.limit).toBe(1);
    const first = runHook('post', postEvent(s, `${s}-1`, { ...asked, limit: 1 }, engineRead(file, 1, 1)), env);
    expect(first.json.hookSpecificOutput.additionalContext).toContain(named);
    const refused = `File content (${count} tokens) exceeds maximum allowed tokens (25000).`;
    const fail = runHook('post', failureEvent(s, `${s}-2`, { file_path: file, offset: 2, limit: 1 }, refused), env);
    return fail.json.hookSpecificOutput.additionalContext;
  }

  it('reads the engine\'s count, names a window that fits, and the next pre uses what it learned', () => {
    const file = join(dir, 'big.txt');
    const s = 'sess-refusal';
    const before = runHook('pre', preEvent(s, 'r0', { file_path: file, offset: 1, limit: 3000 }), env).json.hookSpecificOutput.updatedInput.limit;
    // The engine counted far more than we estimated: a denser tokenizer than our prior.
    const input = { file_path: file, offset: 1, limit: before };
    const fail = runHook('post', failureEvent(s, 'r1', input, 'File content (40000 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file.'), env);
    expect(fail.json.hookSpecificOutput.hookEventName).toBe('PostToolUseFailure');
    const advice: string = fail.json.hookSpecificOutput.additionalContext;
    expect(advice).toContain(`the engine counted lines 1-${before} of ${hookPath(file)} at 40000 tokens, over its cap of 25000`);
    const m = /offset=1 limit=(\d+)/.exec(advice);
    expect(m).not.toBeNull();
    const advised = Number(m![1]);
    // 40000 tokens for `before` lines: a window that fits holds well under 25000/40000 of them.
    expect(advised).toBeLessThanOrEqual(Math.floor(before * 25000 / 40000));
    expect(advised).toBeGreaterThan(Math.floor(before * 25000 / 40000 * 0.85));
    const after = runHook('pre', preEvent(s, 'r2', { file_path: file, offset: 1, limit: 3000 }), env);
    expect(after.json.hookSpecificOutput.updatedInput.limit).toBe(advised);
    // The advised window itself is not clamped again.
    expect(runHook('pre', preEvent(s, 'r3', { file_path: file, offset: 1, limit: advised }), env).stdout).toBe('');
  });

  it('what a refusal taught still sizes the file once it is edited, in this session and the next, not the prior', () => {
    const file = join(dir, 'edited.txt');
    // Text of its own: the same bytes as another file of this suite would find that file's density by its digest.
    writeFileSync(file, prose(3000, 7));
    const s = 'sess-edited';
    const ask = { file_path: file, offset: 1, limit: 3000 };
    const before = runHook('pre', preEvent(s, 'e0', ask), env).json.hookSpecificOutput.updatedInput.limit;
    runHook('post', failureEvent(s, 'e1', { ...ask, limit: before }, 'File content (40000 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file.'), env);
    // An edit: a paragraph inserted near the top, so the size and mtime change.
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [...lines.slice(0, 10), ...prose(12).split('\n'), ...lines.slice(10)].join('\n'));
    const fits = Math.floor(before * 25000 / 40000);
    // Above the engine's never-counted floor (a window of at most 25,000 characters), which would decide otherwise.
    expect(readFileSync(file, 'utf8').split('\n').slice(0, fits).join('\n').length).toBeGreaterThan(25_000);
    for (const [session, id] of [[s, 'e2'], ['sess-edited-later', 'e3']] as const) {
      const limit = runHook('pre', preEvent(session, id, ask), env).json.hookSpecificOutput.updatedInput.limit;
      expect(limit, session).toBeLessThanOrEqual(fits);
      expect(limit, session).toBeGreaterThan(fits * 0.85);
    }
  });

  it('a session cap seen in a refusal (10,000) applies to every later file of that session', () => {
    const s = 'sess-cap';
    runHook('post', failureEvent(s, 'c1', { file_path: join(dir, 'big.txt'), offset: 1, limit: 1500 }, 'File content (26000 tokens) exceeds maximum allowed tokens (10000).'), env);
    const other = runHook('pre', preEvent(s, 'c2', { file_path: join(dir, 'crlf.txt'), limit: 3000 }), env);
    const fresh = runHook('pre', preEvent('sess-other', 'c3', { file_path: join(dir, 'crlf.txt'), limit: 3000 }), env);
    expect(other.json.hookSpecificOutput.updatedInput.limit)
      .toBeLessThan(fresh.json.hookSpecificOutput.updatedInput.limit / 2);
  });

  it('a file under the never-counted floor at the default cap runs as asked, until a refusal reports a cap of 10,000', () => {
    // 20,000 bytes: no window of it is counted at 25,000 (the small bundle answers alone), any may be at 10,000.
    const file = join(dir, 'digits.csv');
    writeFileSync(file, '1,2,3,4,5,6,7,8,9,0\n'.repeat(1000));
    const s = 'sess-floor';
    const ask = { file_path: file, offset: 1, limit: 1000 };
    expect(runHook('pre', preEvent(s, 'f1', ask), env).stdout).toBe('');
    const refusal = 'File content (14000 tokens) exceeds maximum allowed tokens (10000).';
    const note = runHook('post', failureEvent(s, 'f1', ask, refusal), env).json.hookSpecificOutput.additionalContext;
    expect(note).toContain('over its cap of 10000');
    const advised = Number(/offset=1 limit=(\d+)/.exec(note)?.[1]);
    expect(advised).toBeGreaterThan(500);
    expect(advised).toBeLessThan(1000 * 10_000 / 14_000);
    // The next Read of it is clamped to what fits at 10,000, as the note advised.
    expect(runHook('pre', preEvent(s, 'f2', ask), env).json.hookSpecificOutput.updatedInput.limit).toBe(advised);
  });

  it('after a refusal, text the estimate finds a little sparser is held to the refused window\'s characters per token', () => {
    const file = join(dir, 'thinning.txt');
    const s = 'sess-thinning';
    const perLine = (t: string) => estimateTokens(`${t}\n`);
    // The precondition: the estimate finds the second kind sparser, by less than the spread it believes a refusal in.
    const thinner = (perLine(DENSER) / DENSER.length) / (perLine(SPARSER) / SPARSER.length);
    expect(thinner).toBeGreaterThan(1.1);
    expect(thinner).toBeLessThan(SAME_TEXT_SPREAD);
    // The engine counts the denser lines at 3.05 characters per token, and would count the sparser ones alike.
    const tokens = Math.round((1500 * (DENSER.length + 1)) / 3.05);
    runHook('post', failureEvent(s, 't1', { file_path: file, offset: 1, limit: 1500 }, `File content (${tokens} tokens) exceeds maximum allowed tokens (25000).`), env);
    const pre = runHook('pre', preEvent(s, 't2', { file_path: file, offset: 1501, limit: 3000 }), env);
    const limit: number = pre.json.hookSpecificOutput.updatedInput.limit;
    // The cap's worth of characters at 3.05 per token, less the learned margin; by the estimate alone ~20% more.
    const byChars = (25_000 * 3.05) / LEARNED_SAFETY / (SPARSER.length + 1);
    expect(limit).toBeLessThanOrEqual(Math.floor(byChars));
    expect(limit).toBeGreaterThan(byChars * 0.97);
  });

  it('a line alone over the cap: says so, names the way out and where reading goes on', () => {
    const file = join(dir, 'long-line.txt');
    const fail = runHook('post', failureEvent('sess-long', 'l1', { file_path: file, offset: 2, limit: 3 }, 'File content (112500 tokens) exceeds maximum allowed tokens (25000).'), env);
    const advice: string = fail.json.hookSpecificOutput.additionalContext;
    expect(advice).toContain('Line 2 alone is over the cap');
    expect(advice).toContain('450000 characters');
    // On Windows the path is quoted (it holds backslashes), and PowerShell gets a form of its own.
    expect(advice).toContain(WINDOWS
      ? `for example \`sed -n '2p' '${hookPath(file)}' | cut -c 1-20000\` in Git Bash, or \`@(Get-Content -LiteralPath '${hookPath(file)}' -TotalCount 2)[-1][0..19999] -join ''\` in PowerShell. Reading goes on`
      : `for example \`sed -n '2p' ${file} | cut -c 1-20000\`. Reading goes on`);
    expect(advice).toContain('Reading goes on with offset=3 limit=2.');
  });

  it('the model\'s window that pre clamped to one line, refused: reading goes on to the end of the model\'s window', () => {
    // Babel's standalone build, in 2000-line windows: a window from a line of hex tables (39,014 characters) that the
    // density of the code before it put under the cap alone was clamped to that line and refused, and the note said no
    // lines follow "in that window" (the one line that ran), so the model was left to guess a window of its own.
    const file = join(dir, 'long-then-more.txt');
    const words = (n: number) => 'alpha beta gamma delta '.repeat(n);
    const perRepeat = estimateTokens('alpha beta gamma delta ');
    const long = words(Math.round(20_000 / perRepeat)); // under the cap alone by the prior, with its margin
    writeFileSync(file, `short first line\n${long}\n${long}\n${Array.from({ length: 40 }, (_, i) => `line ${i + 4}`).join('\n')}\n`);
    const s = 'sess-clamped-one';
    const asked = { file_path: file, offset: 2, limit: 30 };
    expect(runHook('pre', preEvent(s, 'c1', asked), env).json.hookSpecificOutput.updatedInput.limit).toBe(1);
    const refused = 'File content (30000 tokens) exceeds maximum allowed tokens (25000).';
    const fail = runHook('post', failureEvent(s, 'c1', { ...asked, limit: 1 }, refused), env);
    const advice: string = fail.json.hookSpecificOutput.additionalContext;
    // Line 3 is the same text, over the cap by the count too; the rest of the model's window, lines 4-31, fits.
    expect(advice).toContain('Lines 2-3 are each over the cap');
    expect(advice).not.toContain('No lines follow');
    expect(advice).toContain('Reading goes on with offset=4 limit=28.');
  });

  it('a line refused, and a long line of other text after it: that line is named, not passed over by the count', () => {
    // xlsx.full.min.js: line 2 (codepage tables of rare Han) counts 0.89 of its estimate and is refused; lines 5 and 7
    // (mostly U+FFFD placeholders) count about half of theirs and fit, but the refused line's density called them
    // over the cap too, and they were never read. Here: two lines of Han, then a line of words.
    const file = join(dir, 'two-kinds.txt');
    const han = '漢字文化圏的書写体系'.repeat(2800);
    const words = 'alpha beta gamma delta '.repeat(Math.round((32_000 / estimateTokens('alpha beta gamma delta '))));
    writeFileSync(file, `short first line\n${han}\n${han}\n${words}\nlast line\n`);
    const hanTokens = estimateTokens(`${han}\n`);
    const wordTokens = estimateTokens(`${words}\n`);
    const count = Math.round(hanTokens * 1.1);
    // The precondition: by the refused line's density the words are over the cap; by their own estimate they may fit.
    expect(count).toBeGreaterThan(25_000);
    expect(wordTokens * (count / hanTokens)).toBeGreaterThan(25_000);
    expect(wordTokens).toBeLessThan(25_000 * 1.7);
    const s = 'sess-kinds';
    const asked = { file_path: file, offset: 1, limit: 5 };
    const pre = runHook('pre', preEvent(s, 'k1', asked), env);
    expect(pre.json.hookSpecificOutput.updatedInput.limit).toBe(1);
    const first = runHook('post', postEvent(s, 'k1', { ...asked, limit: 1 }, engineRead(file, 1, 1)), env);
    expect(first.json.hookSpecificOutput.additionalContext).toContain('offset=2 limit=1 (line 2 alone,');
    const fail = runHook('post', failureEvent(s, 'k2', { file_path: file, offset: 2, limit: 1 }, `File content (${count} tokens) exceeds maximum allowed tokens (25000).`), env);
    const advice: string = fail.json.hookSpecificOutput.additionalContext;
    expect(advice).toContain('Lines 2-3 are each over the cap');
    // With the short line after it, as a continuation names such a line (measure.ts, namedAlone).
    expect(advice).toMatch(/Reading goes on with offset=4 limit=2 \(lines 4-5; line 4 alone is about \d+ tokens by the estimate, which tokenizers count from 0\.6 to 1\.3 times: it may fit\)\./);
  });

  it('a line refused, and one after it over the cap only by the refused line\'s characters per token: named', () => {
    // xlsx.full.min.js under a model at 1.5 times Claude-dense: after line 8 was refused, lines 9 and 10 were called
    // over the cap by its characters per token and passed over, though line 10, sparser by its estimate, counts
    // 23,177. Here a line of longer words after a refused line of short ones, as long: text alike, by its shares of
    // the estimate, that the estimate finds sparser by less than the spread it believes a refusal in.
    const file = join(dir, 'by-chars.txt');
    const short = 'alpha beta gamma delta ';
    const long = 'quickly brownish foxes jumped over lazier dogs ';
    const denser = short.repeat(Math.round((25_000 * 0.95) / estimateTokens(short)));
    const sparser = long.repeat(Math.ceil(denser.length / long.length)).slice(0, denser.length);
    writeFileSync(file, `short first line\n${denser}\n${sparser}\nlast line\n`);
    const count = Math.round(25_000 * 1.05);
    const ratio = count / estimateTokens(`${denser}\n`);
    // The precondition: by the refused line's density the line after it is under the cap; by its characters, over.
    expect(estimateTokens(`${sparser}\n`) * ratio).toBeLessThan(25_000);
    expect((sparser.length * count) / denser.length).toBeGreaterThan(25_000);
    const advice = lineTwoRefused('sess-by-chars', file, 4, count, 'offset=2 limit=1 (line 2)');
    expect(advice).toContain('Line 2 alone is over the cap');
    expect(advice).toContain('Reading goes on with offset=3 limit=2.');
  });

  it('a line refused, then more lines like it than the note probes: none is named as one that may fit', () => {
    // The note probes 16 lines past the refused one; the line after them was never judged, and is over the cap too.
    const file = join(dir, 'many-han.txt');
    const han = '漢字文化圏的書写体系'.repeat(3000);
    writeFileSync(file, `short first line\n${`${han}\n`.repeat(20)}last line\n`);
    const count = Math.round(estimateTokens(`${han}\n`) * 1.1);
    const advice = lineTwoRefused('sess-many-han', file, 30, count, 'offset=2 limit=1 (line 2 alone,');
    expect(advice).toContain('Lines 2-17 are each over the cap');
    expect(advice).not.toContain('may fit');
  });

  it('a line refused before the file\'s last line: the way on asks past the end, so that a reader stops there', () => {
    // xlsx.full.min.js at a cap of 10,000: after line 11 was refused, "offset=22 limit=1" named its last line; the
    // reader, told nothing of the file's length, paged on to the empty line after it and then past the end.
    const file = join(dir, 'han-then-last.txt');
    const han = '漢字文化圏的書写体系'.repeat(3000);
    writeFileSync(file, `short first line\n${han}\n${han}\nlast line\n`);
    const count = Math.round(estimateTokens(`${han}\n`) * 1.1);
    const s = 'sess-han-last';
    const advice = lineTwoRefused(s, file, 2000, count, 'offset=2 limit=1 (line 2 alone,');
    expect(advice).toContain('Lines 2-3 are each over the cap');
    // The engine counts 5 lines (the last is the empty one after the final newline): a Read of 3 from line 4 comes
    // back with 2, shorter than asked.
    expect(advice).toContain('Reading goes on with offset=4 limit=3, the rest of the file.');
    const last = runHook('post', postEvent(s, 'h3', { file_path: file, offset: 4, limit: 3 }, engineRead(file, 4, 3)), env);
    expect(last.stdout).toBe('');
  });

  it('a long line refused with the short lines after it, where it fits alone by the count: named alone, not passed over', () => {
    // A continuation names a line that may fit with the few short lines after it (measure.ts, shortStretchAfter).
    // Refused by a little, the count leaves the line alone under the cap at its point estimate: the note names it,
    // where the margin alone would call it over the cap, and the line would never be read.
    const file = join(dir, 'tipping.txt');
    const line = 'alpha beta gamma delta '.repeat(3900);
    const after = 'a short line after it\n'.repeat(20);
    writeFileSync(file, `short first line\n${line}\n${after}`);
    // The line's share of the refused window by the estimate and by length: the count holds it under the cap by both.
    const share = Math.max(
      estimateTokens(`${line}\n`) / estimateTokens(`${line}\n${after}`),
      (line.length + 1) / (line.length + 1 + after.length),
    );
    const tokens = Math.floor(25_000 / share) - 5; // over the cap by less than the short lines' share
    expect(tokens).toBeGreaterThan(25_000);
    expect(tokens * share * LEARNED_SAFETY).toBeGreaterThan(25_000);
    const ask = { file_path: file, offset: 2, limit: 21 };
    const fail = runHook('post', failureEvent('sess-tipping', 'tp1', ask, `File content (${tokens} tokens) exceeds maximum allowed tokens (25000).`), env);
    const advice: string = fail.json.hookSpecificOutput.additionalContext;
    expect(advice).toContain(`the engine counted lines 2-22 of`);
    expect(advice).toContain('offset=2 limit=1 (line 2) fits under the 25000-token cap.');
    expect(advice).not.toContain('over the cap, about');
  });

  it('a line alone over the cap at the end of the file: the note says nothing is left, not to try a smaller window', () => {
    const file = join(dir, 'long-last.txt');
    const refused = 'File content (112500 tokens) exceeds maximum allowed tokens (25000).';
    const toEnd = runHook('post', failureEvent('sess-last', 'e1', { file_path: file, offset: 2, limit: 2000 }, refused), env);
    const note: string = toEnd.json.hookSpecificOutput.additionalContext;
    expect(note).toContain('Line 2 alone is over the cap');
    expect(note).toMatch(/Nothing is left of the file\.$/);
    expect(note).not.toMatch(/offset=\d/);
    // A read with no limit of a file that is one such line (over 256 KiB: refused on size), with a final newline or
    // not: no window is named, not even the empty line the engine counts after the newline.
    for (const name of ['one-long.txt', 'one-long-no-newline.txt']) {
      const whole = runHook('post', failureEvent('sess-last', `w-${name}`, { file_path: join(dir, name) }, 'File content (439.5KB) exceeds maximum allowed size (256KB). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.'), env);
      const said: string = whole.json.hookSpecificOutput.additionalContext;
      expect(said).toContain('Line 1 alone is over the cap');
      expect(said).toMatch(/Nothing is left of the file\.$/);
      expect(said).not.toMatch(/offset=\d/);
    }
    // A window that ended on that line says nothing of the lines after it.
    const inner = join(dir, 'long-line.txt');
    const shortOne = runHook('post', failureEvent('sess-last', 'e2', { file_path: inner, offset: 2, limit: 1 }, refused), env);
    expect(shortOne.json.hookSpecificOutput.additionalContext).toMatch(/No lines follow them in that window\.$/);
  });

  it('a window clamped just before a line alone over the cap: the note skips it and continues after', () => {
    const file = join(dir, 'long-line.txt');
    const pre = runHook('pre', preEvent('sess-long2', 'l2', { file_path: file, offset: 1, limit: 4 }), env);
    const ran = pre.json.hookSpecificOutput.updatedInput;
    expect(ran.limit).toBe(1);
    const post = runHook('post', postEvent('sess-long2', 'l2', ran, engineRead(file, 1, 1)), env);
    const note: string = post.json.hookSpecificOutput.additionalContext;
    expect(note).toContain('Line 2 alone is over the cap');
    expect(note).toContain('Lines 3-4 are not shown yet; offset=3 limit=2');
  });

  it('a range refusal: the window is named by its first line, and the advice ends at the file\'s last line', () => {
    const file = join(dir, 'big.txt'); // 3000 lines and a final newline: the engine counts 3001
    const r = runHook('post', failureEvent('sess-range', 'g1', { file_path: file, offset: 2900, limit: 100000 }, 'The requested line range contains over 3.1MB of text, more than a read can return. Use a smaller limit.'), env);
    const advice: string = r.json.hookSpecificOutput.additionalContext;
    expect(advice).toContain(`the lines from 2900 of ${hookPath(file)} hold over 3.1MB`);
    expect(advice).toContain('offset=2900 limit=101 (lines 2900-3000) fits');
  });

  it('an error it does not recognise gets no note', () => {
    const r = runHook('post', failureEvent('s', 'x', { file_path: join(dir, 'nope.txt'), limit: 10 }, 'File does not exist. Note: your current working directory is /r.'), env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('Reads the engine does not read as lines: images, PDFs, notebooks', () => {
  // The same bytes under names the engine reads as lines are clamped: a .txt of the image, a .json of the notebook.
  const NOTEBOOK_ERROR = 'File content (10097 tokens) exceeds maximum allowed tokens (3000). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.';
  const notebook = JSON.stringify({ cells: Array.from({ length: 60 }, (_, i) => ({ cell_type: 'code', source: [`x = ${i}\n`], outputs: [{ output_type: 'stream', name: 'stdout', text: [`${prose(8, i)}`] }] })), nbformat: 4 }, null, 1);
  /** The files a session learned a density for (none when it wrote no state). */
  const learnedPaths = (s: string): string[] => {
    const path = join(dir, 'state', `${s}.json`);
    return existsSync(path) ? Object.keys(JSON.parse(readFileSync(path, 'utf8')).files ?? {}) : [];
  };
  beforeAll(() => {
    const pixels = Buffer.from(prose(5000)); // text-like bytes: an estimate would count them far over the cap
    for (const name of ['shot.png', 'shot.JPG', 'shot.webp', 'doc.pdf', 'shot.txt']) writeFileSync(join(dir, name), pixels);
    // No extension, a PNG's first bytes: the engine reads it as an image all the same (docs/ENGINE.md §1.7).
    writeFileSync(join(dir, 'screenshot'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pixels]));
    writeFileSync(join(dir, 'notes'), pixels);
    writeFileSync(join(dir, 'nb.ipynb'), notebook);
    writeFileSync(join(dir, 'nb.json'), notebook);
  });

  it('pre leaves them alone, read whole or in a window, where a text file of the same bytes is clamped', () => {
    const s = 'sess-not-lines';
    for (const name of ['shot.png', 'shot.JPG', 'shot.webp', 'doc.pdf', 'nb.ipynb', 'screenshot']) {
      for (const window of [{}, { offset: 1, limit: 2000 }]) {
        const r = runHook('pre', preEvent(s, `p-${name}`, { file_path: join(dir, name), ...window }), cap3000());
        expect([name, r.status, r.stdout]).toEqual([name, 0, '']);
      }
    }
    for (const name of ['shot.txt', 'nb.json', 'notes']) {
      const r = runHook('pre', preEvent(s, `p-${name}`, { file_path: join(dir, name), offset: 1, limit: 2000 }), cap3000());
      expect(r.json.hookSpecificOutput.updatedInput.limit).toBeLessThan(2000);
    }
    // Engines before 2.1.187 read a file named without an extension as text, whatever its first bytes.
    const read = { file_path: join(dir, 'screenshot'), offset: 1, limit: 2000 };
    for (const [engine, image] of [['2-1-186', false], ['2-1-187', true]] as const) {
      const r = runHook('pre', preEvent(s, `p-shot-${engine}`, read), { ...cap3000(), AI_AGENT: `claude-code_${engine}_harness` });
      expect([engine, r.stdout === '']).toEqual([engine, image]);
    }
    // An engine that names no version to its hooks (before 2.1.144), by its transcript's records.
    for (const [engine, image] of [['2.1.100', false], ['2.1.337', true]] as const) {
      const event = { ...preEvent(`sess-shot-${engine}`, 'p-shot', read), transcript_path: hookPath(transcriptNaming(`shot-${engine}`, engine)) };
      expect([engine, runHook('pre', event, cap3000()).stdout === '']).toEqual([engine, image]);
    }
  });

  it('a notebook over the cap: the note says no window helps and how to see its cells, and nothing is learned from the count', () => {
    const s = 'sess-notebook';
    const file = join(dir, 'nb.ipynb');
    const r = runHook('post', failureEvent(s, 'n1', { file_path: file, offset: 1, limit: 40 }, NOTEBOOK_ERROR), env);
    const note: string = r.json.hookSpecificOutput.additionalContext;
    expect(note).toContain(`${hookPath(file)} is a notebook: a Read returns all of its cells whatever offset and limit say`);
    expect(note).toContain('counted them at 10097 tokens, over its cap of 3000, so no Read of this notebook fits');
    // 60 cells, 3000 of 10097 tokens: the first 17 cells are about the cap's share.
    expect(note).toContain(`its 60 cells a few at a time, for example \`jq '.cells[0:17]'`);
    expect(note).not.toMatch(/offset=\d/);
    expect(learnedPaths(s)).toEqual([]);
    const memory = () => readFileSync(join(dir, 'state', 'memory.v1.json'), 'utf8');
    expect(existsSync(join(dir, 'state', 'memory.v1.json')) ? memory() : '').not.toContain('nb.');
    // The same count of the same text read as lines is learned (what the notebook's must not be).
    runHook('post', failureEvent(s, 'n2', { file_path: join(dir, 'nb.json'), offset: 1, limit: 40 }, NOTEBOOK_ERROR), env);
    expect(learnedPaths(s)).toEqual([hookPath(join(dir, 'nb.json'))]);
    expect(memory()).toContain(JSON.stringify(hookPath(join(dir, 'nb.json'))));
  });

  it('a notebook over 256 KB: the engine\'s own message names jq, and the pager adds nothing', () => {
    const r = runHook('post', failureEvent('sess-notebook-size', 'n3', { file_path: join(dir, 'nb.ipynb') }, 'Notebook content (663.1KB) exceeds maximum allowed size (256KB). Use Bash with jq to read specific portions:'), env);
    expect([r.status, r.stdout]).toEqual([0, '']);
  });
});

describe('parallel Reads share one session file', () => {
  // Under Wine each hook is a Windows process start of seconds: 16 of them, or the run takes many minutes.
  const n = WINDOWS ? 16 : 32;
  it(`${n} concurrent pre hooks each find their own plan in post`, async () => {
    const s = 'sess-parallel';
    const ids = Array.from({ length: n }, (_, i) => `par_${i}`);
    const input = (i: number) => ({ file_path: join(dir, 'big.txt'), offset: 1 + i * 10, limit: 2900 });
    await Promise.all(ids.map((id, i) => spawnHook('pre', preEvent(s, id, input(i)))));
    const plans = JSON.parse(readFileSync(join(dir, 'state', `${s}.json`), 'utf8')).plans;
    expect(Object.keys(plans).sort()).toEqual([...ids].sort());
    const notes = await Promise.all(ids.map((id, i) => {
      const ran = { ...input(i), limit: plans[id].sentLines };
      return spawnHook('post', postEvent(s, id, ran, engineRead(ran.file_path, ran.offset, ran.limit)));
    }));
    notes.forEach((out, i) => {
      const first = 1 + i * 10;
      const sent = plans[ids[i]!].sentLines;
      const askedLast = Math.min(first + 2899, 3000); // line 3001 is the empty one after the final newline
      const m = /offset=(\d+) limit=(\d+)/.exec(JSON.parse(out).hookSpecificOutput.additionalContext);
      expect(Number(m![1])).toBe(first + sent);
      // Never past the window asked for; past the file's last line only when the window goes past it.
      expect(Number(m![2])).toBeLessThanOrEqual(2900 - sent);
      if (first + 2899 <= 3000) expect(Number(m![2])).toBeLessThanOrEqual(askedLast - first - sent + 1);
    });
    expect(JSON.parse(readFileSync(join(dir, 'state', `${s}.json`), 'utf8')).plans).toEqual({});
  });
});

function spawnHook(name: 'pre' | 'post', event: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const [cmd, args] = hookCommand(name);
    const child = spawn(cmd, args, { env: hookEnv(env), stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8'); // a character split between two reads of the pipe stays whole
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
    child.stdin.end(JSON.stringify(hookInput(event)));
  });
}
