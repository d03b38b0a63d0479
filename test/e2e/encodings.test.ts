// Files in the encodings Windows tools write, read through the real engine (docs/ENGINE.md §3.1): the engine decodes
// UTF-16LE after its byte order mark (from 2.1.299; earlier ones read it as UTF-8) and everything else as UTF-8, a
// UTF-16BE file too (NULs and two U+FFFD where its mark was). The pager must see the text the engine shows: estimated
// as decoded UTF-16, a UTF-16BE window holds half the characters the engine counts, and its first window and the
// advice after the refusal were both refused. On every engine of `npm run test:engines`.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodesUtf16le } from '../../src/hooks/engine-version';
import { ranges } from './harness/check.mjs';
import { ENGINE, removeTempDirs, tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 180_000;

const version = /\d+\.\d+\.\d+/.exec(spawnSync(ENGINE[0]!, [...ENGINE.slice(1), '--version'], { encoding: 'utf8' }).stdout)?.[0];

/** The lines the engine shows of a file: UTF-16LE after FF FE (from 2.1.299), else UTF-8; the mark dropped, CRLF
 * as LF. */
function engineLines(path: string): string[] {
  const buf = readFileSync(path);
  const utf16le = buf[0] === 0xff && buf[1] === 0xfe && decodesUtf16le(version);
  const text = utf16le ? buf.subarray(2).toString('utf16le') : buf.toString('utf8');
  return text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n').split('\n');
}

const text = F.prose(250, 5).replace(/the/g, 'thé');
const utf16le = (s: string) => Buffer.from(s, 'utf16le');
const KINDS: Array<{ name: string; file: string; bytes: Buffer }> = [
  // What Windows PowerShell 5's `>` writes.
  { name: 'UTF-16LE with its mark, CRLF', file: 'out-le.txt', bytes: utf16le(`\uFEFF${F.crlf(text)}`) },
  { name: 'UTF-16BE with its mark', file: 'out-be.txt', bytes: utf16le(`\uFEFF${text}`).swap16() },
  // What Notepad's "UTF-8 with BOM" writes.
  { name: 'UTF-8 with its mark, CRLF', file: 'notepad.txt', bytes: Buffer.from(`\uFEFF${F.crlf(text)}`) },
  { name: 'UTF-16LE without a mark', file: 'out-le-bare.txt', bytes: utf16le(text) },
  { name: 'Latin-1', file: 'latin1.txt', bytes: Buffer.from(text, 'latin1') },
];

/** Lines missing, read twice, or not as the engine shows them. */
function misread(s: Session, path: string) {
  const want = engineLines(path);
  const seen = new Map<number, number>();
  const wrong: number[] = [];
  for (const [n, line] of s.cursor(path).received) {
    seen.set(n, (seen.get(n) ?? 0) + 1);
    if (line !== want[n - 1]) wrong.push(n);
  }
  const needed = want.at(-1) === '' ? want.length - 1 : want.length;
  const missing = Array.from({ length: needed }, (_, i) => i + 1).filter((n) => !seen.has(n));
  const twice = [...seen].filter(([, k]) => k > 1).map(([n]) => n);
  return { missing: ranges(missing), twice: ranges(twice), wrong: ranges(wrong) };
}

describe(`files in the encodings Windows tools write (cap ${CAP}, Claude Code ${version})`, () => {
  const dir = tempDir('encodings');
  for (const kind of KINDS) {
    it(`${kind.name}: every line as the engine shows it, no refusal, no more calls than without the pager`, async () => {
      const path = join(dir, kind.file);
      writeFileSync(path, kind.bytes);
      for (const target of [{ path, offset: 1, limit: 100_000 }, { path }]) {
        const s = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets: [target] });
        const bare = await readSession({ cwd: dir, hooks: 'none', cap: CAP, targets: [target] });
        expect(s.ok && bare.ok, s.run.stderr + bare.run.stderr).toBe(true);
        const c = s.cursor(path);
        const trail = c.steps.map((st) => `${JSON.stringify(st.asked)} → ${st.isError ? 'refused' : st.decision}`).join('\n');
        expect(misread(s, path), trail).toEqual({ missing: '', twice: '', wrong: '' });
        expect(c.refusals, trail).toBe(0);
        expect(c.steps.length, trail).toBeLessThanOrEqual(bare.cursor(path).steps.length);
      }
    }, ENGINE_TIMEOUT);
  }
});
