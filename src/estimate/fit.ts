// The largest prefix of a window that the engine will not refuse. Pure: lines arrive as text chunks from
// whatever reads the file; the fit keeps counts only.
import { TokenTally } from './density.js';
import { pointByPart } from './file-weights.js';
import { pointByGroup } from './groups.js';
import { SAME_TEXT_SPREAD, type Weights } from './weights.js';

export interface Budget {
  /** The engine's token cap. */
  cap: number;
  /** A window of at most this many UTF-16 units is never counted by the engine, so it always fits. */
  charFloor: number;
  /** Measured true/estimated tokens for this file (1 when nothing was learned). */
  ratio: number;
  /** Multiplier that keeps the estimate on the safe side of the cap. */
  safety: number;
  /** Lines the window asks for (Infinity for a read with no limit). */
  maxLines: number;
  /** Weights in place of the calibrated ones: what a model's counts taught (state/model.ts). */
  weights?: Weights;
  /** Characters (UTF-16 units) per engine token in a window of this file the engine refused: a second measure of
   * the file's density, believed where the estimate sees text of the same kind (`SAME_TEXT_SPREAD`). */
  charsPerToken?: number;
  /** The shares of the estimate by token group of the window a usage taught `ratio` by: the margin then follows how
   * far a window's text differs from it (`safetyForChange`; read by hooks/measure.ts's fitWindow, not by the fit). */
  similar?: readonly number[];
  /** The model's prior weights, for a window of another script than `similar`'s (hooks/measure.ts, not the fit). */
  priorWeights?: Weights;
  /** The largest of the density's last steps over text alike (`safetyForChange`), when it took enough of them. */
  calm?: number;
  /** The largest of the density's last steps over any text (`safetyForChange`), when it took enough of them. */
  steady?: number;
  /** The shares by part of the windows `weights` were fitted to (estimate/file-weights.ts): a window far from all of
   * them is not sized with the margin of a steady density (read by hooks/measure.ts's fitWindow, not by the fit). */
  fitted?: readonly (readonly number[])[];
  /** The engine counts by length, this many UTF-16 units a token (`countedByLength`): a window fits exactly when
   * its rounded length over this is within the cap, and nothing else decides. */
  charsPerCount?: number;
  /** The most UTF-16 units the window's numbered lines may take in the engine's result (an engine that shows a longer
   * result only as a preview: hooks/engine-version.ts), each line's number written as `String(n).padStart(6) + '→'`. */
  resultChars?: number;
  /** The window may take its next line past `safety` where that line is worth the risk (read by hooks/measure.ts,
   * not by the fit: estimate/stretch.ts). */
  stretch?: boolean;
  /** A larger margin than `safety`: the same pass also finds the largest prefix that fits with it, the fit inside
   * this one (`WindowFit.innerResult`), without reading the window a second time. */
  innerSafety?: number;
}

export interface FitResult {
  /** Lines of the largest prefix that fits (0: not even the first line fits). */
  lines: number;
  /** True when the whole window fits: it reached maxLines or the end of the file without overflowing. */
  whole: boolean;
  /** Point estimate (before ratio and safety) of the fitted prefix. */
  pointTokens: number;
  /** UTF-16 length of the fitted prefix, newlines included. */
  chars: number;
  /** Lines of the fitted prefix whose tab after the line number is a token of its own in a numbered result. */
  tabApartLines: number;
  /** Lines of the fitted prefix that start with a space or a tab: their line number's tab meets the indentation. */
  indentedLines: number;
  /** The window stopped where its numbered result would pass `resultChars`, not at the cap. */
  byResultChars: boolean;
}

/** Whether the tab the engine writes between a line's number and its text stays a token of its own before a line
 * that starts with this character (UTF-16 unit): before a digit or ASCII punctuation, '/' too (and before an empty
 * line, which the fit counts apart), and before any character past ASCII (Cyrillic, CJK, an ideographic space), in
 * every tokenizer measured (o200k, cl100k, Llama 3, the old Claude one, GPT-2's). A tab before an ASCII letter or a
 * space often joins the text after it. On a file of one short word a line, such as a Russian or Chinese word list,
 * that tab is a token in six, and on a list of paths one in ten or so: counted as joined, the usage read the text
 * that much denser than it is. */
