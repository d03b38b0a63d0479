// A file's content as the memory recognizes it elsewhere: the same bytes at another path (a clone, a worktree,
// another project's node_modules) or rewritten unchanged (a checkout) are the same text, with the same density.

/** Files up to this size are recognized by their content; a larger one is hashed on no Read (about 1 ms a MiB). */
export const DIGEST_MAX_BYTES = 16 * 1024 * 1024;

/** 64 bits of the content: MurmurHash3's 32-bit mixing run twice, with two seeds, over the bytes as 32-bit words,
 * then the tail, each lane finished with the length. Pure JS on purpose: loading node:crypto costs a hook several
 * milliseconds. Not a defence against a file made to collide: a collision costs a window sized by another file's
 * density, never a lost line. Pure. */
export function contentDigest(bytes: Uint8Array): string {
  const words = bytes.length >>> 2;
  // Uint32Array needs an aligned offset; a small Buffer from Node's pool may not have one (a copy does: a Buffer's
  // own slice() would be a view).
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
  const view = new Uint32Array(aligned.buffer, aligned.byteOffset, words);
  let h1 = 0x9747b28c;
  let h2 = 0x3c6ef372;
  for (let i = 0; i < words; i++) {
    const k = mixWord(view[i]!);
    h1 = mixLane(h1, k);
    h2 = mixLane(h2, k ^ 0x5bd1e995);
  }
  let tail = 0;
  for (let i = words * 4; i < bytes.length; i++) tail = (tail << 8) | bytes[i]!;
  if (bytes.length % 4 !== 0) {
    h1 ^= mixWord(tail);
    h2 ^= mixWord(tail ^ 0x5bd1e995);
  }
  return hex(finish(h1, bytes.length)) + hex(finish(h2, bytes.length));
}

function mixWord(x: number): number {
  const k = Math.imul(x, 0xcc9e2d51);
  return Math.imul((k << 15) | (k >>> 17), 0x1b873593);
}

function mixLane(h: number, k: number): number {
  const x = h ^ k;
  return (Math.imul((x << 13) | (x >>> 19), 5) + 0xe6546b64) | 0;
}

function finish(h: number, length: number): number {
  let x = h ^ length;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}
