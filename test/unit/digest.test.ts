import { describe, expect, it } from 'vitest';
import { contentDigest } from '../../src/state/digest';

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
