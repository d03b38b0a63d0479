// docs/ENGINE.md §3.2 on the real engine, which the pager's sizing stands on (`neverCountedChars`,
// src/estimate/cap.ts): the engine asks count_tokens about a window only when its own estimate by length is over a
// quarter of the cap, so a window of at most `cap` UTF-16 units (`cap / 2` for JSON files) is never counted and never
// refused on tokens, however dense its text. The model here counts ten tokens a character, so any window the engine
// counts is refused. No hook runs: this is the engine's own rule, checked on every engine of the matrix
// (`scripts/engines.json`), for the day it changes.
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import { put } from './harness/files.mjs';
import { scriptSession } from './harness/session.mjs';
import type { ToolOutcome } from './harness/standin.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 180_000;
const CAP = 3000;
/** Ten tokens a UTF-16 unit: any window the engine counts is over the cap. */
const denseCount = (text: string) => 10 * text.length;

/** `count` lines of `width` UTF-16 units, the `at`-th (1-based) `extra` units longer, cycling through `alphabet`, so
 * that a window from line 1 has an exact length. Lines differ, as real ones do. */
function lines(count: number, width: number, alphabet: string, at = 0, extra = 0): string {
  const chars = [...alphabet];
  const out: string[] = [];
  for (let i = 1; i <= count; i++) {
    const n = width + (i === at ? extra : 0);
    let line = '';
    for (let k = 0; line.length < n; k++) line += chars[(i * 7 + k) % chars.length];
    out.push(line.slice(0, n));
  }
  return `${out.join('\n')}\n`;
}

/** The length of a window from line 1 as the engine measures it: its lines joined by newlines. */
const windowLength = (text: string, limit: number) => text.split('\n').slice(0, limit).join('\n').length;

interface Case {
  name: string;
  file: string;
  /** Lines 1..`under` are exactly the floor; 1..`over` are past it. */
  text: string;
  floor: number;
  under: number;
  over: number;
}

const ASCII = 'the quick brown fox jumps over a lazy dog 0123456789 {}[]();,.';
// Each line 99 units and line 30 one more: lines 1-30 are 29 × 99 + 100 + 29 newlines = 3,000 units.
const CJK = '頁面的每一行都是中文字符這些文字在編碼後占三個字節但只是一個單位';
const CASES: Case[] = [
  { name: 'text', file: 'dense.txt', text: lines(60, 99, ASCII, 30, 1), floor: CAP, under: 30, over: 31 },
  // The floor is in UTF-16 units, not bytes: these 3,000 units are 8,942 bytes of UTF-8.
  { name: 'CJK text', file: 'dense-cjk.txt', text: lines(60, 99, CJK, 30, 1), floor: CAP, under: 30, over: 31 },
  // JSON files are estimated at two units a token: lines 1-15 are 14 × 99 + 100 + 14 = 1,500 units.
  { name: 'a .json file', file: 'dense.json', text: lines(40, 99, ASCII, 15, 1), floor: CAP / 2, under: 15, over: 16 },
  { name: 'a .jsonl file', file: 'dense.jsonl', text: lines(40, 99, ASCII, 15, 1), floor: CAP / 2, under: 15, over: 16 },
];

describe(`the engine's length floor (cap ${CAP}; a model that counts ten tokens a character)`, () => {
  for (const c of CASES) {
    it(`${c.name}: a window of ${c.floor} units is never counted nor refused; one past it is counted and refused`, async () => {
      expect(windowLength(c.text, c.under), 'the case is what it claims').toBe(c.floor);
      expect(windowLength(c.text, c.over)).toBeGreaterThan(c.floor + 2);
      const dir = tempDir('floor');
      const path = put(dir, c.file, c.text);
      const s = await scriptSession({
        cwd: dir, hooks: 'none', cap: CAP, count: denseCount,
        script: [
          { reads: [{ file_path: path, offset: 1, limit: c.under }] },
          { reads: [{ file_path: path, offset: 1, limit: c.over }] },
        ],
      });
      expect(s.ok, s.run.stderr).toBe(true);
      const [under, over] = s.observations.slice(1).map((o) => o.results[0]) as [ToolOutcome, ToolOutcome];
      const window = (limit: number) => c.text.split('\n').slice(0, limit).join('\n');

      expect(under.isError, under.content.slice(0, 300)).toBe(false);
      expect(under.content.split('\n').map((l) => l.replace(/^\s*\d+\t/, ''))).toEqual(window(c.under).split('\n'));
      expect(s.counts.filter((x) => x.text === window(c.under)), 'the floor window was counted').toEqual([]);

      expect(over.isError, over.content.slice(0, 300)).toBe(true);
      expect(over.content).toContain(`exceeds maximum allowed tokens (${CAP})`);
      expect(s.counts.some((x) => x.text === window(c.over)), 'the window past the floor was counted').toBe(true);
    }, ENGINE_TIMEOUT);
  }
});
