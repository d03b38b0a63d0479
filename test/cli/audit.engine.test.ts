// The audit over transcripts the real engine wrote (Claude Code 2.1.337, headless, against the e2e stand-in):
// its counts must equal what the scripted session did and what the model was shown.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Census } from '../../src/audit/census.js';
import { findTranscripts } from '../../src/audit/scan.js';
import { removeTempDirs, tempDir } from '../e2e/harness/engine.mjs';
import { scriptSession, type ScriptStep } from '../e2e/harness/session.mjs';

const BIN = resolve(__dirname, '../../bin/read-ceiling-pager.js');
const ENGINE_TIMEOUT = 120_000;
afterAll(removeTempDirs);

const CAP = 5000;
const line = (i: number) => `line ${String(i).padStart(5, '0')} abcdefghi`; // 20 chars + newline

/**
 * One scripted session that meets every kind of cap event the audit counts: a PARTIAL page (whole-file read under
 * 256 KiB over the cap), an explicit window over the cap, a step that follows the pager's advice when there is one
 * (otherwise retries the same file), and a whole-file read over 256 KiB. Bare, with the pager as settings hooks,
 * or as a plugin, optionally against an API that refuses system turns; the engine's HOME is kept so the audit can
 * read its transcripts.
 */
async function capScenario(hooks: 'none' | 'pager' | 'plugin', refuseSystem = false) {
  const repo = join(tempDir(`audit-${hooks}`), 'repo');
  mkdirSync(repo, { recursive: true });
  const big = join(repo, 'big.txt'); // 63,000 B: under the size cap, about 18,900 tokens at 0.3 per char
  const huge = join(repo, 'huge.txt'); // 315,000 B: over the size cap
  writeFileSync(big, Array.from({ length: 3000 }, (_, i) => line(i + 1)).join('\n') + '\n');
  writeFileSync(huge, Array.from({ length: 15000 }, (_, i) => line(i + 1)).join('\n') + '\n');
  const followOrRetry: ScriptStep = (obs) => {
    const advice = [...obs.context.matchAll(/read-ceiling-pager:[^\n]*?offset=(\d+) limit=(\d+)/g)].at(-1);
    return advice
      ? { reads: [{ file_path: big, offset: Number(advice[1]), limit: Number(advice[2]) }] }
      : { reads: [{ file_path: big, offset: 1, limit: 500 }] };
  };
  const s = await scriptSession({
    cwd: repo, hooks, cap: CAP, count: (text) => Math.ceil(text.length * 0.3), keepHome: true, refuseSystem,
    script: [
      { reads: [{ file_path: big }] },
      { reads: [{ file_path: big, offset: 1, limit: 3000 }] },
      followOrRetry,
      { reads: [{ file_path: huge }] },
      { text: 'Done.' },
    ],
  });
  return { ...s, code: s.run.code, projects: s.run.projects, big, huge, seen: seenByModel(s.conversation) };
}

