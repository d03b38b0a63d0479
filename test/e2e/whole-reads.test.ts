// Issue #13 on the real engine: reads with no limit, the common case. A reader that asks for whole files and
// follows what it is told gets every line once, is never refused beyond lines that alone exceed the cap, takes
// no more calls than with the bare engine, and every continuation a note names runs as named (no clamp). And a
// file read whole then edited: the engine's partial page does not count as having read it for Write (nor for Edit
// on the models that check), so with READ_CEILING_PAGER_WHOLE_READS=window the pager's window saves the refused
// edit and the re-read.
import { readdirSync, statSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { REPO, tempDir, removeTempDirs } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { estimateTokens } from '../../src/estimate/density';
import { readSession, scriptSession, type Session, type ScriptStep } from './harness/session.mjs';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 240_000;
const WHOLE_FILE_MAX_BYTES = 262_144;

/** A real file nobody here wrote, from the installed packages, with its size in [min, max). */
function realFile(dirs: string[], ext: RegExp, min: number, max: number): string {
  const found: string[] = [];
  const walk = (d: string, depth: number): void => {
    if (depth > 6 || found.length > 0) return;
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && ext.test(e.name)) {
        const size = statSync(p).size;
        if (size >= min && size < max) { found.push(p); return; }
      }
    }
  };
  for (const d of dirs) walk(join(REPO, 'node_modules', d), 0);
  if (!found[0]) throw new Error(`no ${ext} file of ${min}-${max} bytes under ${dirs.join(', ')}`);
  return found[0];
}

interface Kind {
  name: string; file: string; text: () => string; cap: number; oversize?: number;
  /** The pager's calls when they are known exactly. */
  pagerCalls?: number;
}

const KINDS: Kind[] = [
  { name: 'prose under 256 KiB', file: 'prose.txt', text: () => F.prose(300), cap: 3000 },
  { name: 'Korean JSON under 256 KiB', file: 'ko.json', text: () => F.cjsonPretty('ko', 40), cap: 3000 },
  { name: 'code with a line over the cap', file: 'long.ts', text: () => F.withLongLine(120, 40, 40_000), cap: 3000, oversize: 40 },
  { name: 'real declarations under 256 KiB', file: 'real.d.ts', text: () => readFileSync(realFile(['typescript/lib'], /\.d\.ts$/, 150_000, 250_000), 'utf8'), cap: 10_000 },
  // The engine would page it by its count of the whole file, which the last line swells to a page of ~150 lines:
  // the pager sends lines 1-700 as one window instead, and says nothing readable is left.
  {
    name: 'code ending in a minified line, under 256 KiB', file: 'bundle.js',
    text: () => `${F.prose(700)}${'q=[1,2];'.repeat(20_000)}\n`, cap: 25_000, oversize: 701, pagerCalls: 1,
  },
  { name: 'prose over 256 KiB', file: 'big.txt', text: () => F.proseOfSize(300_000), cap: 25_000 },
  { name: 'real code over 256 KiB', file: 'real.js', text: () => readFileSync(realFile(['typescript/lib', 'vite/dist'], /\.js$/, 270_000, 600_000), 'utf8'), cap: 25_000 },
];

interface Row { kind: string; bytes: number; pager: Tally; none: Tally }
interface Tally { calls: number; refusals: number; missing: number }
const rows: Row[] = [];

function tally(s: Session, path: string, except: number[]): Tally {
  const c = s.cursor(path);
  return {
    calls: c.steps.length, refusals: c.refusals, missing: coverage(path, c.received, { except }).missing.length,
  };
}

