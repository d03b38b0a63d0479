// Reads a window of a file the way the engine sees it (BOM stripped, UTF-16LE decoded, CRLF as LF) and streams
// it into a fit, stopping as soon as the fit is final: a window near the start of a huge file costs one chunk,
// and memory stays flat whatever the line lengths.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { WindowFit } from './fit.js';

const CHUNK = 64 * 1024;

export interface ScanResult {
  /** The window reached the end of the file. */
  eof: boolean;
  /** The deadline passed before the fit was final; the result must not be trusted. */
  timedOut: boolean;
  /** The file has fewer lines than the window's first line. */
  startBeyondEnd: boolean;
}

export class NotARegularFile extends Error {}

/** Whether the engine that runs this process decodes a file that starts with UTF-16LE's mark as UTF-16LE (2.1.299
 * and later, and so until told otherwise) or as UTF-8, as any other (docs/ENGINE.md §3.1). A fact of the engine, not
 * of a window: `pre` and `post` set it once a run, from the engine's version (`readAsEngine`, hooks/measure.ts). */
let utf16leAfterMark = true;

export function decodeUtf16leAfterMark(decodes: boolean): void {
  utf16leAfterMark = decodes;
}

/** Feeds lines startLine, startLine+1, … (1-based, as the engine numbers them) into `fit`. */
export function scanWindow(path: string, startLine: number, fit: WindowFit, deadline: number): ScanResult {
  // O_NONBLOCK: a path swapped for a FIFO after the stat must not block the open.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new NotARegularFile(path);
    return scanFd(fd, startLine, fit, deadline);
  } finally {
    closeSync(fd);
  }
}

function scanFd(fd: number, startLine: number, fit: WindowFit, deadline: number): ScanResult {
  const buf = Buffer.allocUnsafe(CHUNK);
  let filePos = 0;
  let n = readSync(fd, buf, 0, CHUNK, filePos);
  filePos += n;

  // The engine knows two byte order marks, UTF-8's and UTF-16LE's (before 2.1.299 only UTF-8's); anything else, a
  // UTF-16BE mark among them, it decodes as UTF-8 (docs/ENGINE.md §3.1), and so must the estimate, or it counts half
  // or twice the characters the engine shows.
  let encoding: 'utf-8' | 'utf-16le' = 'utf-8';
  let start = 0;
  if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
  else if (utf16leAfterMark && n >= 2 && buf[0] === 0xff && buf[1] === 0xfe) { encoding = 'utf-16le'; start = 2; }

  const lines = new LineSplitter(fit, Math.max(0, startLine - 1));
  const decoder = new TextDecoder(encoding, { fatal: false });
  // A window short enough never to be counted may still number past an engine's result limit: fitted line by line.
  let triedBytes =
    encoding !== 'utf-8' || fit.budget.charFloor > MAX_BYTE_LOOKAHEAD || fit.budget.resultChars !== undefined;

  while (n > 0) {
    if (Date.now() > deadline) return { eof: false, timedOut: true, startBeyondEnd: false };
    let from = start;
    if (encoding === 'utf-8' && lines.toSkip > 0) {
      // Skip whole lines on bytes: in UTF-8 the byte 0x0A is only ever a newline.
      while (lines.toSkip > 0) {
        const nl = buf.indexOf(10, from);
        if (nl < 0 || nl >= n) { from = n; break; }
        from = nl + 1;
        lines.toSkip--;
      }
    }
    if (!triedBytes && lines.toSkip === 0) {
      triedBytes = true;
      const short = shortWindow(fd, filePos - n + from, fit.budget.maxLines, fit.budget.charFloor);
      if (short) {
        fit.acceptWhole(short.lines, short.bytes);
        return { eof: short.eof, timedOut: false, startBeyondEnd: false };
      }
    }
    if (from < n) {
      const text = decoder.decode(buf.subarray(from, n), { stream: true });
      if (!lines.push(text)) return { eof: false, timedOut: false, startBeyondEnd: false };
    }
    start = 0;
    n = readSync(fd, buf, 0, CHUNK, filePos);
    filePos += n;
  }
  const tail = decoder.decode();
  if (tail.length > 0 && !lines.push(tail)) return { eof: false, timedOut: false, startBeyondEnd: false };
  if (lines.toSkip > 0) return { eof: true, timedOut: false, startBeyondEnd: true };
  lines.end();
  return { eof: true, timedOut: false, startBeyondEnd: false };
}

/** Most windows are far under the cap. One whose UTF-8 bytes (each UTF-16 unit takes at least one) end
 * within the never-counted floor fits whole, which a byte search shows without decoding or estimating it. */
const MAX_BYTE_LOOKAHEAD = 256 * 1024;

function shortWindow(
  fd: number, at: number, maxLines: number, floor: number,
): { lines: number; bytes: number; eof: boolean } | undefined {
  const buf = Buffer.allocUnsafe(floor + 1);
  const n = readSync(fd, buf, 0, floor + 1, at);
  let lines = 1;
  let from = 0;
  for (;;) {
    const nl = buf.indexOf(10, from);
    if (nl < 0 || nl >= n) break;
    if (lines === maxLines) return { lines, bytes: nl, eof: false }; // the window ends before this newline
    lines++;
    from = nl + 1;
  }
  // No newline ends the window within the bytes read: it fits only if the file ended there.
  return n <= floor ? { lines, bytes: n, eof: true } : undefined;
}

/** Splits decoded text into lines for the fit, skipping the first `toSkip` lines. */
class LineSplitter {
  private pendingCR = false;

  constructor(private readonly fit: WindowFit, public toSkip: number) {}

  /** Returns false once the fit is final. */
  push(text: string): boolean {
    let pos = 0;
    while (pos <= text.length) {
      const nl = text.indexOf('\n', pos);
      const segmentEnd = nl < 0 ? text.length : nl;
      if (this.toSkip > 0) {
        if (nl < 0) return true;
        this.toSkip--;
        pos = nl + 1;
        continue;
      }
      if (!this.addSegment(text, pos, segmentEnd)) return false;
      if (nl < 0) return true;
      this.pendingCR = false; // a CR right before LF is part of the line ending
      if (!this.fit.endLine()) return false;
      pos = nl + 1;
    }
    return true;
  }

  end(): void {
    this.pendingCR = false; // a lone trailing CR is dropped from the rendered last line
    if (this.fit.endLine()) this.fit.endOfFile();
  }

  private addSegment(text: string, from: number, to: number): boolean {
    // A CR held back from the previous chunk is text after all, unless this segment is empty (then either an
    // LF follows at once, making it CRLF, or the chunk ended and it stays pending).
    if (this.pendingCR && to > from) {
      this.pendingCR = false;
      if (!this.fit.addText('\r')) return false;
    }
    // Hold back a CR at the end: it is part of the line ending if an LF follows (CRLF counts as LF).
    if (to > from && text.charCodeAt(to - 1) === 13) {
      this.pendingCR = true;
      to--;
    }
    return this.fit.addText(text, from, to);
  }
}
