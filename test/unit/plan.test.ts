// pre's plan for one Read, on a real file: the first window of a file is never a gamble; a later one whose point
// estimate fits runs as asked, because clamped it would take two rounds.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { continuation, LENGTH_SIZING, measureWindow, namedWindow, PRIOR_SIZING } from '../../src/hooks/measure';
import { sizingByMap, sizingFor } from '../../src/hooks/sizing';
import { WHOLE_FILE_MAX_BYTES } from '../../src/estimate/cap';
import { FOLLOW_SAFETY, PRIOR_SAFETY, REST_PRIOR_SAFETY, WEIGHTS } from '../../src/estimate/weights';
import { planWindow } from '../../src/hooks/pre';
import { resultCharsCap } from '../../src/hooks/engine-version';
import { prose } from '../helpers/text';

const dir = mkdtempSync(join(tmpdir(), 'rcp-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'big.txt');
writeFileSync(file, prose(3000));
const stat = { size: Buffer.byteLength(prose(3000)) };
const later = Date.now() + 60_000;

const unit = 'alpha beta gamma delta ';
const perUnit = (() => {
  const probe = join(dir, 'words-probe.txt');
  writeFileSync(probe, unit.repeat(1000));
  return measureWindow(probe, 1, 1, later).pointTokens / 1000;
})();
/** One line of words whose point estimate is about `share` of a cap of 25,000. */
const wordsWorth = (share: number) => unit.repeat(Math.floor((25_000 * share) / perUnit));

describe('planWindow', () => {
  const first = planWindow(
    { file_path: file, offset: 1, limit: 3000 }, { path: file, stat }, 25_000, PRIOR_SIZING, later,
  );
  if (first.kind !== 'clamp') throw new Error('the fixture must be clamped');
  // A window over the cap with either margin, under it by its point estimate.
  const asked = Math.floor(first.lines * PRIOR_SAFETY * (1 / FOLLOW_SAFETY + 1) / 2);

  it('clamps the first window of a file with the full margin', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: asked }, { path: file, stat }, 25_000, PRIOR_SIZING, later,
    );
    expect(p).toMatchObject({ kind: 'clamp', lines: first.lines });
  });

  it('lets a later window run when its point estimate fits', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: asked }, { path: file, stat }, 25_000, sizingFor(undefined, true), later,
    );
    expect(p).toEqual({ kind: 'pass', reason: 'worth-the-risk' });
  });

  it('never gambles once a refusal taught the file\'s density: a file is refused at most once', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: asked }, { path: file, stat }, 25_000,
      sizingFor({ ratio: 1, refused: true }, true), later,
    );
    expect(p.kind).toBe('clamp');
  });

  describe('a first window that would stop a few lines short of the end of its reading', () => {
    // The lines that fit at the narrower margin of a rest, more than at the prior's.
    const atRest = planWindow(
      { file_path: file, offset: 1, limit: 3000 }, { path: file, stat }, 25_000,
      { ...PRIOR_SIZING, safety: REST_PRIOR_SAFETY }, later,
    );
    if (atRest.kind !== 'clamp') throw new Error('the fixture must be clamped at the rest margin too');
    const lines = prose(3000).split('\n');
    const upTo = (n: number) => `${lines.slice(0, n).join('\n')}\n`;

    it('holds them where the next line alone fits no window: clamped, they would take a round of their own', () => {
      expect(first.lines).toBeLessThan(atRest.lines);
      const path = join(dir, 'before-a-long-line.txt');
      const text = `${upTo(atRest.lines)}${wordsWorth(2)}\n${upTo(500)}`;
      writeFileSync(path, text);
      const p = planWindow(
        { file_path: path, offset: 1, limit: 3000 }, { path, stat: { size: Buffer.byteLength(text) } }, 25_000,
        PRIOR_SIZING, later,
      );
      expect(p).toMatchObject({ kind: 'clamp', lines: atRest.lines });
    });

    it('runs a window asked that the rest margin holds whole', () => {
      const p = planWindow(
        { file_path: file, offset: 1, limit: atRest.lines }, { path: file, stat }, 25_000, PRIOR_SIZING, later,
      );
      expect(p).toEqual({ kind: 'pass', reason: 'fits' });
    });

    it('keeps the prior\'s margin where the reading goes on past them', () => {
      const p = planWindow(
        { file_path: file, offset: 1, limit: atRest.lines + 1 }, { path: file, stat }, 25_000, PRIOR_SIZING, later,
      );
      expect(p).toMatchObject({ kind: 'clamp', lines: first.lines });
    });
  });

  describe('with a density the usage taught (no refusal yet)', () => {
    const taught = sizingFor({ ratio: 1 }, true);
    const refused = sizingFor({ ratio: 1, refused: true }, true);
    const plan = (offset: number, limit: number, sizing = taught, readingLast?: number) =>
      planWindow({ file_path: file, offset, limit }, { path: file, stat }, 25_000, sizing, later, 'engine', readingLast);
    // The last lines of the file, as many as fit by the point estimate but not with the learned margin.
    const restFrom = (() => {
      for (let from = 2000; from > 0; from -= 10) {
        const p = plan(from, 3002 - from, refused);
        if (p.kind === 'clamp' && p.lines < 3001 - from && p.lines > (3001 - from) * 0.96) return from;
      }
      throw new Error('no rest of the fixture is just over the margin');
    })();

    it('lets the rest of the file run when its point estimate fits: clamped, it would leave a tail', () => {
      expect(plan(restFrom, 3002 - restFrom)).toEqual({ kind: 'pass', reason: 'worth-the-risk' });
    });

    it('lets the rest of the model\'s own window run, when this Read continues it', () => {
      const from = restFrom - 1000;
      const lines = 3001 - restFrom;
      expect(plan(from, lines, taught, from + lines - 1)).toEqual({ kind: 'pass', reason: 'worth-the-risk' });
    });

    it('clamps a window of the same size that is not the last of its reading', () => {
      expect(plan(restFrom - 1000, 3001 - restFrom).kind).toBe('clamp');
      expect(plan(restFrom - 1000, 3001 - restFrom, taught, 2999).kind).toBe('clamp');
    });

    it('clamps the rest once a refusal taught the density', () => {
      expect(plan(restFrom, 3002 - restFrom, refused).kind).toBe('clamp');
    });

    it('a note names the rest of the file whole when its point estimate fits, unless a refusal taught the density', () => {
      // prose() ends with a newline: the engine counts 3001 lines, 3000 of them wanted.
      expect(continuation(file, restFrom, 3000, 25_000, taught, later)?.window).toEqual({
        first: restFrom,
        lines: 3001 - restFrom,
      });
      const careful = continuation(file, restFrom, 3000, 25_000, refused, later)?.window;
      expect(careful?.lines).toBeLessThan(3001 - restFrom);
    });

    it('clamps the rest of a file read for the first time in this session', () => {
      const p = planWindow(
        { file_path: file, offset: restFrom, limit: 3002 - restFrom }, { path: file, stat }, 25_000,
        sizingFor({ ratio: 1 }, false), later,
      );
      expect(p.kind).toBe('clamp');
    });
  });

  it('a later window clamps with the narrower margin: a larger window than the first', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: 3000 }, { path: file, stat }, 25_000, sizingFor(undefined, true), later,
    );
    expect(p.kind).toBe('clamp');
    if (p.kind === 'clamp') expect(p.lines).toBeGreaterThan(first.lines);
  });
});