describe('reading files whole (no limit), following what the model is told', () => {
  for (const kind of KINDS) {
    it(`${kind.name}: every line once, no avoidable refusal, every named continuation runs as named`, async () => {
      // Two project folders: each session's hooks are its folder's settings.
      const text = kind.text();
      const path = F.put(tempDir('whole-on'), kind.file, text);
      const bare = F.put(tempDir('whole-off'), kind.file, text);
      const bytes = statSync(path).size;
      const [s, without] = await Promise.all([
        readSession({ cwd: dirname(path), hooks: 'pager', cap: kind.cap, targets: [{ path }] }),
        readSession({ cwd: dirname(bare), hooks: 'none', cap: kind.cap, targets: [{ path: bare }] }),
      ]);
      expect(s.ok, s.run.stderr).toBe(true);
      expect(without.ok, without.run.stderr).toBe(true);
      const except = kind.oversize ? [kind.oversize] : [];
      rows.push({ kind: kind.name, bytes, pager: tally(s, path, except), none: tally(without, bare, []) });

      const c = s.cursor(path);
      const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${st.decision}\n    ${st.notes.join('\n    ')}`).join('\n');
      const cov = coverage(path, c.received, { except });
      expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) }, trail)
        .toEqual({ missing: '', duplicated: '', wrong: '' });
      if (kind.pagerCalls !== undefined) expect(c.steps.length, trail).toBe(kind.pagerCalls);
      else expect(c.steps.length, 'over the cap: more than one page').toBeGreaterThan(1);
      // No refusal at all, except of a window holding a line that alone is over the cap.
      const refusals = c.steps.filter((st) => st.isError && !(kind.oversize && /exceeds maximum allowed tokens/.test(st.content)));
      expect(refusals.length, trail).toBe(0);
      // Every continuation a note of ours named ran exactly as named: the engine returned those lines (up to the end
      // of the file), nothing clamped.
      c.steps.forEach((st, i) => {
        const prev = c.steps[i - 1];
        if (!prev?.advice || st.isError || !prev.notes.some((n) => n.includes('read-ceiling-pager:'))) return;
        const out = s.ran.get(st.toolUseId)?.file;
        const expected = Math.min(prev.advice.limit, out.totalLines - prev.advice.offset + 1);
        expect({ first: out?.startLine, lines: out?.numLines }, trail)
          .toEqual({ first: prev.advice.offset, lines: expected });
      });
      // No silent partial page: if the engine paged the file, a note about it followed.
      const paged = c.steps.filter((st) => s.ran.get(st.toolUseId)?.file?.truncatedByTokenCap);
      for (const st of paged) expect(st.notes.some((n) => /read-ceiling-pager: .*the engine's partial page/.test(n)), trail).toBe(true);
      if (bytes > WHOLE_FILE_MAX_BYTES) expect(c.steps[0]!.isError, trail).toBe(false);
      // Never more calls than the bare engine with the same reader.
      expect(c.steps.length, trail).toBeLessThanOrEqual(without.cursor(bare).steps.length);
    }, ENGINE_TIMEOUT);
  }
});

describe('a file read whole, then edited', () => {
  const original = F.prose(300);
  const editLine = original.split('\n')[4]!;
  /** The model reads the file whole, then edits line 5; refused for not having read the file, it reads a window and
   * edits again. */
  const script = (path: string, tool: 'Edit' | 'Write'): ScriptStep[] => {
    const edit = tool === 'Edit'
      ? { name: 'Edit', input: { file_path: path, old_string: editLine, new_string: 'EDITED LINE FIVE' } }
      : { name: 'Write', input: { file_path: path, content: 'REWRITTEN\n' } };
    const refused = (o: { results: { isError: boolean; content: string }[] }) => o.results[0]?.isError && /has not been read yet/.test(o.results[0].content);
    return [
      { reads: [{ file_path: path }] },
      { calls: [edit] },
      (o) => (refused(o) ? { reads: [{ file_path: path, offset: 1, limit: 50 }] } : { text: 'Done.' }),
      (o) => (o.results[0]?.content.includes('1\t') ? { calls: [edit] } : { text: 'Done.' }),
    ];
  };
  const rounds = (s: { observations: { results: unknown[] }[] }) =>
    s.observations.filter((o) => o.results.length > 0).length;

  for (const [tool, model] of [['Write', undefined], ['Edit', 'claude-sonnet-4-5']] as const) {
    it(`${tool}${model ? ` (${model}, which checks Edit too)` : ''}: one read and one ${tool} with the pager's window mode; a refused ${tool} and a re-read without`, async () => {
      const cap = 3000;
      const d1 = tempDir('edit-on');
      const d2 = tempDir('edit-off');
      const p1 = F.put(d1, 'notes.txt', original);
      const p2 = F.put(d2, 'notes.txt', original);
      const args = model ? ['--model', model] : [];
      const common = { cap, allowedTools: 'Read,Edit,Write', args, extraEnv: { READ_CEILING_PAGER_WHOLE_READS: 'window' } };
      const [on, off] = await Promise.all([
        scriptSession({ ...common, cwd: d1, hooks: 'pager', script: script(p1, tool) }),
        scriptSession({ ...common, cwd: d2, hooks: 'none', script: script(p2, tool) }),
      ]);
      expect(on.ok, on.run.stderr).toBe(true);
      expect(off.ok, off.run.stderr).toBe(true);
      // Without the pager: the partial page, the refused edit, a re-read, the edit: four rounds.
      expect(off.observations[2]!.results[0]!.content).toMatch(/File has not been read yet/);
      expect(rounds(off)).toBe(4);
      // With it: the read came back as a window, and the edit ran at once: two rounds.
      expect(on.observations[1]!.context).toMatch(/does not count as reading the file for Edit/);
      expect(on.observations[2]!.results[0]!.isError).toBe(false);
      expect(rounds(on)).toBe(2);
      const edited = readFileSync(p1, 'utf8');
      expect(tool === 'Write' ? edited === 'REWRITTEN\n' : edited.includes('EDITED LINE FIVE')).toBe(true);
      console.log(`read whole then ${tool}${model ? ` (${model})` : ''}: ${rounds(on)} rounds with the pager, ${rounds(off)} without`);
    }, ENGINE_TIMEOUT);
  }
});

