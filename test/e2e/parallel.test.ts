// Point 6 of issue #3 on the real engine: several Reads in one assistant message run their hooks concurrently;
// each gets its own correct note, and a reader following them gets every line of every file exactly once.
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession, scriptSession, type ScriptStep } from './harness/session.mjs';
import type { Observation } from './harness/standin.mjs';

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
      // Where its own window goes on: from the next line, no further than its last (the file ends first).
      const last = Math.min(asked, coverage(path, []).lines);
      expect(step.advice?.offset, mine[0]).toBe(n + 1);
      // (A window to the file's end asks for a line more than the engine counts: the end, plainly.)
      expect(step.advice!.limit, mine[0]).toBeLessThanOrEqual(last - n + 2);
    }
    for (const path of files) {
      const c = s.cursor(path);
      const cov = coverage(path, c.received);
      const got = { missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) };
      expect({ file: path, ...got, refusals: c.refusals })
        .toEqual({ file: path, missing: '', duplicated: '', wrong: '', refusals: 0 });
    }
  }, ENGINE_TIMEOUT);
});

describe('parallel windows of the same file in one assistant message', () => {
  const NOTE = /read-ceiling-pager:[^\n]*/g;
  const ADVICE = /offset=(\d+) limit=(\d+)/g;
  const notesOf = (obs: Observation) => [...obs.context.matchAll(NOTE)].map((m) => m[0]);
  const linesOf = (content: string) => content.split('\n').flatMap((l) => {
    const m = /^(\d+)\t(.*)$/s.exec(l);
    return m ? [[Number(m[1]), m[2]!] as [number, string]] : [];
  });

  // count_tokens × 2.5: both clamps are refused, and both refusal notes are written at once for the same file.
  for (const scale of [1, 2.5]) {
    it(`each get their own note${scale > 1 ? ', after refusals by a denser model' : ''}, and following them reads every line once`, async () => {
      const dir = tempDir('parallel-same');
      const path = F.put(dir, 'same.txt', F.prose(600, 45));
      // The model asks for both halves at once, then goes on with both in one message each turn: it takes the
      // window a note names in that half, or, when a read came back whole and no note spoke of it (a refusal note
      // names only a window that fits), the next lines of the half it asked for.
      // Its page size in a half is the first window a note named there, as a model keeps to a size that worked.
      const halves: Array<{ from: number; to: number; page?: number }> = [{ from: 1, to: 300 }, { from: 301, to: 600 }];
      const followAll: ScriptStep = (obs) => {
        const advice = notesOf(obs).flatMap((n) => [...n.matchAll(ADVICE)].slice(-1))
          .map((m) => ({ offset: Number(m[1]), limit: Number(m[2]) }));
        const reads = halves.flatMap((half) => {
          const { from, to } = half;
          const inHalf = (offset: unknown) => typeof offset === 'number' && offset >= from && offset <= to;
          const r = obs.results.find((x) => inHalf(x.input.offset));
          if (!r) return [];
          const told = advice.filter((a) => inHalf(a.offset));
          half.page ??= told[0]?.limit;
          if (told.length > 0) return told.map((a) => ({ file_path: path, ...a }));
          const lines = linesOf(r.content);
          const last = lines.at(-1)?.[0];
          const asked = r.input.limit as number;
          if (r.isError || last === undefined || lines.length < asked || last >= to) return [];
          return [{ file_path: path, offset: last + 1, limit: Math.min(Math.max(asked, half.page ?? 0), to - last) }];
        });
        return reads.length > 0 ? { reads } : { text: 'Done.' };
      };
      const s = await scriptSession({
        cwd: dir, hooks: 'pager', cap: CAP, scale,
        script: [
          { reads: [{ file_path: path, offset: 1, limit: 300 }, { file_path: path, offset: 301, limit: 300 }] },
          ...Array(8).fill(followAll),
        ],
      });
      expect(s.ok, s.run.stderr).toBe(true);
      const trail = s.observations.map((o) => `turn ${o.turn}: ${o.results.map((r) => `${JSON.stringify(r.input.offset)}+${JSON.stringify(r.input.limit)}${r.isError ? ' REFUSED' : ''}`).join(', ')}\n  ${notesOf(o).join('\n  ')}`).join('\n');

      const first = s.observations[1]!;
      expect(first.results.length).toBe(2);
      const notes = notesOf(first);
      expect(notes.length, trail).toBe(2);
      for (const [from, to] of [[1, 300], [301, 600]] as const) {
        const r = first.results.find((x) => x.input.offset === from)!;
        expect(r.isError, trail).toBe(scale > 1);
        // Exactly one note names this window, and its advice is for this window only.
        let mine: string[];
        let advice: string;
        if (scale === 1) {
          const n = linesOf(r.content).length;
          expect(linesOf(r.content).map(([k]) => k)).toEqual(Array.from({ length: n }, (_, i) => from + i));
          mine = notes.filter((t) => t.includes(`returned lines ${from}-${from + n - 1} of the requested ${from}-${to}`));
          advice = `offset=${from + n} limit=${to - from + 1 - n}`;
        } else {
          mine = notes.filter((t) => new RegExp(`counted lines ${from}-\\d+ of`).test(t));
          const m = mine[0] && /offset=(\d+) limit=(\d+) \(lines (\d+)-(\d+)\) fits/.exec(mine[0]);
          expect(m, trail).toBeTruthy();
          expect(Number(m![1])).toBe(from);
          advice = `offset=${from} limit=${m![2]}`;
        }
        expect(mine.length, trail).toBe(1);
        expect([...mine[0]!.matchAll(ADVICE)].at(-1)?.[0], trail).toBe(advice);
      }

      // Following the notes, with both windows' continuations in parallel: every line once, no further refusal.
      const later = s.observations.slice(2).flatMap((o) => o.results);
      expect(later.filter((r) => r.isError).length, trail).toBe(0);
      const received = s.observations.flatMap((o) => o.results).filter((r) => !r.isError)
        .flatMap((r) => linesOf(r.content));
      const cov = coverage(path, received);
      const got = { missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) };
      expect({ ...got, outside: ranges(cov.outside) }, trail)
        .toEqual({ missing: '', duplicated: '', wrong: '', outside: '' });
    }, ENGINE_TIMEOUT);
  }
});
