// Hostile files through the built binary: every kind of path a Read may name, each Read as pre → engine → post.
// The Read always runs (as asked or clamped), nothing blocks, and a note, when there is one, agrees with what
// the engine returned.
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, appendFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, contextFor } from '../../src/hooks/io';
import { ROOT } from '../helpers/hook';
import { brokenPromises, figures, hostileFiles, pool, prose, spawnHook, type Run } from './lib';

let dir: string;
let files: Record<string, string>;
let env: NodeJS.ProcessEnv;
let cases = 0;
let notes = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-files-'));
  files = hostileFiles(dir);
  env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
});
afterAll(() => {
  figures('hostile files', cases, 0, `${notes} notes checked against the engine's result`);
  rmSync(dir, { recursive: true, force: true });
});

/** What the engine returns for a window of a regular file (docs/ENGINE.md §3.1): BOM and UTF-16LE decoded, CRLF as
 * LF, lines split on LF, the empty line after a final newline counted. Undefined: the engine errors. */
function engineRead(path: string, input: Record<string, any>) {
  let st;
  try { st = statSync(path); } catch { return undefined; }
  if (!st.isFile()) return undefined;
  let buf: Buffer;
  try { buf = readFileSync(path); } catch { return undefined; }
  let text: string;
  if (buf[0] === 0xff && buf[1] === 0xfe) text = buf.subarray(2).toString('utf16le');
  else text = buf.toString('utf8').replace(/^\uFEFF/, '');
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const first = Math.max(1, input.offset ?? 1);
  const slice = lines.slice(first - 1, input.limit === undefined ? undefined : first - 1 + input.limit);
  return { type: 'text', file: { filePath: path, content: slice.join('\n'), numLines: slice.length, startLine: input.offset === 0 ? 0 : first, totalLines: lines.length } };
}

/** A note agrees with the engine's result: the file's line count, the lines returned, and a next window that
 * starts after them and stays inside what was asked and inside the file (or one line past its end). */
function noteDisagrees(note: string, response: any, asked: Record<string, any>): string[] {
  const f = response.file;
  const bad: string[] = [];
  if (!note.includes(` has ${f.totalLines} lines.`)) bad.push(`line count not ${f.totalLines}`);
  const first = Math.max(1, f.startLine);
  const last = first + f.numLines - 1;
  if (!note.includes(`returned ${first === last ? `line ${first}` : `lines ${first}-${last}`}`)) bad.push(`returned lines not ${first}-${last}`);
  const askedLast = asked.limit === undefined ? f.totalLines + 1 : Math.max(1, asked.offset ?? 1) + asked.limit - 1;
  for (const m of note.matchAll(/offset=(\d+) limit=(\d+)/g)) {
    const a = Number(m[1]); const b = Number(m[2]);
    // A window that reaches the end asks for one line more than the engine counts (the reader then knows).
    if (a <= last || b < 1 || a + b - 1 > Math.min(askedLast, f.totalLines + 1)) bad.push(`next window offset=${a} limit=${b} after ${first}-${last} of ${askedLast}/${f.totalLines}`);
  }
  return bad;
}

const pre = (s: string, id: string, input: unknown) => ({ session_id: s, transcript_path: '/nonexistent.jsonl', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: input, tool_use_id: id });
const post = (s: string, id: string, input: unknown, response: unknown) => ({ session_id: s, cwd: '/', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: input, tool_response: response, tool_use_id: id });
const failure = (s: string, id: string, input: unknown, error: string) => ({ session_id: s, cwd: '/', hook_event_name: 'PostToolUseFailure', tool_name: 'Read', tool_input: input, tool_use_id: id, error, is_interrupt: false });

type Runner = (name: 'pre' | 'post', stdin: string) => Promise<Run>;
const binary: Runner = (name, stdin) => spawnHook(name, stdin, env);
/** The same hook in-process: what it would print, as a clean exit. */
const inProcess: Runner = async (name, stdin) => ({ code: 0, signal: null, stderr: '', stdout: answer(name, stdin, contextFor(Date.now(), env)) });

/** pre, then what the engine would do with the input that ran, then post. Returns broken promises. */
async function readThrough(
  session: string, id: string, input: Record<string, any>, between?: () => void, run: Runner = binary,
): Promise<string[]> {
  const bad: string[] = [];
  const p = await run('pre', JSON.stringify(pre(session, id, input)));
  cases++;
  if (p.code !== 0 || p.signal) bad.push(`pre exit ${p.code} ${p.signal}`);
  if (p.stderr) bad.push(`pre stderr ${p.stderr.slice(0, 200)}`);
  bad.push(...brokenPromises('pre', pre(session, id, input), p.stdout).map((b) => `pre: ${b}`));
  const ran = p.stdout ? JSON.parse(p.stdout).hookSpecificOutput.updatedInput : input;
  between?.();
  const response = engineRead(ran.file_path, ran);
  const ev = response ? post(session, id, ran, response)
    : failure(session, id, ran, 'File content (58000 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file.');
  const q = await run('post', JSON.stringify(ev));
  cases++;
  if (q.code !== 0 || q.signal) bad.push(`post exit ${q.code} ${q.signal}`);
  if (q.stderr) bad.push(`post stderr ${q.stderr.slice(0, 200)}`);
  bad.push(...brokenPromises('post', ev, q.stdout).map((b) => `post: ${b}`));
  if (q.stdout) notes++;
  if (q.stdout && response) bad.push(...noteDisagrees(JSON.parse(q.stdout).hookSpecificOutput.additionalContext, response, input).map((b) => `note: ${b}`));
  return bad.map((b) => `${input.file_path} ${JSON.stringify({ ...input, file_path: undefined })}: ${b}`);
}