export function tabStaysApart(firstChar: number): boolean {
  if (firstChar >= 0x80) return true;
  return firstChar >= 0x21 && firstChar <= 0x7e && !isAsciiLetter(firstChar);
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

export class WindowFit {
  private readonly tally = new TokenTally();
  private linesStarted = 0;
  private fittedLines = 0;
  private fittedPoint = 0;
  private fittedChars = 0;
  private tabApart = 0;
  private fittedTabApart = 0;
  private indented = 0;
  private fittedIndented = 0;
  // The current line has no text yet: its first character decides tabApart.
  private lineEmpty = false;
  private whole = false;
  private done = false;
  // The point estimate at a given length, so a line is never estimated twice.
  private pointAtChars = -1;
  private point = 0;
  // The line numbers' share of the numbered result so far, and whether that result's length ended the window.
  private numbering = 0;
  private overResultChars = false;
  // The largest prefix that fits with `budget.innerSafety`, kept as the pass goes on with `budget.safety`.
  private readonly inner = {
    done: false,
    whole: false,
    lines: 0,
    point: 0,
    chars: 0,
    tabApart: 0,
    indented: 0,
    byResultChars: false,
    // What the pass had tallied where this margin failed, as `groups` and `digitCounts` give it for the pass.
    groups: undefined as number[] | undefined,
    digits: undefined as { digits: number; digitRuns: number } | undefined,
  };

  /** `firstLine`: the window's first line number, which sets the width of the numbers (`resultChars`). */
  constructor(
    readonly budget: Budget,
    private readonly firstLine = 1,
  ) {}

  /** Adds chunk[start, end) to the current line. Returns false once the window cannot grow any further. */
  addText(chunk: string, start = 0, end = chunk.length): boolean {
    if (this.done) return false;
    if (this.linesStarted === this.fittedLines) {
      // First text of a new line: the engine joins lines with '\n'.
      if (this.linesStarted > 0) this.tally.add('\n');
      this.numbering += numberWidth(this.firstLine + this.linesStarted);
      this.linesStarted++;
      this.lineEmpty = true;
    }
    if (end > start) {
      if (this.lineEmpty) {
        const c = chunk.charCodeAt(start);
        if (tabStaysApart(c)) this.tabApart++;
        else if (c === 0x20 || c === 0x09) this.indented++;
      }
      this.lineEmpty = false;
      this.tally.add(chunk, start, end);
    }
    if (!this.fits()) this.done = true;
    return !this.done;
  }

  /** Ends the current line (which may be empty). Returns false when the fit is final. */
  endLine(): boolean {
    if (!this.addText('')) return false;
    if (this.lineEmpty) this.tabApart++;
    this.lineEmpty = false;
    this.fittedLines = this.linesStarted;
    this.fittedTabApart = this.tabApart;
    this.fittedIndented = this.indented;
    this.fittedPoint = this.pointTokens();
    this.fittedChars = this.tally.chars;
    const inner = this.inner;
    if (!inner.done) {
      inner.lines = this.fittedLines;
      inner.point = this.fittedPoint;
      inner.chars = this.fittedChars;
      inner.tabApart = this.fittedTabApart;
      inner.indented = this.fittedIndented;
    }
    if (this.fittedLines >= this.budget.maxLines) {
      this.whole = true;
      this.done = true;
      if (!inner.done) inner.whole = inner.done = true;
    }
    return !this.done;
  }

  /** The whole window fits without being estimated (its length alone proves it): `lines` lines, at most
   * `chars` UTF-16 units. */
  acceptWhole(lines: number, chars: number): void {
    this.fittedLines = lines;
    this.fittedChars = chars;
    this.fittedPoint = 0;
    this.fittedTabApart = 0;
    this.fittedIndented = 0;
    this.whole = true;
    this.done = true;
    // Short enough never to be counted: it fits whatever the margin.
    Object.assign(this.inner, { done: true, whole: true, lines, point: 0, chars, tabApart: 0, indented: 0 });
  }

  /** The end of the file was reached: a window that never overflowed fits whole. */
  endOfFile(): void {
    if (!this.done) this.whole = true;
    this.done = true;
    if (!this.inner.done) this.inner.whole = this.inner.done = true;
  }

  result(): FitResult {
    return {
      lines: this.fittedLines,
      whole: this.whole,
      pointTokens: this.fittedPoint,
      chars: this.fittedChars,
      tabApartLines: this.fittedTabApart,
      indentedLines: this.fittedIndented,
      byResultChars: this.overResultChars,
    };
  }

  /** What a fit with `budget.innerSafety` alone would find (undefined without one): its lines end where that margin
   * first failed, as such a fit stops there, with what the pass had tallied by then. */
  innerResult(): (FitResult & { groups: number[]; digits: number; digitRuns: number }) | undefined {
    if (this.budget.innerSafety === undefined) return undefined;
    const n = this.inner;
    return {
      groups: n.groups ?? this.groups(),
      ...(n.digits ?? this.digitCounts()),
      lines: n.lines,
      whole: n.whole,
      pointTokens: n.point,
      chars: n.chars,
      tabApartLines: n.tabApart,
      indentedLines: n.indented,
      byResultChars: n.byResultChars,
    };
  }

  /** The calibrated point estimate of everything tallied so far, by token group (estimate/groups.ts). */
  groups(): number[] {
    return pointByGroup(this.tally.f);
  }

  /** The same by the finer parts a file's own weights are fitted on (estimate/file-weights.ts). */
  parts(): number[] {
    return pointByPart(this.tally.f);
  }

  /** The digits and the runs of digits of everything tallied so far: what a model that splits numbers by the digit
   * counts them by (state/model.ts, `splitsDigits`). */
  digitCounts(): { digits: number; digitRuns: number } {
    return { digits: this.tally.f.digits, digitRuns: this.tally.f.digitRuns };
  }

  private pointTokens(): number {
    if (this.pointAtChars !== this.tally.chars) {
      this.point = this.tally.tokens(this.budget.weights);
      this.pointAtChars = this.tally.chars;
    }
    return this.point;
  }

  private fits(): boolean {
    const innerSafety = this.budget.innerSafety;
    if (innerSafety !== undefined && !this.inner.done) {
      const inner = this.fitsAt(innerSafety);
      if (inner !== 'fits') {
        this.inner.done = true;
        this.inner.byResultChars = inner === 'result-chars';
        this.inner.groups = this.groups();
        this.inner.digits = this.digitCounts();
      }
    }
    const fit = this.fitsAt(this.budget.safety);
    if (fit === 'result-chars') this.overResultChars = true;
    return fit === 'fits';
  }

  /** Whether everything tallied so far fits with the margin `safety`, or what stops it. */
  private fitsAt(safety: number): 'fits' | 'tokens' | 'result-chars' {
    const chars = this.tally.chars;
    const most = this.budget.resultChars;
    if (most !== undefined && chars + this.numbering > most) return 'result-chars';
    const perCount = this.budget.charsPerCount;
    if (perCount !== undefined) return Math.round(chars / perCount) <= this.budget.cap ? 'fits' : 'tokens';
    if (chars <= this.budget.charFloor) return 'fits';
    const safe = this.pointTokens() * this.budget.ratio * safety;
    if (safe > this.budget.cap) return 'tokens';
    // Where the estimate sees the same kind of text as the refused window, or a little sparser, the refused window's
    // characters per token bound the window too: the estimate's own sense of "sparser" is what a refusal proved
    // wrong once (rounds benchmark: every file refused twice was refused where the estimate thinned and the count
    // did not). Text the estimate finds much sparser (prose after CJK) is another kind, sized by the estimate.
    const cpt = this.budget.charsPerToken;
    if (cpt === undefined) return 'fits';
    const estimatedCpt = (chars * safety) / Math.max(safe, Number.MIN_VALUE);
    return estimatedCpt > cpt * SAME_TEXT_SPREAD || (chars * safety) / cpt <= this.budget.cap ? 'fits' : 'tokens';
  }
}

/** The characters an engine that numbers lines with an arrow writes before line `n`: the number padded to six, and
 * the arrow. */
export function numberWidth(n: number): number {
  return Math.max(6, String(n).length) + 1;
}
