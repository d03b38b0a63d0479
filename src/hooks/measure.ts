// The questions the hooks ask of a file, answered by streaming it into a fit.
import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';
import { lengthDivisor, neverCountedChars } from '../estimate/cap.js';
import { WindowFit, type Budget, type FitResult } from '../estimate/fit.js';
import { FIT_REACH, nearestFitted, partShares } from '../estimate/file-weights.js';
import { stretchMayPay, stretchPays } from '../estimate/stretch.js';
import { headToRestDistance, scriptDistance, sharesOf, shareDistance } from '../estimate/groups.js';
import {
  CHANGED_TEXT_DISTANCE,
  CHANGED_TEXT_SAFETY,
  HOPEFUL_RATIO,
  LEARNED_SAFETY,
  newTextAllowance,
  PRIOR_SAFETY,
  REST_PRIOR_SAFETY,
  safetyForChange,
  type Weights,
} from '../estimate/weights.js';
import { linesOverCap } from '../state/memory.js';
import { decodeUtf16leAfterMark, scanWindow, type ScanResult } from '../estimate/window.js';
import { decodesUtf16le, engineVersionOf } from './engine-version.js';
import { lineNumberDigits, lineNumberTokens, ratioOfUsage } from './line-numbers.js';
import type { NextWindow, OversizeLines, Revisit } from './note.js';

export interface Measured extends FitResult {
  scan: ScanResult;
  /** Safe estimate of the fitted prefix, in engine tokens. */
  safeTokens: number;
  /** The calibrated point estimate of all text read, by token group. */
  groups: number[];
  /** The same by part (estimate/file-weights.ts); none for the inner fit of a pass at two margins. */
  parts?: number[];
  /** The digits, and the runs of digits, of all text read. */
  digits: number;
  digitRuns: number;
}

/** Files are read as the engine that runs this hook decodes them, by the version its environment names, else the
 * one the session's transcript named (`recorded`: engines before 2.1.144 name none to their hooks). */
export function readAsEngine(env: NodeJS.ProcessEnv, recorded: string | undefined): void {
  decodeUtf16leAfterMark(decodesUtf16le(engineVersionOf(env) ?? recorded));
}

/** How a file's windows are sized: engine tokens per estimated token, the margin kept on top, whether the
 * engine's skip rule (short windows are never counted) can be trusted for it, the weights when a model's counts
 * corrected them, whether a window whose point estimate fits may run as asked, and whether the last window of a
 * reading may (the rest of the file, or of the model's own window: `gambleOnRest`). */
export interface Sizing {
  ratio: number;
  safety: number;
  noFloor: boolean;
  weights?: Weights;
  gamble: boolean;
  gambleOnRest: boolean;
  /** Characters per engine token in the window a refusal counted (fit.ts). */
  charsPerToken?: number;
  /** The shares by token group of the window whose usage taught `ratio` (fit.ts): the margin follows how far a
   * window's text differs from that window's. */
  similar?: readonly number[];
  /** The model's prior weights (`PRIOR_SIZING` with them): a window of another script than `similar`'s is sized by
   * them too (`fitInOtherScript`). Calibrated weights when undefined. */
  priorWeights?: Weights;
  /** The shares by token group of the text `ratio` was counted on, whether or not the margin follows them: a long
   * line of other text is not passed over by `ratio` alone (`skipOversize`). */
  counted?: readonly number[];
  /** The largest of the density's last steps over text alike, when it took `CALM_STEPS` of them (weights.ts). */
  calm?: number;
  /** The largest of the density's last steps over any text, when it took `STEADY_STEPS` of them (weights.ts). */
  steady?: number;
  /** `weights` are the file's own, fitted to windows of these shares by part (estimate/file-weights.ts). */
  fitted?: readonly (readonly number[])[];
  /** The engine counts by length (estimate/cap.ts, `countedByLength`): every window is sized exactly, by it. */
  byLength?: true;
  /** No count of the file's text is known: the estimate is the calibration's, or a model's prior from other files. */
  unknownDensity?: true;
  /** Sized by the densities an earlier reading counted over the window's own lines (`sizingByMap`): the density it
   * was sized by without them (the file's, from a count of the whole file where a banner told one). */
  mappedFrom?: number;
  /** The most characters a window's numbered lines may take in the engine's result (fit.ts): an engine that shows a
   * longer one only as a preview (hooks/engine-version.ts). */
  resultChars?: number;
  /** Lines an earlier reading of the file found each over a cap (`RememberedFile.overCap`): passed over as such. */
  overCap?: readonly number[][];
  /** A window may take its next line past its margin where that line is worth the risk (estimate/stretch.ts): a
   * density the usage taught, of a file no window of which was refused. */
  stretch?: true;
}

export const PRIOR_SIZING: Sizing = {
  ratio: 1,
  safety: PRIOR_SAFETY,
  noFloor: false,
  gamble: false,
  gambleOnRest: false,
  unknownDensity: true,
};

