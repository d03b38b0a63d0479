// Token weights per character-class feature, and the safety factors the clamp applies on top.
// Refit with `node scripts/calibrate.mjs` (see docs/CALIBRATION.md); do not hand-tune to one file.
import type { Features } from './features.js';

export type Weights = Record<keyof Features, number>;

export const WEIGHTS: Weights = {
  letters: 0,
  words: 1.208,
  bareWords: 0,
  caseChanges: 1.992,
  longRunLetters: 0.808,
  digits: 0,
  digitRuns: 2.042,
  // Not fitted: the fit side holds no number of more than six digits. o200k, cl100k, Llama 3 and Claude-dense split a
  // number into tokens of three digits, so a 16-place fraction is six tokens where its run alone is weighted as two.
  longRunDigits: 0.333,
  punct: 0.323,
  punctRuns: 0.68,
  spaceRuns: 0.591,
  spaceExtra: 0,
  hangul: 1.288,
  han: 1.067,
  kana: 0.885,
  otherLetters: 0.529,
  threeByteLetters: 0.529,
  otherSymbols: 2.043,
  astral: 2.8,
  controls: 1,
  newlines: 1.367,
  // Not fitted: the fit side holds no \uXXXX escape. Set on escaped text of ten scripts and on real escaped files
  // (monaco-editor's localized messages, moment's and date-fns' locales, faker's data): the old Claude tokenizer, the
  // densest there, counts an escape about 2.9 tokens plus 0.75 a run of its hex digits. Weighed 1.15 times that, an
  // escape comes out at the ratio to the estimate that tokenizer has on other text (0.84), not above it: at its own
  // cost, windows of date-fns' locales rich in escapes counted denser than the code before them, by which they were
  // sized, and the file was refused twice (docs/CALIBRATION.md, "Escaped text").
  escapes: 3,
  escapeRuns: 0.92,
};

/** The estimate's version: raised whenever the estimate of some text changes (a feature, a weight). A density is the
 * engine's count over the estimate of the same text, so what an earlier session counted against another version is
 * not a density of this one (state/memory.ts forgets it): 2 since `\uXXXX` escapes are weighed as such, which
 * lowered the estimate of escaped text by a fifth to a third. */
export const ESTIMATE_VERSION = 2;

/** The weights for a model that counts numbers a token a digit (state/model.ts, `splitsDigits`): a number's run
 * as the calibration weighs it (its first digit and what the run does to the text around it), and a token for each
 * digit after the first. Never below the calibration's. Mistral's SentencePiece tokenizer splits every number so,
 * as Llama 2's does: over the first three windows of each file of the rounds corpus and held-out set whose numbers are
 * 15% of the estimate or more (64 windows), its count is 0.69-1.05 times this estimate (median 0.86) where the
 * calibration's is exceeded up to 1.85 times. One token a digit and nothing a run is nearer (median 0.997) but 7 of
 * those windows count over 1.1 times it: a first window is never a gamble. */
export const DIGITS_APART_WEIGHTS: Weights = {
  ...WEIGHTS,
  digits: 1,
  digitRuns: WEIGHTS.digitRuns - 1,
  longRunDigits: 0,
};

/** Multiplier on the point estimate before any count taught us this file's density. On the rounds benchmark, 1.1
 * left three first windows refused by 0.1-1.2% under Claude-dense (csstype's declarations, zipcodes.csv, jobs.json);
 * 1.12 takes a first window 2% shorter, which seldom moves a file's last window (docs/ROUNDS.md, "The prior's
 * margin"). */
export const PRIOR_SAFETY = 1.12;

/** The prior's margin for a first window that then holds the rest of its reading (hooks/measure.ts,
 * `fitWithRest`): clamped by `PRIOR_SAFETY`, the few lines left would take a round of their own for sure. */
export const REST_PRIOR_SAFETY = 1.1;

/** The margin on a density an earlier version of the file taught (edited or grown since), where the text it was
 * counted on is not known (a later session: the memory keeps no window's shares). The calibration's spread between
 * files is not in it, so it keeps the margin it had before `PRIOR_SAFETY` was raised: at 1.12, the rounds benchmark's
 * `--changed` run took 2-3 calls more under Claude-dense. */
export const VERSION_SAFETY = 1.1;

/** Multiplier on windows after the first of a file this session, before any refusal: the first window is never a
 * gamble, but a later one may be. A refusal there costs one round and teaches the file's density for every window
 * after it; a margin as wide as the prior's costs a round in every few windows of a long read. */
export const FOLLOW_SAFETY = 1.04;

/** Multiplier on the learned estimate: the measured density came from one window; others vary a little. */
export const LEARNED_SAFETY = 1.05;

/** The margin on a density the usage taught, by how far the window's text differs from the window it was taught by:
 * the L1 distance between the two windows' shares of the estimate by token group (`shareDistance`). Over the oracle's
 * windows of the rounds corpus, under five tokenizers, a next window of text like the last one (distance under 0.01,
 * half of them) counted more than 3% denser than the last one in 2% of cases, and one of changed text (0.04 or
 * more, a quarter of them) more than 5% denser in 15%. Each margin is about the one with the fewest expected rounds
 * in its band (a refusal costs one, the margin its share of a window); 1.02 and 1.03 tie there, and 1.03 leaves room
 * for what the usage adds to a window's count (docs/ROUNDS.md, "Text like the last window's"). */
export const SAME_TEXT_SAFETY = 1.03;
export const SAME_TEXT_DISTANCE = 0.01;
export const CHANGED_TEXT_SAFETY = 1.1;
export const CHANGED_TEXT_DISTANCE = 0.04;

