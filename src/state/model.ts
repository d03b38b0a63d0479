// What a model's own counts say about the estimate. Tokenizers disagree by token group (one counts Hangul densely
// and English sparsely, another the reverse), so the correction is one factor per group: the engine's count of a
// text is about Σ k[g] × (the calibrated estimate's share of group g). Each factor is fitted by ridge regression toward
// a factor common to every group (a new tokenizer may be denser or sparser on all text), itself held toward 1
// (the calibration), on the model's observations (refusals and partial-page banners, each an exact count; the newest
// 32 within 30 days, state/memory.ts). Pure.
import { DIGIT_GROUP, GROUP_COUNT, GROUP_OF, THREE_BYTE_GROUP } from '../estimate/groups.js';
import { solve } from '../estimate/solve.js';
import { DIGITS_APART_WEIGHTS, WEIGHTS, type Weights } from '../estimate/weights.js';
import type { Observation } from './memory.js';

export interface ModelPrior {
  /** The calibrated weights, each scaled by its group's factor. */
  weights: Weights;
  /** The same with no factor below 1: what sizes windows. A model's counts raise the estimate where they ran denser
   * than the calibration, and never lower it: one group holds many scripts and kinds of text (Arabic and Tamil count
   * very differently), so a lower factor learned on some files does not promise the next. */
  sizingWeights: Weights;
  observations: number;
  /** The model counts numbers a token a digit (`splitsDigits`): the weights count each digit after a number's first,
   * not only the number. */
  splitsDigits: boolean;
}

/** How strongly the calibration holds against the observations, in units of one exactly fitted observation. */
const RIDGE = 0.25;
/** The same for the three-byte scripts, on which tokenizers disagree by up to four times (the calibration's is one
 * of them): a count of such text is taken to say more about them than about the words and layout around them. */
const THREE_BYTE_RIDGE = 0.01;
const MIN_FACTOR = 0.4;
const MAX_FACTOR = 2.5;
/** Byte-level tokenizers count letters of three-byte scripts up to 4.3 times what the calibration does (Georgian under
 * cl100k; docs/CALIBRATION.md, the "indic" class), so that group's factor may go that far. */
const MAX_THREE_BYTE_FACTOR = 5;
const ridgeOf = (g: number) => (g === THREE_BYTE_GROUP ? THREE_BYTE_RIDGE : RIDGE);
const maxFactorOf = (g: number) => (g === THREE_BYTE_GROUP ? MAX_THREE_BYTE_FACTOR : MAX_FACTOR);

/** The prior of a model from its counts; `digitsApart`: what a retry told of its line numbers (hooks/line-numbers.ts,
 * `digitSplitCost`): true, that they cost a token a digit, so it counts the numbers of any text so; false, that they
 * cost the rule, so it does not, whatever its counts of data seem to say (`splitsDigits`); undefined, nothing. */
export function modelPrior(observations: readonly Observation[], digitsApart?: boolean): ModelPrior | undefined {
  const usable = observations.filter(
    (o) => o.point.length === GROUP_COUNT && o.tokens > 0 && o.point.some((p) => p > 0),
  );
  if (usable.length === 0 && digitsApart !== true) return undefined;
  const split = digitsApart ?? splitsDigits(usable);
  const base = split ? DIGITS_APART_WEIGHTS : WEIGHTS;
  const k = fitFactors(split ? usable.map(withDigitsApart) : usable);
  const weights = { ...base };
  const sizingWeights = { ...base };
  for (const f of Object.keys(weights) as (keyof Weights)[]) {
    weights[f] = base[f] * k[GROUP_OF[f]]!;
    sizingWeights[f] = base[f] * Math.max(1, k[GROUP_OF[f]]!);
  }
  return { weights, sizingWeights, observations: usable.length, splitsDigits: split };
}

/** An observation's estimate as `DIGITS_APART_WEIGHTS` weighs it (unchanged where the memory file kept no digits
 * for it). Pure. */
function withDigitsApart(o: Observation): Observation {
  if (o.digits === undefined || o.digitRuns === undefined) return o;
  const digitsApart = o.digits * DIGITS_APART_WEIGHTS.digits + o.digitRuns * DIGITS_APART_WEIGHTS.digitRuns;
  return { ...o, point: o.point.map((p, g) => (g === DIGIT_GROUP ? digitsApart : p)) };
}

/** What a token a digit, and nothing a run, adds to an observation's estimate, as a share of that estimate: what
 * tells a model that splits numbers so (`splitsDigits`; Mistral's counts 0.77-1.21 times an estimate so weighed,
 * where it exceeds the calibration's up to 1.85 times). */
function digitsApartShare(o: Observation): number {
  const point = estimateOf(o);
  return o.digits === undefined || point <= 0 ? 0 : Math.max(0, o.digits - o.point[DIGIT_GROUP]!) / point;
}