describe('namedWindow', () => {
  it('a window to the last line asks for one line more than is left, never past what was asked', () => {
    // 300 lines and a final newline: the engine counts 301.
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, undefined)).toEqual({ first: 158, lines: 145 });
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, 3000)).toEqual({ first: 158, lines: 145 });
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, 301)).toEqual({ first: 158, lines: 144 });
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, 300)).toEqual({ first: 158, lines: 143 });
    expect(namedWindow({ first: 158, lines: 100 }, 300, 301, undefined)).toEqual({ first: 158, lines: 100 });
  });
});

describe('a window of all of a file that fits by its point estimate but not with the margin', () => {
  // The cap is set just over the file's point estimate: the first window's margin calls it over, the point under.
  const make = (name: string, lines: number) => {
    const path = join(dir, name);
    writeFileSync(path, prose(lines));
    const point = measureWindow(path, 1, Infinity, later).pointTokens;
    return { path, lines, stat: { size: statSync(path).size }, cap: Math.ceil(point * 1.04) };
  };
  const small = make('small.txt', 1500);

  it('is sent with no limit under 256 KiB: the engine returns it whole or pages it, and never refuses it', () => {
    for (const offset of [0, 1]) {
      const input = { file_path: small.path, offset, limit: small.lines + 50, extra: 'kept' };
      const p = planWindow(input, small, small.cap, PRIOR_SIZING, later);
      expect(p).toMatchObject({ kind: 'read-whole', askedLines: small.lines + 50 });
      if (p.kind === 'read-whole') expect(p.updatedInput).toEqual({ file_path: small.path, extra: 'kept' });
    }
  });

  it('is sent with no limit up to 1.5 times over the cap by its point estimate, and clamped further over', () => {
    // A sparser model counts it under the cap: whole, it takes one call where a clamp takes two for sure.
    const point = small.cap / 1.04;
    const input = { file_path: small.path, offset: 1, limit: small.lines + 50 };
    expect(planWindow(input, small, Math.ceil(point / 1.45), PRIOR_SIZING, later).kind).toBe('read-whole');
    expect(planWindow(input, small, Math.ceil(point / 1.55), PRIOR_SIZING, later).kind).toBe('clamp');
    // A file the model was counted denser on by its learned ratio: its estimate in the model's tokens is what counts.
    expect(planWindow(input, small, Math.ceil(point / 1.2), sizingFor({ ratio: 1.3 }), later).kind).toBe('clamp');
    // So does a model whose counts raised the prior's weights (memory.v1.json): 1.3 times every weight.
    const denser = Object.fromEntries(Object.entries(WEIGHTS).map(([k, w]) => [k, w * 1.3])) as typeof WEIGHTS;
    expect(planWindow(input, small, Math.ceil(point / 1.2), PRIOR_SIZING, later).kind).toBe('read-whole');
    expect(planWindow(input, small, Math.ceil(point / 1.2), { ...PRIOR_SIZING, weights: denser }, later).kind)
      .toBe('clamp');
  });

  it('where the engine counts by length, is clamped when its length is over the cap: the count is known', () => {
    const counted = small.stat.size / 4;
    const input = { file_path: small.path, offset: 1, limit: small.lines + 50 };
    expect(planWindow(input, small, Math.ceil(counted * 1.01), LENGTH_SIZING, later)).toEqual({
      kind: 'pass', reason: 'fits',
    });
    expect(planWindow(input, small, Math.ceil(counted / 1.2), LENGTH_SIZING, later).kind).toBe('clamp');
  });

  it('is sent with no limit on a later reading too, where it would otherwise run as asked and risk a refusal', () => {
    // A cap 2% over the point estimate: over it with any margin a later window keeps.
    const tight = Math.ceil((small.cap / 1.04) * 1.02);
    for (const sizing of [sizingFor(undefined, true), sizingFor({ ratio: 1 }, true)]) {
      const p = planWindow({ file_path: small.path, offset: 1, limit: small.lines + 50 }, small, tight, sizing, later);
      expect(p.kind).toBe('read-whole');
    }
  });

  it('is clamped when it does not reach the end of the file, or when whole reads are sent as windows', () => {
    // All but the last few lines: still over the cap with the margin.
    const allButTheLast = { file_path: small.path, offset: 1, limit: Math.floor(small.lines * 0.98) };
    const part = planWindow(allButTheLast, small, small.cap, PRIOR_SIZING, later);
    expect(part.kind).toBe('clamp');
    const asWindow = planWindow({ file_path: small.path, offset: 1, limit: small.lines + 50 }, small, small.cap,
      PRIOR_SIZING, later, 'window');
    expect(asWindow.kind).toBe('clamp');
  });

  it('as a read with no limit: left to the engine, unless the engine refuses such reads (before 2.1.145)', () => {
    // Under 256 KiB and over the cap only by the margin: the engine returns it whole, or pages it. An engine that
    // refuses it costs a round when the model counts it over: a first window is never that gamble.
    const asWhole = { file_path: small.path };
    expect(planWindow(asWhole, small, small.cap, PRIOR_SIZING, later)).toEqual({ kind: 'pass', reason: 'engine-pages-it' });
    expect(planWindow(asWhole, small, small.cap, PRIOR_SIZING, later, 'window'))
      .toEqual({ kind: 'pass', reason: 'may-fit-whole' });
    const refused = planWindow(asWhole, small, small.cap, PRIOR_SIZING, later, 'refused');
    expect(refused.kind).toBe('clamp');
    if (refused.kind === 'clamp') expect(refused.lines).toBeLessThan(small.lines);
  });

  it('is clamped when it starts past line 1: a read with an offset and no limit is refused, not paged', () => {
    const p = planWindow({ file_path: small.path, offset: 2, limit: small.lines }, small, small.cap, PRIOR_SIZING,
      later);
    expect(p.kind).toBe('clamp');
  });

  it('is clamped over 256 KiB, where a read with no limit is an error', () => {
    const big = make('big-prose.txt', 4400);
    expect(big.stat.size).toBeGreaterThan(WHOLE_FILE_MAX_BYTES);
    const p = planWindow({ file_path: big.path, offset: 1, limit: big.lines + 50 }, big, big.cap, PRIOR_SIZING, later);
    expect(p.kind).toBe('clamp');
  });
});

