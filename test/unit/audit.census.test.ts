import { describe, expect, it } from 'vitest';
import { Census, type CensusReport } from '../../src/audit/census.js';
import { classifyRecord, readWindow } from '../../src/audit/records.js';
import { parseBanner, parseNote, ranThePager } from '../../src/audit/text.js';
import { clampedNote, refusalNote, shortWindowNote } from '../../src/hooks/note.js';
import { Transcript, charBanner, lineBanner } from '../audit/records.js';

const NOW = Date.now();
const BIG = '/repo/big.txt';

function census(
  transcripts: Array<Transcript | [string, Transcript]>, opts: Partial<{ days: number; byProject: boolean }> = {},
): CensusReport {
  const days = opts.days ?? 30;
  const c = new Census({
    since: NOW - days * 86_400_000, until: NOW + 60_000, days, byProject: opts.byProject ?? false,
  });
  for (const item of transcripts) {
    const [project, t] = Array.isArray(item) ? item : ['-repo', item];
    c.startTranscript(project, t.text().length);
    for (const line of t.text().split('\n')) c.line(line);
    c.endTranscript();
  }
  return c.report();
}

describe('census of a bare engine (no pager)', () => {
  it('finds the PARTIAL page in its attachment record, and sees the model page on at the banner offset', () => {
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG })
      .ok('r1', BIG, { startLine: 1, numLines: 1099, totalLines: 3001, truncatedByTokenCap: true })
      .banner('r1', lineBanner(BIG, 1099, 3001, 58000, 25000))
      .apiBlob(lineBanner(BIG, 1099, 3001, 58000, 25000))
      .read('r2', { file_path: BIG, offset: 1100, limit: 1099 })
      .ok('r2', BIG, { startLine: 1100, numLines: 1099, totalLines: 3001 });
    const { totals } = census([t]);
    expect(totals).toMatchObject({
      sessions: 1, reads: 2, windows: 1, wholeFile: 1,
      partialPages: 1, partialSources: { attachment: 1, inline: 0, flagOnly: 0 },
      partialPagedOn: 1, partialNotPagedOn: 0, partialBannerFollowed: 1, caps: { 25000: 1 },
      tokenRefusals: 0, roundsLost: 0,
    });
  });

  it('splits PARTIAL pages by whether the pager was at work, and counts those followed by a Read of the rest and to the end', () => {
    const bare = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG })
      .ok('r1', BIG, { startLine: 1, numLines: 1099, totalLines: 3001, truncatedByTokenCap: true })
      .banner('r1', lineBanner(BIG, 1099, 3001, 58000, 25000))
      .read('r2', { file_path: BIG, offset: 1100, limit: 1099 })
      .ok('r2', BIG, { startLine: 1100, numLines: 1099, totalLines: 3001 });
    const note = shortWindowNote({
      path: BIG, totalLines: 3001, returnedFirst: 1, returnedLast: 1099, askedFirst: 1, askedLast: undefined, because: 'partial-page',
      cap: 25000, end: 3000, next: { first: 1100, lines: 1902 },
    });
    const paged = new Transcript('s2').prompt()
      .read('p1', { file_path: BIG })
      .ok('p1', BIG, { startLine: 1, numLines: 1099, totalLines: 3001, truncatedByTokenCap: true })
      .banner('p1', lineBanner(BIG, 1099, 3001, 58000, 25000))
      .context('p1', 'PostToolUse', note)
      .read('p2', { file_path: BIG, offset: 1100, limit: 1902 })
      .ok('p2', BIG, { startLine: 1100, numLines: 1902, totalLines: 3001 });
    const { totals } = census([bare, paged]);
    expect(totals.partialFollowUp).toEqual({
      withPager: { pages: 1, pagedOn: 1, readToEnd: 1 }, without: { pages: 1, pagedOn: 1, readToEnd: 0 },
    });
  });

  it('counts a PARTIAL page never paged on as silent, even when the file is read again from the top', () => {
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG })
      .ok('r1', BIG, { startLine: 1, numLines: 500, totalLines: 3001, truncatedByTokenCap: true })
      .banner('r1', lineBanner(BIG, 500, 3001, 58000, 10000))
      .read('r2', { file_path: BIG, offset: 1, limit: 100 })
      .ok('r2', BIG, { startLine: 1, numLines: 100, totalLines: 3001 });
    const { totals } = census([t]);
    expect(totals.partialPages).toBe(1);
    expect(totals.partialNotPagedOn).toBe(1);
    expect(totals.partialPagedOn).toBe(0);
    expect(totals.caps).toEqual({ 10000: 1 });
  });

  it('counts token refusals with the cap they name, and whether the same file was tried again', () => {
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG, offset: 1, limit: 3000 }).tokenRefusal('r1', 24000, 10000)
      .read('r2', { file_path: BIG, offset: 1, limit: 1000 }).ok('r2', BIG, { startLine: 1, numLines: 1000, totalLines: 3001 })
      .read('r3', { file_path: '/repo/other.txt', offset: '5', limit: '4000' }).tokenRefusal('r3', 30000, 25000);
    const { totals, files } = census([t]);
    expect(totals).toMatchObject({
      reads: 3, windows: 3, tokenRefusals: 2, caps: { 10000: 1, 25000: 1 },
      refusalsRetried: 1, refusalsAbandoned: 1, roundsLost: 2,
    });
    expect(files.map((f) => [f.path, f.reads, f.refusals])).toEqual([[BIG, 2, 1], ['/repo/other.txt', 1, 1]]);
  });

  it('tells size-cap and range-cap errors from other Read errors', () => {
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: '/repo/huge.log' }).sizeRefusal('r1')
      .read('r2', { file_path: '/repo/huge.log', offset: 1, limit: 90000 }).rangeRefusal('r2')
      .read('r3', { file_path: '/repo/gone.txt' }).error('r3', 'File does not exist. Note: your current working directory is /repo.')
      .read('r4', { file_path: '/repo/x.bin' }).error('r4', '<tool_use_error>This tool cannot read binary files. The file appears to be a binary .bin file.</tool_use_error>');
    const { totals } = census([t]);
    expect(totals).toMatchObject({
      sizeRefusals: 1, rangeRefusals: 1, otherErrors: 2, tokenRefusals: 0, roundsLost: 2, refusalsRetried: 1,
      refusalsAbandoned: 1,
    });
  });

  it('counts a character excerpt as a single-line excerpt, and banners found in the result text or only in the flag', () => {
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: '/repo/min.js' })
      .ok('r1', '/repo/min.js', { startLine: 1, numLines: 1, totalLines: 1, truncatedByTokenCap: true })
      .banner('r1', charBanner('/repo/min.js', 63750, 200001, 66667, 25000))
      .read('r2', { file_path: '/repo/a.txt' })
      .error('r2x', 'unrelated')
      .raw(JSON.stringify({
        type: 'user', sessionId: 's1', timestamp: new Date(NOW - 1000).toISOString(),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r2', content: `1\ta\n2\tb\n\n<system-reminder>\n${lineBanner('/repo/a.txt', 2, 900, 40000, 25000)}\n</system-reminder>` }] },
        toolUseResult: { type: 'text', file: { filePath: '/repo/a.txt', content: 'a\nb', numLines: 2, startLine: 1, totalLines: 900, truncatedByTokenCap: true } },
      }))
      .read('r3', { file_path: '/repo/b.txt' })
      .ok('r3', '/repo/b.txt', { startLine: 1, numLines: 10, totalLines: 99, truncatedByTokenCap: true });
    const { totals } = census([t]);
    expect(totals).toMatchObject({
      partialPages: 3, singleLineExcerpts: 1, partialSources: { attachment: 1, inline: 1, flagOnly: 1 },
      partialNotPagedOn: 3,
    });
  });

  it('counts parallel Reads in one message, and ignores other tools and results it has no Read for', () => {
    const t = new Transcript('s1').prompt()
      .reads([['p1', { file_path: '/repo/a.txt', offset: 1, limit: 10 }], ['p2', { file_path: '/repo/b.txt', offset: 0, limit: 0 }]])
      .otherTool('g1', 'Grep')
      .tokenRefusal('g1', 99999, 25000)
      .ok('p1', '/repo/a.txt', { startLine: 1, numLines: 10, totalLines: 10 })
      .ok('p2', '/repo/b.txt', { startLine: 0, numLines: 5, totalLines: 5 });
    const { totals } = census([t]);
    expect(totals).toMatchObject({ reads: 2, windows: 1, wholeFile: 1, tokenRefusals: 0 });
  });
});

