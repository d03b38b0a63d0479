// A file's own weights, fitted to the counts of its windows. The estimate weighs each feature the same for every
// tokenizer and every text; a tokenizer counts some features of a file cheaper than the estimate and others dearer
// (o200k takes an indented line's newline and spaces as one token, and a camelCase identifier in fewer tokens than
// its case changes), so a file's density moves with its mix of features from window to window: Babel's standalone
// build 0.58-0.80 times its estimate under o200k. One factor per part of the estimate, fitted to the windows
// counted so far, sizes the next window by its own mix. Pure.
import type { Features } from './features.js';
import { solve } from './solve.js';
import { WEIGHTS, type Weights } from './weights.js';

/** Parts of the estimate finer than the token groups (groups.ts): words, identifiers after punctuation, case changes,
 * long runs of letters; numbers; punctuation, its runs; runs of spaces; newlines; escapes; CJK; other two-byte
 * scripts and symbols; three-byte scripts. Finer than the groups where a tokenizer's count parts from the estimate's
 * within one group: the six groups alone fitted no better than the last window's density. */
export const PART_OF: Record<keyof Features, number> = {
  words: 0,
  bareWords: 1,
  caseChanges: 2,
  letters: 3,
  longRunLetters: 3,
  digits: 4,
  digitRuns: 4,
  longRunDigits: 4,
  punct: 5,
  punctRuns: 6,
  spaceRuns: 7,
  spaceExtra: 7,
  newlines: 8,
  controls: 8,
  escapes: 9,
  escapeRuns: 9,
  hangul: 10,
  han: 10,
  kana: 10,
  otherLetters: 11,
  otherSymbols: 11,
  astral: 11,
  threeByteLetters: 12,
};

export const PART_COUNT = 13;

/** The calibrated point estimate by part; the parts add up to the point estimate. */
export function pointByPart(f: Features): number[] {
  const out = new Array<number>(PART_COUNT).fill(0);
  for (const k of Object.keys(PART_OF) as (keyof Features)[]) out[PART_OF[k]]! += f[k] * WEIGHTS[k];
  return out;
}

/** A window whose count a fit uses: the engine's (or the model's) tokens of its text, then its point estimate by
 * part (`PART_COUNT` numbers). */
export type CountedWindow = readonly number[];

/** The most counted windows a file keeps for its fit, newest last: at `DECAY`, the oldest weighs a fifth of the
 * newest. */
export const COUNTED_WINDOWS = 16;

/** How much a window's weight in the fit drops with each window counted after it: the next window is most like the
 * last ones. */
const DECAY = 0.9;
/** How strongly each factor is held toward the file's last density, per unit of its part's mean share: weak, so the
 * counts decide wherever a part moved from window to window; a part no window held stays at that density. */
const RIDGE = 0.01;
const ABSENT_RIDGE = 1e-3;
/** The least factor of a part, as a share of the last density: a part never adds nothing (a factor fitted to 0 or
 * below by parts that moved together would let a window of that part alone run on). */
const LEAST_FACTOR = 0.1;

/** The factor of each part: minimizes Σ_k DECAY^(n−1−k) ((t_k − m·e_k) / t_k)² + Σ_g ridge_g (m_g − `anchor`)², with
 * ridge_g = RIDGE × (part g's mean share of the windows, weighted alike) + ABSENT_RIDGE, then keeps each factor at
 * least `LEAST_FACTOR` × anchor. `anchor`: the file's last density (engine tokens per estimated token). Over the
 * oracle's windows of the rounds corpus and held-out sets read whole (o200k, the old Claude tokenizer, Claude-dense),
 * it predicts the next window's count within |ln| 0.014-0.033 on average where the last window's density does within
 * 0.014-0.056, and costs 1-42% fewer expected rounds a window (a refusal, or the share of a window left unread) at
 * the best margin of each; most on long files of code whose mix of features changes (TypeScript's compiler, Babel).
 * Undefined for fewer than two windows (one tells no more than its density) or a malformed one. */
export function partFactors(windows: readonly CountedWindow[], anchor: number): number[] | undefined {
  const usable = windows.filter((w) => w.length === PART_COUNT + 1 && w[0]! > 0 && w.every(Number.isFinite));
  if (usable.length < 2 || !(anchor > 0)) return undefined;
  const n = PART_COUNT;
  const a = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const b = new Array<number>(n).fill(0);
  const share = new Array<number>(n).fill(0);
  let weights = 0;
  usable.forEach((w, k) => {
    const weight = DECAY ** (usable.length - 1 - k);
    const t = w[0]!;
    const e = w.slice(1).map((x) => x / t);
    weights += weight;
    for (let i = 0; i < n; i++) {
      b[i]! += weight * e[i]!;
      share[i]! += weight * e[i]! * anchor;
      for (let j = 0; j < n; j++) a[i]![j]! += weight * e[i]! * e[j]!;
    }
  });
  for (let i = 0; i < n; i++) {
    const ridge = RIDGE * (share[i]! / weights) + ABSENT_RIDGE;
    a[i]![i]! += ridge;
    b[i]! += ridge * anchor;
  }
  const m = solve(a, b);
  if (!m) return undefined;
  return m.map((x) => (Number.isFinite(x) ? Math.max(LEAST_FACTOR * anchor, x) : anchor));
}

