// The opt-in trace (READ_CEILING_PAGER_TRACE), through the built binary: with it on, every hook run leaves one
// line saying what it did and why; with it off, nothing is written; either way stdout is the same and stderr empty.
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, NODE, engineRead, failureEvent, postEvent, preEvent, runHook } from '../helpers/hook';
import { prose } from '../helpers/text';

let dir: string;
let trace: string;
let on: NodeJS.ProcessEnv;
let off: NodeJS.ProcessEnv;
const session = 'sess-trace';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-trace-'));
  trace = join(dir, 'trace.jsonl');
  off = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
  on = { ...off, READ_CEILING_PAGER_TRACE: trace };
  writeFileSync(join(dir, 'big.txt'), prose(3000));
  writeFileSync(join(dir, 'small.txt'), prose(20));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lines(path = trace): any[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** Runs one hook with the trace on and off: the same stdout, no stderr; the one new trace line. */
function traced(name: 'pre' | 'post', event: unknown): { line: any; json: any } {
  const before = (() => { try { return lines().length; } catch { return 0; } })();
  const a = runHook(name, event, on);
  const b = runHook(name, event, off);
  expect(a.stdout).toBe(b.stdout);
  expect(a.stderr + b.stderr).toBe('');
  const after = lines();
  expect(after.length).toBe(before + 1);
  return { line: after.at(-1), json: a.json };
}

describe('with the trace on, a Read the pager left alone says why in one line', () => {
  it('a window that fits: pre passes, reason "fits"', () => {
    const file = join(dir, 'big.txt');
    const { line } = traced('pre', preEvent(session, 'toolu_fits', { file_path: file, offset: 1, limit: 50 }));
    expect(line).toMatchObject({
      hook: 'pre', event: 'PreToolUse', session, toolUseId: 'toolu_fits', tool: 'Read', file, decision: 'silent', reason: 'fits',
    });
    expect(line.ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(line.at)).not.toBeNaN();
  });

  it('a small file, a missing file, a whole-file read the engine pages, a line it cannot parse', () => {
    expect(traced('pre', preEvent(session, 't1', { file_path: join(dir, 'small.txt'), limit: 5 })).line.reason).toBe('small-file');
    expect(traced('pre', preEvent(session, 't2', { file_path: join(dir, 'nope.txt'), limit: 5 })).line.reason)
      .toBe('not-a-regular-file');
    expect(traced('pre', preEvent(session, 't3', { file_path: join(dir, 'big.txt') })).line.reason).toBe('engine-pages-it');
    expect(traced('pre', '{not json').line).toMatchObject({ hook: 'pre', decision: 'silent', reason: 'bad-json' });
  });

  it('a clamp says so, with the limit sent; post notes it; a result that came back whole has no note, and says why', () => {
    const input = { file_path: join(dir, 'big.txt'), offset: 1, limit: 3000 };
    const pre = traced('pre', preEvent(session, 'toolu_clamp', input));
    const sent = pre.json.hookSpecificOutput.updatedInput;
    expect(pre.line).toMatchObject({ decision: 'rewrite', reason: 'clamped', limit: sent.limit });
    // Only the run with the trace on had a plan to find: the second run of `traced` sees the plan gone.
    const note = runHook('post', postEvent(session, 'toolu_clamp', sent, engineRead(input.file_path, 1, sent.limit)), on);
    expect(note.json.hookSpecificOutput.additionalContext).toContain('offset=');
    expect(lines().at(-1)).toMatchObject({ hook: 'post', event: 'PostToolUse', decision: 'note', reason: 'noted' });
    const whole = { file_path: input.file_path, offset: 1, limit: 10 };
    expect(traced('post', postEvent(session, 'toolu_whole', whole, engineRead(whole.file_path, 1, 10))).line.reason)
      .toBe('returned-all-asked');
    const other = failureEvent(session, 'toolu_err', whole, 'File does not exist. Note: your current working directory is /.');
    expect(traced('post', other).line).toMatchObject({ event: 'PostToolUseFailure', decision: 'silent', reason: 'not-a-cap-refusal' });
  });
});

describe('the trace is safe and bounded', () => {
  it('off: nothing is written anywhere', () => {
    const d = mkdtempSync(join(tmpdir(), 'rcp-trace-off-'));
    try {
      const env = { ...off, READ_CEILING_PAGER_STATE_DIR: join(d, 'state') };
      runHook('pre', preEvent('s-off', 'x', { file_path: join(dir, 'small.txt'), limit: 5 }, d), env);
      runHook('pre', preEvent('s-off', 'y', { file_path: join(dir, 'big.txt'), offset: 1, limit: 3000 }, d), env);
      expect(readdirSync(d)).toEqual(['state']); // the clamp's plan, nothing else
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('a relative path is ignored: nothing is written', () => {
    const d = mkdtempSync(join(tmpdir(), 'rcp-trace-rel-'));
    try {
      // Run from inside `d`, where a relative path would land.
      const r = spawnSync(NODE, [BIN, 'pre'], {
        cwd: d, encoding: 'utf8', env: { ...off, READ_CEILING_PAGER_TRACE: 'trace.jsonl' },
        input: JSON.stringify(preEvent('s', 'x', { file_path: join(dir, 'small.txt'), limit: 5 })),
      });
      expect(r.status).toBe(0);
      expect(r.stdout + r.stderr).toBe('');
      expect(readdirSync(d)).toEqual([]);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('a state directory that cannot be written: the clamp still goes out, and the line says its plan was not saved', () => {
    const blocked = join(dir, 'not-a-dir');
    writeFileSync(blocked, '');
    const t = join(dir, 'state-trace.jsonl');
    const env = { ...off, READ_CEILING_PAGER_STATE_DIR: blocked, READ_CEILING_PAGER_TRACE: t };
    const r = runHook('pre', preEvent(session, 'toolu_nostate', { file_path: join(dir, 'big.txt'), offset: 1, limit: 3000 }), env);
    expect(r.json.hookSpecificOutput.additionalContext).toContain('read-ceiling-pager:');
    expect(lines(t)).toEqual([expect.objectContaining({ decision: 'rewrite', reason: 'clamped-unrecorded', stateNotSaved: 1 })]);
  });

  it('stops at 1 MiB, never follows a symlink', () => {
    const full = join(dir, 'full.jsonl');
    writeFileSync(full, 'x'.repeat(1024 * 1024));
    runHook('pre', preEvent(session, 'f', { file_path: join(dir, 'small.txt'), limit: 5 }), { ...off, READ_CEILING_PAGER_TRACE: full });
    expect(lstatSync(full).size).toBe(1024 * 1024);

    const target = join(dir, 'target.txt');
    writeFileSync(target, '');
    const link = join(dir, 'link.jsonl');
    symlinkSync(target, link);
    const r = runHook('pre', preEvent(session, 'l', { file_path: join(dir, 'small.txt'), limit: 5 }), {
      ...off, READ_CEILING_PAGER_TRACE: link,
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(readFileSync(target, 'utf8')).toBe('');
  });

  it('parallel hooks each append one whole line', async () => {
    const par = join(dir, 'parallel.jsonl');
    const env = { ...off, READ_CEILING_PAGER_TRACE: par };
    const runs = Array.from({ length: 16 }, (_, i) => new Promise<void>((done) => {
      const child = spawn(NODE, [BIN, 'pre'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('close', () => done());
      child.stdin.end(JSON.stringify(preEvent(session, `p${i}`, { file_path: join(dir, 'big.txt'), offset: 1 + i, limit: 20 })));
    }));
    await Promise.all(runs);
    const got = lines(par);
    expect(got).toHaveLength(16);
    expect(new Set(got.map((l) => l.toolUseId)).size).toBe(16);
  });
});
