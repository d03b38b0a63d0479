import { describe, expect, it } from 'vitest';
import { clampedNote, notebookNote, refusalNote, shortWindowNote } from '../../src/hooks/note';

describe('shortWindowNote: what the model is told after a window came back short', () => {
  const base = { path: '/repo/big.txt', totalLines: 3001, returnedFirst: 1, returnedLast: 1099, askedFirst: 1, cap: 25000 } as const;

  it('after a clamp whose rest fits: the file length, the lines returned, and the exact call that ends the window', () => {
    const note = shortWindowNote({ ...base, askedLast: 2000, because: 'clamped', end: 2000, next: { first: 1100, lines: 901 } });
    expect(note).toBe('read-ceiling-pager: /repo/big.txt has 3001 lines. This Read returned lines 1-1099 of the requested 1-2000, the most that fits under the 25000-token Read cap. Lines 1100-2000 are not shown yet; offset=1100 limit=901 is the rest of the requested window.');
    expect(note.length).toBeLessThan(400);
  });

  it('a line over the cap by its estimate named with the short lines after it: says which lines, and which may fit', () => {
    const note = shortWindowNote({ ...base, askedLast: 3000, because: 'clamped', end: 3000, next: { first: 1100, lines: 3, overByEstimate: 31234.6 } });
    expect(note).toMatch(/offset=1100 limit=3 \(lines 1100-1102; line 1100 alone is about 31235 tokens by the estimate, which tokenizers count from 0\.6 to 1\.3 times: it may fit\) reads on\.$/);
  });

  it('a line over the cap by its estimate named with the short lines before it: names that line, not the first', () => {
    const note = shortWindowNote({ ...base, askedLast: 3000, because: 'clamped', end: 3000, next: { first: 1100, lines: 2, longLine: 1101, overByEstimate: 31234.6 } });
    expect(note).toMatch(/offset=1100 limit=2 \(lines 1100-1101; line 1101 alone is about 31235 tokens by the estimate, which tokenizers count from 0\.6 to 1\.3 times: it may fit\) reads on\.$/);
  });

  it('a line named alone though its estimate is over the cap: says so, and that it may fit, not that it fits', () => {
    const note = shortWindowNote({ ...base, askedLast: 3000, because: 'clamped', end: 3000, next: { first: 1100, lines: 1, overByEstimate: 31234.6 } });
    expect(note).toBe('read-ceiling-pager: /repo/big.txt has 3001 lines. This Read returned lines 1-1099 of the requested 1-3000, the most that fits under the 25000-token Read cap. Lines 1100-3000 are not shown yet; offset=1100 limit=1 (line 1100 alone, about 31235 tokens by the estimate, which tokenizers count from 0.6 to 1.3 times: it may fit) reads on.');
  });

  it('after a clamp whose rest does not fit: names the window that fits next, not the leftover', () => {
    const note = shortWindowNote({ ...base, askedLast: 3000, because: 'clamped', end: 3000, next: { first: 1100, lines: 1050 } });
    expect(note).toBe('read-ceiling-pager: /repo/big.txt has 3001 lines. This Read returned lines 1-1099 of the requested 1-3000, the most that fits under the 25000-token Read cap. Lines 1100-3000 are not shown yet; offset=1100 limit=1050 (lines 1100-2149) is the most that fits next under the 25000-token cap.');
  });

  it('a line passed over before any count, named once a count is known: one call, and where reading goes on after', () => {
    const revisit = { window: { first: 40, lines: 1 }, tokens: 21514.4 };
    const note = shortWindowNote({ ...base, returnedFirst: 1100, returnedLast: 2149, askedLast: undefined, because: 'continuing', end: 3000, next: { first: 2150, lines: 851 }, revisit });
    expect(note).toBe('read-ceiling-pager: /repo/big.txt has 3001 lines. This Read returned lines 1100-2149, continuing a read of the whole file. Line 40, passed over by an earlier note before any count of this file, is about 21514 tokens by the count since: it may fit. offset=40 limit=1 (line 40) reads it; lines 2150-3000 are not shown yet, and the note after it names where reading goes on.');
    // The continuation is not named beside it: a reader who follows the last call it is told reads the line.
    expect([...note.matchAll(/offset=\d+ limit=\d+/g)]).toHaveLength(1);
    const atEnd = shortWindowNote({ ...base, returnedFirst: 2150, returnedLast: 3001, askedLast: 3001, because: 'continuing', end: 3001, endsFile: true, next: undefined, revisit });
    expect(atEnd).toMatch(/offset=40 limit=1 \(line 40\) reads it; nothing else is left of the file\.$/);
    // Not the words that tell a reader to stop.
    expect(atEnd).not.toContain('Nothing is left of the file.');
    const ofWindow = shortWindowNote({ ...base, returnedFirst: 2150, returnedLast: 2500, askedLast: 2500, because: 'continuing', end: 2500, next: undefined, revisit });
    expect(ofWindow).toMatch(/reads it; nothing else is left of the requested window\.$/);
  });

  it('after the model followed a note, the reading goes on', () => {
    const note = shortWindowNote({ ...base, returnedFirst: 1100, returnedLast: 2149, askedLast: 3000, because: 'continuing', end: 3000, next: { first: 2150, lines: 851 } });
    expect(note).toContain('This Read returned lines 1100-2149, continuing the requested 1-3000.');
    expect(note).toContain('Lines 2150-3000 are not shown yet; offset=2150 limit=851 is the rest of the requested window.');
    const whole = shortWindowNote({ ...base, returnedFirst: 801, returnedLast: 1600, askedLast: undefined, because: 'continuing', end: 3000, next: { first: 1601, lines: 790 } });
    expect(whole).toContain('This Read returned lines 801-1600, continuing a read of the whole file.');
  });

  it('a window named wide before the model\'s count is known says that the pager trims it when it runs', () => {
    const rest = shortWindowNote({ ...base, askedLast: 2000, because: 'clamped', end: 2000, next: { first: 1100, lines: 901 }, hopeful: { first: 1100, lines: 1700 } });
    expect(rest).toContain('offset=1100 limit=901 is the rest of the requested window, and offset=1100 limit=1700 (lines 1100-2799) reads on; the pager trims it to the most that fits when it runs.');
    const next = shortWindowNote({ ...base, askedLast: 3000, because: 'clamped', end: 3000, next: { first: 1100, lines: 1050 }, hopeful: { first: 1100, lines: 1800 } });
    expect(next).toContain('Lines 1100-3000 are not shown yet; offset=1100 limit=1800 (lines 1100-2899) reads on; the pager trims it to the most that fits when it runs.');
    expect(next).not.toContain('limit=1050');
  });

  it('after another hook shortened the window, it says so without blaming the cap', () => {
    const note = shortWindowNote({
      path: '/r/a.ts', totalLines: 500, returnedFirst: 10, returnedLast: 19, askedFirst: 10, askedLast: 109, because: 'shortened',
      cap: 25000, end: 109, next: { first: 20, lines: 90 },
    });
    expect(note).toContain('returned lines 10-19 of the requested 10-109 (the window was shortened before it ran)');
    expect(note).toContain('offset=20 limit=90 is the rest of the requested window');
  });

  it('a read with no limit of a file over 256 KiB: a first page, and the next page sized to fit', () => {
    const note = shortWindowNote({
      path: '/r/huge.log', totalLines: 90001, returnedFirst: 1, returnedLast: 800, askedFirst: 1, askedLast: undefined,
      because: 'over-size', cap: 25000, end: 90000, next: { first: 801, lines: 780 },
    });
    expect(note).toBe('read-ceiling-pager: /r/huge.log has 90001 lines. A Read without limit is refused for a file over 256 KiB, so this Read returned lines 1-800 as a window, the most that fits under the 25000-token Read cap. Lines 801-90000 are not shown yet; offset=801 limit=780 (lines 801-1580) is the most that fits next under the 25000-token cap.');
  });

  it('a read with no limit turned into a window says why: the partial page would not count for Edit', () => {
    const note = shortWindowNote({ ...base, askedLast: undefined, because: 'edit-guard', end: 3000, next: { first: 1100, lines: 1901 } });
    expect(note).toContain('A Read without limit of this file would return a partial page, which does not count as reading the file for Edit, so this Read returned lines 1-1099 as a window');
    expect(note).toContain('offset=1100 limit=1901 is the rest of the file.');
  });

  it('after the engine\'s partial page: how much is unseen, and a continuation that fits even where the banner\'s does not', () => {
    const note = shortWindowNote({ ...base, askedLast: undefined, because: 'partial-page', end: 3000, next: { first: 1100, lines: 900 }, bannerOver: 1099 });
    expect(note).toBe("read-ceiling-pager: /repo/big.txt has 3001 lines. This Read without limit showed lines 1-1099 (37% of the file's lines), the engine's partial page, which does not count as having read the file for Write; a window does. Lines 1100-3000 are not shown yet; offset=1100 limit=900 (lines 1100-1999) is the most that fits next under the 25000-token cap. The banner's page of 1099 lines is over the cap by this estimate; this one fits.");
    // The model reads the last offset/limit named: it must be ours.
    expect([...note.matchAll(/offset=(\d+) limit=(\d+)/g)].map((m) => m[0])).toEqual(['offset=1100 limit=900']);
  });

  it('after a window of the whole file that the pager sent without limit and the engine paged: says both', () => {
    const note = shortWindowNote({ ...base, askedLast: undefined, because: 'partial-page', end: 3000, next: { first: 1100, lines: 900 }, sentWhole: 3200 });
    expect(note).toContain("This Read asked for lines 1-3200, all of the file; the pager sent it without limit, which the engine pages where it would refuse the window, and it showed lines 1-1099 (37% of the file's lines), the engine's partial page, which does not count as having read the file for Write; a window does.");
    expect(note).toContain('offset=1100 limit=900');
  });

  it('after the engine\'s character excerpt: only part of the last line was shown, and the byte range goes on after it', () => {
    const oversize = { first: 1, last: 1, tokens: 12584, chars: 60000 };
    const cut = { line: 1, shown: 14336, chars: 60000 };
    const alone = shortWindowNote({ ...base, totalLines: 102, returnedFirst: 1, returnedLast: 0, askedLast: undefined, because: 'partial-page', end: 101, oversize, next: { first: 2, lines: 101 }, cut });
    expect(alone).toContain("This Read without limit showed the first 14336 of the 60000 characters of line 1, the engine's excerpt, which does not count as having read the file for Write; a window does. Line 1 alone is over the cap");
    expect(alone).toContain("`sed -n '1p' /repo/big.txt | cut -c 14337-34336`");
    expect(alone).not.toContain('lines 1-0');
    const after = shortWindowNote({ ...base, totalLines: 102, returnedFirst: 1, returnedLast: 3, askedLast: undefined, because: 'partial-page', end: 101, oversize: { ...oversize, first: 4, last: 4 }, next: { first: 5, lines: 98 }, cut: { line: 4, shown: 900, chars: 60000 } });
    expect(after).toContain('showed lines 1-3 and the first 900 of the 60000 characters of line 4');
    expect(after).toContain("`sed -n '4p' /repo/big.txt | cut -c 901-20900`");
    // An excerpt that ends on a newline: none of the next line was shown.
    const onNewline = shortWindowNote({ ...base, totalLines: 102, returnedFirst: 1, returnedLast: 3, askedLast: undefined, because: 'partial-page', end: 101, next: { first: 4, lines: 98 }, cut: { line: 4, shown: 0, chars: 60000 } });
    expect(onNewline).toContain("This Read without limit showed lines 1-3, the engine's excerpt, which does not count");
  });

  it('after a window from a first line over the cap that the pager sent without limit: says so, and goes on with the window', () => {
    const note = shortWindowNote({ ...base, totalLines: 102, returnedFirst: 1, returnedLast: 0, askedLast: 50, because: 'partial-page', end: 50, oversize: { first: 1, last: 1, tokens: 12584, chars: 60000 }, next: { first: 2, lines: 49 }, sentWhole: 50, lineOverCap: true, cut: { line: 1, shown: 14336, chars: 60000 } });
    expect(note).toContain('This Read asked for lines 1-50; the pager sent it without limit, which the engine answers with an excerpt where it would refuse a window, and it showed the first 14336 of the 60000 characters of line 1');
    expect(note).not.toContain('all of the file');
    expect(note).toContain('offset=2 limit=49 is the rest of the requested window');
  });

  it('one line returned is "line N"', () => {
    expect(shortWindowNote({ ...base, returnedFirst: 7, returnedLast: 7, askedFirst: 7, askedLast: 9, because: 'clamped', end: 9, next: { first: 8, lines: 2 } }))
      .toContain('This Read returned line 7 of the requested 7-9');
  });

  it('names lines that no window can hold and the way past them', () => {
    const note = shortWindowNote({
      path: '/r/min.json', totalLines: 4, returnedFirst: 1, returnedLast: 1, askedFirst: 1, askedLast: 4, because: 'clamped', cap: 25000,
      end: 4, oversize: { first: 2, last: 2, tokens: 112345.4, chars: 450000 }, next: { first: 3, lines: 2 },
    });
    expect(note).toContain('Line 2 alone is over the cap, about 112345 tokens (450000 characters): no Read window holding it fits.');
    expect(note).toContain("for example `sed -n '2p' /r/min.json | cut -c 1-20000`. Lines 3-4");
    expect(note).toContain('Lines 3-4 are not shown yet; offset=3 limit=2');
    // Lines only the memory knows over the cap (an earlier reading's count): no estimate beside them.
    const known = shortWindowNote({
      path: '/r/min.json', totalLines: 5, returnedFirst: 1, returnedLast: 1, askedFirst: 1, askedLast: 5, because: 'clamped', cap: 25000,
      end: 5, oversize: { first: 2, last: 3, chars: 30000 }, next: { first: 4, lines: 2 },
    });
    expect(known).toContain('Lines 2-3 are each over the cap (30000 characters for the first): no Read window holding them fits.');
  });

  it('quotes a path with spaces for the shell and keeps a long path short', () => {
    const spaced = shortWindowNote({
      path: "/r/it's here.txt", totalLines: 4, returnedFirst: 1, returnedLast: 1, askedFirst: 1, askedLast: 4, because: 'clamped', cap: 25000,
      end: 4, oversize: { first: 2, last: 3, tokens: 30000, chars: 120000 }, next: { first: 4, lines: 1 },
    });
    expect(spaced).toContain(`\`sed -n '2p' '/r/it'\\''s here.txt' | cut -c 1-20000\`.`);
    expect(spaced).toContain('Lines 2-3 are each over the cap');
    expect(spaced).toContain('Line 4 is not shown yet; offset=4 limit=1');
    const long = shortWindowNote({
      path: '/' + 'd/'.repeat(300) + 'f.txt', totalLines: 10, returnedFirst: 1, returnedLast: 5, askedFirst: 1, askedLast: 10,
      because: 'clamped', cap: 25000, end: 10, next: { first: 6, lines: 5 },
    });
    expect(long.length).toBeLessThan(400);
    expect(long).toMatch(/^read-ceiling-pager: …(d\/)+f\.txt has 10 lines\./);
  });
});

