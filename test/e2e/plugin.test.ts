// The pager loaded the other way users install it: as a plugin (`--plugin-dir <repo>`), its hooks from
// hooks/hooks.json. Skipped only while the plugin files do not exist.
import { existsSync } from 'node:fs';
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
