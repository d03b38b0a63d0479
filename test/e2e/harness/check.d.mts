/**
 * @typedef {object} Coverage
 * @property {number} lines Lines the file has that a reader needs (the empty line after a final newline excluded).
 * @property {number[]} missing
 * @property {number[]} duplicated
 * @property {number[]} wrong Lines whose text differs from the file's.
 * @property {number[]} outside Line numbers the file does not have.
 */
/**
 * @param {string} path
 * @param {Array<[number, string]>} received
 * @param {{ except?: number[] }} [opts] Lines allowed to be missing (named by a note as unreadable).
 * @returns {Coverage}
 */
export function coverage(path: string, received: Array<[number, string]>, opts?: {
    except?: number[];
}): Coverage;
/** Run-length form of a list of line numbers, for readable failures: [1,2,3,7] → "1-3,7". */
export function ranges(ns: number[]): string;
export type Coverage = {
    /**
     * Lines the file has that a reader needs (the empty line after a final newline excluded).
     */
    lines: number;
    missing: number[];
    duplicated: number[];
    /**
     * Lines whose text differs from the file's.
     */
    wrong: number[];
    /**
     * Line numbers the file does not have.
     */
    outside: number[];
};
