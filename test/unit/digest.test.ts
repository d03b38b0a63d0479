import { describe, expect, it } from 'vitest';
import { contentDigest, lineSketch, SKETCH_SIZE, sketchResemblance } from '../../src/state/digest';
import { SAME_FILE_RESEMBLANCE } from '../../src/state/memory';

describe('contentDigest', () => {
  const text = Buffer.from('export declare function f(x: number): string;\n'.repeat(1000) + 'tail');

  it('is the same for the same bytes, wherever they sit in memory', () => {
    const copy = Buffer.alloc(text.length + 3);
    text.copy(copy, 3);
    const unaligned = copy.subarray(3);
    expect(unaligned.byteOffset % 4).not.toBe(0);
    expect(contentDigest(unaligned)).toBe(contentDigest(text));
    expect(contentDigest(text)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('differs for one byte changed anywhere, in the words or in the tail, and for one byte more', () => {
    const seen = new Set([contentDigest(text)]);
    for (const at of [0, 1, 2, 3, 1000, text.length - 5, text.length - 1]) {
      const edited = Buffer.from(text);
      edited[at] = edited[at]! ^ 1;
      seen.add(contentDigest(edited));
    }
    seen.add(contentDigest(Buffer.concat([text, Buffer.from(' ')])));
    seen.add(contentDigest(Buffer.concat([text, Buffer.from('\0')])));
    expect(seen.size).toBe(10);
  });

  it('tells apart the lengths of short texts of zero bytes', () => {
    const digests = [0, 1, 2, 3, 4, 5].map((n) => contentDigest(new Uint8Array(n)));
    expect(new Set(digests).size).toBe(6);
  });
});

describe('lineSketch', () => {
  const lines = Array.from({ length: 400 }, (_, i) => `  const value${i} = compute(${i * 7}, "item number ${i}");`);
  const sketch = (ls: string[], eol = '\n') => lineSketch(Buffer.from(ls.join(eol)));

  it('keeps the smallest distinct line hashes, ascending, and at most SKETCH_SIZE of them', () => {
    const s = sketch(lines);
    expect(s).toHaveLength(SKETCH_SIZE);
    expect([...s].sort((a, b) => a - b)).toEqual(s);
    expect(new Set(s).size).toBe(s.length);
    expect(sketch([...lines, ...lines])).toEqual(s);
  });

  it('is the same for lines moved, reindented or ending in CRLF, and leaves short lines out', () => {
    const s = sketch(lines);
    expect(sketch([...lines].reverse())).toEqual(s);
    expect(sketch(lines.map((l) => `\t${l.trim()}  `))).toEqual(s);
    expect(sketch(lines, '\r\n')).toEqual(s);
    expect(sketch(['}', '', '  return x;', 'short line here'])).toEqual([]);
  });

  it('a file with a tenth of its lines changed resembles its earlier version; another text does not', () => {
    const s = sketch(lines);
    const edited = lines.map((l, i) => (i % 10 === 3 ? `${l} // changed` : l));
    expect(sketchResemblance(s, sketch(edited))).toBeGreaterThanOrEqual(SAME_FILE_RESEMBLANCE);
    expect(sketchResemblance(s, sketch(lines.slice(40)))).toBeGreaterThanOrEqual(SAME_FILE_RESEMBLANCE);
    const other = lines.map((l) => l.replace('compute', 'measure'));
    expect(sketchResemblance(s, sketch(other))).toBe(0);
    expect(sketchResemblance(s, [])).toBe(0);
    expect(sketchResemblance(s, s)).toBe(1);
  });
});
