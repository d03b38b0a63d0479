// A file over 256 KiB read whole on the real engine, with the pager and without, by a stand-in that counts with o200k
// and reports each request's usage: what the pager's reading returned, checked whole (every line once, no refusal),
// and how full each window it returned was by the count the engine refuses by.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession } from './harness/session.mjs';
import { tokenizer } from './harness/tokenizer.mjs';

export const CAP = 25_000;

export async function readWholeUnderO200k(
  name: string,
  fileName: string,
  text: string,
): Promise<{
  fills: number[];
  windows: Array<{ first: number; lines: number }>;
  trail: string;
  calls: number;
  bareCalls: number;
}> {
  const path = F.put(tempDir(name), fileName, text);
  expect(Buffer.byteLength(text)).toBeGreaterThan(262_144); // the engine would page a smaller one itself
  const bare = F.put(tempDir(`${name}-bare`), fileName, text);
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
  return {
    fills,
    windows: windows.map((f) => ({ first: f.startLine, lines: f.numLines })),
    trail,
    calls: c.steps.length,
    bareCalls: without.cursor(bare).steps.length,
  };
}