/** Each part's factor relative to the last counted window's: a window of estimate `e` by part counts about `anchor`
 * × Σ f_g e_g / Σ e_g tokens per estimated token, which is `anchor` itself for a window of the last one's mix. The
 * fit tells how the density moves with the mix; the last count, where it stands: a file whose model counts the same
 * mix denser from some point on is followed at once (the fit alone lags it, by the weight of the windows before). Over
 * the same windows as `partFactors`, |ln| 0.012-0.027 on average, and fewer expected rounds on the corpus. Undefined
 * where there is no fit, or where `anchor` is not the last counted window's density (a window too short to join
 * them taught it since: `COUNTED_LEAST_SHARE`, hooks/usage.ts). */
export function relativeFactors(windows: readonly CountedWindow[], anchor: number): number[] | undefined {
  const m = partFactors(windows, anchor);
  const last = windows.at(-1);
  if (!m || !last || !(last[0]! > 0)) return undefined;
  const point = last.slice(1).reduce((s, p) => s + p, 0);
  if (!(point > 0) || !(Math.abs(Math.log((anchor * point) / last[0]!)) <= SAME_DENSITY)) return undefined;
  const density = last.slice(1).reduce((s, p, g) => s + p * m[g]!, 0) / point;
  return density > 0 ? m.map((x) => x / density) : undefined;
}

/** How far apart (|ln|) the density kept and the last counted window's may be for the one to be the other: the
 * windows are kept to a tenth of a token, and a density a window too short to join them taught is seldom within a
 * percent of the last one's (where it is, sizing from either is much the same). */
const SAME_DENSITY = 0.01;

/** The calibrated weights with each feature's weight times its part's relative factor (`relativeFactors`): their
 * estimate of a window, times `anchor`, is what the fit predicts it counts. Undefined where the factors are. */
export function fileWeights(windows: readonly CountedWindow[], anchor: number): Weights | undefined {
  const f = relativeFactors(windows, anchor);
  if (!f) return undefined;
  const out = { ...WEIGHTS };
  for (const k of Object.keys(PART_OF) as (keyof Features)[]) out[k] = WEIGHTS[k] * f[PART_OF[k]]!;
  return out;
}

/** The density the fit predicts for a window of estimate `parts` by part (engine tokens per estimated token), where
 * there is one. */
export function predictedDensity(
  windows: readonly CountedWindow[],
  anchor: number,
  parts: readonly number[],
): number | undefined {
  const f = relativeFactors(windows, anchor);
  const point = parts.reduce((s, p) => s + p, 0);
  if (!f || parts.length !== PART_COUNT || point <= 0) return undefined;
  return (anchor * parts.reduce((s, p, i) => s + p * f[i]!, 0)) / point;
}

/** How far (L1, by shares of the estimate by part) a window's mix may be from every window the weights were fitted
 * to for the fit to be trusted there: beyond, it extrapolates. Over the oracle's windows of the third and fourth
 * held-out sets (TypeScript's compiler and declarations, Babel, Font Awesome's bundle, emoji data) under three
 * tokenizers, a window within 0.1 of one it was fitted to was counted at most 3.6% over the prediction in 95 of 100
 * cases; 0.1-0.2 away, 5.6%; further, 12% and more. */
export const FIT_REACH = 0.1;

/** Each part's share of a window's estimate by part. Pure. */
export function partShares(parts: readonly number[]): number[] {
  const total = parts.reduce((s, p) => s + p, 0);
  return parts.map((p) => (total > 0 ? p / total : 0));
}

/** The distance from a window's shares by part to the nearest of `fitted` (shares of the windows a fit used). */
export function nearestFitted(shares: readonly number[], fitted: readonly (readonly number[])[]): number {
  let nearest = Infinity;
  for (const f of fitted) {
    let d = 0;
    for (let g = 0; g < PART_COUNT; g++) d += Math.abs((shares[g] ?? 0) - (f[g] ?? 0));
    nearest = Math.min(nearest, d);
  }
  return nearest;
}

/** `windows` with one more counted window, newest last, at most `COUNTED_WINDOWS`; the estimate by part rounded to a
 * tenth of a token (kept in the session file). Without it where it is no such window. */
export function withCountedWindow(
  windows: readonly CountedWindow[] | undefined,
  tokens: number,
  parts: readonly number[],
): number[][] | undefined {
  if (!(tokens > 0) || parts.length !== PART_COUNT || !parts.every((p) => Number.isFinite(p) && p >= 0)) {
    return windows?.map((w) => [...w]);
  }
  const entry = [Math.round(tokens * 10) / 10, ...parts.map((p) => Math.round(p * 10) / 10)];
  return [...(windows ?? []).map((w) => [...w]), entry].slice(-COUNTED_WINDOWS);
}