describe('refusalNote: what the model is told after the engine refused anyway', () => {
  it('the engine\'s own count, the measured density, and a window that fits', () => {
    const note = refusalNote({
      path: '/r/ko.json', refusedFirst: 1, refusedLast: 400, engine: { tokens: 31000, cap: 25000 },
      charsPerToken: 1.62, cap: 25000, fits: { first: 1, lines: 310 }, after: undefined,
    });
    expect(note).toBe('read-ceiling-pager: the engine counted lines 1-400 of /r/ko.json at 31000 tokens, over its cap of 25000 (about 1.6 characters per token in this file). offset=1 limit=310 (lines 1-310) fits under the 25000-token cap.');
  });

  it('names a line of other text after the refused one as a line that may fit', () => {
    const note = refusalNote({
      path: '/r/xlsx.js', refusedFirst: 2, refusedLast: 2, engine: { tokens: 31061, cap: 25000 }, charsPerToken: 1.03,
      cap: 25000, fits: undefined, oversize: { first: 2, last: 4, tokens: 31061, chars: 32006 },
      after: { first: 5, lines: 1, overByEstimate: 42269.4 },
    });
    expect(note).toContain('Lines 2-4 are each over the cap');
    expect(note).toContain('Reading goes on with offset=5 limit=1 (line 5 alone, about 42269 tokens by the estimate, '
      + 'which tokenizers count from 0.6 to 1.3 times: it may fit).');
  });

  it('when not even the first line fits, names no window that would be refused again', () => {
    const note = refusalNote({
      path: '/r/one.txt', refusedFirst: 1, refusedLast: 3, engine: { tokens: 112000, cap: 25000 }, charsPerToken: 4,
      cap: 25000, fits: undefined, oversize: { first: 1, last: 1, tokens: 112000, chars: 450000 },
      after: { first: 2, lines: 2 },
    });
    expect(note).not.toMatch(/offset=1 /);
    expect(note).toContain('Line 1 alone is over the cap');
    expect(note).toContain('Reading goes on with offset=2 limit=2.');
  });

  it('explains the size cap of a read without limit', () => {
    const note = refusalNote({
      path: '/r/big.log', refusedFirst: 1, refusedLast: undefined, engine: { size: '493.2KB', max: '256KB' },
      charsPerToken: undefined, cap: 25000, fits: { first: 1, lines: 1200 }, after: undefined,
    });
    expect(note).toBe('read-ceiling-pager: /r/big.log (493.2KB) is over the 256KB a Read without limit may return. offset=1 limit=1200 (lines 1-1200) fits under the 25000-token cap.');
  });
});

