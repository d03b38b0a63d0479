// Faults of the state directory and of the hooks themselves: the Read still runs (clamped, and explained by
// pre when its plan cannot be kept), and the next hook recovers.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, brokenPromises, figures, prose, spawnHook } from './lib';

let dir: string;
let cases = 0;
const gaps: string[] = [];
const mounted: string[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-faults-'));
  writeFileSync(join(dir, 'big.txt'), prose(3000));
});
afterAll(() => {
  for (const m of mounted) { try { execFileSync('umount', [m]); } catch { /* already */ } }
  figures('faults', cases, 0, gaps.length ? `not testable here: ${gaps.join('; ')}` : '');
  rmSync(dir, { recursive: true, force: true });
});

function tryMount(args: string[], target: string): boolean {
  mkdirSync(target, { recursive: true });
  try { execFileSync('mount', [...args, target], { stdio: 'ignore' }); mounted.push(target); return true; } catch { return false; }
}

const input = () => ({ file_path: join(dir, 'big.txt'), offset: 1, limit: 3000 });
const preEv = (s: string, id: string) => ({ session_id: s, transcript_path: '/nonexistent.jsonl', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: input(), tool_use_id: id });
function postEv(s: string, id: string, ran: any) {
  const lines = prose(3000).split('\n').slice(ran.offset - 1, ran.offset - 1 + ran.limit);
  return { session_id: s, cwd: '/', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: ran, tool_response: { type: 'text', file: { filePath: ran.file_path, content: lines.join('\n'), numLines: lines.length, startLine: 1, totalLines: 3001 } }, tool_use_id: id };
}

/** Under a broken state dir: pre still clamps and explains the clamp itself; post adds no second note. */
async function degraded(state: string, label: string): Promise<void> {
  const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: state };
  const pre = await spawnHook('pre', JSON.stringify(preEv('f1', `${label}-1`)), env);
  cases++;
  expect(pre.code, label).toBe(0);
  expect(pre.stderr, label).toBe('');
  expect(brokenPromises('pre', preEv('f1', `${label}-1`), pre.stdout), label).toEqual([]);
  const out = JSON.parse(pre.stdout).hookSpecificOutput;
  expect(out.updatedInput.limit, label).toBeLessThan(3000);
  expect(out.additionalContext, label).toContain(`shortened to lines 1-${out.updatedInput.limit}`);
  const post = await spawnHook('post', JSON.stringify(postEv('f1', `${label}-1`, out.updatedInput)), env);
  cases++;
  expect(post.code, label).toBe(0);
  expect(post.stdout, label).toBe('');
}

/** A working state dir: pre records its plan, post explains. */
async function healthy(state: string, label: string): Promise<void> {
  const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: state };
  const pre = await spawnHook('pre', JSON.stringify(preEv('f1', `${label}-2`)), env);
  const out = JSON.parse(pre.stdout).hookSpecificOutput;
  expect(out.additionalContext, label).toBeUndefined();
  const post = await spawnHook('post', JSON.stringify(postEv('f1', `${label}-2`, out.updatedInput)), env);
  cases += 2;
  expect(JSON.parse(post.stdout).hookSpecificOutput.additionalContext, label).toContain(`offset=${out.updatedInput.limit + 1} limit=`);
}

