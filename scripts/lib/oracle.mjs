// The oracle: a reader that knows the tokenizer and the engine. From each start line it asks for the largest
// window the engine would not refuse (the same judgeWindow the simulation runs), so its number of Reads is the
// least any reader can need to see every line. A line that alone is refused fits no window: everyone skips it,
// and it is reported apart.
import { judgeWindow } from './engine-sim.mjs';

/**
 * @param {import('./engine-sim.mjs').SimFile} file
 * @param {{ count: (i0: number, i1: number) => number, cheapEnds: number[] }} counter windowCounter's
 * @param {number} cap
 * @param {number} [maxLines] The most lines it asks for at once: the reader's own window in windows mode (it reads
 *   with the same intent, only knowing the tokenizer), unbounded with no limit.
 * @returns {{ calls: number, windows: Array<[number, number]>, oversize: number[] }} windows as [first line, lines]
 */
export function oracle(file, counter, cap, maxLines = Infinity) {
  const end = neededLines(file);
  /** @type {Array<[number, number]>} */
  const windows = [];
  /** @type {number[]} */
  const oversize = [];
  let s = 0;
  while (s < end) {
    const lines = largestWindow(file, counter, cap, s + 1, maxLines);
    if (lines === 0) { oversize.push(s + 1); s++; continue; }
    windows.push([s + 1, lines]);
    s += lines;
  }
  return { calls: windows.length, windows, oversize };
}

/**
 * Lines a reader needs: all of them but the empty line after a final newline, which is nothing anyone needs to read.
 * @param {import('./engine-sim.mjs').SimFile} file
 */
export function neededLines(file) {
  const L = file.lines.length;
  return L > 1 && file.lines[L - 1] === '' ? L - 1 : L;
}

/**
 * The most lines from line `first` (1-based) that a Read with a limit gets without a refusal: 0 when that line alone
 * is refused. It binary-searches, assuming a window's count never drops when lines are added.
 * @param {import('./engine-sim.mjs').SimFile} file
 * @param {{ count: (i0: number, i1: number) => number, cheapEnds: number[] }} counter windowCounter's
 * @param {number} cap
 * @param {number} first
 * @param {number} [maxLines]
 */
export function largestWindow(file, counter, cap, first, maxLines = Infinity) {
  const end = neededLines(file);
  const s = first - 1;
  const refused = (/** @type {number} */ i0, /** @type {number} */ i1) =>
    judgeWindow(file, i0, i1, { cap, count: counter.count, limited: true, whole: false }).over;
  const floor = file.json ? Math.floor(cap / 2) : cap; // never counted, never refused
  if (refused(s, s + 1)) return 0;
  const stop = Math.min(end, s + maxLines);
  // ok: largest known-good end; bad: smallest known-refused end (stop + 1 when none is).
  let ok = s + 1;
  while (ok < stop && file.starts[ok + 1] - 1 - file.starts[s] <= floor) ok++;
  let bad = stop + 1;
  if (ok < stop && !refused(s, stop)) ok = stop;
  else if (ok < stop) bad = stop;
  // First over the cheap ends (the window's new text is one line past whole blocks), then line by line.
  const cheap = counter.cheapEnds.filter((e) => e > ok && e < bad);
  let lo = 0; let hi = cheap.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = /** @type {number} */ (cheap[mid]);
    if (refused(s, e)) { bad = e; hi = mid - 1; } else { ok = e; lo = mid + 1; }
  }
  while (bad - ok > 1) {
    const mid = (ok + bad) >> 1;
    if (refused(s, mid)) bad = mid; else ok = mid;
  }
  return ok - s;
}