describe('a window whose first line alone is over the cap', () => {
  // Line 1: 60,000 characters of prose with no newline, far over a cap of 3,000; 100 short lines after it.
  const words = prose(2000).replace(/\n/g, ' ').slice(0, 60_000);
  const make = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { path, stat: { size: statSync(path).size } };
  };
  const small = make('line-over-cap.txt', `${words}\n${prose(100)}`);
  const big = make('line-over-cap-big.txt', `${words}\n${prose(4400)}`);

  it('from line 1 of a file under 256 KiB: sent with no limit, which the engine answers with an excerpt of the line', () => {
    for (const limit of [1, 50, 5000]) {
      const p = planWindow({ file_path: small.path, offset: 1, limit, extra: 'kept' }, small, 3000, PRIOR_SIZING, later);
      expect(p).toMatchObject({ kind: 'read-whole', askedLines: limit, lineOverCap: true });
      if (p.kind === 'read-whole') expect(p.updatedInput).toEqual({ file_path: small.path, extra: 'kept' });
    }
  });

  it('left to the engine\'s refusal (and post\'s note) where a read with no limit is refused too, or is not wanted', () => {
    expect(big.stat.size).toBeGreaterThan(WHOLE_FILE_MAX_BYTES);
    expect(planWindow({ file_path: big.path, offset: 1, limit: 50 }, big, 3000, PRIOR_SIZING, later))
      .toEqual({ kind: 'pass', reason: 'first-line-over-cap' });
    expect(planWindow({ file_path: small.path, offset: 1, limit: 50 }, small, 3000, PRIOR_SIZING, later, 'window'))
      .toEqual({ kind: 'pass', reason: 'first-line-over-cap' });
    // From a later line over the cap: a read with an offset and no limit is refused, not paged.
    const later2 = make('line-over-cap-later.txt', `short\n${words}\n${prose(100)}`);
    expect(planWindow({ file_path: later2.path, offset: 2, limit: 50 }, later2, 3000, PRIOR_SIZING, later))
      .toEqual({ kind: 'pass', reason: 'first-line-over-cap' });
  });
});

