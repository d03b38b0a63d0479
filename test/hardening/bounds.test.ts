// Bounds: a session's state and the state directory stay bounded however many Reads run, old sessions are
// pruned, and a hook passes through rather than run past its deadline on a file it cannot finish reading.
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyState, MAX_FILES, MAX_PLANS, withLearned, withoutPlan, withPlan, type Plan } from '../../src/state/session';
import { MAX_SESSIONS, SESSION_FILE_MAX_BYTES, StateStore } from '../../src/state/store';
import { figures, spawnHook } from './lib';

let dir: string;
const SHORT_PLAN: Plan = { file: "/f", size: 1e6, mtimeMs: 1, askedFirst: 1, askedLines: 3000, sentFirst: 1, sentLines: 1200, estimate: 24000, cap: 25000, at: 0 };
let cases = 0;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'rcp-bounds-')); });
afterAll(() => { figures('bounds', cases, 0); rmSync(dir, { recursive: true, force: true }); });

const LONG_DIR = `/${"d".repeat(250)}`.repeat(15);
const longPath = (i: number) => `${LONG_DIR}/file-${i}.txt`; // near PATH_MAX
const planFor = (i: number, at: number): Plan => ({
  file: longPath(i), size: 1e6, mtimeMs: 1, askedFirst: 1, askedLines: 3000, sentFirst: 1, sentLines: 1200,
  estimate: 24000, cap: 25000, at,
});

describe('one session under 100,000 Reads', () => {
  it('the pure rules keep plans and learned files bounded', () => {
    let s = emptyState();
    let maxPlans = 0;
    // A Read a second for 28 hours; one post in 50 never arrives (a Read that was interrupted).
    for (let i = 0; i < 100_000; i++) {
      cases++;
      s = withPlan(s, `toolu_${i}`, { ...SHORT_PLAN, at: i * 1000 });
      if (i % 50 !== 0) s = withoutPlan(s, `toolu_${i}`);
      if (i % 13 === 0) s = withLearned(s, `/f${i}`, { size: 1, mtimeMs: 1, ratio: 1.2, at: i * 1000 });
      maxPlans = Math.max(maxPlans, Object.keys(s.plans).length);
    }
    expect(maxPlans).toBeLessThanOrEqual(MAX_PLANS);
    expect(Object.keys(s.files).length).toBeLessThanOrEqual(MAX_FILES);
    // A burst of unanswered Reads within the plans' lifetime: capped by count.
    for (let i = 0; i < 2 * MAX_PLANS; i++) s = withPlan(s, `burst_${i}`, planFor(i, 100_000_000 + i));
    expect(Object.keys(s.plans).length).toBe(MAX_PLANS);
  });

  it('the stored file stays under its byte bound with the longest paths, and the newest plan is always kept', () => {
    const state = join(dir, 'one');
    const store = new StateStore(state, Date.now() + 60_000);
    let maxBytes = 0;
    for (let i = 0; i < 400; i++) {
      cases++;
      const ok = store.update('s', (st) => {
        const next = withPlan(st, `toolu_${i}_${'i'.repeat(200)}`, planFor(i, Date.now() + i));
        if (i % 3 !== 0) return next;
        return withLearned(next, longPath(i), { size: 1, mtimeMs: 1, ratio: 1.1, at: Date.now() + i });
      });
      expect(ok).toBe(true);
      maxBytes = Math.max(maxBytes, statSync(join(state, 's.json')).size);
      if (i % 100 === 0) expect(store.read('s').plans[`toolu_${i}_${'i'.repeat(200)}`]).toBeDefined();
    }
    expect(maxBytes).toBeLessThanOrEqual(SESSION_FILE_MAX_BYTES);
    expect(Object.keys(store.read('s').plans).length).toBeGreaterThan(10);
  });

  it('a single entry too large to store is refused (the caller explains its clamp), and nothing else is lost', () => {
    const store = new StateStore(join(dir, 'huge-id'), Date.now() + 10_000);
    expect(store.update('s', (st) => withPlan(st, 'small', planFor(1, 1)))).toBe(true);
    cases += 2;
    expect(store.update('s', (st) => withPlan(st, 'x'.repeat(SESSION_FILE_MAX_BYTES), planFor(2, 2)))).toBe(false);
    expect(Object.keys(store.read('s').plans)).toEqual(['small']);
  });
});

describe('across sessions', () => {
  it('sessions older than a week, leftovers of killed hooks, and the oldest beyond the limit are pruned', () => {
    const state = join(dir, 'many');
    mkdirSync(state, { mode: 0o700 });
    const old = Date.now() / 1000 - 8 * 24 * 3600;
    const minuteAgo = Date.now() / 1000 - 120;
    const total = MAX_SESSIONS + 300;
    for (let i = 0; i < total; i++) {
      const f = join(state, `sess-${i}.json`);
      writeFileSync(f, '{"plans":{},"files":{}}');
      const t = i < 200 ? old : minuteAgo - (total - i); // the first 200 are a week old; later ones newer
      utimesSync(f, t, t);
    }
    for (const n of ['sess-1.json.lock', 'sess-2.json.123.abc.tmp']) { writeFileSync(join(state, n), ''); utimesSync(join(state, n), minuteAgo, minuteAgo); }
    writeFileSync(join(state, 'unrelated.txt'), 'not ours');
    cases += total;
    // A new session triggers the pruning.
    expect(new StateStore(state, Date.now() + 10_000).update('brand-new', (s) => withPlan(s, 't', planFor(1, Date.now())))).toBe(true);
    const left = readdirSync(state);
    const sessions = left.filter((n) => n.endsWith('.json'));
    expect(sessions.length).toBe(MAX_SESSIONS);
    expect(sessions).toContain('brand-new.json');
    expect(sessions).toContain(`sess-${total - 1}.json`); // the newest old ones stay
    expect(sessions).not.toContain('sess-0.json'); // a week old
    expect(sessions).not.toContain('sess-250.json'); // beyond the limit, oldest first
    expect(left).not.toContain('sess-1.json.lock');
    expect(left).not.toContain('sess-2.json.123.abc.tmp');
    expect(left).toContain('unrelated.txt');
  });
});

describe('deadline', () => {
  it('a file the hook cannot finish scanning (a 1 TB sparse file, no newline) passes through by itself, exit 0', async () => {
    // Stand-in for a slow disk: the window starts on line 2, which lies beyond a terabyte of zeros.
    const f = join(dir, 'sparse.txt');
    const fd = openSync(f, 'w');
    try {
      writeSync(fd, 'x'.repeat(100));
      ftruncateSync(fd, 2 ** 40);
    } catch {
      closeSync(fd);
      return; // the file system refuses a sparse terabyte: nothing to prove here
    }
    closeSync(fd);
    const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'deadline') };
    const ev = { session_id: 'slow', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: f, offset: 2, limit: 3000 }, tool_use_id: 't' };
    const r = await spawnHook('pre', JSON.stringify(ev), env, { timeoutMs: 40_000 });
    cases++;
    // Killed by our 40 s guard would show as SIGKILL: it must have stopped itself and said nothing.
    expect(r).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
    rmSync(f);
  });
});
