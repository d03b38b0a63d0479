/** @param {string} name @returns {Tokenizer} */
export function tokenizerNamed(name: string): Tokenizer;
/** count_tokens for a whole text, as the stand-in would answer it with this tokenizer. @param {string} name */
export function countText(name: string): (/** @type {string} */ s: string) => number;
/**
 * Counts of line windows of one file under one tokenizer, memoized: the engine, the pager's reader and the oracle
 * ask for many of the same windows.
 * @param {import('./engine-sim.mjs').SimFile} file
 * @param {Tokenizer} tok
 */
export function windowCounter(file: import("./engine-sim.mjs").SimFile, tok: Tokenizer): {
    /** Tokens of lines [i0, i1) joined by "\n". */
    count(i0: number, i1: number): number;
    /** Characters tokenized so far (the cost of this counter). */
    readonly measuredChars: number;
    cheapEnds: number[];
};
/**
 * Checks that windowCounter's sums equal whole-text counts on `samples` windows of the file (random starts and
 * lengths, plus the whole file). Returns the mismatches.
 * @param {import('./engine-sim.mjs').SimFile} file @param {Tokenizer} tok @param {number} samples
 * @param {() => number} rnd
 */
export function verifyAdditivity(file: import("./engine-sim.mjs").SimFile, tok: Tokenizer, samples: number, rnd: () => number): {
    i0: number;
    i1: number;
    sum: number;
    whole: number;
}[];
export const TOKENIZER_NAMES: string[];
/**
 * A tokenizer as the benchmark uses it: `measure` gives an additive measure of a text, `finish` the integer
 * count_tokens answers for a sum of measures. For a plain BPE the measure is the count itself.
 */
export type Tokenizer = {
    name: string;
    measure: (s: string) => any;
    add: (a: any, b: any) => any;
    zero: () => any;
    finish: (m: any) => number;
};
