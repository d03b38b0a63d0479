// Real tokenizers from npm, and the "Claude-dense" tokenizer: o200k_base counts scaled per token class to the
// public count_tokens figures for Claude 4.7 (docs/CALIBRATION.md, "The Claude-dense tokenizer").
import { encode as o200k, decode as o200kDecode } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as r50k } from 'gpt-tokenizer/encoding/r50k_base';
import { countTokens as claudeLegacy } from '@anthropic-ai/tokenizer';
import llama3 from 'llama3-tokenizer-js';
import mistral from 'mistral-tokenizer-js';

/** Characters per token on Claude 4.7 (public count_tokens figures); the level the Claude-dense tokenizer hits. */
export const CLAUDE_47_CHARS_PER_TOKEN = {
  prose: 3.6, ts: 2.7, python: 3.1, html: 2.3, json: 2.5, ko: 1.6, repeat: 1.5,
};

// Special-token text such as <|endoftext|> inside a file is plain text to a Read.
const PLAIN = { disallowedSpecial: new Set() };
export const REAL = {
  o200k: (s) => o200k(s, PLAIN).length,
  cl100k: (s) => cl100k(s, PLAIN).length,
  llama3: (s) => llama3.encode(s, { bos: false, eos: false }).length,
  'claude-legacy': (s) => claudeLegacy(s),
};

/** Tokenizers that neither the estimate nor any decision of the pager was fitted or tuned on, to try the pager on a
 * model none of the five is, with a real vocabulary: r50k_base (GPT-2 and GPT-3) has no token for a run of spaces,
 * so indented code counts far denser than under any of the five; Mistral 7B's SentencePiece vocabulary splits every
 * number by the digit and takes a tab as a byte of its own, so a line number costs a token a digit and one for the
 * tab, and scripts it has no pieces for (Tamil, Georgian) a token a byte. Never in the default run. */
export const HELD_OUT = {
  r50k: (s) => r50k(s, PLAIN).length,
  mistral: (s) => mistral.encode(s, false, false).length,
};

/** Token classes of o200k tokens, by the characters a token decodes to: a word with its leading space, a word
 * piece without one (identifiers, markup), digits, newlines, indentation, ASCII punctuation, Hangul, Han/Kana,
 * anything else (other scripts, emoji bytes). */
export const TOKEN_CLASSES = ['sword', 'word', 'digit', 'newline', 'indent', 'punct', 'hangul', 'cjk', 'other'];
const classOfId = new Map();
function tokenClass(id) {
  let c = classOfId.get(id);
  if (c !== undefined) return c;
  const s = o200kDecode([id]);
  if (/^ [A-Za-z]+$/.test(s)) c = 'sword';
  else if (/[A-Za-z]/.test(s)) c = 'word';
  else if (/[\uac00-\ud7a3\u1100-\u11ff]/.test(s)) c = 'hangul';
  else if (/[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/.test(s)) c = 'cjk';
  else if (/^\s+$/.test(s)) c = /\n/.test(s) ? 'newline' : 'indent';
  else if (/^[\s\d]+$/.test(s)) c = 'digit';
  else if (/^[\x20-\x7e\s]+$/.test(s)) c = 'punct';
  else c = 'other';
  classOfId.set(id, c);
  return c;
}

/** o200k token counts per token class; long ASCII letter runs (hashes, repeated patterns) apart. */
export function o200kByClass(text) {
  const counts = Object.fromEntries(TOKEN_CLASSES.map((c) => [c, 0]));
  let longRunChars = 0;
  let longRunTokens = 0;
  const parts = text.split(LONG_RUN);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.length === 0) continue;
    if (i % 2 === 1) { longRunChars += part.length; longRunTokens += o200k(part, PLAIN).length; continue; }
    for (const id of o200k(part, PLAIN)) counts[tokenClass(id)]++;
  }
  return { counts, longRunChars, longRunTokens };
}
export const LONG_RUN = /([A-Za-z]{24,})/;

/** Per-token-class multipliers, fitted by scripts/calibrate.mjs --write: word, word-piece and punctuation
 * tokens scaled (never below 1) so that prose, TypeScript, Python, HTML and JSON come closest to the Claude 4.7
 * figures; Hangul and Han/Kana tokens so that Korean hits its figure; digits and whitespace at 1 ("barely differ
 * between tokenizer generations"); other scripts as word pieces. */
export const CLAUDE_DENSE_SCALE = {
  sword: 1.22, word: 1, digit: 1, newline: 1, indent: 1, punct: 1.7, hangul: 1.504, cjk: 1.504, other: 1,
};

export function claudeDenseFrom(byClass, scale = CLAUDE_DENSE_SCALE) {
  let t = 0;
  for (const c of TOKEN_CLASSES) t += byClass.counts[c] * scale[c];
  // A repeated two-letter pattern ran at 1.5 characters per token on Claude 4.7; a long letter run is never
  // counted as less dense than that.
  t += Math.max(byClass.longRunTokens * scale.word, byClass.longRunChars / CLAUDE_47_CHARS_PER_TOKEN.repeat);
  return t;
}

/** The Claude-dense count of a text of a known corpus class. */
export const claudeDense = (s) => claudeDenseFrom(o200kByClass(s));
