// Lines that alone may be over the cap: the note names a line's estimate as the one that judged it, with the weights
// a model's counts taught (a line "about 21168 tokens" was called over a cap of 25,000 before), and a line that only
// the margin keeps out, or that a model sparser than the estimate may count under the cap before any count of the
// file, is read, not passed over: a line passed over is never read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHANGED_TEXT_SAFETY, newTextAllowance, PRIOR_SAFETY, WEIGHTS, type Weights } from '../../src/estimate/weights';
import { sharesOf } from '../../src/estimate/groups';
import {
  budgetFor,
  continuation,
  fitsAtPoint,
  fitWindow,
  LENGTH_SIZING,
  measureWindow,
  OTHER_TEXT_DISTANCE,
  PRIOR_SIZING,
  revisitPassedOver,
  skipOversize,
  type Sizing,
} from '../../src/hooks/measure';
import { sizingFor } from '../../src/hooks/sizing';

const dir = mkdtempSync(join(tmpdir(), 'rcp-oversize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const deadline = () => Date.now() + 10_000;

const unit = 'alpha beta gamma delta ';
const perUnit = (() => {
  const probe = join(dir, 'probe.txt');
  writeFileSync(probe, unit.repeat(1000));
  return measureWindow(probe, 1, 1, deadline()).pointTokens / 1000;
})();
/** One line of words whose point estimate is about `share` of a cap of 25,000. */
const wordsWorth = (share: number, round = Math.floor) => unit.repeat(round((25_000 * share) / perUnit));

describe('skipOversize: the estimate of a line no window holds', () => {
  const path = join(dir, 'bundle.js');
  const long = Array.from({ length: 6000 }, (_, i) => `var a${i}=function(b){return b+${i}};`).join('');
  writeFileSync(path, `"use strict";\n${long}\nmodule.exports = a1;\n`);
  const point = measureWindow(path, 2, 1, deadline()).pointTokens;

  it('is the line\'s point estimate with the calibrated weights', () => {
    const past = skipOversize(path, 2, 3, budgetFor(path, 25_000, sizingFor(undefined), 1), deadline());
    expect(past?.oversize).toMatchObject({ first: 2, last: 2 });
    expect(past?.oversize?.tokens).toBeCloseTo(point, 6);
    expect(past?.nextFitting).toBe(3);
  });

  it('is raised by the weights a model\'s counts taught, as the decision was', () => {
    // A model that counts this text 1.5 times the calibration's estimate.
    const weights = Object.fromEntries(Object.entries(WEIGHTS).map(([k, w]) => [k, w * 1.5])) as Weights;
    const sizing = { ...sizingFor(undefined), weights };
    const past = skipOversize(path, 2, 3, budgetFor(path, 25_000, sizing, 1), deadline());
    expect(past?.oversize?.tokens).toBeCloseTo(point * 1.5, 3);
  });
});

describe('lines an earlier reading found over the cap (the memory\'s `overCap`)', () => {
  // A line of words the density known now calls well under the cap: an earlier reading's count of it was over.
  const path = join(dir, 'known.txt');
  writeFileSync(path, `short first line\n${wordsWorth(0.8)}\n${wordsWorth(0.8)}\nlast line\n`);
  const sizing = sizingFor({ ratio: 1 });

  it('are passed over whatever the density says, with no estimate under the cap beside them', () => {
    expect(continuation(path, 2, 4, 25_000, sizing, deadline())?.oversize).toBeUndefined();
    const next = continuation(path, 2, 4, 25_000, { ...sizing, overCap: [[2, 3, 25_000]] }, deadline());
    expect(next?.oversize).toEqual({ first: 2, last: 3, chars: wordsWorth(0.8).length });
    expect(next?.window).toMatchObject({ first: 4 });
  });

  it('over a lower cap than this session\'s: judged by the density, as any line', () => {
    const next = continuation(path, 2, 4, 25_000, { ...sizing, overCap: [[2, 3, 10_000]] }, deadline());
    expect(next?.oversize).toBeUndefined();
    expect(next?.window).toMatchObject({ first: 2 });
  });
});

describe('continuation after a count of other text', () => {
  // A refusal counted a line of Han at 1.1 times its estimate. The next line, Han too, is over the cap by that
  // density; the one after it, words, is over the cap by that density but within the sparsest tokenizer's reach by its
  // own estimate: it is named, not passed over (xlsx.full.min.js: lines of U+FFFD placeholders after a refused line of
  // rare Han count half as dense, and fit).
  const path = join(dir, 'kinds.txt');
  const han = '漢字文化圏的書写体系'.repeat(2800);
  writeFileSync(path, `short first line\n${han}\n${han}\n${wordsWorth(1.3)}\nlast line\n`);
  const counted = sharesOf(measureWindow(path, 2, 1, deadline()).groups);
  const learned = { ratio: 1.1, refused: true };

  it('passes over the line like the counted one, and names the line of other text alone', () => {
    expect(measureWindow(path, 3, 1, deadline()).pointTokens * 1.1).toBeGreaterThan(25_000);
    expect(measureWindow(path, 4, 1, deadline()).pointTokens * 1.1).toBeGreaterThan(25_000);
    const next = continuation(path, 3, 5, 25_000, sizingFor({ ...learned, countedShares: counted }), deadline());
    expect(next?.oversize).toMatchObject({ first: 3, last: 3 });
    expect(next?.window).toMatchObject({ first: 4, lines: 2 });
    expect(next?.window?.overByEstimate).toBeGreaterThan(25_000);
  });

  it('passes over both where the counted text is not known, as before', () => {
    const next = continuation(path, 3, 5, 25_000, sizingFor(learned), deadline());
    expect(next?.oversize).toMatchObject({ first: 3, last: 4 });
    expect(next?.window).toEqual({ first: 5, lines: 1 });
  });

  it('judges by the count a line of text near the counted one', () => {
    // Counted on text a tenth of a share from the line's (moved from words to Han): the line is passed over.
    const words = sharesOf(measureWindow(path, 4, 1, deadline()).groups);
    const moved = OTHER_TEXT_DISTANCE / 4;
    const close = words.map((share, g) => share * (1 - moved) + (g === 2 ? moved : 0));
    const past = continuation(path, 4, 5, 25_000, sizingFor({ ...learned, countedShares: close }), deadline());
    expect(past?.oversize).toMatchObject({ first: 4, last: 4 });
  });
});

describe('a window of another script than the one a usage taught', () => {
  // 300 lines of English words, 300 of Russian, 600 of numbers. The usage of the words taught a sparse density (0.6
  // times the estimate). A window of the Russian, sized by it, would count 1.5 times the cap under a tokenizer that
  // counts Cyrillic as the estimate does (xlsx's cpexcel.js: the next codepage's window counted 1.4-1.5 times the cap).
  // `.json`: windows of up to half the cap in characters are never counted (the engine's rule), a floor under these
  // windows; a `.txt` floor of the whole cap would be over some of them.
  const path = join(dir, 'scripts.json');
  const words = Array.from({ length: 300 }, (_, i) => `${unit.repeat(30)}${i}`);
  const pangram = 'съешь же ещё этих мягких французских булок ';
  const russian = Array.from({ length: 300 }, (_, i) => `${pangram.repeat(3)}${i}`);
  const row = (i: number) => Array.from({ length: 12 }, (_, k) => `${i * 7 + k}.${k}5`).join(',');
  const numbers = Array.from({ length: 600 }, (_, i) => row(i));
  writeFileSync(path, `${[...words, ...russian, ...numbers].join('\n')}\n`);
  const taughtBy = sharesOf(measureWindow(path, 1, 100, deadline()).groups);
  const learned = { ratio: 0.6, shares: taughtBy };
  const cap = 10_000;
  const fit = (first: number, sizing = sizingFor(learned)) =>
    fitWindow(path, first, budgetFor(path, cap, sizing, 300), deadline());
  const byDensityAlone = (first: number, sizing: Sizing) =>
    fitWindow(path, first, budgetFor(path, cap, { ...sizing, similar: undefined, safety: CHANGED_TEXT_SAFETY }, 300),
      deadline());

  it('is sized as a first window would be, by the prior with its margin', () => {
    const next = fit(301);
    expect(next.lines).toBeGreaterThan(0);
    expect(next.pointTokens * PRIOR_SAFETY).toBeLessThanOrEqual(cap);
    // One line more would not fit by the prior: the window is the largest that does.
    expect(measureWindow(path, 301, next.lines + 1, deadline()).pointTokens * PRIOR_SAFETY).toBeGreaterThan(cap);
    // By the words' density it would have run to lines worth 1.5 times the cap by the estimate.
    expect(byDensityAlone(301, sizingFor(learned)).pointTokens).toBeGreaterThan(cap * 1.4);
  });

  it('is sized by the model\'s prior where its counts taught one', () => {
    const weights = Object.fromEntries(Object.entries(WEIGHTS).map(([k, w]) => [k, w * 1.5])) as Weights;
    const prior = { weights, sizingWeights: weights, observations: 4, splitsDigits: false };
    const denser = fit(301, sizingFor(learned, false, prior));
    expect(denser.lines).toBeLessThan(fit(301).lines);
    // The point estimate is the model's (its weights): with the margin, within the cap.
    expect(denser.pointTokens * PRIOR_SAFETY).toBeLessThanOrEqual(cap);
  });

  it('is judged by the prior at its point too: the rest of a reading is no gamble on the words\' density', () => {
    // The fewest lines from `first` worth more than 1.3 times the cap by the estimate: under it by the words' density
    // (0.6), over it by the prior's.
    const over = (first: number) =>
      Array.from({ length: 300 }, (_, i) => i + 1)
        .find((n) => measureWindow(path, first, n, deadline()).pointTokens > cap * 1.3)!;
    const russian = over(301);
    expect(measureWindow(path, 301, russian, deadline()).pointTokens * 0.6).toBeLessThan(cap);
    expect(fitsAtPoint(path, 301, russian, cap, sizingFor(learned), deadline()).fits).toBe(false);
    // A window of the words, as long by the estimate, is judged by their density.
    expect(fitsAtPoint(path, 1, over(1), cap, sizingFor(learned), deadline()).fits).toBe(true);
  });

  it('keeps a line that the prior calls over the cap, alone, where the learned density lets it fit', () => {
    // A line of Russian worth 1.2 times the cap by the estimate, after the words: over it by the prior, so no window of
    // the prior's holds it; by the words' density it fits. It is named alone, to be read or counted, not passed over.
    const long = join(dir, 'long-russian.json');
    const probe = measureWindow(path, 301, 1, deadline());
    const line = pangram.repeat(Math.ceil(((cap * 1.2) / probe.pointTokens) * 3));
    writeFileSync(long, `${words.join('\n')}\n${line}\n${russian.slice(0, 50).join('\n')}\n`);
    expect(measureWindow(long, 301, 1, deadline()).pointTokens).toBeGreaterThan(cap * 1.15);
    const next = fitWindow(long, 301, budgetFor(long, cap, sizingFor(learned), 51), deadline());
    expect(next.lines).toBe(1);
  });

  it('keeps the learned density where it is the denser one', () => {
    const dense = sizingFor({ ratio: 1.3, shares: taughtBy });
    expect(fit(301, dense).lines).toBe(byDensityAlone(301, dense).lines);
    expect(fit(301, dense).lines).toBeLessThan(fit(301).lines);
  });

  it('leaves a window of the taught text to the learned density, and one of other text in the same script to it and the estimate', () => {
    const words = fit(101);
    expect(words.pointTokens * 0.6).toBeGreaterThan(cap / PRIOR_SAFETY);
    expect(words.pointTokens * 0.6).toBeLessThanOrEqual(cap);
    // Numbers after words: far apart by their shares, but no script between them, so not sized as a first window;
    // the share of their estimate that the words held less of is taken at the estimate's own density
    // (`newTextAllowance`), the rest at the words'.
    const numbers = fit(601);
    const margin = CHANGED_TEXT_SAFETY * newTextAllowance(sharesOf(numbers.groups), taughtBy, 0.6);
    expect(margin).toBeGreaterThan(CHANGED_TEXT_SAFETY * 1.2);
    expect(numbers.pointTokens * 0.6 * margin).toBeLessThanOrEqual(cap);
    expect(numbers.pointTokens).toBeGreaterThan(cap / PRIOR_SAFETY);
    expect(numbers.lines).toBeLessThan(byDensityAlone(601, sizingFor(learned)).lines);
  });
});

describe('continuation past a line that only the margin keeps out', () => {
  // A line whose estimate is under the cap, and over it with the prior's margin: it may well fit, so the reading
  // goes on with it alone, where it was passed over as a line no window holds (and never read).
  const path = join(dir, 'near.txt');
  const near = wordsWorth(0.96);
  writeFileSync(path, `short line\n${near}\nafter it\n`);

  it('names the line alone, not as a line over the cap', () => {
    expect(measureWindow(path, 2, 1, deadline()).pointTokens).toBeLessThan(25_000);
    expect(measureWindow(path, 2, 1, deadline()).pointTokens * PRIOR_SAFETY).toBeGreaterThan(25_000);
    const next = continuation(path, 2, 3, 25_000, sizingFor(undefined), deadline());
    expect(next?.oversize).toBeUndefined();
    // With the short line after it (shortStretchAfter, below).
    expect(next?.window).toEqual({ first: 2, lines: 2 });
  });

  it('passes over a line whose estimate alone is over the cap', () => {
    const over = join(dir, 'over.txt');
    writeFileSync(over, `short line\n${near}${near}\nafter it\n`);
    const next = continuation(over, 2, 3, 25_000, sizingFor(undefined), deadline());
    expect(next?.oversize).toMatchObject({ first: 2, last: 2 });
    expect(next?.window).toEqual({ first: 3, lines: 1 });
  });

  // Tokenizers count 0.65-1.3 times the estimate: a line estimated at 1.3 times the cap may count 0.85 of it (under
  // o200k, vue.global.prod.js's line 7 is estimated at 34,000 tokens and counts 21,800).
  const within = join(dir, 'within.txt');
  writeFileSync(within, `short line\n${wordsWorth(1.3)}\nafter it\n`);

  it('names alone a line over the cap by its estimate but within the sparsest tokenizer\'s reach, before any count', () => {
    expect(measureWindow(within, 2, 1, deadline()).pointTokens).toBeGreaterThan(25_000 * 1.25);
    const next = continuation(within, 2, 3, 25_000, sizingFor(undefined), deadline());
    expect(next?.oversize).toBeUndefined();
    // The note says it is over the cap by the estimate, and may fit.
    const estimate = measureWindow(within, 2, 1, deadline()).pointTokens;
    expect(next?.window).toEqual({ first: 2, lines: 2, overByEstimate: estimate });
  });

  it('names alone a line at 1.6 times the cap too: minified code counts down to 0.62 times its estimate', () => {
    const far = join(dir, 'far.txt');
    writeFileSync(far, `short line\n${wordsWorth(1.6)}\nafter it\n`);
    const next = continuation(far, 2, 3, 25_000, sizingFor(undefined), deadline());
    expect(next?.window).toMatchObject({ first: 2, lines: 2 });
  });

  it('passes over the same line once a count of the file taught its density', () => {
    const next = continuation(within, 2, 3, 25_000, sizingFor({ ratio: 1 }), deadline());
    expect(next?.oversize).toMatchObject({ first: 2, last: 2 });
    expect(next?.window).toEqual({ first: 3, lines: 1 });
  });

  // A density the usage taught is a window's, read through the line numbers and notes that joined it: within the
  // margin of the cap by it, a line may fit (monaco's nls.messages.ja.js: line 17 called 25,297 tokens by the usage
  // of the lines before it, counted 24,560 by a model at 0.75 times o200k), and passed over, it would never be read.
  const justOver = join(dir, 'just-over.txt');
  writeFileSync(justOver, `short line\n${wordsWorth(1.03)}\nafter it\n`);
  const taught = { ratio: 1, shares: sharesOf(measureWindow(justOver, 2, 1, deadline()).groups) };

  it('names alone a line just over the cap by a density the usage taught', () => {
    expect(measureWindow(justOver, 2, 1, deadline()).pointTokens).toBeGreaterThan(25_000);
    const next = continuation(justOver, 2, 3, 25_000, sizingFor(taught), deadline());
    expect(next?.oversize).toBeUndefined();
    const estimate = measureWindow(justOver, 2, 1, deadline()).pointTokens;
    expect(next?.window).toMatchObject({ first: 2, overByEstimate: estimate });
  });

  it('passes over that line where the engine refused the file: its count is the engine\'s own', () => {
    const refused = { ...taught, refused: true, charsPerToken: 4 };
    const next = continuation(justOver, 2, 3, 25_000, sizingFor(refused), deadline());
    expect(next?.oversize).toMatchObject({ first: 2, last: 2 });
    expect(next?.window).toEqual({ first: 3, lines: 1 });
  });

  it('names a line over the cap only by a refused window\'s characters per token: by the density it may fit', () => {
    // xlsx.full.min.js under a model at 1.5 times Claude-dense: after line 8 was refused at 27,189 tokens, line 10
    // (fewer characters, sparser by its estimate) was called 26,900 tokens by line 8's characters per token, and passed
    // over; it counts 23,177. Here a line at 0.97 of the cap by the refused density, 1.1 times it by the characters.
    const near = join(dir, 'near-by-density.txt');
    writeFileSync(near, `short line\n${wordsWorth(0.97)}\nafter it\n`);
    const line = measureWindow(near, 2, 1, deadline());
    const refused = sizingFor({ ratio: 1, refused: true, charsPerToken: line.chars / (25_000 * 1.1) });
    // The precondition: no window from the line fits, held to those characters per token.
    expect(fitWindow(near, 2, budgetFor(near, 25_000, { ...refused, safety: 1 }, 1), deadline()).lines).toBe(0);
    const next = continuation(near, 2, 3, 25_000, refused, deadline());
    expect(next?.oversize).toBeUndefined();
    expect(next?.window).toMatchObject({ first: 2 });
  });

  it('passes over a line over the cap by its length where the engine counts by length: that count is exact', () => {
    const byLength = join(dir, 'by-length.txt');
    writeFileSync(byLength, `short line\n${'x'.repeat(Math.round(25_000 * 4 * 1.03))}\nafter it\n`);
    const next = continuation(byLength, 2, 3, 25_000, LENGTH_SIZING, deadline());
    expect(next?.oversize).toMatchObject({ first: 2, last: 2 });
    expect(next?.window).toEqual({ first: 3, lines: 1 });
  });

  it('does not pass over a line because a model\'s counts of other files raised the estimate', () => {
    // Raised 1.5 times by refusals of other text, the line under the cap would be called 1.44 times over it.
    const weights = Object.fromEntries(Object.entries(WEIGHTS).map(([k, w]) => [k, w * 1.5])) as Weights;
    const next = continuation(path, 2, 3, 25_000, { ...sizingFor(undefined), weights }, deadline());
    expect(next?.oversize).toBeUndefined();
    expect(next?.window).toEqual({ first: 2, lines: 2 });
  });
});

describe('continuation: the short lines after a line named alone join it', () => {
  // A localized bundle of one module a line (monaco-editor's nls.messages.ja.js): a long line that may fit, two
  // short lines, a line no window holds. Named alone, the long line took a round and the two short lines another.
  const mayFit = wordsWorth(1.3);
  const noWindow = wordsWorth(2);

  it('up to the next line that alone does not fit', () => {
    const path = join(dir, 'stretch-bounded.js');
    writeFileSync(path, `head\n${mayFit}\nshort one\nshort two\n${noWindow}\ntail\n`);
    const next = continuation(path, 2, 6, 25_000, sizingFor(undefined), deadline());
    expect(next?.window).toMatchObject({ first: 2, lines: 3 });
    expect(next?.window?.overByEstimate).toBeGreaterThan(25_000);
  });

  it('up to the end of the reading', () => {
    const path = join(dir, 'stretch-end.js');
    writeFileSync(path, `head\n${mayFit}\nshort one\nshort two\nshort three\n`);
    const to = (end: number) => continuation(path, 2, end, 25_000, sizingFor(undefined), deadline())?.window;
    expect(to(5)).toMatchObject({ first: 2, lines: 4 });
    // The reading's end bounds it, not the file's.
    expect(to(4)).toMatchObject({ first: 2, lines: 3 });
  });

  it('none where the text after it is long: the window after the line holds it', () => {
    const path = join(dir, 'stretch-long.js');
    const after = Array.from({ length: 3000 }, (_, i) => `line ${i} of the text that follows the long one`).join('\n');
    writeFileSync(path, `head\n${mayFit}\n${after}\n`);
    const next = continuation(path, 2, 3002, 25_000, sizingFor(undefined), deadline());
    expect(next?.window).toMatchObject({ first: 2, lines: 1 });
  });

  it('none where the short lines are followed by a line that fits alone (the stretch is not short)', () => {
    const path = join(dir, 'stretch-medium.js');
    // About a quarter of the cap: over the stretch's share, and a window of its own.
    const medium = wordsWorth(0.25);
    writeFileSync(path, `head\n${mayFit}\nshort one\n${medium}\n${noWindow}\n`);
    const next = continuation(path, 2, 5, 25_000, sizingFor(undefined), deadline());
    expect(next?.window).toMatchObject({ first: 2, lines: 1 });
  });

  it('a line under the cap by its point estimate: only short lines that keep the two under it join', () => {
    // Once a count taught the file's density (here: the estimate's own), a line at 97% of the cap is kept out by the
    // margin alone. Lines worth 4% of the cap would take the window over the cap by the estimate; two words would not.
    const line = wordsWorth(0.97);
    const fourPercent = Array.from({ length: 10 }, () => wordsWorth(0.004, Math.ceil)).join('\n');
    const heavy = join(dir, 'stretch-heavy.js');
    writeFileSync(heavy, `head\n${line}\n${fourPercent}\n${noWindow}\n`);
    const known = sizingFor({ ratio: 1 });
    expect(continuation(heavy, 2, 13, 25_000, known, deadline())?.window).toEqual({ first: 2, lines: 1 });
    const light = join(dir, 'stretch-light.js');
    writeFileSync(light, `head\n${line}\nshort one\nshort two\n${noWindow}\n`);
    expect(continuation(light, 2, 5, 25_000, known, deadline())?.window).toEqual({ first: 2, lines: 3 });
  });
});

describe('continuation: a short run of lines before a line named alone joins it', () => {
  // A localized bundle (monaco-editor's nls.messages.ko.js): a line no window holds, a short line, a long line that
  // may fit. Named apart, the short line took a round of its own before the long line's gamble.
  const mayFit = wordsWorth(1.3);
  const noWindow = wordsWorth(2);

  it('names the run with the line, and the note says which line may fit', () => {
    const path = join(dir, 'run-before.js');
    writeFileSync(path, `head\nshort one\nshort two\n${mayFit}\n${noWindow}\ntail\n`);
    const next = continuation(path, 2, 6, 25_000, sizingFor(undefined), deadline());
    expect(next?.window).toMatchObject({ first: 2, lines: 3, longLine: 4 });
    expect(next?.window?.overByEstimate).toBeGreaterThan(25_000);
    // Apart, the run is the most that fits from line 2.
    expect(fitWindow(path, 2, budgetFor(path, 25_000, sizingFor(undefined), 5), deadline()).lines).toBe(2);
  });

  it('and the short lines after the line too', () => {
    const path = join(dir, 'run-around.js');
    writeFileSync(path, `head\nshort one\n${mayFit}\nshort two\n${noWindow}\n`);
    expect(continuation(path, 2, 5, 25_000, sizingFor(undefined), deadline())?.window)
      .toMatchObject({ first: 2, lines: 3, longLine: 3 });
  });

  it('not where the run is long: it fills a window of its own', () => {
    const path = join(dir, 'run-long.js');
    const medium = wordsWorth(0.25);
    writeFileSync(path, `head\n${medium}\n${mayFit}\n${noWindow}\n`);
    expect(continuation(path, 2, 4, 25_000, sizingFor(undefined), deadline())?.window).toEqual({ first: 2, lines: 1 });
  });

  it('not where the line after the run is one no window holds: the run alone, and reading goes on past the line', () => {
    const path = join(dir, 'run-no-window.js');
    writeFileSync(path, `head\nshort one\n${noWindow}\ntail\n`);
    expect(continuation(path, 2, 4, 25_000, sizingFor(undefined), deadline())?.window).toEqual({ first: 2, lines: 1 });
  });

  it('a line under the cap by its point estimate: the run joins only where the two still fit by it', () => {
    const known = sizingFor({ ratio: 1 });
    const fits = join(dir, 'run-fits.js');
    const line = wordsWorth(0.97);
    writeFileSync(fits, `head\nshort one\n${line}\n${noWindow}\n`);
    expect(continuation(fits, 2, 4, 25_000, known, deadline())?.window).toEqual({ first: 2, lines: 2, longLine: 3 });
    const tips = join(dir, 'run-tips.js');
    const fourPercent = wordsWorth(0.04, Math.ceil);
    writeFileSync(tips, `head\n${fourPercent}\n${line}\n${noWindow}\n`);
    expect(continuation(tips, 2, 4, 25_000, known, deadline())?.window).toEqual({ first: 2, lines: 1 });
  });
});

describe('revisitPassedOver: lines passed over before any count, judged again by the count known now', () => {
  // Lines 2-4 passed over by the estimate alone: one line of three times the cap's worth, then two of twice.
  const path = join(dir, 'passed-over.txt');
  writeFileSync(path, `short first line\n${wordsWorth(3)}\n${wordsWorth(2)}\n${wordsWorth(2)}\nlast line\n`);
  // A model that counts the file at 0.45 of the estimate, as the usage of a window of it told.
  const counted = sizingFor({ ratio: 0.45 });

  it('names the first that may fit by the count, drops those over the cap by it, and keeps the rest to judge', () => {
    const again = revisitPassedOver(path, [[2, 4]], 25_000, counted, deadline());
    expect(again?.revisit?.window).toEqual({ first: 3, lines: 1 });
    expect(again?.revisit?.tokens).toBeCloseTo(0.45 * measureWindow(path, 3, 1, deadline()).pointTokens, 3);
    expect(again?.left).toEqual([[4, 4]]);
    expect(revisitPassedOver(path, [[4, 4]], 25_000, counted, deadline())).toEqual({
      revisit: { window: { first: 4, lines: 1 }, tokens: expect.any(Number) },
      left: [],
    });
  });

  it('a range whose lines are all over the cap by the count is dropped, and the next range judged', () => {
    const again = revisitPassedOver(path, [[2, 2], [4, 4]], 25_000, counted, deadline());
    expect(again?.revisit?.window.first).toBe(4);
    expect(again?.left).toEqual([]);
    expect(revisitPassedOver(path, [[2, 2]], 25_000, counted, deadline())).toEqual({ revisit: undefined, left: [] });
  });

  it('by the estimate alone they stay over the reach: nothing is named', () => {
    expect(revisitPassedOver(path, [[2, 4]], 25_000, PRIOR_SIZING, deadline())?.revisit).toBeUndefined();
  });
});