/** Where the engine counts by length: its count of any window is known before it runs, so no margin and no gamble. */
export const LENGTH_SIZING: Sizing = {
  ratio: 1,
  safety: 1,
  noFloor: true,
  gamble: false,
  gambleOnRest: false,
  byLength: true,
};

/** How far over the cap the point estimate of a text may be while a model may still count it under the cap:
 * tokenizers count 0.65–1.3 times the estimate (docs/CALIBRATION.md), and 1 / 0.65 is about 1.5. */
export const SPARSEST_REACH = 1.5;
/** The same for one long line: o200k counts the longest lines of minified code 0.62–0.65 times their estimate
 * (rounds corpus: vue.global.prod.js, echarts.min.js, jquery.min.js), and 1 / 0.6 is about 1.7. A line passed over
 * is never read; one named in vain costs a refusal. */
export const LONG_LINE_REACH = 1.7;

/** For a window named before the file's density is known, for `pre` to trim when it runs (weights.ts). */
export const HOPEFUL_SIZING: Sizing = { ...PRIOR_SIZING, ratio: HOPEFUL_RATIO, safety: 1 };

/** The sizing of a window before any count of its text: the calibration, or a model's prior weights. */
export function priorSizing(weights: Weights | undefined): Sizing {
  return weights ? { ...PRIOR_SIZING, weights } : PRIOR_SIZING;
}

/** Whether a window sized this way may still be widened to one whose point estimate fits: a gamble that saves a
 * round when it runs and costs one when refused. `rest`: the window is the last of its reading. */
export function mayGamble(sizing: Sizing, rest = false): boolean {
  return sizing.gamble || (rest && sizing.gambleOnRest);
}

/** Whether the whole window from `first` fits by its point estimate, without the margin, whether it reaches the
 * end of the file, and its estimate in engine tokens (of the prefix that fits, when the whole does not). */
export function fitsAtPoint(
  path: string,
  first: number,
  lines: number,
  cap: number,
  sizing: Sizing,
  deadline: number,
): { fits: boolean; eof: boolean; tokens: number } {
  const atPoint: Sizing = { ...sizing, safety: 1, similar: undefined };
  const fit = fitWindow(path, first, budgetFor(path, cap, atPoint, lines), deadline);
  const fits = !fit.scan.timedOut && fit.whole && fit.lines > 0;
  // A window of another script than the one the density was learned from is judged by the prior (`fitInOtherScript`).
  if (fits && sizing.similar && scriptDistance(sharesOf(fit.groups), sizing.similar) >= OTHER_SCRIPT_DISTANCE) {
    return fitsAtPoint(path, first, lines, cap, priorSizing(sizing.priorWeights), deadline);
  }
  return { fits, eof: fits && fit.scan.eof, tokens: fit.safeTokens };
}

export function budgetFor(path: string, cap: number, sizing: Sizing, maxLines: number): Budget {
  const budget: Budget = {
    cap,
    charFloor: sizing.noFloor ? 0 : neverCountedChars(cap, path),
    ratio: sizing.ratio,
    safety: sizing.safety,
    maxLines,
  };
  if (sizing.weights) budget.weights = sizing.weights;
  if (sizing.charsPerToken) budget.charsPerToken = sizing.charsPerToken;
  if (sizing.similar) budget.similar = sizing.similar;
  if (sizing.priorWeights) budget.priorWeights = sizing.priorWeights;
  if (sizing.calm !== undefined) budget.calm = sizing.calm;
  if (sizing.steady !== undefined) budget.steady = sizing.steady;
  if (sizing.fitted) budget.fitted = sizing.fitted;
  if (sizing.byLength) budget.charsPerCount = lengthDivisor(path);
  if (sizing.resultChars !== undefined) budget.resultChars = sizing.resultChars;
  if (sizing.stretch) budget.stretch = true;
  return budget;
}

/** The most passes `fitWindow` makes over a window: each wider margin fits fewer lines, whose text may call for a
 * little more (`newTextAllowance` moves with the window's shares); the last pass's fit is kept. */
const MOST_FIT_PASSES = 4;

/** The largest prefix of the window from `first` that fits the budget. With a density the usage taught, the margin
 * is the one the window's own text calls for: tried from the narrowest, and widened when the window that fits it
 * differs more from the one the density was learned from (each try is one pass over the window). */
