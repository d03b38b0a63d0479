// The questions the hooks ask of a file, answered by streaming it into a fit.
import { neverCountedChars } from '../estimate/cap.js';
import { WindowFit, type Budget, type FitResult } from '../estimate/fit.js';
import { LEARNED_SAFETY, PRIOR_SAFETY } from '../estimate/weights.js';
import { scanWindow, type ScanResult } from '../estimate/window.js';
import type { OversizeLines } from './note.js';

export interface Measured extends FitResult {
  scan: ScanResult;
  /** Safe estimate of the fitted prefix, in engine tokens. */
  safeTokens: number;
}

/** The budget for a file: its learned density when a refusal taught us one, the prior otherwise. */
export function budgetFor(path: string, cap: number, ratio: number | undefined, maxLines: number): Budget {
  return {
    cap,
    charFloor: neverCountedChars(cap, path),
    ratio: ratio ?? 1,
    safety: ratio === undefined ? PRIOR_SAFETY : LEARNED_SAFETY,
    maxLines,
  };
}

/** The largest prefix of the window from `first` that fits the budget. */
export function fitWindow(path: string, first: number, budget: Budget, deadline: number): Measured {
  const fit = new WindowFit(budget);
  const scan = scanWindow(path, first, fit, deadline);
  const r = fit.result();
  return { ...r, scan, safeTokens: r.pointTokens * budget.ratio * budget.safety };
}

/** The point estimate and length of a whole window, whatever its size. */
export function measureWindow(path: string, first: number, maxLines: number, deadline: number): Measured {
  return fitWindow(path, first, { cap: Infinity, charFloor: Infinity, ratio: 1, safety: 1, maxLines }, deadline);
}

export interface PastOversize {
  oversize: OversizeLines | undefined;
  /** The first line from `first` on that fits alone (may be past the end of the window or file). */
  nextFitting: number;
}

const MAX_OVERSIZE_PROBES = 16;

/** Skips lines that alone do not fit the budget, starting at `first` and not past `last`. */
export function skipOversize(path: string, first: number, last: number, budget: Budget, deadline: number): PastOversize | undefined {
  let line = first;
  let oversize: OversizeLines | undefined;
  while (line <= last && line - first < MAX_OVERSIZE_PROBES) {
    const one = fitWindow(path, line, { ...budget, maxLines: 1 }, deadline);
    if (one.scan.timedOut) return undefined;
    if (one.lines > 0 || one.scan.startBeyondEnd) break;
    if (!oversize) {
      const whole = measureWindow(path, line, 1, deadline);
      if (whole.scan.timedOut) return undefined;
      oversize = { first: line, last: line, tokens: whole.pointTokens * budget.ratio, chars: whole.chars };
    } else {
      oversize.last = line;
    }
    line++;
  }
  return { oversize, nextFitting: line };
}