describe('census with the pager', () => {
  it('counts a clamp that ran as a round saved, and the note whose advice the next Read followed', () => {
    const note = shortWindowNote({
      path: BIG, totalLines: 3001, returnedFirst: 1, returnedLast: 1099, askedFirst: 1, askedLast: 3000, because: 'clamped',
      cap: 25000, end: 3000, next: { first: 1100, lines: 1901 },
    });
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG, offset: 1, limit: 3000 })
      .preHook('r1', { file_path: BIG, offset: 1, limit: 1099 })
      .ok('r1', BIG, { startLine: 1, numLines: 1099, totalLines: 3001 })
      .context('r1', 'PostToolUse', note)
      .apiBlob(`PostToolUse:Read hook additional context: ${note}`)
      .read('r2', { file_path: BIG, offset: 1100, limit: 1901 })
      .preHook('r2', { file_path: BIG, offset: 1100, limit: 1099 })
      .ok('r2', BIG, { startLine: 1100, numLines: 1099, totalLines: 3001 });
    const { totals } = census([t]);
    expect(totals.pager).toMatchObject({
      sessions: 1, clamps: 2, clampsRan: 2, clampsRefused: 0, roundsSaved: 2,
      notes: 1, notesByKind: { 'short-window': 1, refusal: 0, clamped: 0 },
      advice: 1, adviceFollowed: 1, adviceOtherWindow: 0, adviceNoFurtherRead: 0, refusalsNotPrevented: 0,
    });
    expect(totals.tokenRefusals).toBe(0);
  });

  it('counts a clamp the engine refused anyway as a refusal not prevented, and advice not followed', () => {
    const advice = refusalNote({
      path: BIG, refusedFirst: 1, refusedLast: 624, engine: { tokens: 13103, cap: 5000 }, charsPerToken: 1,
      cap: 5000, fits: { first: 1, lines: 230 }, after: undefined,
    });
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG, offset: 1, limit: 3000 })
      .preHook('r1', { file_path: BIG, offset: 1, limit: 624 })
      .tokenRefusal('r1', 13103, 5000)
      .context('r1', 'PostToolUseFailure', advice)
      .read('r2', { file_path: BIG, offset: 200, limit: 100 })
      .ok('r2', BIG, { startLine: 200, numLines: 100, totalLines: 3001 })
      .read('r3', { file_path: '/repo/log.txt' })
      .sizeRefusal('r3')
      .context('r3', 'PostToolUseFailure', refusalNote({ path: '/repo/log.txt', refusedFirst: 1, refusedLast: undefined, engine: { size: '493.2KB', max: '256KB' }, charsPerToken: undefined, cap: 5000, fits: { first: 1, lines: 900 }, after: undefined }));
    const { totals } = census([t]);
    expect(totals.pager).toMatchObject({
      clamps: 1, clampsRan: 0, clampsRefused: 1, roundsSaved: 0, notes: 2, notesByKind: { refusal: 2 },
      advice: 2, adviceFollowed: 0, adviceOtherWindow: 1, adviceNoFurtherRead: 1, refusalsNotPrevented: 2,
    });
    expect(totals).toMatchObject({ tokenRefusals: 1, sizeRefusals: 1, roundsLost: 2 });
  });

  it('knows the plugin command, the fallback clamp note, and another hook that rewrites the window', () => {
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG })
      .preHook('r1', { file_path: BIG, limit: 2400 }, 'node "/home/u/.claude/plugins/cache/rcp/dist/cli.cjs" pre')
      .ok('r1', BIG, { startLine: 1, numLines: 2400, totalLines: 9000 })
      .read('r2', { file_path: BIG, offset: 2401, limit: 5000 })
      .preHook('r2', { file_path: BIG, offset: 2401, limit: 2400 }, 'python3 my-hook.py')
      .context('r2', 'PreToolUse', clampedNote(BIG, { sentFirst: 2401, sentLines: 2400, askedLines: 5000, cap: 25000 }))
      .ok('r2', BIG, { startLine: 2401, numLines: 2400, totalLines: 9000 })
      .read('r3', { file_path: BIG, offset: 4801, limit: 2600 })
      .preHook('r3', { file_path: BIG, offset: 4801, limit: 10 }, 'python3 my-hook.py')
      .ok('r3', BIG, { startLine: 4801, numLines: 10, totalLines: 9000 });
    const { totals } = census([t]);
    expect(totals.pager).toMatchObject({
      clamps: 2, clampsRan: 2, roundsSaved: 2, notesByKind: { clamped: 1 }, adviceFollowed: 1,
    });
    expect(totals.otherHookRewrites).toBe(1);
  });

  it('separates several notes joined in one context string', () => {
    const a = shortWindowNote({ path: BIG, totalLines: 10, returnedFirst: 1, returnedLast: 5, askedFirst: 1, askedLast: 10, because: 'clamped', cap: 100, end: 10, next: { first: 6, lines: 5 } });
    const t = new Transcript('s1').prompt()
      .read('r1', { file_path: BIG, offset: 1, limit: 10 })
      .ok('r1', BIG, { startLine: 1, numLines: 5, totalLines: 10 })
      .context('r1', 'PostToolUse', `${a}\n${a}`)
      .context('r1', 'PostToolUse', 'some-other-hook: hello');
    expect(census([t]).totals.pager.notes).toBe(2);
  });
});