export function fitWindow(path: string, first: number, budget: Budget, deadline: number): Measured {
  const similar = budget.similar;
  if (!similar) return fitOnce(path, first, budget, deadline);
  let safety = Math.min(budget.safety, safetyForChange(0, budget.calm));
  let plain = safety; // the margin without `newTextAllowance`
  for (let pass = 1; ; pass++) {
    const fit = fitOnce(path, first, { ...budget, safety }, deadline);
    if (fit.scan.timedOut) return fit;
    if (fit.lines === 0) {
      // Where the allowance alone left no line, the first line is sized as a window of one line: named alone, to be
      // read or counted, where the learned density lets it fit (`fitInOtherScript`), not passed over.
      return safety > plain ? fitWindow(path, first, { ...budget, maxLines: 1 }, deadline) : fit;
    }
    const shares = sharesOf(fit.groups);
    // The file's own weights predict a window of a mix like the ones they were fitted to; beyond, they extrapolate,
    // and how well they predicted the windows before says nothing of it.
    const extrapolates = budget.fitted && fit.parts && nearestFitted(partShares(fit.parts), budget.fitted) >= FIT_REACH;
    const steady = extrapolates ? undefined : budget.steady;
    const distance = shareDistance(shares, similar);
    let needs = safetyForChange(distance, budget.calm, steady);
    // Text of a kind the file's counts did not hold, where neither its own weights nor a steady density say how its
    // density moves with it; a window of one line is a line, not a mix.
    const covered = budget.fitted !== undefined && !extrapolates;
    const plainNeeds = needs;
    if (distance >= CHANGED_TEXT_DISTANCE && !covered && budget.steady === undefined && fit.lines > 1) {
      needs *= newTextAllowance(shares, similar, budget.ratio);
    }
    if (needs > safety && pass < MOST_FIT_PASSES) {
      safety = needs;
      plain = Math.max(plain, plainNeeds);
      continue;
    }
    if (scriptDistance(shares, similar) >= OTHER_SCRIPT_DISTANCE) {
      return fitInOtherScript(path, first, fit, { ...budget, safety }, deadline);
    }
    // A margin that holds an allowance for new text bounds what no count told, not the spread of a prediction.
    return safety > plain ? fit : stretched(path, first, fit, { ...budget, safety }, deadline);
  }
}

/** `fit`, or that window with its next line, past the margin, where that line is worth the refusal it risks
 * (`stretchPays`): a line of a fifth of the cap, left out, costs a fifth of a round. Only the next line is worth
 * weighing (`stretchMayPay`), and only where the fit stopped well short of its margin: one more pass over the window
 * measures it, and one more takes it. */
function stretched(path: string, first: number, fit: Measured, budget: Budget, deadline: number): Measured {
  if (!budget.stretch || fit.whole || fit.lines === 0 || fit.byResultChars || budget.charsPerCount) return fit;
  const { cap, ratio, safety } = budget;
  const fitted = fit.pointTokens * ratio;
  if (safety > CHANGED_TEXT_SAFETY || !stretchMayPay(fitted, cap, safety)) return fit;
  const next = fitOnce(path, first, { ...budget, safety: 1, maxLines: fit.lines + 1 }, deadline);
  if (next.scan.timedOut || next.lines <= fit.lines) return fit;
  const tokens = next.pointTokens * ratio;
  if (!stretchPays(tokens, fitted, cap, safety)) return fit;
  // The margin at which the window with that line just fits: the window as the engine will be asked for it.
  const taken = fitOnce(path, first, { ...budget, safety: (cap / tokens) * (1 - 1e-9) }, deadline);
  return !taken.scan.timedOut && taken.lines > fit.lines ? taken : fit;
}

/** The largest prefix of the window from `first` that fits `sizing` (`fitWindow`); but where the prior's margin
 * (`PRIOR_SAFETY`) stops it a few lines short of the end of its reading (the end of the window asked, of the file, or a
 * line that alone does not fit, which a window of its own starts at), the window at `REST_PRIOR_SAFETY`, when it
 * holds that rest. Clamped, those lines would take a round of their own for sure; held, the window is refused only
 * where the model counts the text 1.1-1.12 times the estimate (handlebars' parser.js: lines 1-736 before a 157 KB
 * line, where 1.12 stops at 732). Both margins are found in one pass over the window. */
export function fitWithRest(
  path: string,
  first: number,
  asked: number | undefined,
  cap: number,
  sizing: Sizing,
  deadline: number,
): Measured {
  const budget = budgetFor(path, cap, sizing, asked ?? Infinity);
  const prior = sizing.safety === PRIOR_SAFETY && !sizing.similar && !sizing.byLength;
  if (!prior) return fitWindow(path, first, budget, deadline);
  const [fit, wider] = fitAtTwoMargins(path, first, { ...budget, safety: REST_PRIOR_SAFETY }, PRIOR_SAFETY, deadline);
  if (fit.scan.timedOut || fit.whole || fit.lines === 0 || wider.lines <= fit.lines) return fit;
  if (wider.whole) return wider;
  const after = fitWindow(path, first + wider.lines, budgetFor(path, cap, sizing, 1), deadline);
  return !after.scan.timedOut && !after.scan.startBeyondEnd && after.lines === 0 ? wider : fit;
}

/** How far a window's scripts may be from those of the window a usage taught the density by (`scriptDistance`) and
 * still be sized by that density alone. xlsx's codepage tables (cpexcel.js), a window of the next codepage sized by
 * the last one's density: 0.35 and 0.59 apart, counted 1.4 and 1.5 times as dense. Between windows of JavaScript and
 * of GLSL in its strings (three.module.js), 0.24-0.27 apart by all groups and 0 by scripts, 3-9%. */
export const OTHER_SCRIPT_DISTANCE = 0.2;

/** A window of other scripts than the window a density was learned from: that density says little of it, so it must
 * also fit as a first window would, by the model's prior with its margin. The shorter of the two fits; where not even
 * its first line fits by the prior, that line alone, as the learned density sizes it (a line that may fit is named,
 * not passed over). */
