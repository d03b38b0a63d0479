// Token weights per character-class feature, and the safety factors the clamp applies on top.
// Refit with `node scripts/calibrate.mjs` (see docs/CALIBRATION.md); do not hand-tune to one file.
import type { Features } from './density.js';

export type Weights = Record<keyof Features, number>;

export const WEIGHTS: Weights = {
  letters: 0,
  words: 1.21,
  bareWords: 0,
  caseChanges: 1.944,
  longRunLetters: 0.808,
  digits: 0,
  digitRuns: 2.054,
  punct: 0.324,
  punctRuns: 0.673,
  spaceRuns: 0.596,
  spaceExtra: 0,
  hangul: 1.1,
  han: 1.061,
  kana: 0.879,
  otherLetters: 0.383,
  otherSymbols: 2.199,
  astral: 1.784,
  controls: 1,
  newlines: 1.361,
};

/** Multiplier on the point estimate before any refusal taught us this file's density. */
export const PRIOR_SAFETY = 1.1;

/** Multiplier on the learned estimate: the measured density came from one window; others vary a little. */
export const LEARNED_SAFETY = 1.05;