describe('census bookkeeping', () => {
  it('counts only the period, but still counts the session active in it', () => {
    const t = new Transcript('s1', '/repo', NOW - 40 * 86_400_000).prompt()
      .read('old', { file_path: BIG, offset: 1, limit: 3000 }).tokenRefusal('old', 40000, 25000)
      .at(NOW - 86_400_000)
      .read('new', { file_path: BIG, offset: 1, limit: 3000 }).tokenRefusal('new', 40000, 25000);
    expect(census([t], { days: 7 }).totals).toMatchObject({ sessions: 1, reads: 1, tokenRefusals: 1 });
    expect(census([t], { days: 60 }).totals)
      .toMatchObject({ sessions: 1, reads: 2, tokenRefusals: 2, refusalsRetried: 1 });
    const old = new Transcript('s0', '/repo', NOW - 40 * 86_400_000).prompt().read('o', { file_path: BIG });
    expect(census([old], { days: 7 }).totals).toMatchObject({ sessions: 0, reads: 0 });
  });

  it('counts malformed lines and unknown record types, and skips them', () => {
    const t = new Transcript('s1').prompt()
      .raw('{"type":"assistant","message":')
      .raw('not json at all')
      .raw(JSON.stringify({ type: 'brand-new-record', sessionId: 's1' }))
      .raw('[1,2]')
      .read('r1', { file_path: BIG, offset: 1, limit: 5 }).ok('r1', BIG, { startLine: 1, numLines: 5, totalLines: 50 });
    const r = census([t]);
    expect(r.scan).toMatchObject({ malformedLines: 2, unknownTypes: { 'brand-new-record': 1, '(none)': 1 } });
    expect(r.totals.reads).toBe(1);
  });

  it('counts a Read repeated in a resumed session once', () => {
    const a = new Transcript('s1').prompt().read('r1', { file_path: BIG, offset: 1, limit: 3000 }).tokenRefusal('r1', 40000, 25000);
    const b = new Transcript('s2').prompt().read('r1', { file_path: BIG, offset: 1, limit: 3000 }).tokenRefusal('r1', 40000, 25000);
    const r = census([a, b]);
    expect(r.totals).toMatchObject({ reads: 1, tokenRefusals: 1, sessions: 2 });
    expect(r.scan.duplicateReads).toBe(1);
  });

  it('splits by project, subagent transcripts included under their project', () => {
    const main = new Transcript('s1', '/a').prompt().read('r1', { file_path: '/a/x' }).sizeRefusal('r1');
    const sub = new Transcript('s1', '/a', undefined, true).prompt().read('r2', { file_path: '/a/y', offset: 1, limit: 9 }).tokenRefusal('r2', 30000, 25000);
    const other = new Transcript('s9', '/b').prompt().read('r3', { file_path: '/b/z', offset: 1, limit: 9 }).ok('r3', '/b/z', { startLine: 1, numLines: 9, totalLines: 9 });
    const r = census([['-a', main], ['-a', sub], ['-b', other]], { byProject: true });
    expect(r.projects?.map((p) => [p.project, p.sessions, p.reads, p.sizeRefusals + p.tokenRefusals])).toEqual([['-a', 1, 2, 2], ['-b', 1, 1, 0]]);
    expect(r.totals.sessions).toBe(2);
  });
});

