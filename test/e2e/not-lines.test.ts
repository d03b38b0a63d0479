// Reads the engine does not read as numbered lines, on the real engine: an image (known by its extension, or from
// 2.1.187 by its first bytes where its name has none) and a PDF go to the model as they are and a notebook as all of
// its cells, whatever offset and limit say (docs/ENGINE.md §1). The pager leaves such Reads exactly as they are, and
// after a notebook over the cap it says why no window helps, where the engine's own message says to use offset and
// limit.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { knowsImagesBySignature } from '../../src/hooks/engine-version';
import { ENGINE, removeTempDirs, tempDir } from './harness/engine.mjs';
import { minimalPdf, prose, put } from './harness/files.mjs';
import type { Target } from './harness/reader.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);
const CAP = 3000;
const version = /\d+\.\d+\.\d+/.exec(spawnSync(ENGINE[0]!, [...ENGINE.slice(1), '--version'], { encoding: 'utf8' }).stdout)?.[0];
const ENGINE_TIMEOUT = 300_000;

/** PNG's CRC-32 (zlib.crc32 is only in Node 20.15 and later). */
function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A valid PNG of random pixels: it does not compress, so it is as large as its pixels. */
function noisePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const row = width * 3 + 1;
  const raw = randomBytes(row * height);
  for (let y = 0; y < height; y++) raw[y * row] = 0; // filter byte: none
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** A notebook of code cells whose outputs are prose: about 340 tokens a cell. */
function notebook(cells: number): string {
  const cell = (i: number) => ({
    cell_type: 'code', execution_count: i, metadata: {}, source: [`x${i} = ${i}\n`, 'print(x)\n'],
    outputs: [{ output_type: 'stream', name: 'stdout', text: prose(20, i).split('\n').map((l) => `${l}\n`) }],
  });
  const cellsOf = Array.from({ length: cells }, (_, i) => cell(i));
  return JSON.stringify({ cells: cellsOf, metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1);
}

describe('Reads of images, PDFs and notebooks', () => {
  const dir = tempDir('not-lines');
  const image = join(dir, 'screenshot.png');
  writeFileSync(image, noisePng(400, 300)); // 352 KiB: over 256 KiB, and its bytes estimate far over the cap
  // No extension: the engine knows it for an image by its first bytes.
  const unnamed = join(dir, 'screenshot');
  writeFileSync(unnamed, noisePng(400, 300));
  const pdf = put(dir, 'manual.pdf', minimalPdf(Array.from({ length: 1500 }, (_, i) => `Page ${i + 1}: ${'text '.repeat(12)}`)));
  const nb = put(dir, 'analysis.ipynb', notebook(30));
  const CASES: Record<string, Target> = {
    'an image over 256 KiB, read whole': { path: image, once: true },
    // Engines before 2.1.187 read it as text: a Read of lines the pager sizes like any other.
    ...(knowsImagesBySignature(version) ? { 'an image named without an extension, read whole': { path: unnamed, once: true } } : {}),
    'a PDF over 256 KiB, read whole': { path: pdf, once: true },
    'a notebook over the cap, in a window': { path: nb, offset: 1, limit: 40, once: true },
  };
  const WINDOWED: Record<string, Target> = {
    'an image, in a window': { path: image, offset: 1, limit: 2000, once: true },
    ...(knowsImagesBySignature(version)
      ? { 'an image named without an extension, in a window': { path: unnamed, offset: 1, limit: 2000, once: true } }
      : {}),
    'a PDF, in a window': { path: pdf, offset: 1, limit: 50, once: true },
  };
  let withPager: Session[];
  let without: Session[];

  it('runs the same Reads with and without the pager', async () => {
    const run = (hooks: 'pager' | 'none') => Promise.all([CASES, WINDOWED].map((cases) =>
      readSession({ cwd: dir, hooks, cap: CAP, targets: Object.values(cases), keepHome: true })));
    [withPager, without] = [await run('pager'), await run('none')];
    for (const s of [...withPager, ...without]) expect(s.ok, s.run.stderr).toBe(true);
  }, ENGINE_TIMEOUT);

  const step = (sessions: Session[], target: Target) => {
    const s = sessions.find((x) =>
      x.cursors.some((c) => c.path === target.path && c.steps[0]?.asked.limit === target.limit))!;
    return { s, step: s.cursor(target.path).steps[0]! };
  };

  for (const [name, target] of Object.entries({ ...CASES, ...WINDOWED })) {
    it(`${name}: the engine runs it as asked and returns what it returns without the pager`, () => {
      const a = step(withPager, target);
      const b = step(without, target);
      expect(a.step.isError).toBe(b.step.isError);
      expect(a.step.content).toBe(b.step.content);
      expect(a.s.ran.get(a.step.toolUseId)).toEqual(b.s.ran.get(b.step.toolUseId));
      // pre sent nothing for it: no updatedInput in the transcript's record of the hook's output.
      const records = readFileSync(a.s.transcript!, 'utf8').split('\n').filter((l) => l.includes(a.step.toolUseId));
      expect(records.filter((l) => l.includes('updatedInput'))).toEqual([]);
      if (target.path !== nb) expect(a.step.notes.filter((t) => t.includes('read-ceiling-pager'))).toEqual([]);
      if (target.path === unnamed) expect(a.s.ran.get(a.step.toolUseId)?.type, 'read as an image').toBe('image');
    });
  }

  it('a notebook over the cap: the note says a Read returns all of it whatever the window, and how to see its cells', () => {
    const { step: refused } = step(withPager, CASES['a notebook over the cap, in a window']!);
    expect(refused.isError).toBe(true);
    expect(refused.content).toMatch(/exceeds maximum allowed tokens \(3000\)\. Use offset and limit parameters/);
    const notes = refused.notes.filter((t) => t.includes('read-ceiling-pager'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(`${nb} is a notebook: a Read returns all of its cells whatever offset and limit say`);
    expect(notes[0]).toMatch(/so no Read of this notebook fits\. A shell shows its 30 cells a few at a time, for example `jq '\.cells\[0:\d+\]' /);
    expect(notes[0]).not.toMatch(/offset=\d/);
  });
});
