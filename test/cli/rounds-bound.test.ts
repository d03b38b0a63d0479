// scripts/rounds-bound.mjs, on a run of one generated file over 256 KiB: what it prints must obey the order any
// correct count obeys. The oracle reads with the fewest calls there are; the pager's first window followed by the
// oracle's windows is one way to read the file, so it takes at least as many; and every hindsight reader starts
// from that same first window, so none takes fewer than the oracle from there.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { simFile } from '../../scripts/lib/engine-sim.mjs';
import { oracle } from '../../scripts/lib/oracle.mjs';
import { tokenizerNamed, windowCounter } from '../../scripts/lib/token-count.mjs';
import { removeTempDirs, tempDir } from '../e2e/harness/engine.mjs';
import * as F from '../e2e/harness/files.mjs';

afterAll(removeTempDirs);
const SCRIPT = resolve(__dirname, '../../scripts/rounds-bound.mjs');
const CAP = 25_000;

it('prints oracle <= first window then oracle <= every hindsight reader, for the run it is given', () => {
  const dir = tempDir('rounds-bound');
  const path = F.put(dir, 'prose.txt', F.proseOfSize(400_000, 91));
  const file = simFile(path);
  const best = oracle(file, windowCounter(file, tokenizerNamed('o200k')), CAP);
  // The pager's first window as a run records it: a prefix that fits, shorter than the oracle's (the prior's margin).
  const firstLines = Math.floor(best.windows[0]![1] * 0.8);
  const run = {
    cap: CAP,
    results: [{
      file: 'prose.txt', bytes: file.size, tokenizer: 'o200k', mode: 'whole',
      oracle: { calls: best.calls }, pager: {
        calls: best.calls + 1, refusals: 0,
        steps: [{ ran: { file_path: path, limit: firstLines }, isError: false, first: 1, lines: firstLines }],
      },
    }],
  };
  const runPath = join(dir, 'run.json');
  writeFileSync(runPath, JSON.stringify(run));

  const r = spawnSync(process.execPath, [SCRIPT, runPath], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const row = /^o200k\s+(\d+) \| (\d+) \((\d+)\) \| (\d+) \| (.*)$/m.exec(r.stdout);
  expect(row, r.stdout).not.toBeNull();
  const [, oracleCalls, pagerCalls, , firstThenOracle, hindsight] = row!;
  expect(Number(oracleCalls)).toBe(best.calls);
  expect(Number(pagerCalls)).toBe(best.calls + 1);
  expect(Number(firstThenOracle)).toBeGreaterThanOrEqual(best.calls);
  const readers = [...hindsight!.matchAll(/(\w+) (\d+) \((\d+)\) at ([\d.]+)/g)];
  expect(readers.map((m) => m[1])).toEqual(['first', 'last', 'mean', 'ewma']);
  for (const m of readers) expect(Number(m[2])).toBeGreaterThanOrEqual(Number(firstThenOracle));
});

it('says how to call it when the run is missing', () => {
  const r = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/usage: node scripts\/rounds-bound\.mjs RUN\.json/);
});
