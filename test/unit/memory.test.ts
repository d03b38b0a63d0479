import { describe, expect, it } from 'vitest';
import { memoryFinding } from '../../src/install/diagnosis';
import {
  digitSplitCostOf, emptyMemory, indentationCostOf, lineNumberCostOf, MEMORY_MAX_AGE_MS, MEMORY_MAX_FILES,
  MEMORY_MAX_MODELS,
  MEMORY_MAX_OBSERVATIONS, normalizeMemory, observationsOf, rememberedFile, withFile, withIndentationCost,
  withDigitSplitCost, withLineNumberCost, withObservation,
} from '../../src/state/memory';

describe('memory across sessions', () => {
  it('a file\'s learned density is remembered while the file is unchanged, and ages out', () => {
    let m = withFile(emptyMemory(), '/f', { size: 10, mtimeMs: 5, ratio: 1.3, at: 1000 });
    expect(rememberedFile(m, '/f', 10, 5)?.ratio).toBe(1.3);
    expect(rememberedFile(m, '/f', 10, 6)).toBeUndefined();
    m = withFile(m, '/g', { size: 1, mtimeMs: 1, ratio: 1, at: 1000 + MEMORY_MAX_AGE_MS + 1 });
    expect(rememberedFile(m, '/f', 10, 5)).toBeUndefined();
    for (let i = 0; i < MEMORY_MAX_FILES + 10; i++) m = withFile(m, `/h${i}`, { size: 1, mtimeMs: 1, ratio: 1, at: 2e12 + i });
    expect(Object.keys(m.files)).toHaveLength(MEMORY_MAX_FILES);
  });

  it('keeps the newest observations per model, a bounded number of models, and the last model seen', () => {
    let m = emptyMemory();
    for (let i = 0; i < MEMORY_MAX_OBSERVATIONS + 5; i++) m = withObservation(m, 'claude-x', { point: [1, 2, 0, 0], tokens: 10 + i, at: 1e12 + i });
    const kept = observationsOf(m, 'claude-x', 1e12 + 100);
    expect(kept).toHaveLength(MEMORY_MAX_OBSERVATIONS);
    expect(kept.at(-1)?.tokens).toBe(10 + MEMORY_MAX_OBSERVATIONS + 4);
    expect(observationsOf(m, 'claude-x', 1e12 + MEMORY_MAX_AGE_MS + 1e6)).toEqual([]);
    for (let i = 0; i < MEMORY_MAX_MODELS + 3; i++) m = withObservation(m, `model-${i}`, { point: [1, 0, 0, 0], tokens: 1, at: 2e12 + i });
    expect(Object.keys(m.models)).toHaveLength(MEMORY_MAX_MODELS);
    expect(m.lastModel).toBe(`model-${MEMORY_MAX_MODELS + 2}`);
    expect(withObservation(emptyMemory(), 'bad name with spaces', { point: [1, 0, 0, 0], tokens: 1, at: 1 })).toEqual(emptyMemory());
  });

  it('keeps what a model\'s line numbers cost where it is under the rule, until the rule holds again or it ages out', () => {
    let m = withLineNumberCost(emptyMemory(), 'claude-x', 1, 1e12);
    expect(m).toEqual(emptyMemory());
    m = withLineNumberCost(m, 'claude-x', 0.72, 1e12);
    expect(lineNumberCostOf(m, 'claude-x', 1e12 + 5)).toBe(0.72);
    expect(lineNumberCostOf(m, 'claude-y', 1e12 + 5)).toBe(1);
    expect(lineNumberCostOf(m, undefined, 1e12 + 5)).toBe(1);
    expect(lineNumberCostOf(m, 'claude-x', 1e12 + MEMORY_MAX_AGE_MS + 1)).toBe(1);
    // Kept beside the model's counts, through a save and a load.
    m = withObservation(m, 'claude-x', { point: [1, 0, 0, 0], tokens: 3, at: 1e12 + 1 });
    expect(lineNumberCostOf(normalizeMemory(JSON.parse(JSON.stringify(m)), 4), 'claude-x', 1e12 + 5)).toBe(0.72);
    m = withLineNumberCost(m, 'claude-x', 1, 1e12 + 2);
    expect(lineNumberCostOf(m, 'claude-x', 1e12 + 5)).toBe(1);
    expect(m.models['claude-x']?.observations).toHaveLength(1);
    // `doctor` names it.
    const told = withLineNumberCost(emptyMemory(), 'claude-x', 0.72, 1e12);
    expect(memoryFinding('/s/memory.v1.json', told, 1e12 + 5).text).toContain('line numbers cheaper than the rule: claude-x (0.72 of it)');
    expect(memoryFinding('/s/memory.v1.json', m, 1e12 + 5).text).not.toContain('line numbers');
    const hostile = { models: { a: { observations: [], lineNumbers: { cost: 0, at: 1 } }, b: { observations: [], lineNumbers: { cost: 1.5, at: 1 } }, c: { observations: [], lineNumbers: 'x' } } };
    for (const name of ['a', 'b', 'c']) expect(normalizeMemory(hostile, 4).models[name]?.lineNumbers).toBeUndefined();
  });

  it('keeps how far a model\'s line numbers cost toward a token a digit, until a retry tells none or it ages out', () => {
    let m = withDigitSplitCost(emptyMemory(), 'mistral-x', 0, 1e12);
    expect(m).toEqual(emptyMemory());
    m = withDigitSplitCost(m, 'mistral-x', 0.85, 1e12);
    expect(digitSplitCostOf(m, 'mistral-x', 1e12 + 5)).toBe(0.85);
    expect(digitSplitCostOf(m, 'claude-y', 1e12 + 5)).toBe(0);
    expect(digitSplitCostOf(m, undefined, 1e12 + 5)).toBe(0);
    expect(digitSplitCostOf(m, 'mistral-x', 1e12 + MEMORY_MAX_AGE_MS + 1)).toBe(0);
    // Kept beside the model's counts and its indented lines' cost, through a save and a load.
    m = withIndentationCost(withObservation(m, 'mistral-x', { point: [1, 0, 0, 0], tokens: 3, at: 1e12 + 1 }), 'mistral-x', 0.5, 1e12 + 1);
    const loaded = normalizeMemory(JSON.parse(JSON.stringify(m)), 4);
    expect(digitSplitCostOf(loaded, 'mistral-x', 1e12 + 5)).toBe(0.85);
    expect(indentationCostOf(loaded, 'mistral-x', 1e12 + 5)).toBe(0.5);
    expect(memoryFinding('/s/memory.v1.json', m, 1e12 + 5).text).toContain('line numbers dearer, toward a token a digit: mistral-x (0.85 of the way)');
    m = withDigitSplitCost(m, 'mistral-x', 0, 1e12 + 2);
    expect(digitSplitCostOf(m, 'mistral-x', 1e12 + 5)).toBe(0);
    expect(m.models['mistral-x']?.observations).toHaveLength(1);
    expect(memoryFinding('/s/memory.v1.json', m, 1e12 + 5).text).not.toContain('digit');
    const hostile = { models: { a: { observations: [], digits: { split: 0, at: 1 } }, b: { observations: [], digits: { split: 1.5, at: 1 } }, c: { observations: [], digits: 'x' }, d: { observations: [], digits: { split: 0.5, at: null } } } };
    for (const name of ['a', 'b', 'c', 'd']) expect(normalizeMemory(hostile, 4).models[name]?.digits).toBeUndefined();
  });

  it('keeps what an indented line\'s number costs a model beyond the rule, until a retry tells none or it ages out', () => {
    let m = withIndentationCost(emptyMemory(), 'claude-x', 0, 1e12);
    expect(m).toEqual(emptyMemory());
    m = withIndentationCost(m, 'claude-x', 0.95, 1e12);
    expect(indentationCostOf(m, 'claude-x', 1e12 + 5)).toBe(0.95);
    expect(indentationCostOf(m, 'claude-y', 1e12 + 5)).toBe(0);
    expect(indentationCostOf(m, undefined, 1e12 + 5)).toBe(0);
    expect(indentationCostOf(m, 'claude-x', 1e12 + MEMORY_MAX_AGE_MS + 1)).toBe(0);
    // Kept beside the model's counts and line-number cost, through a save and a load.
    m = withLineNumberCost(withObservation(m, 'claude-x', { point: [1, 0, 0, 0], tokens: 3, at: 1e12 + 1 }), 'claude-x', 0.9, 1e12 + 1);
    const loaded = normalizeMemory(JSON.parse(JSON.stringify(m)), 4);
    expect(indentationCostOf(loaded, 'claude-x', 1e12 + 5)).toBe(0.95);
    expect(lineNumberCostOf(loaded, 'claude-x', 1e12 + 5)).toBe(0.9);
    // `doctor` names it.
    expect(memoryFinding('/s/memory.v1.json', m, 1e12 + 5).text).toContain('line numbers dearer on indented lines: claude-x (+0.95 a line)');
    m = withIndentationCost(m, 'claude-x', 0, 1e12 + 2);
    expect(indentationCostOf(m, 'claude-x', 1e12 + 5)).toBe(0);
    expect(m.models['claude-x']?.observations).toHaveLength(1);
    expect(memoryFinding('/s/memory.v1.json', m, 1e12 + 5).text).not.toContain('indented');
    const hostile = { models: { a: { observations: [], indentation: { extra: 0, at: 1 } }, b: { observations: [], indentation: { extra: 9, at: 1 } }, c: { observations: [], indentation: 'x' }, d: { observations: [], indentation: { extra: 1, at: 'x' } } } };
    for (const name of ['a', 'b', 'c', 'd']) expect(normalizeMemory(hostile, 4).models[name]?.indentation).toBeUndefined();
  });

  it('a damaged or hostile file yields only its well-formed entries', () => {
    expect(normalizeMemory('x', 4)).toEqual(emptyMemory());
    const raw = JSON.parse('{"files":{"/a":{"size":1,"mtimeMs":1,"ratio":0,"at":1},"/b":{"size":1,"mtimeMs":1,"ratio":1.2,"at":1,"noFloor":true},"/c":{"size":1,"mtimeMs":1,"ratio":1.2,"at":1,"refused":true,"charsPerToken":-3},"/d":{"size":1,"mtimeMs":1,"ratio":1.2,"at":1,"refused":true,"charsPerToken":2.5},"__proto__":{"size":1,"mtimeMs":1,"ratio":1,"at":1}},'
      + '"models":{"m":{"observations":[{"point":[1,2,3,4],"tokens":5,"at":1},{"point":[1,2],"tokens":5,"at":1},{"point":[1,2,3,-4],"tokens":5,"at":1}]},"bad name":{"observations":[]}},"lastModel":7}');
    const m = normalizeMemory(raw, 4);
    expect(Object.keys(m.files).sort()).toEqual(['/b', '/d', '__proto__']);
    expect(m.files['/d']).toMatchObject({ refused: true, charsPerToken: 2.5 });
    expect(Object.getPrototypeOf(m.files)).toBe(Object.prototype);
    expect(m.models.m?.observations).toHaveLength(1);
    expect(Object.keys(m.models)).toEqual(['m']);
    expect(m.lastModel).toBeUndefined();
  });

  it('an observation keeps the digits of the text counted when they are counts, and drops anything else there', () => {
    const raw = { models: { m: { observations: [
      { point: [1, 2, 3, 4], digits: 40, digitRuns: 9, tokens: 5, at: 1 },
      { point: [1, 2, 3, 4], digits: -1, digitRuns: 9, tokens: 5, at: 2 },
      { point: [1, 2, 3, 4], digits: '7', digitRuns: 2, tokens: 5, at: 3, extra: { huge: true } },
      { point: [1, 2, 3, 4], digits: 40, tokens: 5, at: 4 },
    ] } } };
    expect(normalizeMemory(raw, 4).models.m?.observations).toEqual([
      { point: [1, 2, 3, 4], digits: 40, digitRuns: 9, tokens: 5, at: 1 },
      { point: [1, 2, 3, 4], tokens: 5, at: 2 },
      { point: [1, 2, 3, 4], tokens: 5, at: 3 },
      { point: [1, 2, 3, 4], tokens: 5, at: 4 },
    ]);
  });
});
