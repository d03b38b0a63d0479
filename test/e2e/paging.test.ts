// Points 2 and 7 of issue #3 on the real engine: a reader that follows only the notes gets every line of a file
// exactly once, whatever the file; and against the same files, the pager never costs more refusals or calls.
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession, type Session } from './harness/session.mjs';
import { tokenizer } from './harness/tokenizer.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 180_000;
const LONG_AT = 40;

interface Kind { name: string; file: string; text: string; scale?: number; oversize?: number }

const KINDS: Kind[] = [
  { name: 'prose', file: 'prose.txt', text: F.prose(300) },
  { name: 'code', file: 'code.ts', text: F.code(40) },
  { name: 'Korean JSON', file: 'ko.json', text: F.cjsonPretty('ko', 40) },
  { name: 'Chinese JSON', file: 'zh.json', text: F.cjsonPretty('zh', 40) },
  { name: 'minified JSON lines', file: 'rows.jsonl', text: F.minifiedJsonl(120) },
  { name: 'CRLF text', file: 'crlf.txt', text: F.crlf(F.prose(300, 7)) },
  { name: 'no final newline', file: 'nofinal.txt', text: F.noFinalNewline(F.prose(300, 8)) },
  { name: 'one line far over the cap', file: 'long.txt', text: F.withLongLine(120, LONG_AT, 40_000), oversize: LONG_AT },
];

interface Row { kind: string; pager: Tally; none: Tally }
interface Tally { calls: number; refusals: number; missing: number }
const rows: Row[] = [];
const dir = tempDir('paging');

function tally(s: Session, path: string, except: number[] = []): Tally {
  const c = s.cursor(path);
  const missing = coverage(path, c.received, { except }).missing.length;
  return { calls: c.steps.length, refusals: c.refusals, missing };
}

describe(`following only the notes (cap ${CAP}, count_tokens by ${tokenizer().name})`, () => {
  for (const kind of KINDS) {
    it(`reads every line of ${kind.name} exactly once`, async () => {
      const path = F.put(dir, kind.file, kind.text);
      const target = { path, offset: 1, limit: 100_000 };
      const s = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets: [target] });
      const without = await readSession({ cwd: dir, hooks: 'none', cap: CAP, targets: [target] });
      const except = kind.oversize ? [kind.oversize] : [];
      rows.push({ kind: kind.name, pager: tally(s, path, except), none: tally(without, path) });
      expect(s.ok, s.run.stderr).toBe(true);
      expect(without.ok, without.run.stderr).toBe(true);

      const c = s.cursor(path);
      const cov = coverage(path, c.received, { except });
      const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${st.decision}`).join('\n');
      const got = { missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) };
      expect({ ...got, outside: ranges(cov.outside) }, trail)
        .toEqual({ missing: '', duplicated: '', wrong: '', outside: '' });
      expect(c.gaveUp).toBe(false);
      expect(c.steps.length, 'the file is over the cap, so it takes more than one page').toBeGreaterThan(1);
      // The prior estimate may be beaten by a tokenizer denser than it expects: then one refusal teaches the pager
      // the file's density, and no window after it is refused (point 3 tests that path on purpose).
      const refused = c.steps.flatMap((st, i) => (st.isError ? [i] : []));
      expect(refused.length, trail).toBeLessThanOrEqual(1);
      if (refused.length === 1) expect(refused[0], trail).toBe(0);
      if (kind.oversize) {
        // The line is named as unreadable by any window, with a way out, and the reader went on after it.
        const n = kind.oversize;
        expect(c.received.some(([k]) => k === n)).toBe(false);
        const note = c.steps.flatMap((st) => st.notes).find((t) => new RegExp(`\\b${n}\\b`).test(t) && /no Read window/i.test(t));
        expect(note, trail).toBeDefined();
        expect(note).toMatch(/Grep|sed -n/);
        expect(c.received.some(([k]) => k === n + 1)).toBe(true);
      }
    }, ENGINE_TIMEOUT);
  }

  it('with the pager, never more refusals, calls or missing lines than without (point 7)', () => {
    expect(rows.length).toBe(KINDS.length);
    for (const r of rows) {
      expect(r.pager.refusals, r.kind).toBeLessThanOrEqual(r.none.refusals);
      expect(r.pager.calls, r.kind).toBeLessThanOrEqual(r.none.calls);
      expect(r.pager.missing, r.kind).toBeLessThanOrEqual(r.none.missing);
    }
  });
});

afterAll(() => {
  if (rows.length === 0) return;
  const w = Math.max(...rows.map((r) => r.kind.length));
  const lines = [
    `Read refusals and calls, cap ${CAP}, count_tokens by ${tokenizer().name}: with the pager | without`,
    ...rows.map((r) => `  ${r.kind.padEnd(w)}  refusals ${String(r.pager.refusals).padStart(2)} | ${String(r.none.refusals).padStart(2)}`
      + `   calls ${String(r.pager.calls).padStart(2)} | ${String(r.none.calls).padStart(2)}`
      + `   lines missed ${r.pager.missing} | ${r.none.missing}`),
  ];
  console.log(lines.join('\n'));
});
