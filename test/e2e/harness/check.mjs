// What a reader got of a file, against the file itself: every line exactly once, and nothing else.
import { engineLines } from './files.mjs';

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
export function coverage(path, received, opts = {}) {
  const file = engineLines(path);
  const finalEmpty = file.length > 1 && file[file.length - 1] === '';
  const lines = finalEmpty ? file.length - 1 : file.length;
  /** @type {Map<number, number>} */
  const seen = new Map();
  /** @type {number[]} */ const wrong = [];
  /** @type {number[]} */ const outside = [];
  for (const [n, text] of received) {
    seen.set(n, (seen.get(n) ?? 0) + 1);
    if (n < 1 || n > file.length) outside.push(n);
    else if (file[n - 1] !== text) wrong.push(n);
  }
  const except = new Set(opts.except ?? []);
  /** @type {number[]} */ const missing = [];
  for (let n = 1; n <= lines; n++) if (!seen.has(n) && !except.has(n)) missing.push(n);
  const duplicated = [...seen].filter(([, c]) => c > 1).map(([n]) => n);
  return { lines, missing, duplicated, wrong, outside };
}

/** Run-length form of a list of line numbers, for readable failures: [1,2,3,7] → "1-3,7". */
export function ranges(/** @type {number[]} */ ns) {
  const out = [];
  for (let i = 0; i < ns.length; i++) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === (ns[j] ?? 0) + 1) j++;
    out.push(i === j ? `${ns[i]}` : `${ns[i]}-${ns[j]}`);
    i = j;
  }
  return out.join(',');
}