/** The calibrated point estimate of an observation's text. */
function estimateOf(o: Observation): number {
  return o.point.reduce((s, p) => s + p, 0);
}

/** A count tells whether a model splits numbers by the digit only where doing so adds this much to its estimate:
 * CSV and JSON data (0.37-0.86 on vega-datasets' first windows), seldom code (under 0.1). */
const RICH_IN_DIGITS = 0.25;
/** A count of text whose digits add under this much tells the model's density apart from its digits. */
const FEW_DIGITS = 0.1;
/** How much denser than its estimate a model may count text rich in digits without splitting them. Claude-dense, the
 * densest measured on such text, counts CSV and JSON data up to 1.16 times it: 0.15 of the way, under
 * `DIGITS_APART_TO_TELL`. */
const DIGITS_TOGETHER_MOST = 1.1;
/** The least share of the way toward a token a digit the counts must prove. */
const DIGITS_APART_TO_TELL = 0.4;

/** Whether the model counts numbers a token a digit: on its counts of text rich in digits, the share of what that
 * would add that the count holds beyond `DIGITS_TOGETHER_MOST` times the estimate, once the estimate is scaled by
 * how much denser the model counts text of few digits (`commonFactor` of those counts, when it has any; never below
 * 1: a model denser on all text is not taken for one that splits digits). On the rounds corpus and held-out files,
 * the oracle's windows rich in digits (the first six of each file) tell 0.15 at most under Claude-dense, and nothing
 * under o200k, cl100k, Llama 3, r50k and the old Claude tokenizer; 0.41-1.03 under Mistral's. But lines of numbers
 * and commas alone (TypeScript's tables of Unicode ranges) count 1.5 times their estimate under Claude-dense, which
 * tells more than 0.4: what a retry tells of the line numbers outweighs this (`modelPrior`, hooks/usage.ts). Pure. */
export function splitsDigits(observations: readonly Observation[]): boolean {
  const rich = observations.filter((o) => digitsApartShare(o) >= RICH_IN_DIGITS);
  if (rich.length === 0) return false;
  const few = observations.filter((o) => o.digits !== undefined && digitsApartShare(o) < FEW_DIGITS);
  const scale = few.length > 0 ? Math.max(1, commonFactor(few)) : 1;
  const told = rich.map((o) => (o.tokens / (scale * estimateOf(o)) - DIGITS_TOGETHER_MOST) / digitsApartShare(o));
  return told.reduce((s, t) => s + t, 0) / told.length >= DIGITS_APART_TO_TELL;
}

/** How strongly the calibration holds the factor common to every group: a model denser than the calibration on
 * all text (as a new tokenizer may be) shows it in a count of any kind of text, so one refusal raises every group
 * some, where group by group it would take a refusal of each kind of text. */
const COMMON_RIDGE = 0.02;
/** The most of a count's estimate that may be three-byte letters for the count to teach the common factor. */
const MOSTLY_OTHER_TEXT = 0.1;

/** The factor common to every group: minimizes Σ ((c·Σp − t) / t)² + common_ridge × (c − 1)² over the counts of text
 * mostly outside the three-byte scripts: tokenizers disagree by up to four times on those scripts, so a count of
 * them says nothing about the rest. */
function commonFactor(observations: readonly Observation[]): number {
  let a = COMMON_RIDGE;
  let b = COMMON_RIDGE;
  for (const o of observations) {
    const total = estimateOf(o);
    if ((o.point[THREE_BYTE_GROUP] ?? 0) > MOSTLY_OTHER_TEXT * total) continue;
    a += (total * total) / (o.tokens * o.tokens);
    b += total / o.tokens;
  }
  const c = b / a;
  return Number.isFinite(c) ? c : 1;
}

/** Minimizes Σ ((k·p − t) / t)² + Σ ridge_g × (k_g − c_g)² by the normal equations, then keeps each factor in
 * bounds. c_g is the common factor (commonFactor), or 1 for the three-byte scripts. */
export function fitFactors(observations: readonly Observation[]): number[] {
  const n = GROUP_COUNT;
  const common = commonFactor(observations);
  const toward = (g: number) => (g === THREE_BYTE_GROUP ? 1 : common);
  const a = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? ridgeOf(i) : 0)));
  const b = Array.from({ length: n }, (_, i) => ridgeOf(i) * toward(i));
  for (const o of observations) {
    const w = 1 / (o.tokens * o.tokens);
    for (let i = 0; i < n; i++) {
      b[i]! += w * o.point[i]! * o.tokens;
      for (let j = 0; j < n; j++) a[i]![j]! += w * o.point[i]! * o.point[j]!;
    }
  }
  const k = solve(a, b) ?? new Array<number>(n).fill(1);
  return k.map((x, g) => Math.min(maxFactorOf(g), Math.max(MIN_FACTOR, Number.isFinite(x) ? x : 1)));
}