describe('a window a note named: a short run of lines and a line that may fit', () => {
  // The note after a window names the run with the line (measure.ts, shortRunBefore). By the time the model reads
  // it, the usage has taught the file's density, and `pre` sizes the window anew: clamped to what fits with the
  // margin, the run would run alone, and the line take a round of its own after it.
  const nearCap = wordsWorth(0.97);
  const noWindow = wordsWorth(2);
  const path = join(dir, 'named-run.js');
  writeFileSync(path, `head\nshort one\n${nearCap}\nshort two\n${noWindow}\ntail\n`);
  const at = { path, stat: statSync(path) };
  const taught = sizingFor({ ratio: 1 }, true);
  const plan = (offset: number, limit: number, named: boolean) =>
    planWindow({ file_path: path, offset, limit }, at, 25_000, taught, later, 'engine', undefined, named);

  it('runs as named, where the model\'s own window of the same lines is clamped to the run', () => {
    expect(plan(2, 2, true)).toEqual({ kind: 'pass', reason: 'named-gamble' });
    expect(plan(2, 2, false)).toMatchObject({ kind: 'clamp', lines: 1 });
  });

  it('a window named wider (before the usage came) is trimmed to the run, the line and the short line after it', () => {
    expect(plan(2, 4, true)).toMatchObject({ kind: 'clamp', lines: 3, updatedInput: { offset: 2, limit: 3 } });
    expect(plan(2, 4, false)).toMatchObject({ kind: 'clamp', lines: 1 });
  });
});

