// The audit over transcripts the real engine wrote (Claude Code 2.1.332, headless, against a local stand-in):
// its counts must equal what the scripted session did and what the model was shown.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Census } from '../../src/audit/census.js';
import { findTranscripts } from '../../src/audit/scan.js';
// @ts-expect-error plain ESM helper without types
import { capScenario } from '../audit/scenario.mjs';

const BIN = resolve(__dirname, '../../bin/read-ceiling-pager.js');
const work = mkdtempSync(join(tmpdir(), 'rcp-audit-engine-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

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
  let run: any;
  let report: any;
  beforeAll(async () => {
    run = await capScenario(join(work, 'bare'), false);
    report = audit(run.projects);
  });

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
    expect(report.files.map((f: any) => [f.path, f.reads, f.refusals, f.partialPages])).toEqual([[run.big, 3, 1, 1], [run.huge, 1, 1, 0]]);
  });
});

describe.each([['settings hooks', true], ['plugin', 'plugin']] as const)('audit of the same session with the pager (%s)', (_name, pager) => {
  let run: any;
  let report: any;
  beforeAll(async () => {
    run = await capScenario(join(work, String(pager)), pager);
    report = audit(run.projects);
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
    const hugeRead = run.seen.results.find((r: any) => r.input.file_path === run.huge);
    expect(hugeRead.isError).toBe(false);
    expect(hugeRead.lines).toBeLessThan(15000);
    expect(p.clamps).toBe(run.seen.shortened + 1);
    expect(p).toMatchObject({ clamps: 3, clampsRan: 3, clampsRefused: 0, roundsSaved: 3, sessions: 1 });
  });

  it('counts the notes the model was shown and whether the next Read followed them', () => {
    const p = report.totals.pager;
    expect(p.notes).toBe(run.seen.notes);
    expect(p.notesByKind).toEqual({ 'short-window': 3, refusal: 0, clamped: 0 });
    // The scripted model followed the first note; the follow-up's note and huge.txt's note had no Read after them.
    expect(p).toMatchObject({ advice: 3, adviceFollowed: 1, adviceOtherWindow: 0, adviceNoFurtherRead: 2 });
  });

  it('still counts the engine PARTIAL page, now paged on', () => {
    expect(report.totals).toMatchObject({ partialPages: 1, partialPagedOn: 1, partialNotPagedOn: 0 });
  });
});
