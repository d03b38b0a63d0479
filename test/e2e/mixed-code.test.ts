// Code whose mix of features changes every few hundred lines (indented statements, lists of exported camelCase
// names, declarations, as a compiler's bundle has them), over 256 KiB, read whole on the real engine with a stand-in
// that counts with o200k and reports each request's usage. o200k counts each kind at another share of the estimate:
// sized by the last window's density alone, a window of another mix held 0.79-0.99 of the cap. The file's own
// weights, fitted to the counts of its windows (src/estimate/file-weights.ts), size each window by its own mix.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession } from './harness/session.mjs';
import { tokenizer } from './harness/tokenizer.mjs';
import { mixedCode } from '../helpers/text';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 300_000;
const CAP = 25_000;

describe('code whose mix changes from window to window, over 256 KiB, read whole', () => {
  it('every line once, no refusal, and once the weights predicted three windows, each holds over 0.93 of the cap', async () => {
    const text = mixedCode(16_000);
    const path = F.put(tempDir('mixed-code'), 'bundle.js', text);
    expect(Buffer.byteLength(text)).toBeGreaterThan(262_144);
    const bare = F.put(tempDir('mixed-code-bare'), 'bundle.js', text);
    const common = { hooks: 'pager', cap: CAP, tokenizerName: 'o200k', usage: true } as const;
    const [s, without] = await Promise.all([
      readSession({ ...common, cwd: dirname(path), targets: [{ path }] }),
      readSession({ ...common, hooks: 'none', cwd: dirname(bare), targets: [{ path: bare }] }),
    ]);
    expect(s.ok, s.run.stderr).toBe(true);
    expect(without.ok, without.run.stderr).toBe(true);
    const c = s.cursor(path);
    const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${
      st.decision}\n    ${st.notes.join('\n    ')}`).join('\n');
    const cov = coverage(path, c.received, { except: [] });
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) }, trail)
      .toEqual({ missing: '', duplicated: '', wrong: '' });
    expect(c.refusals, trail).toBe(0);
    const count = tokenizer({ name: 'o200k' }).count;
    const lines = readFileSync(path, 'utf8').split('\n');
    const windows = c.steps.map((st) => s.ran.get(st.toolUseId)?.file).filter((f) => f?.numLines > 0);
    const fills = windows.map((f) => count(lines.slice(f.startLine - 1, f.startLine - 1 + f.numLines).join('\n')) / CAP);
    // The first window is sized by the prior; the next ones by the windows counted so far, with the margin for text
    // that changed until three of them came out as the weights predicted; the last holds what is left.
    const steady = fills.slice(5, -1);
    expect(steady.length, trail).toBeGreaterThanOrEqual(3);
    expect(Math.min(...steady), `${fills.map((f) => f.toFixed(3)).join(' ')}\n${trail}`).toBeGreaterThan(0.93);
    expect(c.steps.length, trail).toBeLessThan(without.cursor(bare).steps.length);
  }, ENGINE_TIMEOUT);
});
