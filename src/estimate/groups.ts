// The estimate split into token groups. Tokenizers disagree by group (one counts Hangul densely and English
// sparsely, another the reverse), so what the engine's counts teach about a model is kept per group.
import type { Features } from './density.js';
import { WEIGHTS } from './weights.js';

export const THREE_BYTE_GROUP = 5;
export const DIGIT_GROUP = 4;

/** Words; code and layout (punctuation, spaces, newlines); Hangul, Han and Kana; other scripts of two-byte letters
 * (and symbols); digits; scripts of three-byte letters. A refusal of Tamil teaches nothing about Cyrillic: byte-level
 * tokenizers count the two kinds of script far apart. */
export const GROUP_OF: Record<keyof Features, number> = {
  letters: 0, words: 0, bareWords: 0, caseChanges: 0, longRunLetters: 0,
  punct: 1, punctRuns: 1, spaceRuns: 1, spaceExtra: 1, controls: 1, newlines: 1, escapes: 1, escapeRuns: 1,
  hangul: 2, han: 2, kana: 2,
  otherLetters: 3, otherSymbols: 3, astral: 3,
  digits: DIGIT_GROUP, digitRuns: DIGIT_GROUP, longRunDigits: DIGIT_GROUP,
  threeByteLetters: THREE_BYTE_GROUP,
};

export const GROUP_COUNT = 6;

/** The point estimate's share of each group; the shares add up to the point estimate. */
export function pointByGroup(f: Features): number[] {
  const out = new Array<number>(GROUP_COUNT).fill(0);
  for (const k of Object.keys(GROUP_OF) as (keyof Features)[]) {
    const g = GROUP_OF[k];
    out[g] = (out[g] ?? 0) + f[k] * WEIGHTS[k];
  }
  return out;
}

/** The L1 distance between two windows' shares of the estimate by token group (each share: a group's part of the
 * window's point estimate). 0 for text alike, 2 for text with no group in common. Pure. */
export function shareDistance(a: readonly number[], b: readonly number[]): number {
  let d = 0;
  for (let g = 0; g < Math.max(a.length, b.length); g++) d += Math.abs((a[g] ?? 0) - (b[g] ?? 0));
  return d;
}

/** The groups of letters past ASCII: Hangul, Han and Kana; two-byte scripts; three-byte scripts. */
const SCRIPT_GROUPS = [2, 3, THREE_BYTE_GROUP] as const;

/** The part of `shareDistance` in the groups of letters past ASCII: how far two windows' scripts differ. Tokenizers
 * count scripts far apart (a byte-level one splits the letters of a script it has no merges for), where text of
 * ASCII letters, code, layout and digits moves a tokenizer's count much as it moves the estimate. Pure. */
export function scriptDistance(a: readonly number[], b: readonly number[]): number {
  let d = 0;
  for (const g of SCRIPT_GROUPS) d += Math.abs((a[g] ?? 0) - (b[g] ?? 0));
  return d;
}

/** Each group's share of a point estimate split by group. Pure. */
export function sharesOf(groups: readonly number[]): number[] {
  const total = groups.reduce((s, g) => s + g, 0);
  return groups.map((g) => (total > 0 ? g / total : 0));
}

/** The `shareDistance` between the first part of a window (its groups `head`) and the rest of it (`whole` less
 * `head`): how far the text a window ends with differs from the text it starts with. Pure. */
export function headToRestDistance(head: readonly number[], whole: readonly number[]): number {
  return shareDistance(sharesOf(head), sharesOf(whole.map((g, i) => g - (head[i] ?? 0))));
}
