// A window past its margin, where the next line is worth the risk. The margin on a learned density is the one with
// the fewest expected rounds for text of many short lines, where each line holds a sliver of the window. A line of a
// license's whole text, of a minified module or of a time zone's packed data holds a tenth of it or more: stopped
// short of it, the window leaves that much for another round, where its point estimate would fit. Pure.

/** The margins on a learned density (weights.ts) stand about this many standard deviations of a window's count over
 * its prediction (|ln|) above the prediction: a next window of changed text counted more than 5% denser than the last
 * one's density in 15% of cases (`CHANGED_TEXT_SAFETY` 1.1: 2.0 deviations); one the file's weights predicted, 95%
 * within 3.6% (`LEARNED_SAFETY` 1.05: 2.5 at most); one of text alike, more than 3% denser in 2% (`SAME_TEXT_SAFETY`
 * 1.03: 2.1). Taking 2 for all of them overstates no margin's spread. */
export const MARGIN_DEVIATIONS = 2;

/** The chance that the engine counts a window over `cap` whose predicted count is `tokens`, when the margin on that
 * prediction is `safety`: the count's |ln| over the prediction taken as normal, `safety` `MARGIN_DEVIATIONS`
 * standard deviations of it. */
export function refusalChance(tokens: number, cap: number, safety: number): number {
  if (!(tokens > 0)) return 0;
  const sigma = Math.log(Math.max(safety, 1.001)) / MARGIN_DEVIATIONS;
  return upperTail(Math.log(cap / tokens) / sigma);
}

/** What a window of `tokens` (predicted) saves over one of `fitted`, in rounds: each token read now saves
 * `safety / cap` of a later round (a window sized at that margin holds about `cap / safety`), and the refusal it
 * risks beyond the fitted window's costs a round. */
function roundsSaved(tokens: number, fitted: number, cap: number, safety: number): number {
  return ((tokens - fitted) * safety) / cap - (refusalChance(tokens, cap, safety) - refusalChance(fitted, cap, safety));
}

/** Whether a window with its next line, `tokens` by its point estimate, costs fewer rounds than the window that its
 * margin `safety` fitted, `fitted`. A line of a fifth of the cap pays up to a chance of refusal of about a fifth;
 * one of a hundred tokens never does. */
export function stretchPays(tokens: number, fitted: number, cap: number, safety: number): boolean {
  return tokens <= cap && roundsSaved(tokens, fitted, cap, safety) > 0;
}

/** Whether any window past the one its margin fitted (`fitted` tokens) may cost fewer rounds. Past the margin, up to
 * `CHANGED_TEXT_SAFETY`, the risk grows faster than the gain, so the best such window is the one with the next line
 * alone, and it pays no more than a window that ended just past the margin would: where the fit stopped within half
 * a percent of its margin (text of short lines) or so, none does, and the next line need not be measured. */
export function stretchMayPay(fitted: number, cap: number, safety: number): boolean {
  return roundsSaved(cap / safety, fitted, cap, safety) > 0;
}

/** P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26 for erfc, error under 1.5e-7). */
export function upperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erfc = poly * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}