describe('a window whose first line may fit alone, though not with the margin', () => {
  // xlsx.full.min.js under a model at 1.5 times Claude-dense: a note named lines 14-16 for `pre` to trim, and `pre`,
  // finding no window from line 14 that fits with the margin, sent all three, refused at 74,564 tokens, where line 14
  // alone counts 23,910.
  const nearCap = wordsWorth(0.97);
  const noWindow = wordsWorth(2);
  const path = join(dir, 'alone-then-long.js');
  writeFileSync(path, `head\n${nearCap}\n${noWindow}\n${noWindow}\ntail\n`);
  const at = { path, stat: statSync(path) };
  const refusedFile = sizingFor({ ratio: 1, refused: true });
  const plan = (offset: number, limit: number) =>
    planWindow({ file_path: path, offset, limit }, at, 25_000, refusedFile, later, 'engine', undefined, true);

  it('runs that line alone, where the window asked would be refused for sure', () => {
    // The precondition: over the cap with the learned margin, under it without.
    const line = measureWindow(path, 2, 1, later).pointTokens;
    expect(line * 1.05).toBeGreaterThan(25_000);
    expect(line).toBeLessThan(25_000);
    expect(plan(2, 3)).toMatchObject({ kind: 'clamp', lines: 1, updatedInput: { offset: 2, limit: 1 } });
  });

  it('leaves a window alone whose first line is over the cap without the margin too', () => {
    expect(plan(3, 2)).toEqual({ kind: 'pass', reason: 'first-line-over-cap' });
  });
});