describe('reading the texts back', () => {
  it('reads the banner by lines, by characters and with allow_large', () => {
    expect(parseBanner(lineBanner(BIG, 1099, 3001, 58000, 25000))).toEqual({ by: 'lines', tokens: 58000, cap: 25000, advice: { first: 1100, lines: 1099 } });
    expect(parseBanner(charBanner(BIG, 63750, 200001, 66667, 25000))).toMatchObject({ by: 'chars', cap: 25000, advice: undefined });
    expect(parseBanner('[Truncated: PARTIAL view — /r: showing lines 1-597 of 9000 total (700000 tokens, allow_large had room for 600000 tokens this turn). Call Read with offset=598 limit=597 for the next page]'))
      .toMatchObject({ tokens: 700000, cap: undefined, advice: { first: 598, lines: 597 } });
  });

  it('reads every kind of note src/hooks/note.ts writes, and nothing else', () => {
    const short = shortWindowNote({ path: BIG, totalLines: 3001, returnedFirst: 1, returnedLast: 1099, askedFirst: 1, askedLast: undefined, because: 'over-size', cap: 25000, end: 3000, next: { first: 1100, lines: 1099 } });
    expect(parseNote(short)).toEqual({ kind: 'short-window', advice: { first: 1100, lines: 1099 } });
    const done = shortWindowNote({ path: BIG, totalLines: 30, returnedFirst: 1, returnedLast: 20, askedFirst: 1, askedLast: 25, because: 'shortened', cap: 25000, end: 25, next: undefined });
    expect(parseNote(done)).toEqual({ kind: 'short-window', advice: undefined });
    const range = refusalNote({ path: BIG, refusedFirst: 1, refusedLast: 90000, engine: { rangeMax: '3.1MB' }, charsPerToken: undefined, cap: 25000, fits: { first: 1, lines: 700 }, after: undefined });
    expect(parseNote(range)).toEqual({ kind: 'refusal', advice: { first: 1, lines: 700 } });
    const oversize = refusalNote({
      path: BIG, refusedFirst: 1, refusedLast: 3, engine: { tokens: 90000, cap: 25000 }, charsPerToken: 3.9,
      cap: 25000, fits: undefined, oversize: { first: 1, last: 1, tokens: 90000, chars: 300000 },
      after: { first: 2, lines: 2 },
    });
    expect(parseNote(oversize)).toEqual({ kind: 'refusal', advice: { first: 2, lines: 2 } });
    expect(parseNote(clampedNote(BIG, { sentFirst: 1, sentLines: 10, cap: 25000 }))).toMatchObject({ kind: 'clamped', advice: { first: 11, lines: 10 } });
    expect(parseNote('PostToolUse:Read hook additional context: read-ceiling-pager: x')).toBeUndefined();
    expect(parseNote('other-hook: offset=1 limit=2')).toBeUndefined();
  });

  it('coerces a Read input the way the engine does', () => {
    expect(readWindow({ file_path: '/f', offset: '3000', limit: [5] })).toMatchObject({ first: 3000, lines: 5, whole: false });
    expect(readWindow({ file_path: '/f', offset: 0, limit: 0 })).toMatchObject({ first: 1, lines: undefined, whole: true });
    expect(readWindow({ file_path: '/f', offset: -5, length: 7 })).toMatchObject({ first: 1, lines: 7 });
    expect(readWindow({ file_path: '/f', pages: '1-3' })).toMatchObject({ special: true, whole: false });
    // Not read as lines by the engine, whatever the window: not a text window of the census.
    for (const file_path of ['/s.png', '/n.ipynb', '/d.PDF']) {
      expect(readWindow({ file_path, offset: 1, limit: 50 })).toMatchObject({ special: true });
    }
    expect(readWindow({ file_path: '/n.ipynb.txt', offset: 1, limit: 50 })).toMatchObject({ special: false });
    expect(readWindow({ offset: 1 })).toBeUndefined();
  });

  it('classifies a record with no type, a string, or null without throwing', () => {
    for (const rec of [null, 'x', 42, [], {}, { type: 'attachment' }, { type: 'user', message: { content: 'hi' } }]) {
      expect(classifyRecord(rec).events).toEqual([]);
    }
  });

  it('knows the pager\'s hook in the forms a transcript records it: by name, or a bundle by path in either form', () => {
    for (const command of [
      'read-ceiling-pager pre', 'node "${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs" pre', 'node /home/me/pager/dist/cli.cjs pre',
      'node C:\\Users\\jo\\pager\\dist\\cli.cjs pre',
    ]) expect(ranThePager(command), command).toBe(true);
    expect(ranThePager('node /home/me/other/dist/main.cjs pre')).toBe(false);
  });
});
