import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeUtf16leAfterMark, NotARegularFile, scanWindow } from '../../src/estimate/window.js';
import { WindowFit } from '../../src/estimate/fit.js';

/** A fit that records the lines it is fed, up to `max` lines. */
class Recorder {
  lines: string[] = [];
  current: string | undefined;
  eof = false;
  readonly budget = { charFloor: Infinity, maxLines: Infinity }; // no byte shortcut: every line is fed
  constructor(private readonly max = Infinity) {}
  addText(chunk: string, start = 0, end = chunk.length): boolean { this.current = (this.current ?? '') + chunk.slice(start, end); return true; }
  endLine(): boolean {
    this.lines.push(this.current ?? '');
    this.current = undefined;
    return this.lines.length < this.max;
  }
  endOfFile(): void { this.eof = true; }
}

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'rcp-window-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: Buffer | string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}
function scan(path: string, startLine = 1, max = Infinity) {
  const rec = new Recorder(max);
  const result = scanWindow(path, startLine, rec as unknown as WindowFit, Date.now() + 60_000);
  return { ...result, lines: rec.lines, eof: rec.eof };
}

describe('scanWindow sees the file as the engine does', () => {
  it('strips a UTF-8 BOM', () => {
    expect(scan(file('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo\nworld')]))).lines).toEqual(['héllo', 'world']);
  });

  it('decodes UTF-16LE with a BOM', () => {
    const p = file('u16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('한국어\r\nline two\n', 'utf16le')]));
    expect(scan(p).lines).toEqual(['한국어', 'line two', '']);
  });

  it('reads UTF-16LE as UTF-8, mark and all, where the engine is older than 2.1.299', () => {
    const p = file('u16-old.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ab\ncd', 'utf16le')]));
    decodeUtf16leAfterMark(false);
    try {
      expect(scan(p).lines).toEqual(['\uFFFD\uFFFDa\0b\0', '\0c\0d\0']);
    } finally {
      decodeUtf16leAfterMark(true);
    }
    expect(scan(p).lines).toEqual(['ab', 'cd']);
  });

  it('decodes UTF-16BE, BOM and all, as UTF-8, as the engine does: the NULs and two U+FFFD it shows', () => {
    const p = file('u16be.txt', Buffer.from('\uFEFFab\r\ncd', 'utf16le').swap16());
    expect(scan(p).lines).toEqual(['\uFFFD\uFFFD\0a\0b\0\r\0', '\0c\0d']);
  });

  it('treats CRLF as LF, also when the CR ends one 64 KiB chunk and the LF starts the next', () => {
    const first = 'a'.repeat(64 * 1024 - 1); // its CR is the chunk's last byte
    const p = file('crlf.txt', `${first}\r\nsecond\r\nthird`);
    expect(scan(p).lines).toEqual([first, 'second', 'third']);
  });

  it('keeps a lone CR inside a line and drops a lone trailing CR', () => {
    expect(scan(file('cr.txt', 'a\rb\nend\r')).lines).toEqual(['a\rb', 'end']);
  });

  it('ends a file without a final newline on its last line, and counts the empty line after one', () => {
    expect(scan(file('nofinal.txt', 'one\ntwo')).lines).toEqual(['one', 'two']);
    expect(scan(file('final.txt', 'one\ntwo\n')).lines).toEqual(['one', 'two', '']);
  });

  it('reads an empty file as one empty line', () => {
    const r = scan(file('empty.txt', ''));
    expect(r.lines).toEqual(['']);
    expect(r.eof).toBe(true);
  });

  it('starts at startLine and says when the file has fewer lines', () => {
    const p = file('ten.txt', Array.from({ length: 10 }, (_, i) => `L${i + 1}`).join('\n'));
    expect(scan(p, 9).lines).toEqual(['L9', 'L10']);
    const beyond = scan(p, 12);
    expect(beyond.startBeyondEnd).toBe(true);
    expect(beyond.lines).toEqual([]);
  });

  it('feeds a 450,000-character line whole, in pieces, and the line after it', () => {
    const long = 'x'.repeat(450_000);
    const fit = new WindowFit({ cap: Infinity, charFloor: Infinity, ratio: 1, safety: 1, maxLines: Infinity });
    scanWindow(file('long.txt', `${long}\nafter\n`), 1, fit, Date.now() + 60_000);
    expect(fit.result()).toMatchObject({ lines: 3, whole: true, chars: 450_000 + 1 + 5 + 1 });
    expect(scan(join(dir, 'long.txt'), 2).lines).toEqual(['after', '']);
  });

  it('stops early: a window near the start of a 4 GiB sparse file reads only its first chunks', () => {
    const p = join(dir, 'huge.log');
    writeFileSync(p, Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    const fd = openSync(p, 'r+');
    writeSync(fd, Buffer.from('\n'), 0, 1, 4 * 1024 ** 3);
    closeSync(fd);
    const r = scan(p, 5, 3);
    expect(r.lines).toEqual(['line 5', 'line 6', 'line 7']);
    expect(r.eof).toBe(false);
    expect(r.timedOut).toBe(false);
    const fit = new WindowFit({ cap: 25_000, charFloor: 25_000, ratio: 1, safety: 1.1, maxLines: 10 });
    expect(scanWindow(p, 1, fit, Date.now() + 60_000).eof).toBe(false);
    expect(fit.result()).toMatchObject({ lines: 10, whole: true });
  });

  it('gives up at the deadline rather than read on', () => {
    const r = scanWindow(file('late.txt', 'a\nb\n'), 1, new Recorder() as unknown as WindowFit, Date.now() - 1);
    expect(r.timedOut).toBe(true);
  });

  it('refuses a directory', () => {
    const d = join(dir, 'sub');
    mkdirSync(d);
    expect(() => scan(d)).toThrow(NotARegularFile);
  });
});

