// The pager loaded the other way users install it: as a plugin (`--plugin-dir <repo>`), its hooks from
// hooks/hooks.json, in exec form ("command": "node", "args": [...]). Skipped only while the plugin files do not
// exist. Also: what the engine does when an exec-form Read hook cannot start at all.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { REPO, tempDir, removeTempDirs } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const isPlugin = existsSync(join(REPO, '.claude-plugin/plugin.json')) && existsSync(join(REPO, 'hooks/hooks.json'));

describe.skipIf(!isPlugin)('as a plugin', () => {
  it('clamps an over-cap window, notes the rest, and a reader gets every line exactly once', async () => {
    const dir = tempDir('plugin');
    const path = put(dir, 'prose.txt', prose(300, 51));
    const s = await readSession({ cwd: dir, hooks: 'plugin', cap: CAP, targets: [{ path, offset: 1, limit: 300 }] });
    expect(s.ok, s.run.stderr).toBe(true);
    const c = s.cursor(path);
    const [first] = c.steps;
    expect(first?.isError, first?.content).toBe(false);
    const n = first!.lines.length;
    expect(n).toBeLessThan(300);
    expect(first!.notes.join('\n')).toMatch(/read-ceiling-pager/);
    expect(first!.advice).toEqual({ offset: n + 1, limit: 300 - n });
    const cov = coverage(path, c.received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), refusals: c.refusals })
      .toEqual({ missing: '', duplicated: '', refusals: 0 });
  }, 120_000);
});

// Exec form runs no shell, so nothing but the engine reports a program that is not there. Wired as install
// writes it, with a program no PATH has: the Read must still run (the pager's promise: it never blocks a Read).
describe('an exec-form Read hook whose program does not exist', () => {
  it('does not block the Read: its lines come back, and the engine records a non-blocking hook error', async () => {
    const dir = tempDir('exec-missing');
    const path = put(dir, 'prose.txt', prose(40, 3));
    const missing = (hook: string) => [{ matcher: 'Read', hooks: [{ type: 'command', command: 'read-ceiling-pager-missing-xyz', args: [hook], timeout: 10 }] }];
    const settings = { hooks: { PreToolUse: missing('pre'), PostToolUse: missing('post'), PostToolUseFailure: missing('post') } };
    const s = await readSession({ cwd: dir, hooks: 'none', settings, keepHome: true, targets: [{ path, offset: 1, limit: 20, once: true }] });
    expect(s.ok, s.run.stderr).toBe(true);
    const [step, ...more] = s.cursor(path).steps;
    expect(more).toEqual([]);
    expect(step?.isError, step?.content).toBe(false);
    expect(step!.lines.map(([n]) => n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // What the engine made of it (2.1.205, 2.1.332 and 2.1.337 alike): a hook_non_blocking_error record in the
    // transcript, exit code 1, "Executable not found in $PATH"; the model is told nothing.
    const records = readFileSync(s.transcript!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { attachment?: Record<string, unknown> });
    const errors = records.flatMap((r) => (r.attachment?.type === 'hook_non_blocking_error' ? [r.attachment] : []));
    expect(errors.map((e) => [e.hookEvent, e.command, e.exitCode])).toEqual([
      ['PreToolUse', 'read-ceiling-pager-missing-xyz pre', 1], ['PostToolUse', 'read-ceiling-pager-missing-xyz post', 1],
    ]);
    expect(String(errors[0]!.stderr)).toMatch(/Executable not found in \$PATH: "read-ceiling-pager-missing-xyz"/);
    expect(JSON.stringify(s.conversation)).not.toContain('read-ceiling-pager-missing-xyz');
  }, 120_000);
});