/** What the model was shown, counted from the last request the stand-in received (the whole conversation). */
function seenByModel(messages: any[]) {
  const calls = new Map<string, any>();
  const results: Array<{ input: any; lines: number; isError: boolean }> = [];
  const banners = new Set<string>();
  const notes = new Set<string>();
  let reads = 0;
  let tokenRefusals = 0;
  let sizeRefusals = 0;
  let shortened = 0;
  for (const m of messages) {
    const blocks = Array.isArray(m.content) ? m.content : [{ type: 'text', text: String(m.content) }];
    for (const b of blocks) {
      if (b.type === 'tool_use' && b.name === 'Read') { reads++; calls.set(b.id, b.input); }
      const text = b.type === 'tool_result' ? (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)) : b.type === 'text' ? b.text : '';
      if (b.type === 'tool_result') {
        if (b.is_error && /exceeds maximum allowed tokens/.test(text)) tokenRefusals++;
        if (b.is_error && /exceeds maximum allowed size/.test(text)) sizeRefusals++;
        const input = calls.get(b.tool_use_id);
        const lines = b.is_error ? 0 : text.split('\n').filter((l: string) => /^\d+\t/.test(l)).length;
        results.push({ input, lines, isError: b.is_error === true });
        if (!b.is_error && input?.limit !== undefined && lines < input.limit) shortened++;
      }
      for (const banner of text.match(/\[Truncated: PARTIAL view[^\]]*\]/g) ?? []) banners.add(banner);
      for (const note of text.match(/read-ceiling-pager: [^\n"]*/g) ?? []) notes.add(note);
    }
  }
  return { reads, tokenRefusals, sizeRefusals, shortened, results, banners: banners.size, notes: notes.size };
}

function audit(dir: string): any {
  const r = spawnSync(process.execPath, [BIN, 'audit', '--dir', dir, '--json'], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

/** The census of real transcripts with every line parsed, against the one that skips bulky lines unparsed. */
function bothWays(dir: string) {
  const opts = { since: Date.now() - 86_400_000, until: Date.now() + 60_000, days: 1, byProject: true };
  const parsed = new Census(opts);
  const fast = new Census(opts);
  for (const t of findTranscripts([dir])) {
    const bytes = readFileSync(t.path);
    parsed.startTranscript(t.project, t.size);
    for (const line of bytes.toString('utf8').split('\n')) parsed.line(line);
    fast.startTranscript(t.project, t.size);
    for (const line of bytes.toString('utf8').split('\n')) if (line) fast.lineBytes(Buffer.from(line));
  }
  return { parsed: parsed.report(), fast: fast.report() };
}

describe('audit of a bare engine session', () => {
  let run: Awaited<ReturnType<typeof capScenario>>;
  let report: any;
  beforeAll(async () => {
    run = await capScenario('none');
    report = audit(run.projects);
  }, ENGINE_TIMEOUT);

  it('ran to the end', () => {
    expect(run.code).toBe(0);
    expect(run.seen.reads).toBe(4);
  });

  it('gives the same census whether or not the bulky lines are parsed', () => {
    const { parsed, fast } = bothWays(run.projects);
    expect(fast).toEqual(parsed);
    expect(parsed.scan.unknownTypes).toEqual({});
  });

  it('counts the refusals the model was shown, with the cap from their text', () => {
    const t = report.totals;
    expect(run.seen.tokenRefusals).toBe(1);
    expect(run.seen.sizeRefusals).toBe(1);
    expect(t.tokenRefusals).toBe(run.seen.tokenRefusals);
    expect(t.sizeRefusals).toBe(run.seen.sizeRefusals);
    expect(t.caps).toEqual({ 5000: 2 });
    // big.txt was tried again (offset 1, limit 500); huge.txt never was.
    expect(t).toMatchObject({ refusalsRetried: 1, refusalsAbandoned: 1, roundsLost: 2 });
  });

  it('finds the PARTIAL page in its attachment record, not in the tool results', () => {
    const t = report.totals;
    expect(run.seen.banners).toBe(1);
    expect(t.partialPages).toBe(run.seen.banners);
    expect(t.partialSources).toEqual({ attachment: 1, inline: 0, flagOnly: 0 });
    // The model went back to line 1 and never past the first page.
    expect(t).toMatchObject({ partialPagedOn: 0, partialNotPagedOn: 1 });
  });

  it('counts the session and the Reads, and sees no pager', () => {
    expect(report.totals).toMatchObject({ sessions: 1, reads: 4, windows: 2, wholeFile: 2 });
    expect(report.totals.pager).toMatchObject({ sessions: 0, clamps: 0, notes: 0, roundsSaved: 0 });
    expect(report.scan.malformedLines).toBe(0);
    expect(report.files.map((f: any) => [f.path, f.reads, f.refusals, f.partialPages]))
      .toEqual([[run.big, 3, 1, 1], [run.huge, 1, 1, 0]]);
  });
});

// The third: an API that refuses role:"system" turns puts the engine in fallback mode (docs/ENGINE.md §7.5); the model
// then gets the notes inside tool_results, and the transcripts must still be counted the same.
describe.each([
  ['settings hooks', 'pager', false],
  ['plugin', 'plugin', false],
  ['settings hooks, fallback mode', 'pager', true],
] as const)('audit of the same session with the pager (%s)', (_name, hooks, refuseSystem) => {
  let run: Awaited<ReturnType<typeof capScenario>>;
  let report: any;
  beforeAll(async () => {
    run = await capScenario(hooks, refuseSystem);
    report = audit(run.projects);
  }, ENGINE_TIMEOUT);

  it(refuseSystem ? 'ran in fallback mode' : 'ran in normal mode', () => {
    expect(run.systemRefusals > 0).toBe(refuseSystem);
    expect(run.systemAnswered > 0).toBe(!refuseSystem);
  });

  it('gives the same census whether or not the bulky lines are parsed', () => {
    const { parsed, fast } = bothWays(run.projects);
    expect(fast).toEqual(parsed);
  });

  it('counts no refusals, as the model saw none', () => {
    expect(run.code).toBe(0);
    expect(run.seen.tokenRefusals + run.seen.sizeRefusals).toBe(0);
    expect(report.totals).toMatchObject({ tokenRefusals: 0, sizeRefusals: 0, roundsLost: 0, reads: 4 });
    expect(report.totals.pager.refusalsNotPrevented).toBe(0);
  });

  it('counts every clamp: the window over the cap, the follow-up, and the whole read of a file over 256 KiB', () => {
    const p = report.totals.pager;
    // Ground truth from what the model was shown: explicit windows that came back short, and the huge file as a window.
    const hugeRead = run.seen.results.find((r) => r.input.file_path === run.huge)!;
    expect(hugeRead.isError).toBe(false);
    expect(hugeRead.lines).toBeLessThan(15000);
    expect(p.clamps).toBe(run.seen.shortened + 1);
    // The follow-up ran as the note named it: sized to fit, it needed no clamp.
    expect(p).toMatchObject({ clamps: 2, clampsRan: 2, clampsRefused: 0, roundsSaved: 2, sessions: 1 });
  });

  it('counts the notes the model was shown and whether the next Read followed them', () => {
    const p = report.totals.pager;
    expect(p.notes).toBe(run.seen.notes);
    // After the partial page, the clamp, the follow-up (the reading goes on) and huge.txt's first window.
    expect(p.notesByKind).toEqual({ 'short-window': 4, refusal: 0, clamped: 0 });
    // The model asked its own window after the partial page's note, followed the clamp's note, and read nothing
    // more of either file after the follow-up's note and huge.txt's.
    expect(p).toMatchObject({ advice: 4, adviceFollowed: 1, adviceOtherWindow: 1, adviceNoFurtherRead: 2 });
  });

  it('still counts the engine PARTIAL page, now paged on', () => {
    expect(report.totals).toMatchObject({ partialPages: 1, partialPagedOn: 1, partialNotPagedOn: 0 });
  });
});

