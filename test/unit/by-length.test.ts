// An engine that counts by length (count_tokens unavailable, docs/ENGINE.md §3.3): how the pager recognises it, sizes
// windows by it, and keeps it per session and per model. Pure.
import { describe, expect, it } from 'vitest';
import { countedByLength, lengthDivisor } from '../../src/estimate/cap.js';
import { WindowFit, type Budget } from '../../src/estimate/fit.js';
import { LENGTH_SIZING, budgetFor } from '../../src/hooks/measure.js';
import { countsByLength } from '../../src/hooks/sizing.js';
import {
  countsByLengthOf, emptyMemory, MEMORY_MAX_AGE_MS, normalizeMemory, observationsOf, withObservation,
  withModelCountsByLength as memoryByLength,
} from '../../src/state/memory.js';
import { emptyState, normalizeState, withCountsByLength } from '../../src/state/session.js';
import { GROUP_COUNT } from '../../src/estimate/groups.js';
import { memoryFinding } from '../../src/install/diagnosis.js';

function fitLines(lines: string[], b: Budget) {
  const fit = new WindowFit(b);
  let i = 0;
  for (; i < lines.length; i++) if (!fit.addText(lines[i]!) || !fit.endLine()) break;
  if (i === lines.length) fit.endOfFile();
  return fit.result();
}

describe('a count by length', () => {
  it('is the window\'s length over 4, or over 2 for JSON, rounded as the engine rounds', () => {
    expect(lengthDivisor('/a/b.txt')).toBe(4);
    expect(lengthDivisor('/a/b.JSONL')).toBe(2);
    expect(countedByLength(25_100, 100_400, '/a/b.txt')).toBe(true);
    expect(countedByLength(25_100, 100_401, '/a/b.txt')).toBe(true);
    expect(countedByLength(25_101, 100_402, '/a/b.txt')).toBe(true); // Math.round, as the engine: half up
    expect(countedByLength(25_100, 100_402, '/a/b.txt')).toBe(false);
    expect(countedByLength(25_100, 100_397, '/a/b.txt')).toBe(false);
    expect(countedByLength(50_200, 100_400, '/a/b.json')).toBe(true);
    expect(countedByLength(25_100, 100_400, '/a/b.json')).toBe(false);
    expect(countedByLength(0, 0, '/a/b.txt')).toBe(false);
  });

  it('sizes a window exactly: the largest prefix whose rounded length over 4 is within the cap', () => {
    const lines = Array.from({ length: 100 }, (_, i) => '한국어 문장'.repeat(1 + (i % 5)));
    const b = budgetFor('/f.txt', 300, LENGTH_SIZING, Infinity);
    expect(b.charsPerCount).toBe(4);
    const r = fitLines(lines, b);
    const len = (n: number) => lines.slice(0, n).join('\n').length;
    expect(Math.round(len(r.lines) / 4)).toBeLessThanOrEqual(300);
    expect(Math.round(len(r.lines + 1) / 4)).toBeGreaterThan(300);
    // The estimate (Hangul about a token a letter) would take a fraction of it.
    const estimated = fitLines(lines, { cap: 300, charFloor: 0, ratio: 1, safety: 1, maxLines: Infinity });
    expect(estimated.lines * 2).toBeLessThan(r.lines);
    expect(budgetFor('/f.json', 300, LENGTH_SIZING, Infinity).charsPerCount).toBe(2);
  });
});

describe('counting by length is kept per session and per model', () => {
  const obs = (at: number) => ({ point: new Array<number>(GROUP_COUNT).fill(1), tokens: 100, at });

  it('the session\'s own last count decides; before any, the model\'s last count in an earlier session', () => {
    const now = 1_000_000;
    const memory = memoryByLength(emptyMemory(), 'glm-4.6', true, now);
    expect(countsByLength({ ...emptyState(), model: 'glm-4.6' }, memory, now)).toBe(true);
    expect(countsByLength({ ...emptyState(), model: 'claude-opus-4-6' }, memory, now)).toBe(false);
    // A session not yet named by its transcript goes by the last model the memory saw.
    expect(countsByLength(emptyState(), memory, now)).toBe(true);
    // A count of this session by a tokenizer outweighs the memory.
    expect(countsByLength(withCountsByLength({ ...emptyState(), model: 'glm-4.6' }, false), memory, now)).toBe(false);
    expect(countsByLength(withCountsByLength(emptyState(), true), emptyMemory(), now)).toBe(true);
    // It ages out with the rest of the memory.
    expect(countsByLengthOf(memory, 'glm-4.6', now + MEMORY_MAX_AGE_MS + 1)).toBe(false);
  });

  it('a later count by a tokenizer clears it; observations and the flag live side by side', () => {
    let m = memoryByLength(emptyMemory(), 'm', true, 10);
    m = withObservation(m, 'm', obs(20));
    expect(countsByLengthOf(m, 'm', 30)).toBe(true);
    expect(observationsOf(m, 'm', 30)).toHaveLength(1);
    m = memoryByLength(m, 'm', false, 40);
    expect(countsByLengthOf(m, 'm', 50)).toBe(false);
    expect(observationsOf(m, 'm', 50)).toHaveLength(1);
    expect(memoryByLength(emptyMemory(), 'x', false, 1)).toEqual(emptyMemory());
  });

  it('survives the state files\' round trip, and a damaged value is dropped', () => {
    const m = memoryByLength(emptyMemory(), 'm', true, 10);
    expect(normalizeMemory(JSON.parse(JSON.stringify(m)), GROUP_COUNT)).toEqual(m);
    expect(countsByLengthOf(normalizeMemory({ models: { m: { observations: [], countsByLength: 'yes' } } }, GROUP_COUNT), 'm', 10)).toBe(false);
    const s = withCountsByLength(emptyState(), false);
    expect(normalizeState(JSON.parse(JSON.stringify(s))).countsByLength).toBe(false);
    expect(normalizeState({ ...emptyState(), countsByLength: 1 }).countsByLength).toBeUndefined();
  });
});

describe('doctor says what the memory holds', () => {
  it('names each model whose engine counted by length, and how to forget', () => {
    const now = 5_000_000;
    let m = withObservation(emptyMemory(), 'claude-opus-4-6', { point: new Array<number>(GROUP_COUNT).fill(1), tokens: 9, at: now });
    m = memoryByLength(m, 'glm-4.6', true, now);
    const f = memoryFinding('/s/memory.v1.json', m, now);
    expect(f.level).toBe('ok');
    expect(f.text).toBe('/s/memory.v1.json: the densities of 0 files; 1 count of 2 models; '
      + 'counted by length (an API without count_tokens): glm-4.6 (delete the file to forget)');
    expect(memoryFinding('/s/memory.v1.json', m, now + MEMORY_MAX_AGE_MS + 1).text).not.toContain('by length');
    expect(memoryFinding('/s/memory.v1.json', undefined, now).text).toBe('/s/memory.v1.json: nothing remembered yet');
  });
});