function fitInOtherScript(path: string, first: number, learned: Measured, budget: Budget, deadline: number): Measured {
  const { cap, charFloor } = budget;
  const prior: Budget = { cap, charFloor, ratio: 1, safety: PRIOR_SAFETY, maxLines: learned.lines };
  if (budget.priorWeights) prior.weights = budget.priorWeights;
  const byPrior = fitOnce(path, first, prior, deadline);
  if (byPrior.scan.timedOut) return byPrior;
  if (byPrior.lines >= learned.lines) return learned;
  if (byPrior.lines > 0) return byPrior;
  if (learned.lines === 1) return learned;
  return fitOnce(path, first, { ...budget, similar: undefined, maxLines: 1 }, deadline);
}

function fitOnce(path: string, first: number, budget: Budget, deadline: number): Measured {
  const fit = new WindowFit(budget, first);
  return measuredBy(fit, scanWindow(path, first, fit, deadline), budget);
}

/** What a pass of `fit` over a window found, with `budget`'s margin. */
function measuredBy(fit: WindowFit, scan: ScanResult, budget: Budget): Measured {
  const r = fit.result();
  const safeTokens = safeTokensOf(r, budget, budget.safety);
  return { ...r, scan, safeTokens, groups: fit.groups(), parts: fit.parts(), ...fit.digitCounts() };
}

/** `fitOnce` with `budget.safety` and with the larger margin `innerSafety`, in one pass: [with `innerSafety`, with
 * `budget.safety`], each what `fitOnce` with that margin alone finds. */
function fitAtTwoMargins(
  path: string,
  first: number,
  budget: Budget,
  innerSafety: number,
  deadline: number,
): [Measured, Measured] {
  const fit = new WindowFit({ ...budget, innerSafety }, first);
  const scan = scanWindow(path, first, fit, deadline);
  const outer = measuredBy(fit, scan, budget);
  const n = fit.innerResult()!;
  // Stopped before the other fit did, the inner one never reached the end of the file.
  const innerScan = n.whole ? scan : { ...scan, eof: false };
  return [{ ...n, scan: innerScan, safeTokens: safeTokensOf(n, budget, innerSafety) }, outer];
}

function safeTokensOf(r: FitResult, budget: Budget, safety: number): number {
  return budget.charsPerCount ? Math.round(r.chars / budget.charsPerCount) : r.pointTokens * budget.ratio * safety;
}

/** The point estimate and length of a whole window, whatever its size. */
export function measureWindow(path: string, first: number, maxLines: number, deadline: number): Measured {
  return fitWindow(path, first, { cap: Infinity, charFloor: Infinity, ratio: 1, safety: 1, maxLines }, deadline);
}

export interface PastOversize {
  oversize: OversizeLines | undefined;
  /** The first line from `first` on that fits alone (may be past the end of the window or file). */
  nextFitting: number;
  /** `nextFitting` was judged and may fit alone (not past the lines probed, nor past the end). */
  mayFit: boolean;
}

const MAX_OVERSIZE_PROBES = 16;

/** The text a density was counted on: its shares of the estimate by token group, and its last line in this file (0
 * when the lines ahead were not part of it). */
export interface CountedText {
  shares: readonly number[];
  last: number;
}

/** Skips lines that alone do not fit the budget, starting at `first` and not past `last`. `counted`: the text the
 * budget's density was counted on; a line after it of other text stops the skip where it may fit
 * (`mayFitAsOtherText`). The lines of a refused window were part of its count. `over`: lines known over the cap
 * (`linesOverCap`), skipped whatever the budget says. */
export function skipOversize(
  path: string,
  first: number,
  last: number,
  budget: Budget,
  deadline: number,
  counted?: CountedText,
  over: ReadonlyArray<readonly [number, number]> = [],
): PastOversize | undefined {
  let line = first;
  let oversize: OversizeLines | undefined;
  let mayFit = false;
  while (line <= last && line - first < MAX_OVERSIZE_PROBES) {
    const known = over.some(([a, b]) => a <= line && line <= b);
    const one = fitWindow(path, line, { ...budget, maxLines: 1 }, deadline);
    if (one.scan.timedOut) return undefined;
    if (one.scan.startBeyondEnd) break;
    mayFit = !known && one.lines > 0;
    if (mayFit) break;
    if (!known && counted && line > counted.last) {
      const other = mayFitAsOtherText(path, line, budget.cap, counted.shares, deadline);
      if (other === undefined) return undefined;
      mayFit = other;
      if (other) break;
    }
    if (!oversize) {
      // Its estimate as the budget makes it (a model's weights, a refusal's characters per token), less the margin:
      // the note says "about N tokens", and N is what judged the line over the cap.
      const measure = { ...budget, cap: Infinity, charFloor: Infinity, safety: 1, maxLines: 1, similar: undefined };
      const whole = fitOnce(path, line, measure, deadline);
      if (whole.scan.timedOut) return undefined;
      // A line only the memory knows over the cap, by an earlier reading's count: no figure under the cap beside it.
      const tokens = known && whole.safeTokens <= budget.cap ? undefined : whole.safeTokens;
      oversize = { first: line, last: line, ...(tokens === undefined ? {} : { tokens }), chars: whole.chars };
    } else {
      oversize.last = line;
    }
    line++;
  }
  return { oversize, nextFitting: line, mayFit };
}

