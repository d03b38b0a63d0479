// Point 5 of issue #3 on the real engine: Reads the pager has no business with come out exactly as they do
// without it — a window that fits, allow_large, a PDF page range, a missing file, a directory, and a read with
// no limit the engine pages itself.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, removeTempDirs } from './harness/engine.mjs';
import { minimalPdf, prose, put } from './harness/files.mjs';
import type { Target } from './harness/reader.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 180_000;

describe('pass-throughs', () => {
  const dir = tempDir('pass');
  const big = put(dir, 'big.txt', prose(300, 31));
  const fits = put(dir, 'fits.txt', prose(300, 32));
  const partial = put(dir, 'partial.txt', prose(300, 33));
  const pdf = put(dir, 'doc.pdf', minimalPdf(['First page of the document.', 'Second page.']));
  const folder = join(dir, 'folder');
  mkdirSync(folder);
  put(folder, 'inside.txt', 'x\n');
  const CASES: Record<string, Target> = {
    'a window that fits': { path: fits, offset: 10, limit: 20, once: true },
    'allow_large: true over the cap': { path: big, offset: 1, limit: 300, extra: { allow_large: true }, once: true },
    'a PDF page range': { path: pdf, extra: { pages: '1' }, once: true },
    'a missing file': { path: join(dir, 'missing.txt'), offset: 1, limit: 3000, once: true },
    'a directory': { path: folder, offset: 1, limit: 3000, once: true },
  };
  let withPager: Session;
  let without: Session;

  it('runs the same Reads with and without the pager', async () => {
    const targets = Object.values(CASES);
    const withPartial = [...targets, { path: partial, once: true }];
    withPager = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets: withPartial });
    without = await readSession({ cwd: dir, hooks: 'none', cap: CAP, targets: withPartial });
    expect(withPager.ok, withPager.run.stderr).toBe(true);
    expect(without.ok, without.run.stderr).toBe(true);
  }, ENGINE_TIMEOUT);

  for (const [name, target] of Object.entries(CASES)) {
    it(`${name}: the model sees exactly what it sees without the pager`, () => {
      const a = withPager.cursor(target.path).steps[0];
      const b = without.cursor(target.path).steps[0];
      expect(a && b).toBeTruthy();
      expect(a!.isError).toBe(b!.isError);
      expect(a!.content).toBe(b!.content);
      expect(a!.notes.filter((t) => /read-ceiling-pager/.test(t))).toEqual([]);
      expect(withPager.ran.get(a!.toolUseId)).toEqual(without.ran.get(b!.toolUseId));
    });
  }

  it('a read with no limit left to the engine: the same partial page, and a note on what is unseen', () => {
    const a = withPager.cursor(partial).steps[0]!;
    const b = without.cursor(partial).steps[0]!;
    expect(a.content).toBe(b.content);
    expect(withPager.ran.get(a.toolUseId)).toEqual(without.ran.get(b.toolUseId));
    const page = without.ran.get(b.toolUseId).file;
    const note = a.notes.find((t) => /read-ceiling-pager/.test(t));
    expect(note).toContain(`This Read without limit showed lines 1-${page.numLines} (`);
    expect(note).toContain("of the file's lines), the engine's partial page, which does not count as having read the file for Write");
    // The model follows the last offset/limit it is told: ours, from the line after the page.
    expect(a.advice?.offset).toBe(page.numLines + 1);
  });

  it('the cases are what they claim to be', () => {
    const step = (p: string) => without.cursor(p).steps[0]!;
    expect(without.readFields, 'the stand-in saw the Read tool the engine offers').toContain('file_path');
    if (without.readFields.includes('allow_large')) {
      expect(step(big).isError).toBe(false);
      expect(step(big).lines.length, 'allow_large read the window over the cap').toBe(300);
    } else {
      // An engine older than allow_large refuses the unknown key; the pager leaves the call alone all the same
      // (`npm run test:engines`).
      expect(step(big).isError).toBe(true);
      expect(step(big).content).toMatch(/`allow_large`/);
    }
    expect(step(fits).lines.map(([n]) => n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 10));
    expect(step(join(dir, 'missing.txt')).isError).toBe(true);
    expect(step(folder).isError).toBe(true);
    expect(without.ran.get(step(partial).toolUseId)?.file?.truncatedByTokenCap).toBe(true);
    expect(step(partial).notes.join('\n')).toMatch(/PARTIAL view/);
  });
});