describe('clampedNote: said by pre only when it could not record its plan', () => {
  it('still names the window sent and the call that continues', () => {
    expect(clampedNote('/r/a.txt', { sentFirst: 101, sentLines: 400, askedLines: 1000, cap: 10000 }))
      .toBe('read-ceiling-pager: this Read of /r/a.txt was shortened to lines 101-500 of the requested 101-1100, the most that fits under the 10000-token Read cap. offset=501 limit=600 continues from there.');
  });
});

describe('notebookNote: a notebook over the cap, which no window of a Read can shorten', () => {
  it('says why no Read fits, and names a first range of cells of about the cap\'s share', () => {
    const note = notebookNote({ path: '/w/my nb.ipynb', tokens: 60_000, cap: 25_000, cells: 48 });
    expect(note).toBe(
      'read-ceiling-pager: /w/my nb.ipynb is a notebook: a Read returns all of its cells whatever offset and limit say, ' +
      'and the engine counted them at 60000 tokens, over its cap of 25000, so no Read of this notebook fits. ' +
      "A shell shows its 48 cells a few at a time, for example `jq '.cells[0:20]' '/w/my nb.ipynb'`.");
    expect(note).not.toMatch(/offset=\d|limit=\d/);
  });

  it('one cell at least, never more than there are, and a plain range when the cells are not known', () => {
    expect(notebookNote({ path: 'n.ipynb', tokens: 900_000, cap: 25_000, cells: 5 })).toContain("its 5 cells a few at a time, for example `jq '.cells[0:1]' n.ipynb`");
    expect(notebookNote({ path: 'n.ipynb', tokens: 25_001, cap: 25_000, cells: 1 })).toContain("A shell shows parts of its one cell, for example `jq '.cells[0].source' n.ipynb`.");
    expect(notebookNote({ path: 'n.ipynb', tokens: 30_000, cap: 25_000, cells: undefined })).toContain("its cells a few at a time, for example `jq '.cells[0:10]' n.ipynb`");
  });
});