describe('on an engine that shows a Read result over 100,000 characters only as a preview (2.1.6 to 2.1.78)', () => {
  const resultChars = resultCharsCap('2.1.50')!;
  // 4,000 lines of 40 characters: 3,000 of them within a cap of 60,000 in tokens, about 144,000 characters numbered.
  const path = join(dir, 'sparse.txt');
  writeFileSync(path, 'aaaa bbbb cccc dddd eeee ffff gggg hhhhh\n'.repeat(4000));
  const at = { path, stat: statSync(path) };
  const numbered = (lines: number) => lines * 40 + (lines - 1) + lines * 7;

  it('clamps a window within the cap to the most whose numbered lines fit, and says the length decided', () => {
    const sizing = { ...PRIOR_SIZING, resultChars };
    const p = planWindow({ file_path: path, offset: 1, limit: 3000 }, at, 60_000, sizing, later);
    if (p.kind !== 'clamp') throw new Error(`expected a clamp, got ${JSON.stringify(p)}`);
    expect(numbered(p.lines)).toBeLessThanOrEqual(resultChars);
    expect(numbered(p.lines + 1)).toBeGreaterThan(resultChars);
    expect(p.resultBound).toBe(true);
  });

  it('leaves the same window alone on any other engine', () => {
    const p = planWindow({ file_path: path, offset: 1, limit: 3000 }, at, 60_000, PRIOR_SIZING, later);
    expect(p).toEqual({ kind: 'pass', reason: 'fits' });
  });

  it('clamps a window of short lines too short for the engine ever to count', () => {
    const short = join(dir, 'short-lines.txt');
    // 15,000 one-character lines: 29,999 characters, under the floor of a cap of 30,000; numbered, about 135,000.
    // (Under 10,000 bytes, a file numbers within the limit whatever its lines: `pre` looks no further at it.)
    writeFileSync(short, 'x\n'.repeat(15_000));
    const p = planWindow(
      { file_path: short, offset: 1, limit: 15_000 }, { path: short, stat: statSync(short) }, 30_000,
      { ...PRIOR_SIZING, resultChars }, later,
    );
    expect(p).toMatchObject({ kind: 'clamp', resultBound: true });
    if (p.kind === 'clamp') expect(p.lines * 9 - 1).toBeLessThanOrEqual(resultChars);
  });
});

describe('sizingByMap', () => {
  // An earlier reading counted lines 1-1500 at half the estimate; its last window, 1501 on, taught nothing (no hook
  // sees the usage of a reading's last window).
  const spans = [[1, 1500, 0.5]];
  const learned = sizingFor({ ratio: 1 }, true);
  const lines = (sizing: ReturnType<typeof sizingFor>) =>
    planWindow({ file_path: file, offset: 1, limit: 3000 }, { path: file, stat }, 25_000, sizing, later);

  it('sizes a window that runs past the counted lines by those counts, and the rest by the file\'s density', () => {
    const mapped = sizingByMap(file, 1, learned, spans, 25_000, 3000, later);
    expect(mapped).toBeDefined();
    expect(mapped!.ratio).toBeGreaterThan(0.5);
    expect(mapped!.ratio).toBeLessThan(1);
    const byMap = lines(mapped!);
    const byLearned = lines(learned);
    if (byMap.kind !== 'clamp' || byLearned.kind !== 'clamp') throw new Error('both must be clamped');
    expect(byMap.lines).toBeGreaterThan(byLearned.lines * 1.2);
  });

  it('leaves a window that starts past the counted lines to the file\'s density', () => {
    expect(sizingByMap(file, 1600, learned, spans, 25_000, 1400, later)).toBeUndefined();
  });

  it('sizes the lines past the counted ones as the file\'s density does, with its margin', () => {
    // One counted line, at the file's density, then lines no span covers: the window holds what the file's density
    // alone would let it (the lines after the window that taught a density are sized so within a session).
    const alike = [[1400, 1400, 1]];
    const mapped = sizingByMap(file, 1400, learned, alike, 25_000, 1600, later);
    const from1400 = (sizing: ReturnType<typeof sizingFor>) =>
      planWindow({ file_path: file, offset: 1400, limit: 1600 }, { path: file, stat }, 25_000, sizing, later);
    const byMap = from1400(mapped!);
    const byLearned = from1400(learned);
    if (byMap.kind !== 'clamp' || byLearned.kind !== 'clamp') throw new Error('both must be clamped');
    expect(byMap.lines).toBeGreaterThanOrEqual(byLearned.lines - 1);
  });
});
