// Point 6 of issue #3 on the real engine: several Reads in one assistant message run their hooks concurrently;
// each gets its own correct note, and a reader following them gets every line of every file exactly once.
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 180_000;

describe('parallel Reads in one assistant message', () => {
  it('each get their own note, and every file is read exactly once', async () => {
    const dir = tempDir('parallel');
    const files = [
      F.put(dir, 'a.txt', F.prose(300, 41)),
      F.put(dir, 'b.ts', F.code(40, 42)),
      F.put(dir, 'c.jsonl', F.minifiedJsonl(120, 43)),
      F.put(dir, 'd.txt', F.prose(260, 44)),
    ];
    const s = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets: files.map((path, i) => ({ path, offset: 1, limit: 5000 + i })) });
    expect(s.ok, s.run.stderr).toBe(true);

    // The first turn held one tool_use per file, and each result came with a note about its own file only.
    const first = s.observations[1];
    expect(first?.results.length).toBe(files.length);
    for (const path of files) {
      const c = s.cursor(path);
      const step = c.steps[0]!;
      expect(step.turn).toBe(1);
      expect(step.isError, step.content).toBe(false);
      const n = step.lines.length;
      expect(n).toBeGreaterThan(0);
      const asked = step.asked.limit!;
      const mine = step.notes.filter((t) => /read-ceiling-pager/.test(t));
      expect(mine.length, `${path}: ${first!.context}`).toBe(1);
      // The rest of its own window: up to its last line (the file ends before the window does).
      const last = Math.min(asked, coverage(path, []).lines);
      expect(step.advice, mine[0]).toEqual({ offset: n + 1, limit: last - n });
    }
    for (const path of files) {
      const c = s.cursor(path);
      const cov = coverage(path, c.received);
      expect({ file: path, missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong), refusals: c.refusals })
        .toEqual({ file: path, missing: '', duplicated: '', wrong: '', refusals: 0 });
    }
  }, ENGINE_TIMEOUT);
});