describe('hostile files', () => {
  it('every kind of file, as windows over the cap and as reads with no limit (in-process): notes agree', async () => {
    const windows = [
      { offset: 0, limit: 3000 }, {}, { offset: 2, limit: 100_000 }, { offset: 10 }, { offset: 1, limit: 1 },
    ];
    const tasks = Object.entries(files).flatMap(([name, path]) => windows.map((w, i) => () => readThrough(`files-${i}`, `${name.replace(/\W/g, '_')}_${i}`, { file_path: path, ...w }, undefined, inProcess)));
    const before = notes;
    const bad = (await pool(tasks, 1)).flat();
    expect(bad).toEqual([]);
    expect(notes - before).toBeGreaterThan(20); // the matrix reaches the note paths, not only silence
  });

  it('the kinds that could block or crash a process, through the built binary: exit 0, never blocks', async () => {
    const kinds = ['fifo.txt', '/dev/zero', '/dev/urandom', 'a-dir', 'loop-a', 'dangling.txt', 'utf16be.txt', 'long-line.txt', 'lone-cr.txt', 'nul.txt', 'empty.txt', 'newline.txt'];
    const tasks = kinds.map((k) => () => readThrough('files-bin', k.replace(/\W/g, '_'), { file_path: files[k], offset: 0, limit: 3000 }));
    const bad = (await pool(tasks, 4)).flat();
    expect(bad).toEqual([]);
  });

  it('the file deleted, truncated or grown between pre and post: the note (if any) matches what the engine returned', async () => {
    const mk = (n: string, lines: number) => { const p = join(dir, n); appendFileSync(p, prose(lines)); return p; };
    const gone = mk('gone.txt', 3000);
    const shrunk = mk('shrunk.txt', 3000);
    const grown = mk('grown.txt', 3000);
    const replaced = mk('replaced.txt', 3000);
    const bad = (await Promise.all([
      readThrough('change', 'gone', { file_path: gone, limit: 3000 }, () => unlinkSync(gone)),
      readThrough('change', 'shrunk', { file_path: shrunk, offset: 1, limit: 3000 }, () => truncateSync(shrunk, 2000)),
      readThrough('change', 'grown', { file_path: grown, offset: 0, limit: 3000 }, () => appendFileSync(grown, prose(6000, 5))),
      readThrough('change', 'replaced', { file_path: replaced, offset: 100, limit: 2900 }, () => { unlinkSync(replaced); mkdirSync(replaced); }),
    ])).flat();
    expect(bad).toEqual([]);
  });

  it('an unreadable file (the hook run as an unprivileged user): the Read runs as asked', async () => {
    if (process.getuid?.() !== 0) return; // needs root to drop to another uid
    const nobody = 65534;
    const home = join(dir, 'nobody-home');
    mkdirSync(home, { mode: 0o700 });
    chownSync(home, nobody, nobody);
    chmodSync(dir, 0o755);
    const secret = join(dir, 'secret.txt');
    appendFileSync(secret, prose(3000));
    chmodSync(secret, 0o600); // root's, unreadable to nobody
    const runEnv = { PATH: process.env.PATH, HOME: home, READ_CEILING_PAGER_STATE_DIR: join(home, 'state') };
    // The checkout itself may sit in a directory that user cannot enter (a 0700 temp dir): run a copy of the bundle.
    const bin = join(dir, 'cli.cjs');
    for (const f of ['cli.cjs', 'main.cjs']) {
      copyFileSync(join(ROOT, 'dist', f), join(dir, f));
      chmodSync(join(dir, f), 0o644);
    }
    const as = { uid: nobody, gid: nobody, bin };
    const p = await spawnHook('pre', JSON.stringify(pre('nobody', 'u1', { file_path: secret, offset: 1, limit: 3000 })), runEnv, as);
    cases++;
    expect(p).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
    // The same file readable: the hook still works as that user (the pass-through above was the unreadable file).
    chmodSync(secret, 0o644);
    const ok = await spawnHook('pre', JSON.stringify(pre('nobody', 'u2', { file_path: secret, offset: 1, limit: 3000 })), runEnv, as);
    cases++;
    expect(JSON.parse(ok.stdout).hookSpecificOutput.updatedInput.limit).toBeLessThan(3000);
  });
});