/** A file whose density held still over its last windows of text alike (homogeneous data: CSV rows, JSON records)
 * gets a narrower margin for the next such window: twice the largest step the density took over the last
 * `CALM_STEPS` of them (the step: |ln| of one window's ratio over the one before), between `CALM_SAFETY_MIN` and
 * `SAME_TEXT_SAFETY`. Over the oracle's windows of the rounds corpus under the five tokenizers, it cost 3–6% fewer
 * expected rounds a window (a refusal, or the share of a window left unread) with no more refusals
 * (`scripts/tmp-analysis/calm.mjs`, not shipped); three or four steps, or a floor of 1.015 or 1.02, gained less. */
export const CALM_STEPS = 2;
export const CALM_SAFETY_MIN = 1.01;

/** A file whose density held steady over its last `STEADY_STEPS` windows while their text changed (pages of prose and
 * code, whose shares of the estimate swing from window to window as the estimate follows them) gets, for a window of
 * changed text, `STEADY_MULTIPLE` times the largest of those steps, between `LEARNED_SAFETY` and
 * `CHANGED_TEXT_SAFETY`: its past says that its changes of text do not move its density. Over the oracle's windows of
 * the rounds corpus and of Debian's Japanese reference manual (HTML), it cost 0.3–3% fewer expected rounds a window
 * under each of the five tokenizers, with no more refusals; two steps, or a floor of 1.03, refused more
 * (`scripts/tmp-analysis/steady.mjs`, not shipped). */
export const STEADY_STEPS = 3;
export const STEADY_MULTIPLE = 3;

/** The margin for a window whose shares of the estimate by token group are `distance` from those of the window the
 * density was learned from; `calm`: the largest of the density's last `CALM_STEPS` steps over text alike, when it
 * took that many; `steady`: the largest of its last `STEADY_STEPS` steps over any text, when it took that many.
 * Pure. */
export function safetyForChange(distance: number, calm?: number, steady?: number): number {
  if (distance < SAME_TEXT_DISTANCE) {
    if (calm === undefined) return SAME_TEXT_SAFETY;
    return Math.min(SAME_TEXT_SAFETY, Math.max(CALM_SAFETY_MIN, 1 + 2 * calm));
  }
  if (distance < CHANGED_TEXT_DISTANCE) return LEARNED_SAFETY;
  if (steady === undefined) return CHANGED_TEXT_SAFETY;
  return Math.min(CHANGED_TEXT_SAFETY, Math.max(LEARNED_SAFETY, 1 + STEADY_MULTIPLE * steady));
}

/** The density the estimate stands for (engine tokens per estimated token) in text that no counted window of the file
 * held: the calibration is fitted to the densest tokenizer of each chunk, so a sparser model's count of a file's
 * text, which the file's density says, need not hold for a kind of text it has not counted there. */
export const NEW_TEXT_DENSITY = 1;

/** What a window of changed text needs over its learned density `ratio`, as a factor on its margin, for the share of
 * its estimate in token groups the window the density was learned from held less of (`shares` against `counted`,
 * each window's shares of the estimate by group): that share is taken at `NEW_TEXT_DENSITY`, the rest at `ratio`.
 * tree-sitter's generated parser for JavaScript (parser.c) opens on 2,000 lines of symbol names that o200k counts at
 * 0.72 of the estimate; the next window, a third of it numbers, at 0.85, past the 1.1 margin for changed text. Over
 * the oracle's windows read whole of the files over 256 KiB of the rounds corpus and six held-out lists, each window
 * of changed text (0.04 apart or more; 389-508 a tokenizer) sized by the last window's density: refusals 13 -> 2
 * (o200k), 23 -> 9 (cl100k), 22 -> 7 (Llama 3), 25 -> 12 (the old Claude tokenizer), 11 -> 9 (Claude-dense), and
 * 3-9% fewer expected rounds (a refusal, or the share of a window left unread), but 2% more under Claude-dense, which
 * counts most text near or over the estimate (docs/ROUNDS.md, "Text the file's counts did not hold"). 1 for a density
 * at or over `NEW_TEXT_DENSITY`. Pure. */
export function newTextAllowance(shares: readonly number[], counted: readonly number[], ratio: number): number {
  if (!(ratio > 0) || ratio >= NEW_TEXT_DENSITY) return 1;
  let added = 0;
  for (let g = 0; g < shares.length; g++) added += Math.max(0, (shares[g] ?? 0) - (counted[g] ?? 0));
  return 1 + Math.min(1, added) * (NEW_TEXT_DENSITY / ratio - 1);
}

/** Engine tokens per estimated token for a window named before the file's density is known, which `pre` trims
 * when it runs, once the usage of the window before it has told the density: sparser than every text measured under
 * the sparsest tokenizer (docs/ROUNDS.md), so the trim, not the name, decides the window's size. The sparsest was
 * Korean written as `\uXXXX` escapes in a localized bundle (monaco-editor's nls.messages.ko.js): cl100k and Llama 3
 * counted 0.46-0.47 times the estimate before escapes were weighed as such, 0.60-0.61 since. At 0.6 a name stopped
 * short of a line that the usage then found to fit, and `pre` only narrows a window. A wider name costs nothing: `pre`
 * trims it by the usage, or by the estimate. */
export const HOPEFUL_RATIO = 0.45;

/** How much sparser than a refused window (in characters per token) the estimate may find a window of the same file
 * and still be taken for the same kind of text, whose characters per token the refusal measured. */
export const SAME_TEXT_SPREAD = 1.25;
