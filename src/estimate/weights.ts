// Token weights per character-class feature, and the safety factors the clamp applies on top.
// Refit with `node scripts/calibrate.mjs` (see docs/CALIBRATION.md); do not hand-tune to one file.
import type { Features } from './density.js';

export type Weights = Record<keyof Features, number>;

export const WEIGHTS: Weights = {
  letters: 0.22,
  words: 0.45,
  caseChanges: 0.5,
  digits: 0.5,
  digitRuns: 0.3,
  punct: 0.8,
  spaceRuns: 0.6,
  spaceExtra: 0.15,
  hangul: 0.9,
  han: 1.1,
  kana: 0.9,
  otherLetters: 0.5,
  otherSymbols: 1.0,
  astral: 2.5,
  controls: 1.0,
  newlines: 1.0,
};

/** Multiplier on the point estimate before any refusal taught us this file's density. */
export const PRIOR_SAFETY = 1.1;

/** Multiplier on the learned estimate: the measured density came from one window; others vary a little. */
export const LEARNED_SAFETY = 1.05;