/** The text a sizing's density was counted on, before the lines a reading goes on with. */
function countedBefore(sizing: Sizing): CountedText | undefined {
  return sizing.counted ? { shares: sizing.counted, last: 0 } : undefined;
}

/** How far a line's shares of the estimate by token group may be from those of the text a density was counted on
 * and still be judged by that density: over the long lines (5,000 characters or more) of the rounds corpus, the
 * held-out sets and xlsx's full bundle, under the five tokenizers, one line's count over its estimate was at most
 * 1.25 times another's at a distance under 0.2, and up to 1.9 times at more (xlsx: lines of rare Han and of U+FFFD
 * placeholders, which BPE merges into long tokens; the estimate takes each for a symbol). */
export const OTHER_TEXT_DISTANCE = 0.2;

/** Whether `line`, over the cap by a density counted on other text (shares `counted`), may still fit: its text is
 * `OTHER_TEXT_DISTANCE` or more from that text, and its calibrated estimate is within `LONG_LINE_REACH` of the cap,
 * as before any count. Passed over, it would never be read (xlsx.full.min.js: after line 2 was refused, lines 5 and 7,
 * 0.55 and 0.48 of their estimate against line 2's 0.89, were passed over though each fits). Undefined when the line
 * could not be measured in time. */
export function mayFitAsOtherText(
  path: string,
  line: number,
  cap: number,
  counted: readonly number[],
  deadline: number,
): boolean | undefined {
  // Within the reach, or not: the fit stops at the reach, so a line of megabytes costs a chunk, not a whole scan.
  const reach = { cap: cap * LONG_LINE_REACH, charFloor: 0, ratio: 1, safety: 1, maxLines: 1 };
  const one = fitWindow(path, line, reach, deadline);
  if (one.scan.timedOut) return undefined;
  return one.lines > 0 && shareDistance(sharesOf(one.groups), counted) >= OTHER_TEXT_DISTANCE;
}

/** Where a reading goes on from `first` (up to its last wanted line `end`): past any lines that alone are over
 * the cap, the largest window the estimate says fits, so that following it runs without a clamp. `window` is
 * undefined when nothing readable is left; the whole is undefined when the file could not be measured in time. */
export function continuation(
  path: string,
  first: number,
  end: number,
  cap: number,
  sizing: Sizing,
  deadline: number,
): { window: NextWindow | undefined; oversize: OversizeLines | undefined } | undefined {
  const budget = budgetFor(path, cap, sizing, 1);
  const over = linesOverCap(sizing.overCap, cap);
  const past = skipOversize(path, first, end, passOverBudget(budget, sizing), deadline, countedBefore(sizing), over);
  if (!past) return undefined;
  if (past.nextFitting > end) return { window: undefined, oversize: past.oversize };
  const rest = end - past.nextFitting + 1;
  const fit = fitWindow(path, past.nextFitting, { ...budget, maxLines: rest }, deadline);
  if (fit.scan.timedOut || fit.scan.startBeyondEnd) return undefined;
  if (fit.lines === 0) {
    const window = namedAlone(path, past.nextFitting, end, cap, sizing, deadline);
    return window ? { window, oversize: past.oversize } : undefined;
  }
  // When the whole rest fits by its point estimate, it is named whole: no short tail left for a round of its own.
  if (!fit.whole && mayGamble(sizing, true) && fitsAtPoint(path, past.nextFitting, rest, cap, sizing, deadline).fits)
    return { window: { first: past.nextFitting, lines: rest }, oversize: past.oversize };
  const joined = fit.whole ? undefined : shortRunBefore(path, past.nextFitting, fit.lines, end, cap, sizing, deadline);
  return { window: joined ?? { first: past.nextFitting, lines: Math.min(fit.lines, rest) }, oversize: past.oversize };
}

/** The budget under which a line is passed over as one no window holds. A line is passed over only when it is over
 * the cap by its estimate without the margin; by a density the usage taught, over `LEARNED_SAFETY` times the cap (a
 * window's count, read through its line numbers and notes: nls.messages.ja.js's line 17, called 25,297 tokens by the
 * usage of the lines before it, counts 24,560 under a model at 0.75 times o200k); where no count of the file's text
 * is known, by the calibrated estimate over the reach of the sparsest tokenizer (a model's counts of other files
 * prove nothing of this line). One that may fit is named alone: passed over, it would never be read; named, it is
 * read, or refused and its count told (rounds benchmark: vue.global.prod.js's line 7, estimated at 34,000 tokens,
 * counts 21,800 under o200k, and was left unread). After a refusal of the file, its density decides at the cap: a
 * line it called over the cap is not named again. Not a refused window's characters per token: that bound keeps
 * windows of text the estimate finds a little sparser from being refused, but a line over the cap by it alone may fit
 * (a model at 1.5 times Claude-dense, xlsx.full.min.js: after line 8 was refused at 27,189 tokens, line 10, with
 * fewer characters and sparser by its estimate, was called 26,900 by them and counts 23,177). */
