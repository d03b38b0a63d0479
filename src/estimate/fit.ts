// The largest prefix of a window that the engine will not refuse. Pure: lines arrive as text chunks from
// whatever reads the file; the fit keeps counts only.
import { TokenTally } from './density.js';

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
}

export class WindowFit {
  private readonly tally = new TokenTally();
  private linesStarted = 0;
  private fitted: FitResult = { lines: 0, whole: false, pointTokens: 0, chars: 0 };
  private done = false;

  constructor(readonly budget: Budget) {}

  /** Adds text of the current line. Returns false once the window cannot grow any further. */
  addText(chunk: string): boolean {
    if (this.done) return false;
    if (this.linesStarted === this.fitted.lines) {
      // First text of a new line: the engine joins lines with '\n'.
      if (this.linesStarted > 0) this.tally.add('\n');
      this.linesStarted++;
    }
    if (chunk.length > 0) this.tally.add(chunk);
    if (!this.fits()) this.done = true;
    return !this.done;
  }

  /** Ends the current line (which may be empty). Returns false when the fit is final. */
  endLine(): boolean {
    if (!this.addText('')) return false;
    this.fitted = {
      lines: this.linesStarted,
      whole: false,
      pointTokens: this.tally.tokens(),
      chars: this.tally.chars,
    };
    if (this.fitted.lines >= this.budget.maxLines) {
      this.fitted.whole = true;
      this.done = true;
    }
    return !this.done;
  }

  /** The end of the file was reached: a window that never overflowed fits whole. */
  endOfFile(): void {
    if (!this.done) this.fitted.whole = true;
    this.done = true;
  }

  result(): FitResult {
    return { ...this.fitted };
  }

  /** Safe estimate of everything tallied so far, in the engine's tokens. */
  safeTokens(): number {
    return this.tally.tokens() * this.budget.ratio * this.budget.safety;
  }

  private fits(): boolean {
    return this.tally.chars <= this.budget.charFloor || this.safeTokens() <= this.budget.cap;
  }
}
