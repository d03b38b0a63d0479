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

/** How many line hashes a file's sketch keeps: the smallest of them (a bottom-k MinHash over its distinct lines). Two
 * versions of a file that share most of their lines share most of these; another text at the same path shares none. */
export const SKETCH_SIZE = 8;
/** Lines shorter than this, trimmed, are left out: `}`, blank lines and short keywords recur in unrelated files. */
export const SKETCH_MIN_LINE = 16;

/** The file's sketch: the `SKETCH_SIZE` smallest distinct 32-bit hashes of its lines (each trimmed of the spaces,
 * tabs and CR around it, and at least `SKETCH_MIN_LINE` bytes; by its first `LINE_HASH_BYTES` and its length),
 * ascending. A line moved, or lines inserted before it, keep its hash. Pure. */
export function lineSketch(bytes: Uint8Array): number[] {
  const kept: number[] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    let a = start;
    let b = end;
    while (a < b && isBlank(bytes[a]!)) a++;
    while (b > a && isBlank(bytes[b - 1]!)) b--;
    if (b - a >= SKETCH_MIN_LINE) keepSmallest(kept, lineHash(bytes, a, b));
    start = end + 1;
  }
  return kept;
}

/** The share of lines two sketches' files have in common, estimated: of the `SKETCH_SIZE` smallest hashes of the
 * two together, those in both. 0 where either is empty. Pure. */
export function sketchResemblance(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const union = [...new Set([...a, ...b])].sort((x, y) => x - y).slice(0, SKETCH_SIZE);
  const inA = new Set(a);
  const inB = new Set(b);
  return union.filter((h) => inA.has(h) && inB.has(h)).length / union.length;
}

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d;
}

/** Bytes of a line that its hash reads, with its length: enough to tell lines apart, and a file of long lines (a
 * minified bundle) costs no more to sketch than to read. */
const LINE_HASH_BYTES = 64;

/** FNV-1a over the line's first bytes, finished with its length by MurmurHash3's mix, so that the smallest values
 * are spread evenly. */
function lineHash(bytes: Uint8Array, a: number, b: number): number {
  let h = 0x811c9dc5;
  const end = Math.min(b, a + LINE_HASH_BYTES);
  for (let i = a; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return finish(h, b - a);
}

function keepSmallest(kept: number[], h: number): void {
  if (kept.length === SKETCH_SIZE && h >= kept[SKETCH_SIZE - 1]!) return;
  if (kept.includes(h)) return;
  let i = kept.length;
  while (i > 0 && kept[i - 1]! > h) i--;
  kept.splice(i, 0, h);
  if (kept.length > SKETCH_SIZE) kept.pop();
}