export function passOverBudget(budget: Budget, sizing: Sizing): Budget {
  const atPoint = { ...budget, safety: 1, similar: undefined, charsPerToken: undefined };
  if (sizing.unknownDensity) return { ...atPoint, cap: budget.cap * LONG_LINE_REACH, weights: undefined };
  // A count by length is exact, and so is a refusal's of the line itself: no reach past the cap.
  const exact = sizing.charsPerToken !== undefined || sizing.byLength === true;
  return { ...atPoint, cap: budget.cap * (exact ? 1 : LEARNED_SAFETY) };
}

/** Judges again, by the density known now (`sizing`), the lines a note passed over before any count of the file
 * (`ranges`, [first, last] each, in order): the first that may fit is named alone (every line of a range was over the
 * reach, none is short enough to join it), and `left` holds the ranges after it, still to judge. Lines over the cap
 * by that density are dropped, passed over as any note passes them over. Before any count, a line is passed over only
 * when its estimate is over the reach of the sparsest tokenizer; a model sparser still counts it under the cap, and
 * it would never be read (a model at 0.75 times o200k, nls.messages.ru.js: line 10, 52,943 tokens by the estimate,
 * counts 21,514). Undefined when the file could not be measured in time. */
export function revisitPassedOver(
  path: string,
  ranges: ReadonlyArray<readonly [number, number]>,
  cap: number,
  sizing: Sizing,
  deadline: number,
): { revisit: Revisit | undefined; left: Array<[number, number]> } | undefined {
  const budget = passOverBudget(budgetFor(path, cap, sizing, 1), sizing);
  const over = linesOverCap(sizing.overCap, cap);
  for (const [i, [first, last]] of ranges.entries()) {
    const past = skipOversize(path, first, last, budget, deadline, countedBefore(sizing), over);
    if (!past) return undefined;
    if (!past.mayFit || past.nextFitting > last) continue;
    const line = past.nextFitting;
    const measure = { ...budget, cap: Infinity, charFloor: Infinity, safety: 1, maxLines: 1 };
    const one = fitOnce(path, line, measure, deadline);
    if (one.scan.timedOut) return undefined;
    const left: Array<[number, number]> = [...(line < last ? [[line + 1, last] as [number, number]] : [])];
    for (const [a, b] of ranges.slice(i + 1)) left.push([a, b]);
    return { revisit: { window: { first: line, lines: 1 }, tokens: one.safeTokens }, left };
  }
  return { revisit: undefined, left: [] };
}

/** The window a note names from `line`, a line that alone does not fit with the margin (`namedAlone`), where it may
 * fit without it; undefined where it is passed over as one no window holds (`passOverBudget`), or could not be
 * measured in time. */
export function namedIfItMayFit(
  path: string,
  line: number,
  end: number,
  cap: number,
  sizing: Sizing,
  deadline: number,
): NextWindow | undefined {
  const budget = passOverBudget(budgetFor(path, cap, sizing, 1), sizing);
  const over = linesOverCap(sizing.overCap, cap);
  const past = skipOversize(path, line, line, budget, deadline, countedBefore(sizing), over);
  return past && !past.oversize ? namedAlone(path, line, end, cap, sizing, deadline) : undefined;
}

/** The window that names `line`, which alone does not fit with the margin but may by the model's count, as a gamble:
 * with the short lines after it (`shortStretchAfter`). Undefined when the file could not be measured in time. */
export function namedAlone(
  path: string,
  line: number,
  end: number,
  cap: number,
  sizing: Sizing,
  deadline: number,
): NextWindow | undefined {
  const budget = budgetFor(path, cap, sizing, 1);
  const one = measureWindow(path, line, 1, deadline);
  if (one.scan.timedOut) return undefined;
  const estimate = one.pointTokens * sizing.ratio;
  let after = shortStretchAfter(path, line, end, cap, budget, deadline);
  // A line under the cap by its point estimate, kept out by the margin alone, is a narrower gamble: the short lines
  // join it only where the two still fit by that estimate. Else they would halve its odds of running, for a round.
  const atPoint = (lines: number) => fitsAtPoint(path, line, lines, cap, sizing, deadline).fits;
  if (after > 0 && !atPoint(1 + after) && atPoint(1)) after = 0;
  const window: NextWindow = { first: line, lines: 1 + after };
  if (estimate > cap) window.overByEstimate = estimate;
  return window;
}

/** The window from `first` when the `fitted` lines that fit from it are a short run (at most `SHORT_STRETCH` of the
 * cap by their estimate) before a line that alone does not fit with the margin but may by the model's count: the run
 * joins that line's gamble (`namedAlone`), where it would take a round of its own before it (localized bundles: a
 * short line between two long ones). Refused, the window costs the round the line alone would have, and its count
 * names the run. Where the line is under the cap by its point estimate, the run joins only if the two still fit by
 * it. Undefined otherwise. */
