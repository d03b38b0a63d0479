// Exact token counts of line windows, fast enough to replay thousands of Reads: a window's count is the sum of
// the counts of its pieces, cut where every tokenizer here starts a new pre-token anyway (see cutIn), so the
// sum equals the count of the whole window text.
// Interior blocks are counted once per file and tokenizer; only the two end pieces of a window are new text.
// `verifyAdditivity` checks that claim against whole-text counts (scripts/rounds.mjs --verify).
import { createRequire } from 'node:module';
import { HELD_OUT, TOKEN_CLASSES, claudeDenseFrom, o200kByClass, REAL } from './tokenizers.mjs';
import { windowText } from './engine-sim.mjs';

const require = createRequire(import.meta.url);

/**
 * A tokenizer as the benchmark uses it: `measure` gives an additive measure of a text, `finish` the integer
 * count_tokens answers for a sum of measures. For a plain BPE the measure is the count itself.
 * @typedef {{
 *   name: string, measure: (s: string) => any, add: (a: any, b: any) => any, zero: () => any,
 *   finish: (m: any) => number,
 * }} Tokenizer
 */

const plain = (/** @type {string} */ name, /** @type {(s: string) => number} */ f) => /** @type {Tokenizer} */ ({
  name, measure: f, add: (a, b) => a + b, zero: () => 0, finish: (m) => m,
});

/** @anthropic-ai/tokenizer's countTokens builds a new tokenizer on every call; this keeps one, same ranks, same
 * NFKC, same special tokens allowed, so the count is the same. */
function claudeLegacy() {
  const { Tiktoken } = require('tiktoken/lite');
  const claude = require('@anthropic-ai/tokenizer/dist/cjs/claude.json');
  const tok = new Tiktoken(claude.bpe_ranks, claude.special_tokens, claude.pat_str);
  return (/** @type {string} */ s) => tok.encode(s.normalize('NFKC'), 'all').length;
}

/** The Claude-dense measure: o200k counts per token class plus the long-letter-run figures, summed, then scaled. */
const claudeDense = /** @type {Tokenizer} */ ({
  name: 'claude-dense',
  measure: (s) => o200kByClass(s),
  zero: () => ({ counts: Object.fromEntries(TOKEN_CLASSES.map((c) => [c, 0])), longRunChars: 0, longRunTokens: 0 }),
  add: (a, b) => ({
    counts: Object.fromEntries(TOKEN_CLASSES.map((c) => [c, a.counts[c] + b.counts[c]])),
    longRunChars: a.longRunChars + b.longRunChars,
    longRunTokens: a.longRunTokens + b.longRunTokens,
  }),
  finish: (m) => Math.ceil(claudeDenseFrom(m)),
});

/** @type {Record<string, () => Tokenizer>} */
const MAKERS = {
  o200k: () => plain('o200k', REAL.o200k),
  cl100k: () => plain('cl100k', REAL.cl100k),
  llama3: () => plain('llama3', REAL.llama3),
  'claude-legacy': () => plain('claude-legacy', claudeLegacy()),
  'claude-dense': () => claudeDense,
};
export const TOKENIZER_NAMES = Object.keys(MAKERS);
// Named only when asked for (`--tokenizer r50k`): not in the default run.
for (const [name, f] of Object.entries(HELD_OUT)) MAKERS[name] = () => plain(name, f);

/** @type {Map<string, Tokenizer>} */
const made = new Map();
/** @param {string} name @returns {Tokenizer} */
export function tokenizerNamed(name) {
  let t = made.get(name);
  if (t) return t;
  // NAME*FACTOR plays a model none of the five is: NAME's counts times FACTOR (a denser or sparser tokenizer than
  // any the estimate was fitted on, to see what the pager does with a model it has never met).
  const scaled = /^([a-z0-9-]+)\*(\d+(?:\.\d+)?)$/.exec(name);
  if (scaled) {
    const base = tokenizerNamed(/** @type {string} */ (scaled[1]));
    const factor = Number(scaled[2]);
    if (!(factor > 0)) throw new Error(`tokenizer ${name}: the factor must be over 0`);
    t = { ...base, name, finish: (m) => Math.ceil(base.finish(m) * factor) };
  } else {
    const make = MAKERS[name];
    if (!make) throw new Error(`unknown tokenizer ${name}; one of ${Object.keys(MAKERS).join(', ')}, or NAME*FACTOR`);
    t = make();
  }
  made.set(name, t);
  return t;
}

/** count_tokens for a whole text, as the stand-in would answer it with this tokenizer. @param {string} name */
export function countText(name) {
  const t = tokenizerNamed(name);
  return (/** @type {string} */ s) => t.finish(t.measure(s));
}

const BLOCK_CHARS = 3000;
/**
 * Where a cut in the file's text leaves every tokenizer's pre-tokens as they are: inside line i (i >= 1), which has
 * something besides whitespace, either
 * - just before the last character of its indentation (spaces and tabs): the cl100k/o200k/llama3 patterns end a
 *   newline run at the "\n" and give the indentation's last character to the word after it, and the GPT-2-style
 *   pattern (claude-legacy) splits a whitespace run's last character off before a non-space; or
 * - at the line's start when it has no indentation, does not start with "/" (o200k joins punctuation, newlines and
 *   "/") and the line before ends in a non-space (so no whitespace run crosses the "\n").
 * Returns the cut's offset in file.text, or -1.
 * @param {import('./engine-sim.mjs').SimFile} file @param {number} i
 */
