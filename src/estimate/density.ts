// Offline token estimate of raw text, by character class.
// Streaming: text arrives in chunks of any size (a line may be 450,000 characters or a gigabyte),
// the tally keeps only counts, never the text.
import { FEATURE_NAMES, type Features } from './features.js';
import { WEIGHTS, type Weights } from './weights.js';

export { FEATURE_NAMES, type Features };

/** Letters past this many in one run are not part of a dictionary word. */
const LONG_RUN = 16;
/** Digits past this many in one run: a number of up to six digits is counted by its run alone (two groups of three
 * at most, which `digitRuns` covers); each group after that is a token more under every tokenizer measured. */
const LONG_DIGIT_RUN = 6;

const enum Kind { None, Lower, Upper, Digit, Punct, Space, Other, Newline, Control }

/** The counters an escape's characters move, in the order `escapeFrom` keeps them. */
const ESCAPE_COUNTERS = 10;

/** The kind of every ASCII code unit, so the hot loop does one lookup instead of a chain of range tests. */
const ASCII_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_KIND[c] = c >= 97 && c <= 122 ? Kind.Lower
    : c >= 65 && c <= 90 ? Kind.Upper
      : c >= 48 && c <= 57 ? Kind.Digit
        : c === 32 || c === 9 ? Kind.Space
          : c === 10 ? Kind.Newline
            : c < 32 || c === 127 ? Kind.Control
              : Kind.Punct;
}

export function emptyFeatures(): Features {
  return {
    letters: 0, words: 0, bareWords: 0, caseChanges: 0, longRunLetters: 0, digits: 0, digitRuns: 0, longRunDigits: 0,
    punct: 0, punctRuns: 0, spaceRuns: 0, spaceExtra: 0,
    hangul: 0, han: 0, kana: 0, otherLetters: 0, threeByteLetters: 0, otherSymbols: 0, astral: 0, controls: 0,
    newlines: 0, escapes: 0, escapeRuns: 0,
  };
}

/** Tallies features of a stream of text; `chars` is the UTF-16 length, as the engine measures. */
export class TokenTally {
  readonly f: Features = emptyFeatures();
  chars = 0;
  private prev: Kind = Kind.None;
  private spaceRun = 0;
  private letterRun = 0;
  private digitRun = 0;
  // A `\uXXXX` escape in progress: 0 none, 1 after the backslash, 2 after the `u`, 3-5 after each hex digit but the
  // last. `escapeFrom` holds the counters the backslash found, to which the escape's characters are rolled back.
  private escapeAt = 0;
  private escapeRun: Kind = Kind.None; // the kind of its last hex digit: Kind.Digit or Kind.Lower
  private escapeRunsSoFar = 0; // runs of digits and of letters among its hex digits
  private readonly escapeFrom = new Float64Array(ESCAPE_COUNTERS);