export function shortRunBefore(
  path: string,
  first: number,
  fitted: number,
  end: number,
  cap: number,
  sizing: Sizing,
  deadline: number,
): NextWindow | undefined {
  const line = first + fitted;
  if (fitted <= 0 || line > end) return undefined;
  const budget = budgetFor(path, cap, sizing, 1);
  const short = { ...budget, cap: cap * SHORT_STRETCH, safety: 1, similar: undefined, charFloor: 0, maxLines: fitted };
  const run = fitWindow(path, first, short, deadline);
  if (run.scan.timedOut || !run.whole) return undefined;
  const alone = fitWindow(path, line, { ...budget, maxLines: 1 }, deadline);
  if (alone.scan.timedOut || alone.scan.startBeyondEnd || alone.lines > 0) return undefined;
  const gamble = namedIfItMayFit(path, line, end, cap, sizing, deadline);
  if (!gamble) return undefined;
  let lines = fitted + gamble.lines;
  if (fitsAtPoint(path, line, 1, cap, sizing, deadline).fits) {
    const atPoint = (n: number) => fitsAtPoint(path, first, n, cap, sizing, deadline).fits;
    if (!atPoint(lines)) {
      if (gamble.lines === 1 || !atPoint(fitted + 1)) return undefined;
      lines = fitted + 1;
    }
  }
  const window: NextWindow = { first, lines, longLine: line };
  if (gamble.overByEstimate !== undefined) window.overByEstimate = gamble.overByEstimate;
  return window;
}

/** How much text after a line named alone may join it, as a share of the cap: `shortStretchAfter`. */
export const SHORT_STRETCH = 0.05;

/** The lines after `line` (a line that alone does not fit with the margin, named as a gamble on the model's count)
 * that join it: all of them up to the next line that alone does not fit either, or to `end`, when their estimate is
 * at most `SHORT_STRETCH` of the cap; else none. Read apart, such a stretch takes a round of its own (localized
 * bundles of one module a line: a long line, two short ones, a long one); joined, it adds a few percent to what the
 * gamble stakes, and the line's refusal costs the round it would have cost alone. A longer stretch is left to the
 * window after the line, which it fills. */
function shortStretchAfter(
  path: string,
  line: number,
  end: number,
  cap: number,
  budget: Budget,
  deadline: number,
): number {
  if (line >= end) return 0;
  const short = { ...budget, cap: cap * SHORT_STRETCH, safety: 1, similar: undefined, charFloor: 0 };
  short.maxLines = end - line;
  const stretch = fitWindow(path, line + 1, short, deadline);
  if (stretch.scan.timedOut || stretch.scan.startBeyondEnd || stretch.lines === 0) return 0;
  if (stretch.whole) return stretch.lines;
  const next = fitWindow(path, line + 1 + stretch.lines, { ...budget, maxLines: 1 }, deadline);
  return !next.scan.timedOut && !next.scan.startBeyondEnd && next.lines === 0 ? stretch.lines : 0;
}

/** The file's density from the tokens the model's next request added for a window's result (the transcript's
 * usage): engine tokens per estimated token of the window's text, or a little more, and the window's shares of the
 * estimate by token group. `sample`: whether the window is a sample of the text after it (`isSampleOfItsText`).
 * `numbersCost`: the share of `numbering` (the rule's tokens for the line numbers) that the model's line numbers
 * cost, where a retry told it was less (`lineNumberCost`). `arrowNumbers`: the engine writes `     1→`, not `1\t`.
 * Undefined when implausible. */
export function usageRatio(
  path: string,
  window: { first: number; lines: number },
  resultTokens: number,
  deadline: number,
  numbersCost = 1,
  indentExtra = 0,
  digitSplit = 0,
  arrowNumbers = false,
):
  | {
      ratio: number;
      shares: number[];
      /** The window's point estimate by part (estimate/file-weights.ts). */
      parts: number[];
      sample: boolean;
      point: number;
      chars: number;
      numbering: number;
      split: number;
      indented: number;
    }
  | undefined {
  const m = measureWindow(path, window.first, window.lines, deadline);
  if (m.scan.timedOut || m.pointTokens <= 0) return undefined;
  // An arrow after the number (engines before 2.1.86) may join the punctuation after it: only the digits are sure.
  const numbering = lineNumberTokens(window.first, window.lines) + (arrowNumbers ? 0 : m.tabApartLines);
  const split = Math.max(numbering, lineNumberDigits(window.first, window.lines));
  const numbers = numbering * numbersCost + digitSplit * (split - numbering);
  const ratio = ratioOfUsage(resultTokens, m.pointTokens, numbers, 1, indentExtra * m.indentedLines);
  if (ratio === undefined) return undefined;
  const halves = () => {
    const head = measureWindow(path, window.first, Math.floor(window.lines / 2), deadline);
    return head.scan.timedOut ? Infinity : headToRestDistance(head.groups, m.groups);
  };
  const sample = isSampleOfItsText(window.lines, halves);
  return {
    ratio,
    shares: roundedShares(m.groups),
    parts: m.parts ?? [],
    sample,
    point: m.pointTokens,
    chars: m.chars,
    numbering,
    split,
    indented: m.indentedLines,
  };
}

