/**
 * @param {import('./engine-sim.mjs').SimFile} file
 * @param {{ count: (i0: number, i1: number) => number, cheapEnds: number[] }} counter windowCounter's
 * @param {number} cap
 * @param {number} [maxLines] The most lines it asks for at once: the reader's own window in windows mode (it reads
 *   with the same intent, only knowing the tokenizer), unbounded with no limit.
 * @returns {{ calls: number, windows: Array<[number, number]>, oversize: number[] }} windows as [first line, lines]
 */
export function oracle(file: import("./engine-sim.mjs").SimFile, counter: {
    count: (i0: number, i1: number) => number;
    cheapEnds: number[];
}, cap: number, maxLines?: number): {
    calls: number;
    windows: Array<[number, number]>;
    oversize: number[];
};
/**
 * Lines a reader needs: all of them but the empty line after a final newline, which is nothing anyone needs to read.
 * @param {import('./engine-sim.mjs').SimFile} file
 */
export function neededLines(file: import("./engine-sim.mjs").SimFile): number;
/**
 * The most lines from line `first` (1-based) that a Read with a limit gets without a refusal: 0 when that line alone
 * is refused. It binary-searches, assuming a window's count never drops when lines are added.
 * @param {import('./engine-sim.mjs').SimFile} file
 * @param {{ count: (i0: number, i1: number) => number, cheapEnds: number[] }} counter windowCounter's
 * @param {number} cap
 * @param {number} first
 * @param {number} [maxLines]
 */
export function largestWindow(file: import("./engine-sim.mjs").SimFile, counter: {
    count: (i0: number, i1: number) => number;
    cheapEnds: number[];
}, cap: number, first: number, maxLines?: number): number;
