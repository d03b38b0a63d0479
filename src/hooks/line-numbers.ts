// What the line numbers of a Read's result cost a model: the rule (a token for each group of three digits, and the
// tab where it stays apart), and what the retry of a refused window tells beyond it. A window's usage is its text and
// its numbers, so what the numbers cost decides what the usage says of the text. Pure.
import { MAX_INDENTATION_COST } from '../state/memory.js';

/** Tokens the line numbers of a Read's result add, at the least: one per group of three digits (every tokenizer
 * measured splits a number so, or finer). The tab after a number is one more where it stays apart (`tabStaysApart`,
 * counted by the fit). The rest of what the model's next request added is the window's own text, or more. */
export function lineNumberTokens(first: number, lines: number): number {
  return sumOverNumbers(first, lines, (digits) => Math.ceil(digits / 3));
}

/** Tokens the line numbers of a Read's result add where a model takes each digit and the tab after a number as a
 * token of its own (Mistral's and Llama 2's SentencePiece vocabularies, and others that split numbers by the digit):
 * the most any tokenizer measured takes, where `lineNumberTokens` is the least. */
export function lineNumberDigits(first: number, lines: number): number {
  return sumOverNumbers(first, lines, (digits) => digits + 1);
}

/** The sum of `tokens(digits)` over the numbers of `lines` lines from `first`, by their count of digits. */
function sumOverNumbers(first: number, lines: number, tokens: (digits: number) => number): number {
  let sum = 0;
  const last = first + lines - 1;
  for (let digits = 1, low = 1; low <= last; digits++, low *= 10) {
    const from = Math.max(first, low);
    const to = Math.min(last, low * 10 - 1);
    if (to >= from) sum += (to - from + 1) * tokens(digits);
  }
  return sum;
}

/** Beyond these, the tokens the usage says a result added cannot be that result's (something else shrank or grew
 * the conversation): nothing is learned. */
const USAGE_RATIO_BOUNDS = [0.3, 3] as const;

/** Engine tokens per estimated token of a window's text, from what its result added, less its line numbers
 * (`numbering` by the rule, times `numbersCost`). Undefined when implausible. Pure. */
export function ratioOfUsage(
  resultTokens: number,
  point: number,
  numbering: number,
  numbersCost = 1,
  indentTokens = 0,
): number | undefined {
  const ratio = (resultTokens - numbering * numbersCost - indentTokens) / point;
  return ratio >= USAGE_RATIO_BOUNDS[0] && ratio <= USAGE_RATIO_BOUNDS[1] ? ratio : undefined;
}

/** Under this share of the rule (`lineNumberTokens`), a model's line numbers are taken to cost less than it says:
 * above, the retry's text may simply count a little denser or sparser than the refused window's as a whole. */
export const CHEAPER_LINE_NUMBERS = 0.85;
/** Under this share, what the retry told is not believed (its text must have counted far sparser than the refused
 * window's). */
const LEAST_LINE_NUMBER_COST = 0.3;
/** The least share of the retry's text count that the rule gives its line numbers for the retry to tell their
 * cost: the retry's text counts within a percent or so of the refused window's density (a prefix of text alike), and
 * that percent must stay well under what separates `CHEAPER_LINE_NUMBERS` from the rule. Over the five tokenizers'
 * retries on the rounds corpus and the held-out set, those over it told 0.99-1.07 of the rule; a few long lines told
 * anything from -2 to 5. */
export const NUMBERS_SHARE_TO_TELL = 0.06;

/** What the line numbers of a result cost the model, as a share of the rule's `numbering` tokens for them: from the
 * retry of a refused window (a prefix of it, from the same line, of text alike), whose text is taken to count as the
 * refused window did (`textTokens`: the engine's count of the refused window over its estimate, times the retry's
 * estimate). The rule is the least that every tokenizer measured takes; a model that takes less (one with a token
 * for a 4-digit number, or one sparser on digits) makes every usage understate a window's density, and the windows
 * sized from it are refused (rounds benchmark, a model at 0.75 times o200k: three.module.js refused five times read
 * whole). 1 when the rule holds; undefined when the retry cannot tell. Pure. */
export function lineNumberCost(resultTokens: number, textTokens: number, numbering: number): number | undefined {
  if (numbering < NUMBERS_SHARE_TO_TELL * textTokens) return undefined;
  const cost = (resultTokens - textTokens) / numbering;
  if (cost >= CHEAPER_LINE_NUMBERS) return 1;
  return cost >= LEAST_LINE_NUMBER_COST ? Math.round(cost * 1e3) / 1e3 : undefined;
}

/** The least share of the way from the rule toward a token a digit (`lineNumberDigits`) that a retry must prove
 * for a model's line numbers to be taken to cost more than the rule on every line: under it, an unindented retry's
 * text may simply count a little denser than the refused window's, or a few of its lines be indented. */
export const DIGITS_TO_TELL = 0.4;

/** How far the line numbers of a result cost the model beyond the rule toward a token for each digit and one for
 * the tab (0 the rule, 1 every digit apart): from the retry of a refused window, as `lineNumberCost` reads it. A
 * tokenizer that splits numbers by the digit (Mistral's: 6 tokens for `12345\t`, where the rule takes 3) makes the
 * usage of a window of short lines read up to 40% denser than its text (Babel's parser: 4 tokens a line over the
 * rule, on 10), and every window sized from it that much short. The least the retry proves, less what an error of
 * `RETRY_TEXT_ERROR` in its text's count reads as; 0 where that is under `DIGITS_TO_TELL`. Undefined where the retry
 * cannot tell: half its lines or more are indented (an indented line may cost more instead, `indentationCost`), or
 * that error is worth all that the digits can cost beyond the rule. Pure. */