/** A window's shares of the estimate by token group, rounded: kept in the session file, where a few digits do. */
export function roundedShares(groups: readonly number[]): number[] {
  return sharesOf(groups).map((s) => Math.round(s * 1e4) / 1e4);
}

/** The fewest lines of a window that is a sample of its text whatever they hold. */
export const SAMPLE_MIN_LINES = 100;
/** The fewest lines of a window whose halves are compared: two lines each. */
const HALVES_MIN_LINES = 4;

/** Whether a window's usage tells the density of the text after it, so that its shares size the next window by how
 * alike their text is (`safetyForChange`): a window of many lines, or of a few long ones whose two halves hold text
 * alike (`halves`: their `shareDistance`, under that of text that changed). Records of one kind a line (GeoJSON
 * features, JSON rows) are; minified code, each line a module of its own, is not (rounds benchmark: moment's
 * locales.min.js has halves up to 0.7 apart, most over 0.1; earthquakes.json's and movies.json's were under 0.04). */
export function isSampleOfItsText(lines: number, halves: () => number): boolean {
  if (lines >= SAMPLE_MIN_LINES) return true;
  return lines >= HALVES_MIN_LINES && halves() < CHANGED_TEXT_DISTANCE;
}

/** The last line a partial page shows, when the page is the engine's character excerpt and cuts it: a line too long
 * for any page (docs/ENGINE.md §4.4). `shownChars` is the length of the page's text. */
export interface CutLine {
  line: number;
  /** Characters of the line shown, and in all. */
  shown: number;
  chars: number;
}

export function cutLastLine(
  path: string,
  first: number,
  lines: number,
  shownChars: number,
  deadline: number,
): CutLine | undefined {
  if (lines < 1) return undefined;
  const all = measureWindow(path, first, lines, deadline);
  if (all.scan.timedOut || all.lines < lines || shownChars >= all.chars) return undefined;
  const before = lines > 1 ? measureWindow(path, first, lines - 1, deadline) : undefined;
  if (before?.scan.timedOut) return undefined;
  // The lines before the last one, each with its newline.
  const beforeChars = before ? before.chars + 1 : 0;
  const shown = shownChars - beforeChars;
  return shown < 0 ? undefined : { line: first + lines - 1, shown, chars: all.chars - beforeChars };
}

/** A notebook's cells, or undefined when they cannot be told cheaply (too big to parse, or not a notebook). */
export function notebookCells(path: string, size: number): number | undefined {
  if (size > NOTEBOOK_PARSE_MAX_BYTES) return undefined;
  try {
    const cells: unknown = (JSON.parse(readFileSync(path, 'utf8')) as { cells?: unknown } | null)?.cells;
    return Array.isArray(cells) ? cells.length : undefined;
  } catch {
    return undefined;
  }
}
/** Parsing takes a few milliseconds a MiB; a notebook the engine counted (256 KiB at most as it shows it) rarely
 * nears this. */
const NOTEBOOK_PARSE_MAX_BYTES = 8 * 1024 * 1024;

/** Whether the file ends with a newline: the engine then counts an empty last line that nobody needs. */
export function endsWithNewline(path: string, size: number): boolean {
  if (size === 0) return false;
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const b = Buffer.alloc(1);
      return readSync(fd, b, 0, 1, size - 1) === 1 && b[0] === 10;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** The window to name, from the continuation that fits: one that reaches the file's last line asks for a line more
 * than is left (when what was asked goes past it), so that a reader who pages on until a Read comes back shorter
 * than asked stops there, and is not sent for the empty line the engine counts after a final newline. Pure. */
export function namedWindow(
  fit: NextWindow,
  lastLine: number,
  totalLines: number,
  askedLast: number | undefined,
): NextWindow {
  if (fit.first + fit.lines - 1 < lastLine) return fit;
  const limit = Math.min(totalLines - fit.first + 2, (askedLast ?? Infinity) - fit.first + 1);
  return { first: fit.first, lines: Math.max(fit.lines, limit) };
}

/** The engine's line count of a file (its newlines plus one), and how the first `headBytes` bytes divide into
 * lines: the lines that end within them and the bytes through the last of those. */
export function lineCounts(path: string, headBytes = 0): { lines: number; headLines: number; headBytes: number } {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let lines = 1;
    let headLines = 0;
    let headEnd = 0;
    let pos = 0;
    for (let got = readSync(fd, buf, 0, buf.length, pos); got > 0; got = readSync(fd, buf, 0, buf.length, pos)) {
      for (let i = buf.indexOf(10, 0); i >= 0 && i < got; i = buf.indexOf(10, i + 1)) {
        lines++;
        if (pos + i < headBytes) {
          headLines++;
          headEnd = pos + i + 1;
        }
      }
      pos += got;
    }
    return { lines, headLines, headBytes: headEnd };
  } finally {
    closeSync(fd);
  }
}
