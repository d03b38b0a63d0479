// The character-class features the estimate is a linear function of: tallied in density.ts, weighted in
// weights.ts (a module of its own, so neither imports the other).

/** The character-class features the estimate is a linear function of. */
export interface Features {
  letters: number; // ASCII letters
  words: number; // runs of ASCII letters
  bareWords: number; // of those, runs not after a space: identifiers after '.', '(', '_', markup, line starts
  caseChanges: number; // lower→upper inside a letter run (camelCase splits tokens)
  longRunLetters: number; // letters of a run past its 16th: hashes, base64, repeated patterns, not words
  digits: number;
  digitRuns: number;
  longRunDigits: number; // digits of a run past its 6th: tokenizers split a number into groups of three digits
  punct: number; // ASCII punctuation and symbols
  punctRuns: number; // runs of them ('");', '=>', '-->' are often one token)
  spaceRuns: number; // runs of 2+ spaces or tabs (indentation, alignment)
  spaceExtra: number; // characters of those runs beyond the first
  hangul: number;
  han: number;
  kana: number;
  otherLetters: number; // letters of two-byte UTF-8 scripts: Latin-1 accents, Greek, Cyrillic, Hebrew, Arabic, …
  // letters of three-byte UTF-8 scripts (Indic, Thai, Georgian, Ethiopic, Vietnamese, …): a byte-level tokenizer
  // without merges for the script splits each into up to three tokens, where another counts a syllable as one
  threeByteLetters: number;
  otherSymbols: number; // non-ASCII punctuation and symbols in the BMP (CJK punctuation, box drawing, …)
  astral: number; // code points above U+FFFF: emoji, rare Han; counted once per pair
  controls: number; // control characters other than tab
  newlines: number;
  // A `\uXXXX` escape (JSON, JavaScript, Java, Python's ensure_ascii): its six characters count here, not as the
  // punctuation, letters and digits they are, whose weights make 4.4-7.7 tokens of it where tokenizers make 3-5.
  escapes: number;
  escapeRuns: number; // runs of digits and of letters among the escapes' hex digits: each is about a token
}

export const FEATURE_NAMES: readonly (keyof Features)[] = [
  'letters', 'words', 'bareWords', 'caseChanges', 'longRunLetters', 'digits', 'digitRuns', 'longRunDigits', 'punct',
  'punctRuns', 'spaceRuns', 'spaceExtra', 'hangul', 'han', 'kana', 'otherLetters', 'threeByteLetters', 'otherSymbols',
  'astral', 'controls', 'newlines', 'escapes', 'escapeRuns',
];
