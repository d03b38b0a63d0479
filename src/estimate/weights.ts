// Token weights per character-class feature, and the safety factors the clamp applies on top.
// Refit with `node scripts/calibrate.mjs` (see docs/CALIBRATION.md); do not hand-tune to one file.
import type { Features } from './density.js';

export type Weights = Record<keyof Features, number>;

export const WEIGHTS: Weights = {
  letters: 0,
  words: 1.52,
  caseChanges: 3.493,
  longRunLetters: 0.799,
  digits: 0,
  digitRuns: 1.79,
  punct: 0.54,
  spaceRuns: 0,
  spaceExtra: 0,
  hangul: 1.024,
  han: 0.764,
  kana: 0.893,
  otherLetters: 0.345,
  otherSymbols: 2.372,
  astral: 0.904,
  controls: 1,
  newlines: 1.88,
};

/** Multiplier on the point estimate before any refusal taught us this file's density. */
export const PRIOR_SAFETY = 1.1;

/** Multiplier on the learned estimate: the measured density came from one window; others vary a little. */
export const LEARNED_SAFETY = 1.05;
