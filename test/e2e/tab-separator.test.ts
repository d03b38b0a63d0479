// A flag of the engine's (`tengu_tab_read_sep`, off unless its remote flags turn it on) numbers every line of a
// result `N:` instead of `N` and a tab where a line of it starts with a tab (docs/ENGINE.md 9.10). The pager reads
// no result's text, but the usage that sizes each window after the first holds the numbers, and the colon costs more
// than the tab before tab-indented lines. With the flag on, in the engine's cached flags as a user's would be,
// tab-indented code read whole and in windows: no refusal, every line once, and at most a call more than with it off.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 300_000;
/** Lets the engine write each reply's record before the next call's hook reads it (as whole-oracle.test.ts). */
const MODEL_THINK_MS = 200;

/** A fresh HOME whose engine config holds the flag as fetched from the engine's remote flags. */
function homeWithFlag(on: boolean): string {
  const home = tempDir('tab-sep-home');
  if (on) {
    const config = { cachedGrowthBookFeatures: { tengu_tab_read_sep: true }, cachedGrowthBookFeaturesAt: Date.now() };
    writeFileSync(join(home, '.claude.json'), JSON.stringify(config));
  }
  return home;
}

describe('line numbers written N: (an engine flag)', () => {
  const dir = tempDir('tab-sep');
  const path = F.put(dir, 'tabs.js', F.code(200).replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2)));

  for (const target of [{ path, offset: 1, limit: 100_000 }, { path }]) {
    const mode = target.limit === undefined ? 'read whole' : 'in windows';
    it(`tab-indented code ${mode}: no refusal, every line once, at most a call more than without the flag`, async () => {
      const read = (flag: boolean) => readSession({
        cwd: dir, hooks: 'pager', cap: CAP, usage: true, thinkMs: MODEL_THINK_MS, home: homeWithFlag(flag), targets: [target],
      });
      const [on, off] = [await read(true), await read(false)];
      expect(on.ok && off.ok, on.run.stderr + off.run.stderr).toBe(true);
      const c = on.cursor(path);
      const results = c.steps.filter((st) => !st.isError).map((st) => st.content);
      // The flag took: every result numbered with colons (else this test would check nothing new).
      expect(results.length).toBeGreaterThan(1);
      for (const text of results) expect(text).toMatch(/^\d+:/);
      const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${st.decision}`).join('\n');
      const cov = coverage(path, c.received);
      expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) }, trail)
        .toEqual({ missing: '', duplicated: '', wrong: '' });
      expect(c.refusals, trail).toBe(0);
      expect(c.steps.length, trail).toBeLessThanOrEqual(off.cursor(path).steps.length + 1);
    }, ENGINE_TIMEOUT);
  }
});