export function digitSplitCost(
  resultTokens: number,
  textTokens: number,
  numbers: { numbering: number; split: number },
  lines: { indented: number; all: number },
): number | undefined {
  if (lines.indented >= INDENTED_TO_TELL * lines.all) return undefined;
  const room = numbers.split - numbers.numbering;
  const error = RETRY_TEXT_ERROR * textTokens;
  if (error >= room) return undefined;
  const least = (resultTokens - textTokens - error - numbers.numbering) / room;
  if (least < DIGITS_TO_TELL) return 0;
  return Math.round(Math.min(1, least) * 1e3) / 1e3;
}

/** Whether the retry of a refused window proves that the model does not split its line numbers by the digit: even
 * with an error of `RETRY_TEXT_ERROR` in its text's count the other way, they cost under `DIGITS_TO_TELL` of the way
 * from the rule toward a token a digit. Indented lines or not: what an indented line may cost more only adds to it.
 * Stronger than `digitSplitCost`'s 0, which says only that the retry proves no more; it needs numbers of many
 * digits (TypeScript's compiler at lines 12,121-12,877 under Claude-dense: 2.05 tokens a line where the rule takes 2
 * and a token a digit 6). Pure. */
export function refutesDigitSplit(
  resultTokens: number,
  textTokens: number,
  numbers: { numbering: number; split: number },
): boolean {
  const room = numbers.split - numbers.numbering;
  const error = RETRY_TEXT_ERROR * textTokens;
  if (error >= room) return false;
  return (resultTokens - textTokens + error - numbers.numbering) / room < DIGITS_TO_TELL;
}

/** What a model's memory keeps of how far its line numbers cost toward a token a digit (state/memory.ts, `digits`),
 * where it kept `known` (undefined: nothing), once a retry told `told` (`digitSplitCost`; undefined: it could not
 * tell) and proved the rule or not (`refuted`, `refutesDigitSplit`). A proof of the rule is kept over what the
 * model's counts of data seem to say; a retry that proves only no more than the rule forgets a split kept before
 * (the counts may tell it again), not such a proof. Pure. */
export function digitSplitKept(
  known: number | undefined,
  told: number | undefined,
  refuted: boolean,
): number | undefined {
  if (refuted) return 0;
  if (told === undefined) return known;
  if (told > 0) return told;
  return known === 0 ? 0 : undefined;
}

/** The least share of a retry's lines that must be indented for it to tell what an indented line's number costs. */
export const INDENTED_TO_TELL = 0.5;
/** How far a retry's text may count from the refused window's density, the count it is read by (a prefix of text
 * alike): on the rounds benchmark, up to 3.4% (CLDR's Tamil units, which told 2.76 tokens a line where the file
 * takes 1.92). Over the retry's indented lines, that error reads as `RETRY_TEXT_ERROR × text / indented` tokens a
 * line, dearer or cheaper. */
export const RETRY_TEXT_ERROR = 0.03;
/** The share of what a retry proves that is believed. A model's extra cost on an indented line differs with the
 * indentation: under the old Claude tokenizer 1.9 on lines of JSON indented by 2-8 spaces, 1.2 on TypeScript
 * indented by 4, 0.9 on records of a few short fields. With half of it, a later window is seldom read sparser than
 * its model counts it. */
const INDENTATION_BELIEF = 0.5;

/** What the line numbers of a result cost the model beyond the rule on each of its lines that starts with a space
 * or a tab, in tokens: from the retry of a refused window, as `lineNumberCost` reads it. Under the old Claude
 * tokenizer the tab after a line number does not join the indentation after it as the newline before it did, and
 * the line costs 1-2 tokens more than the rule; every other tokenizer measured takes the rule. Half of the least
 * the retry proves: what it told, less what an error of `RETRY_TEXT_ERROR` in its text's count reads as; 0 where that
 * is nothing (the rule may hold). Undefined when the retry cannot tell: too few of its lines indented, or that error
 * worth more than a token a line. Pure. */
export function indentationCost(
  resultTokens: number,
  textTokens: number,
  numbering: number,
  lines: { indented: number; all: number },
): number | undefined {
  if (lines.indented < INDENTED_TO_TELL * lines.all) return undefined;
  const error = (RETRY_TEXT_ERROR * textTokens) / lines.indented;
  if (error > 1) return undefined;
  const least = (resultTokens - textTokens - numbering) / lines.indented - error;
  if (least <= 0) return 0;
  return Math.round(Math.min(MAX_INDENTATION_COST, least * INDENTATION_BELIEF) * 1e3) / 1e3;
}

/** The extra cost of an indented line's number that a model's memory keeps once a retry told `told` (undefined: it
 * could not tell), where it kept `known` (0: none). The least told since is kept: a retry's text may count a little
 * denser than the refused window's, which reads as numbers dearer than they are, and a later window read sparser than
 * its model counts it would be refused. Pure. */
export function indentationKept(known: number, told: number | undefined): number {
  if (told === undefined) return known;
  return known > 0 ? Math.min(known, told) : told;
}