describe('state directory faults', () => {
  it('missing (and creatable): created, used', async () => {
    await healthy(join(dir, 'missing', 'a', 'b'), 'missing');
  });

  it('not creatable (its parent is a file), then fixed', async () => {
    writeFileSync(join(dir, 'parent-file'), '');
    await degraded(join(dir, 'parent-file', 'state'), 'uncreatable');
  });

  it('read-only (a read-only mount), then writable again', async () => {
    const ro = join(dir, 'ro');
    if (!tryMount(['-t', 'tmpfs', '-o', 'ro,size=64k,mode=0700', 'tmpfs'], ro)) { gaps.push('read-only mount refused'); return; }
    await degraded(ro, 'read-only');
    execFileSync('mount', ['-o', 'remount,rw', ro]);
    await healthy(ro, 'read-only recovered');
  });

  it('full (a 64 KiB tmpfs filled up): no partial file left, no torn state, recovers when space returns', async () => {
    const full = join(dir, 'full');
    if (!tryMount(['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs'], full)) { gaps.push('tmpfs mount refused'); return; }
    await healthy(full, 'full-before');
    const before = readFileSync(join(full, 'f1.json'), 'utf8');
    // Fill it: a plan needs a few hundred bytes; leave less than that.
    try { execFileSync('dd', ['if=/dev/zero', `of=${join(full, 'filler')}`, 'bs=1k', 'count=1024'], { stdio: 'ignore' }); } catch { /* ENOSPC: full */ }
    await degraded(full, 'full');
    expect(readdirSync(full).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(readFileSync(join(full, 'f1.json'), 'utf8'))).toEqual(JSON.parse(before));
    rmSync(join(full, 'filler'));
    await healthy(full, 'full recovered');
  });

  it('corrupted or truncated state file: read as empty, replaced by the next write', async () => {
    const state = join(dir, 'corrupt');
    mkdirSync(state, { mode: 0o700 });
    for (const junk of ['{"plans":{"a":', '\0\0\0\0', 'null', '[]', '{"plans":[],"files":7,"cap":-1}', 'x'.repeat(2 * 1024 * 1024)]) {
      writeFileSync(join(state, 'f1.json'), junk);
      await healthy(state, `corrupt ${junk.slice(0, 12)}`);
      expect(() => JSON.parse(readFileSync(join(state, 'f1.json'), 'utf8'))).not.toThrow();
    }
  });
});

describe('hooks that die', () => {
  it('a hook killed in the middle of writing the state file: the file stays whole, the next hook goes straight on', async () => {
    const state = join(dir, 'killed');
    const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: state };
    await healthy(state, 'killed-before');
    const before = readFileSync(join(state, 'f1.json'), 'utf8');
    // The hook kills itself with SIGKILL after writing part of its temp file, holding the lock.
    const killer = join(dir, 'kill-mid-write.cjs');
    writeFileSync(killer, `const fs = require('fs'); const w = fs.writeSync;
      fs.writeSync = function (fd, data, off, len) { if (Buffer.isBuffer(data) && data.length > 20) { w.call(fs, fd, data, 0, 10); process.kill(process.pid, 'SIGKILL'); } return w.apply(fs, arguments); };`);
    const r = await spawnHook('pre', JSON.stringify(preEv('f1', 'killed-1')), env, { preload: killer });
    cases++;
    expect(r.signal).toBe('SIGKILL');
    expect(existsSync(join(state, 'f1.json.lock'))).toBe(true); // left behind, as by a real kill
    expect(readFileSync(join(state, 'f1.json'), 'utf8')).toBe(before);
    // The next hook sees the lock's owner is gone and takes it at once: its plan is recorded, no self-note.
    await healthy(state, 'killed-after');
    expect(existsSync(join(state, 'f1.json.lock'))).toBe(false);
  });

  it('a lock held by a live hook past the deadline: pre still clamps and explains; nothing waits past it', async () => {
    const state = join(dir, 'held');
    mkdirSync(state, { mode: 0o700 });
    // A live process owns the lock for the whole run.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(state, 'f1.json.lock'), `${holder.pid} held`);
      await degraded(state, 'held lock');
    } finally {
      holder.kill('SIGKILL');
    }
    void BIN;
  });

  it('stdin never closed after a whole input: the hook answers and exits 0 by itself', async () => {
    const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'open-stdin') };
    const event = preEv('f1', 'open');
    const r = await spawnHook('pre', JSON.stringify(event), env, { keepOpen: true, timeoutMs: 25_000 });
    cases++;
    expect(r).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(brokenPromises('pre', event, r.stdout)).toEqual([]);
    expect(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.limit).toBeGreaterThan(0);
  });

  it('stdin never closed on a cut input: nothing is printed, and the engine\'s hook timeout ends it', async () => {
    // Reading stdin synchronously keeps the network stack off every Read; the cost is that a writer that
    // never finishes is left to the engine's timeout, after which the Read runs as asked.
    const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'open-stdin') };
    const raw = JSON.stringify(preEv('f1', 'open-cut'));
    const r = await spawnHook('pre', raw.slice(0, raw.length - 10), env, { keepOpen: true, timeoutMs: 3_000 });
    cases++;
    expect(r).toMatchObject({ signal: 'SIGKILL', stdout: '', stderr: '' });
  });
});