  /** Tallies text[start, end): a range, so that callers never slice lines out of a decoded chunk. */
  add(text: string, start = 0, end = text.length): void {
    const f = this.f;
    let prev = this.prev;
    let spaceRun = this.spaceRun;
    let letterRun = this.letterRun;
    let digitRun = this.digitRun;
    // Hot counters live in locals while the loop runs (the hook runs this cold, mostly in the interpreter).
    let letters = 0, words = 0, bareWords = 0, caseChanges = 0, longRunLetters = 0, digits = 0, digitRuns = 0;
    let longRunDigits = 0;
    let punct = 0, punctRuns = 0, spaceRuns = 0, spaceExtra = 0, newlines = 0;
    let escapeAt = this.escapeAt;
    let escapeRun = this.escapeRun;
    let escapeRuns = this.escapeRunsSoFar;
    const from = this.escapeFrom;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (escapeAt !== 0) {
        // Inside what may be an escape: `u` after the backslash, then four hex digits, the last of which ends it.
        if (escapeAt === 1) {
          if (c === 0x75) { escapeAt = 2; escapeRuns = 0; escapeRun = Kind.None; }
          else if (c !== 0x5c) escapeAt = 0; // a second backslash ends it below: `\\` is an escaped backslash
        } else {
          const hex = c >= 0x30 && c <= 0x39 ? Kind.Digit
            : (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46) ? Kind.Lower : Kind.None;
          if (hex === Kind.None) escapeAt = 0;
          else {
            if (hex !== escapeRun) escapeRuns++;
            escapeRun = hex;
            if (++escapeAt === 6) {
              // The escape's six characters count as an escape, not as what they are one by one: the counters go
              // back to where the backslash found them, and what follows starts afresh, as after a letter of
              // another script.
              letters = from[0]! - f.letters; words = from[1]! - f.words; bareWords = from[2]! - f.bareWords;
              caseChanges = from[3]! - f.caseChanges; longRunLetters = from[4]! - f.longRunLetters;
              digits = from[5]! - f.digits; digitRuns = from[6]! - f.digitRuns;
              longRunDigits = from[7]! - f.longRunDigits;
              punct = from[8]! - f.punct; punctRuns = from[9]! - f.punctRuns;
              f.escapes++;
              f.escapeRuns += escapeRuns;
              prev = Kind.Other;
              spaceRun = 0;
              escapeAt = 0;
              continue;
            }
          }
        }
      }
      let kind: Kind;
      if (c < 128) {
        kind = ASCII_KIND[c] as Kind;
        if (kind === Kind.Newline) { newlines++; kind = Kind.None; }
        else if (kind === Kind.Control) { f.controls++; kind = Kind.Other; }
      } else {
        kind = Kind.Other;
        if (c >= 0xac00 && c <= 0xd7a3) f.hangul++;
        else if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff)) f.han++;
        else if (c >= 0x3040 && c <= 0x30ff) f.kana++;
        else if (c >= 0x1100 && c <= 0x11ff) f.hangul++; // conjoining jamo
        else if (c >= 0xd800 && c <= 0xdbff) f.astral++; // high surrogate: one per astral code point
        else if (c >= 0xdc00 && c <= 0xdfff) { /* low surrogate: already counted */ }
        else if (isOtherLetter(c)) {
          if (c < 0x800) f.otherLetters++;
          else f.threeByteLetters++;
        }
        else f.otherSymbols++;
      }

      if (kind <= Kind.Upper && kind !== Kind.None) {
        letters++;
        if (prev !== Kind.Lower && prev !== Kind.Upper) {
          words++;
          if (prev !== Kind.Space) bareWords++;
          letterRun = 1;
        } else {
          if (kind === Kind.Upper && prev === Kind.Lower) caseChanges++;
          if (++letterRun > LONG_RUN) longRunLetters++;
        }
        spaceRun = 0;
      } else if (kind === Kind.Space) {
        spaceRun++;
        if (spaceRun >= 2) {
          spaceExtra++;
          if (spaceRun === 2) spaceRuns++;
        }
      } else {
        spaceRun = 0;
        if (kind === Kind.Digit) {
          digits++;
          if (prev !== Kind.Digit) {
            digitRuns++;
            digitRun = 1;
          } else if (++digitRun > LONG_DIGIT_RUN) longRunDigits++;
        } else if (kind === Kind.Punct) {
          if (c === 0x5c) {
            if (escapeAt === 1) escapeAt = 0;
            else {
              // A backslash may start an escape: the counters as they stand (the tally's and this call's) are kept.
              from[0] = f.letters + letters; from[1] = f.words + words; from[2] = f.bareWords + bareWords;
              from[3] = f.caseChanges + caseChanges; from[4] = f.longRunLetters + longRunLetters;
              from[5] = f.digits + digits; from[6] = f.digitRuns + digitRuns;
              from[7] = f.longRunDigits + longRunDigits; from[8] = f.punct + punct; from[9] = f.punctRuns + punctRuns;
              escapeAt = 1;
            }
          }
          punct++;
          if (prev !== Kind.Punct) punctRuns++;
        }
      }
      prev = kind;
    }
    this.escapeAt = escapeAt;
    this.escapeRun = escapeRun;
    this.escapeRunsSoFar = escapeRuns;
    f.letters += letters; f.words += words; f.bareWords += bareWords; f.caseChanges += caseChanges;
    f.longRunLetters += longRunLetters; f.digits += digits; f.digitRuns += digitRuns; f.longRunDigits += longRunDigits;
    f.punct += punct;
    f.punctRuns += punctRuns; f.spaceRuns += spaceRuns; f.spaceExtra += spaceExtra; f.newlines += newlines;
    this.prev = prev;
    this.spaceRun = spaceRun;
    this.letterRun = letterRun;
    this.digitRun = digitRun;
    this.chars += end - start;
  }

  /** Point estimate of the tokens tallied so far. */
  tokens(weights: Weights = WEIGHTS): number {
    return tokensOf(this.f, weights);
  }
}

/** Unrolled: the fit asks after every line of the window. */
export function tokensOf(f: Features, w: Weights = WEIGHTS): number {
  return f.letters * w.letters + f.words * w.words + f.bareWords * w.bareWords + f.caseChanges * w.caseChanges
    + f.longRunLetters * w.longRunLetters + f.digits * w.digits + f.digitRuns * w.digitRuns
    + f.longRunDigits * w.longRunDigits + f.punct * w.punct
    + f.punctRuns * w.punctRuns + f.spaceRuns * w.spaceRuns + f.spaceExtra * w.spaceExtra + f.hangul * w.hangul
    + f.han * w.han + f.kana * w.kana + f.otherLetters * w.otherLetters
    + f.threeByteLetters * w.threeByteLetters + f.otherSymbols * w.otherSymbols
    + f.astral * w.astral + f.controls * w.controls + f.newlines * w.newlines + f.escapes * w.escapes
    + f.escapeRuns * w.escapeRuns;
}

/** Point estimate for a whole string (tests, the `estimate` command, calibration). */
export function estimateTokens(text: string, weights: Weights = WEIGHTS): number {
  const tally = new TokenTally();
  tally.add(text);
  return tally.tokens(weights);
}

// Letters of alphabetic scripts outside ASCII: Latin-1/Extended, Greek, Cyrillic, Armenian, Hebrew, Arabic (below
// U+0800: two bytes in UTF-8), Indic, Thai, Georgian, Ethiopic, … (three bytes). Symbols and punctuation blocks fall
// through to otherSymbols.
function isOtherLetter(c: number): boolean {
  if (c >= 0xc0 && c <= 0x24f) return c !== 0xd7 && c !== 0xf7;
  if (c >= 0x370 && c <= 0x1fff) return true;
  if (c >= 0xa000 && c <= 0xabff) return true;
  return false;
}