function cutIn(file, i) {
  const line = /** @type {string} */ (file.lines[i]);
  const indent = /^[ \t]*/.exec(line)?.[0].length ?? 0;
  if (indent === line.length || /\s/u.test(line.charAt(indent))) return -1;
  if (indent > 0) return file.starts[i] + indent - 1;
  return line.charAt(0) !== '/' && /\S$/u.test(/** @type {string} */ (file.lines[i - 1])) ? file.starts[i] : -1;
}

/**
 * Counts of line windows of one file under one tokenizer, memoized: the engine, the pager's reader and the oracle
 * ask for many of the same windows.
 * @param {import('./engine-sim.mjs').SimFile} file
 * @param {Tokenizer} tok
 */
export function windowCounter(file, tok) {
  // Cuts (offsets in file.text) about BLOCK_CHARS apart, 0 first and past the end last; block k = [cuts[k], cuts[k+1]).
  /** @type {number[]} */
  const cuts = [0];
  /** Lines that hold a cut, plus one: a window ending there adds a one-line piece to whole blocks (cheap to ask). */
  /** @type {number[]} */
  const cheapEnds = [];
  let last = 0;
  for (let i = 1; i < file.lines.length; i++) {
    if (file.starts[i] - last < BLOCK_CHARS) continue;
    const c = cutIn(file, i);
    if (c > last) { cuts.push(c); cheapEnds.push(i + 1); last = c; }
  }
  cuts.push(file.text.length + 1);
  /** @type {any[]} */
  const blocks = [];
  /** @type {Map<string, any>} */
  const pieces = new Map();
  /** @type {Map<string, number>} */
  const windows = new Map();
  let measuredChars = 0;
  const at = (/** @type {number} */ k) => /** @type {number} */ (cuts[k]);

  const piece = (/** @type {number} */ a, /** @type {number} */ b) => { // chars [a, b) of file.text
    if (b <= a) return tok.zero();
    const key = `${a}:${b}`;
    let m = pieces.get(key);
    if (m === undefined) { m = tok.measure(file.text.slice(a, b)); measuredChars += b - a; pieces.set(key, m); }
    return m;
  };
  const block = (/** @type {number} */ k) => {
    let m = blocks[k];
    if (m === undefined) {
      m = tok.measure(file.text.slice(at(k), at(k + 1)));
      measuredChars += at(k + 1) - at(k);
      blocks[k] = m;
    }
    return m;
  };
  /** The first cut at offset c or later. */
  const firstCutFrom = (/** @type {number} */ c) => {
    let lo = 0; let hi = cuts.length - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (at(mid) < c) lo = mid + 1; else hi = mid; }
    return lo;
  };

  return {
    /** Tokens of lines [i0, i1) joined by "\n". */
    count(/** @type {number} */ i0, /** @type {number} */ i1) {
      const key = `${i0}:${i1}`;
      const hit = windows.get(key);
      if (hit !== undefined) return hit;
      const a = file.starts[i0];
      const end = Math.max(a, file.starts[i1] - 1); // no "\n" after the window's last line
      // Blocks k0..k1-1 lie wholly inside [a, end).
      const k0 = firstCutFrom(a);
      let k1 = k0;
      while (k1 < cuts.length - 1 && at(k1 + 1) <= end) k1++;
      let m;
      if (k1 === k0) {
        m = piece(a, end);
      } else {
        m = piece(a, at(k0));
        for (let k = k0; k < k1; k++) m = tok.add(m, block(k));
        m = tok.add(m, piece(at(k1), end));
      }
      const n = tok.finish(m);
      windows.set(key, n);
      return n;
    },
    /** Characters tokenized so far (the cost of this counter). */
    get measuredChars() { return measuredChars; },
    cheapEnds,
  };
}

/**
 * Checks that windowCounter's sums equal whole-text counts on `samples` windows of the file (random starts and
 * lengths, plus the whole file). Returns the mismatches.
 * @param {import('./engine-sim.mjs').SimFile} file @param {Tokenizer} tok @param {number} samples
 * @param {() => number} rnd
 */
export function verifyAdditivity(file, tok, samples, rnd) {
  const wc = windowCounter(file, tok);
  const direct = (/** @type {number} */ i0, /** @type {number} */ i1) =>
    tok.finish(tok.measure(windowText(file, i0, i1)));
  const L = file.lines.length;
  const cases = [[0, L]];
  for (let s = 0; s < samples; s++) {
    const i0 = Math.floor(rnd() * L);
    const i1 = Math.min(L, i0 + 1 + Math.floor(rnd() * Math.min(L, 3000)));
    cases.push([i0, i1]);
  }
  const bad = [];
  for (const [i0, i1] of cases) {
    const x = wc.count(/** @type {number} */ (i0), /** @type {number} */ (i1));
    const y = direct(/** @type {number} */ (i0), /** @type {number} */ (i1));
    if (x !== y) bad.push({ i0, i1, sum: x, whole: y });
  }
  return bad;
}