describe('a window whose bytes end within the never-counted floor fits without being estimated', () => {
  const budget = (maxLines: number, charFloor = 100) => ({ cap: 1, charFloor, ratio: 1, safety: 1, maxLines });

  it('stops at the window\'s last line when its bytes are within the floor', () => {
    const path = file('short-window.txt', `${'x'.repeat(30)}\n${'y'.repeat(30)}\n${'z'.repeat(300)}\n`);
    const fit = new WindowFit(budget(2));
    const r = scanWindow(path, 1, fit, Date.now() + 60_000);
    expect(fit.result()).toMatchObject({ lines: 2, whole: true, chars: 61 });
    expect(r.eof).toBe(false);
  });

  it('reaches the end of the file within the floor: the window fits to the end', () => {
    const path = file('short-tail.txt', 'a\nb\nc');
    const fit = new WindowFit(budget(100));
    expect(scanWindow(path, 2, fit, Date.now() + 60_000).eof).toBe(true);
    expect(fit.result()).toMatchObject({ lines: 2, whole: true });
  });

  it('a window longer than the floor in bytes is estimated as usual (cap 1: only its first line fits by length)', () => {
    const path = file('long-window.txt', `${'x'.repeat(60)}\n${'y'.repeat(60)}\n`);
    const fit = new WindowFit(budget(2));
    scanWindow(path, 1, fit, Date.now() + 60_000);
    expect(fit.result()).toMatchObject({ lines: 1, whole: false, chars: 60 });
  });

  it('multi-byte text: bytes over the floor though characters are not, so it is estimated, and still fits', () => {
    const path = file('cjk-window.txt', `${'語'.repeat(40)}\n${'語'.repeat(40)}`); // 81 chars, 241 bytes
    const fit = new WindowFit({ ...budget(2), cap: 1e9 });
    scanWindow(path, 1, fit, Date.now() + 60_000);
    expect(fit.result()).toMatchObject({ lines: 2, whole: true, chars: 81 });
    expect(fit.result().pointTokens).toBeGreaterThan(0);
  });
});
