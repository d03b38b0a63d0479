// The arithmetic of learning a density from the usage: the line numbers a result carries, and the ratio's bounds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lineNumberTokens, measureWindow, usageRatio } from '../../src/hooks/measure';

const dir = mkdtempSync(join(tmpdir(), 'rcp-usage-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lineNumberTokens: the least the line numbers of a result count', () => {
  it('one token per group of three digits of each number', () => {
    expect(lineNumberTokens(1, 9)).toBe(9);
    expect(lineNumberTokens(998, 4)).toBe(1 + 1 + 2 + 2);
    expect(lineNumberTokens(999_999, 2)).toBe(2 + 3);
    expect(lineNumberTokens(1, 2000)).toBe(999 + 2 * 1001);
  });
});

describe('usageRatio', () => {
  const path = join(dir, 'a.txt');
  writeFileSync(path, Array.from({ length: 400 }, (_, i) => `line ${i + 1} holds some words of plain prose`).join('\n'));
  const point = measureWindow(path, 1, 400, Date.now() + 5000).pointTokens;

  it('is what the result added less its line numbers, per estimated token of the window', () => {
    const numbers = lineNumberTokens(1, 400);
    expect(usageRatio(path, { first: 1, lines: 400 }, point * 0.8 + numbers, Date.now() + 5000)).toBeCloseTo(0.8, 6);
  });

  it('nothing when the figure cannot be the result\'s own (something else grew or shrank the conversation)', () => {
    expect(usageRatio(path, { first: 1, lines: 400 }, point * 0.1, Date.now() + 5000)).toBeUndefined();
    expect(usageRatio(path, { first: 1, lines: 400 }, point * 5, Date.now() + 5000)).toBeUndefined();
  });
});
