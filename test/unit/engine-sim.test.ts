// The rounds benchmark's engine simulation on the figures docs/ENGINE.md gives for the real engine (2.1.332), its
// fast window counts against whole-text counts, and the oracle's windows against the simulated engine. The
// simulation as a whole is checked against the real engine by test/e2e/rounds-sim.test.ts.
import { describe, expect, it } from 'vitest';
import { coerceInput, formatSize, resultText, simFile, simulateRead, windowText } from '../../scripts/lib/engine-sim.mjs';
import { largestWindow, oracle } from '../../scripts/lib/oracle.mjs';
import { countText, tokenizerNamed, verifyAdditivity } from '../../scripts/lib/token-count.mjs';

const file = (text: string, path = '/repo/big.txt') => simFile(path, Buffer.from(text, 'utf8'));
/** count_tokens as a fixed density, so the figures are docs/ENGINE.md's own. */
const density = (f: ReturnType<typeof file>, charsPerToken: number) => (i0: number, i1: number) =>
  Math.round(windowText(f, i0, i1).length / charsPerToken);

describe('engine simulation', () => {
  it('decodes as the engine does: UTF-16LE after its mark, UTF-16BE and everything else as UTF-8', () => {
    const le = simFile('/r/le.txt', Buffer.from('\uFEFFa\r\nb', 'utf16le'));
    const be = simFile('/r/be.txt', Buffer.from('\uFEFFa\nb', 'utf16le').swap16());
    const bom = simFile('/r/bom.txt', Buffer.from('\uFEFFa\r\nb', 'utf8'));
    expect([le.lines, be.lines, bom.lines]).toEqual([['a', 'b'], ['\uFFFD\uFFFD\0a\0', '\0b'], ['a', 'b']]);
  });

  it('sizes as the engine writes them (docs/ENGINE.md §2.4, §5.2)', () => {
    expect([505_000, 262_145, 262_144, 3_200_000, 640_000, 384_000, 900].map(formatSize))
      .toEqual(['493.2KB', '256KB', '256KB', '3.1MB', '625KB', '375KB', '900 bytes']);
  });

  it('coerces input before any hook (docs/ENGINE.md §1.1)', () => {
    expect(coerceInput({ file_path: '/a', offset: '3000', limit: [3] })).toEqual({ file_path: '/a', offset: 3000, limit: 3 });
    expect(coerceInput({ file_path: '/a', offset: -5, limit: 0 })).toEqual({ file_path: '/a' });
    expect(coerceInput({ file_path: '/a', length: 2, description: 'x' })).toEqual({ file_path: '/a', limit: 2 });
  });

  it('a whole-file read over the cap is a PARTIAL page of 1099 of 3001 lines at 58000 tokens (docs/ENGINE.md §4.4)', () => {
    const f = file(Array.from({ length: 3000 }, (_, i) => `line ${i + 1} ${'x'.repeat(60)}`).join('\n') + '\n');
    const whole = f.text.length;
    const r = simulateRead(f, { file_path: f.path }, {
      count: (i0, i1) => (i1 - i0 === 3001 ? 58_000 : Math.round(windowText(f, i0, i1).length / (whole / 58_000))),
    });
    expect(r.kind).toBe('partial');
    expect(r.response.file)
      .toMatchObject({ numLines: 1099, startLine: 1, totalLines: 3001, truncatedByTokenCap: true });
    expect(r.banner).toMatch(/^\[Truncated: PARTIAL view — \/repo\/big\.txt: showing lines 1-1099 of 3001 total \(58000 tokens, cap 25000\)\. Call Read with offset=1100 limit=1099 for the next page, or Grep/);
    expect(r.content.split('\n')[0]).toBe('1\tline 1 ' + 'x'.repeat(60));
  });

  it('a page of very long lines is an excerpt of 63750 of 200001 characters (docs/ENGINE.md §4.4)', () => {
    const f = file('y'.repeat(200_000) + '\n', '/repo/long.txt');
    const r = simulateRead(f, { file_path: f.path }, { count: () => 66_667 });
    expect(r.banner).toContain('showing the first 63750 of 200001 characters (66667 tokens, cap 25000); this file has very long lines');
  });

  it('an explicit window over the cap is refused with the engine\'s text; one of at most cap characters is never counted (docs/ENGINE.md §3.2)', () => {
    const f = file('word '.repeat(20).concat('\n').repeat(3000));
    const r = simulateRead(f, { file_path: f.path, offset: 1, limit: 3000 }, { count: density(f, 2) });
    expect(r.isError).toBe(true);
    expect(r.error).toMatch(/^File content \(\d+ tokens\) exceeds maximum allowed tokens \(25000\)\. Use offset and limit parameters .* To read it anyway, up to what still fits in your context, call Read again with allow_large: true — only if/);
    const small = simulateRead(f, { file_path: f.path, offset: 1, limit: 240 }, { count: () => { throw new Error('counted'); } });
    expect(small).toMatchObject({ isError: false, counted: false, lines: 240 });
  });

  it('no limit on a file over 256 KiB is a size error, also from past the end (docs/ENGINE.md §2.4)', () => {
    const f = file(('a'.repeat(99) + '\n').repeat(2700));
    expect(f.size).toBeGreaterThan(262_144);
    for (const input of [{ file_path: f.path }, { file_path: f.path, offset: 99_999 }]) {
      expect(simulateRead(f, input, { count: density(f, 4) }).error).toMatch(/^File content \(263\.\dKB\) exceeds maximum allowed size \(256KB\)\./);
    }
    expect(simulateRead(f, { file_path: f.path, offset: 99_999, limit: 5 }, { count: density(f, 4) }).content)
      .toBe('<system-reminder>Warning: the file exists but is shorter than the provided offset (99999). The file has 2701 lines.</system-reminder>');
  });

  it('numbers lines as the engine does: offset 0 from 0, the empty last line counted, CRLF and BOM dropped (docs/ENGINE.md §1.4, §3.1)', () => {
    const f = file('\uFEFFa\r\nb\r\nc\n');
    expect(f.lines).toEqual(['a', 'b', 'c', '']);
    expect(simulateRead(f, { file_path: f.path, offset: 0, limit: 2 }, { count: density(f, 4) }).content).toBe('0\ta\n1\tb');
    const last = simulateRead(f, { file_path: f.path, offset: 4, limit: 9 }, { count: density(f, 4) });
    expect(last.content).toBe('4\t');
    expect(last.response.file).toMatchObject({ numLines: 1, startLine: 4, totalLines: 4 });
    expect(resultText({ content: '', numLines: 1, startLine: 1, totalLines: 1 })).toBe('<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>');
  });

  it('counts a window by pieces exactly as its whole text, for every tokenizer', () => {
    const lines: string[] = [];
    for (let i = 0; i < 900; i++) lines.push(i % 5 === 0 ? '' : `${'  '.repeat(i % 4)}${i % 3 ? 'const' : '// note'} value${i} = "문서 ${i}"; /* x */`);
    const f = file(lines.join('\n') + '\n', '/repo/mix.ts');
    let r = 1;
    const rnd = () => { r = (r * 48271) % 2147483647; return r / 2147483647; };
    for (const name of ['o200k', 'cl100k', 'claude-legacy', 'claude-dense']) {
      expect(verifyAdditivity(f, tokenizerNamed(name), 12, rnd), name).toEqual([]);
      expect(countText(name)(f.text)).toBeGreaterThan(0);
    }
  });

  it('plays a model none of the five is: NAME*FACTOR counts NAME\'s tokens times FACTOR, by pieces as whole', () => {
    const f = file(Array.from({ length: 600 }, (_, i) => `  item ${i}: "값 ${i}", // ${i % 7}`).join('\n') + '\n', '/repo/a.ts');
    let r = 7;
    const rnd = () => { r = (r * 48271) % 2147483647; return r / 2147483647; };
    for (const [name, base, factor] of [['claude-dense*1.3', 'claude-dense', 1.3], ['o200k*0.75', 'o200k', 0.75]] as const) {
      expect(countText(name)(f.text)).toBe(Math.ceil(countText(base)(f.text) * factor));
      expect(verifyAdditivity(f, tokenizerNamed(name), 8, rnd), name).toEqual([]);
    }
    expect(() => tokenizerNamed('o200k*0')).toThrow(/over 0/);
    expect(() => tokenizerNamed('gpt9*1.2')).toThrow(/unknown tokenizer gpt9/);
  });

  it('plays a real model none of the five is: r50k counts every space of indentation, by pieces as whole', () => {
    const lines = Array.from({ length: 600 }, (_, i) => `${' '.repeat(2 + 2 * (i % 5))}"unit-${i}": "${i} km/h",`);
    const f = file(lines.join('\n') + '\n', '/repo/units.json');
    let r = 11;
    const rnd = () => { r = (r * 48271) % 2147483647; return r / 2147483647; };
    expect(verifyAdditivity(f, tokenizerNamed('r50k'), 12, rnd)).toEqual([]);
    // What sets it apart from the five, and why the estimate misses it: each extra space of a run is a token.
    const flat = lines.map((l) => l.trimStart()).join('\n') + '\n';
    const extraSpaces = lines.reduce((a, l) => a + l.length - l.trimStart().length - 1, 0);
    expect(countText('r50k')(f.text) - countText('r50k')(flat)).toBeGreaterThan(0.9 * extraSpaces);
    expect(countText('o200k')(f.text) - countText('o200k')(flat)).toBeLessThan(0.4 * extraSpaces);
  });
});

describe('the oracle', () => {
  // 3000 lines of about 17 tokens at 4 characters a token, line 2000 alone over the cap.
  const lines = Array.from({ length: 3000 }, (_, i) =>
    (i === 1999 ? 'z'.repeat(150_000) : `line ${i + 1} ${'x'.repeat(60)}`));
  const f = file(lines.join('\n') + '\n');
  const count = density(f, 4);
  const counter = { count, cheapEnds: [] };
  const refused = (offset: number, limit: number) =>
    simulateRead(f, { file_path: f.path, offset, limit }, { count }).isError;

  it('takes from a line the most lines the engine does not refuse, and none from a line alone over the cap', () => {
    for (const first of [1, 700, 1500]) {
      const n = largestWindow(f, counter, 25_000, first);
      expect(n, `from ${first}`).toBeGreaterThan(400);
      expect(refused(first, n), `from ${first}`).toBe(false);
      expect(refused(first, n + 1), `from ${first}`).toBe(true);
    }
    expect(largestWindow(f, counter, 25_000, 2000)).toBe(0);
    // To the last line, not the empty one after the final newline.
    expect(largestWindow(f, counter, 25_000, 2001)).toBe(1000);
  });

  it('reads the file in its largest windows, skipping the line no window holds', () => {
    const o = oracle(f, counter, 25_000);
    expect(o.oversize).toEqual([2000]);
    let next = 1;
    for (const [first, n] of o.windows) {
      expect(first).toBe(next === 2000 ? 2001 : next);
      expect(n).toBe(largestWindow(f, counter, 25_000, first));
      next = first + n;
    }
    expect(next).toBe(3001);
    expect(o.calls).toBe(o.windows.length);
  });
});