afterAll(() => {
  if (rows.length === 0) return;
  const w = Math.max(...rows.map((r) => r.kind.length));
  console.log([
    'Reads with no limit, following what the model is told: calls and refusals, with the pager | without',
    ...rows.map((r) => `  ${r.kind.padEnd(w)} ${String(r.bytes).padStart(7)} B   calls ${String(r.pager.calls).padStart(2)} | ${String(r.none.calls).padStart(2)}`
      + `   refusals ${r.pager.refusals} | ${r.none.refusals}   lines missed ${r.pager.missing} | ${r.none.missing}`),
  ].join('\n'));
});

describe('a window from line 1 that holds all of a file under 256 KiB, over the cap by its estimate', () => {
  // count_tokens answers the pager's own point estimate (times `scale`). The cap sits 5% over it (with its first
  // window's margin the pager calls the window over the cap, by its point estimate under it), or 1.3 times under it
  // (a model that counts 0.7 of the estimate, as o200k counts Japanese HTML, still takes it in one call).
  const text = F.prose(400);
  const point = estimateTokens(text);
  const cases = [
    { name: 'counted under the cap: the engine returns it whole, in one call', scale: 1, capOver: 1.05, paged: false },
    { name: 'counted over the cap: the engine pages it, and nothing is refused', scale: 1.1, capOver: 1.05, paged: true },
    { name: 'estimated at 1.3 times the cap, counted under it: whole, in one call', scale: 0.7, capOver: 1 / 1.3,
      paged: false },
    { name: 'estimated at 1.3 times the cap, and counted so: paged, nothing refused', scale: 1, capOver: 1 / 1.3,
      paged: true },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const cap = Math.ceil(point * c.capOver);
      const path = F.put(tempDir('all-window'), 'all.txt', text);
      const s = await scriptSession({
        cwd: dirname(path), hooks: 'pager', cap, count: (t: string) => Math.round(estimateTokens(t) * c.scale),
        script: [{ reads: [{ file_path: path, offset: 1, limit: 2000 }] }],
      });
      expect(s.ok, s.run.stderr).toBe(true);
      const seen = s.observations[1]!;
      const r = seen.results[0]!;
      expect(r.isError, r.content.slice(0, 300)).toBe(false);
      const out = s.ran.get(r.tool_use_id)?.file;
      expect({ first: out?.startLine, paged: out?.truncatedByTokenCap === true }).toEqual({ first: 1, paged: c.paged });
      if (!c.paged) expect(out?.numLines).toBe(text.split('\n').length);
      else expect(seen.context).toMatch(/read-ceiling-pager: .*the engine's partial page/);
    }, ENGINE_TIMEOUT);
  }
});
