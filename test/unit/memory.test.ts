import { describe, expect, it } from 'vitest';
import { ESTIMATE_VERSION } from '../../src/estimate/weights';
import { memoryFinding } from '../../src/install/diagnosis';
import {
  digitSplitCostOf, emptyMemory, indentationCostOf, lineNumberCostOf, MEMORY_MAX_AGE_MS, MEMORY_MAX_FILES,
  MEMORY_MAX_MODELS,
  MEMORY_FILE_MAX_BYTES, MEMORY_MAX_OBSERVATIONS, MEMORY_MAX_OVER_CAP, MEMORY_MAX_SPANS,
  linesOverCap, normalizeMemory, observationsOf, rememberedFile, serializeMemory,
  spanDensity, spanParts, withFile, withIndentationCost, withOverCap, withSpan,
  withDigitSplitCost, withLineNumberCost, withObservation, type ModelMemory,
} from '../../src/state/memory';

describe('memory across sessions', () => {
  it('a file\'s learned density is remembered while the file is unchanged, and ages out', () => {
    const noDigest = () => undefined;
    let m = withFile(emptyMemory(), '/f', { size: 10, mtimeMs: 5, ratio: 1.3, at: 1000 });
    expect(rememberedFile(m, { path: '/f', size: 10, mtimeMs: 5 }, undefined, noDigest)?.ratio).toBe(1.3);
    expect(rememberedFile(m, { path: '/f', size: 10, mtimeMs: 6 }, undefined, noDigest)).toBeUndefined();
    m = withFile(m, '/g', { size: 1, mtimeMs: 1, ratio: 1, at: 1000 + MEMORY_MAX_AGE_MS + 1 });
    expect(rememberedFile(m, { path: '/f', size: 10, mtimeMs: 5 }, undefined, noDigest)).toBeUndefined();
    for (let i = 0; i < MEMORY_MAX_FILES + 10; i++) m = withFile(m, `/h${i}`, { size: 1, mtimeMs: 1, ratio: 1, at: 2e12 + i });
    expect(Object.keys(m.files)).toHaveLength(MEMORY_MAX_FILES);
  });

  it('finds a file\'s density for the same content at another path, or rewritten unchanged, hashing only then', () => {
    const learned = { size: 4096, mtimeMs: 5, ratio: 0.7, at: 1000 };
    const m = withFile(emptyMemory(), '/clone-a/big.ts', { ...learned, digest: '00112233aabbccdd', model: 'claude-x' });
    let hashed = 0;
    const digestOf = (d: string) => () => {
      hashed++;
      return d;
    };
    const copy = { path: '/clone-b/big.ts', size: 4096, mtimeMs: 99 };
    expect(rememberedFile(m, copy, 'claude-x', digestOf('00112233aabbccdd'))?.ratio).toBe(0.7);
    // Rewritten by a checkout: same path and content, another mtime.
    expect(rememberedFile(m, { ...copy, path: '/clone-a/big.ts' }, 'claude-x', digestOf('00112233aabbccdd'))?.ratio)
      .toBe(0.7);
    // Edited, same size: another digest.
    expect(rememberedFile(m, copy, 'claude-x', digestOf('ffffffffffffffff'))).toBeUndefined();
    expect(hashed).toBe(3);
    // No file of that size was kept: nothing to hash.
    expect(rememberedFile(m, { ...copy, size: 4097 }, 'claude-x', digestOf('00112233aabbccdd'))).toBeUndefined();
    expect(hashed).toBe(3);
    // The newest of several copies.
    const two = withFile(m, '/clone-c/big.ts', { ...learned, ratio: 0.8, at: 2000, digest: '00112233aabbccdd' });
    expect(rememberedFile(two, copy, 'claude-x', digestOf('00112233aabbccdd'))?.ratio).toBe(0.8);
  });

  it('a file\'s density taught by one model is not another\'s: its tokenizer counts the same text otherwise', () => {
    const m = withFile(emptyMemory(), '/f', { size: 10, mtimeMs: 5, ratio: 1.3, at: 1000, model: 'claude-x' });
    const f = { path: '/f', size: 10, mtimeMs: 5 };
    expect(rememberedFile(m, f, 'claude-y', () => undefined)).toBeUndefined();
    expect(rememberedFile(m, f, 'claude-x', () => undefined)?.ratio).toBe(1.3);
    // A session whose model is not named yet takes it, as it did before models were kept with files.
    expect(rememberedFile(m, f, undefined, () => undefined)?.ratio).toBe(1.3);
  });

  it('keeps the density of each window a reading counted, so that a later reading sizes each by its own text', () => {
    const file = { path: '/f', size: 100, mtimeMs: 5 };
    let m = withFile(emptyMemory(), '/f', { size: 100, mtimeMs: 5, ratio: 0.8, at: 1 });
    m = withSpan(m, file, [1, 1000, 0.8]);
    m = withSpan(m, file, [1001, 2000, 0.9]);
    m = withSpan(m, file, [2001, 3000, 0.85]);
    expect(m.files['/f']!.spans).toEqual([[1, 1000, 0.8], [1001, 2000, 0.9], [2001, 3000, 0.85]]);
    // The densest of the windows a window's lines overlap; none where the reading did not count every line.
    expect(spanDensity(m.files['/f']!.spans!, 1, 1000)).toBe(0.8);
    expect(spanDensity(m.files['/f']!.spans!, 900, 1100)).toBe(0.9);
    expect(spanDensity(m.files['/f']!.spans!, 2500, 3001)).toBeUndefined();
    // In parts: each at its span's density, and the lines no span covers (NaN) apart.
    expect(spanParts(m.files['/f']!.spans!, 900, 1100)).toEqual([[900, 1000, 0.8], [1001, 1100, 0.9]]);
    expect(spanParts(m.files['/f']!.spans!, 2500, 3100)).toEqual([[2500, 3000, 0.85], [3001, 3100, NaN]]);
    expect(spanParts([[1, 10, 0.8], [21, 30, 0.9]], 5, 25)).toEqual([[5, 10, 0.8], [11, 20, NaN], [21, 25, 0.9]]);
    // A later reading's windows straddle the earlier ones: those keep the lines outside it, and a reading that goes
    // on still finds what the earlier one counted past it.
    m = withSpan(m, file, [1, 1200, 0.82]);
    expect(m.files['/f']!.spans).toEqual([[1, 1200, 0.82], [1201, 2000, 0.9], [2001, 3000, 0.85]]);
    m = withSpan(m, file, [1300, 1500, 0.7]);
    expect(m.files['/f']!.spans).toEqual([[1, 1200, 0.82], [1201, 1299, 0.9], [1300, 1500, 0.7], [1501, 2000, 0.9],
      [2001, 3000, 0.85]]);
    expect(spanDensity(m.files['/f']!.spans!, 1201, 1299)).toBe(0.9);
    // A reading of many windows keeps every line covered: the shortest neighbours merge, with the denser ratio.
    let many = withFile(emptyMemory(), '/f', { size: 100, mtimeMs: 5, ratio: 0.8, at: 1 });
    for (let i = 0; i < MEMORY_MAX_SPANS + 20; i++) {
      many = withSpan(many, file, [i * 100 + 1, i * 100 + 100, 1 + (i % 3) / 10]);
    }
    const merged = many.files['/f']!.spans!;
    expect(merged).toHaveLength(MEMORY_MAX_SPANS);
    expect(spanDensity(merged, 1, (MEMORY_MAX_SPANS + 20) * 100)).toBe(1.2);
    expect(spanDensity(merged, 1, 100)).toBeGreaterThanOrEqual(1);
    expect(merged[0]![0]).toBe(1);
    // Only for the unchanged file the memory keeps.
    expect(withSpan(m, { ...file, mtimeMs: 6 }, [1, 10, 2])).toBe(m);
    // A copy's first entry takes them, by the content's digest and model.
    const kept = withFile(withFile(emptyMemory(), '/a/f', { size: 100, mtimeMs: 5, ratio: 0.8, at: 1,
      digest: '00112233aabbccdd', model: 'claude-x', spans: [[1, 10, 0.8]] }),
    '/b/f', { size: 100, mtimeMs: 9, ratio: 0.8, at: 2, digest: '00112233aabbccdd', model: 'claude-x' });
    expect(kept.files['/b/f']!.spans).toEqual([[1, 10, 0.8]]);
    expect(memoryFinding('/s/memory.v1.json', kept, 3).text).toContain('the densities of 2 files (2 window by window)');
    // A file too large for a digest keeps them through a later session's new entry, by its size and mtime.
    const large = withFile(withFile(emptyMemory(), '/big', { size: 100, mtimeMs: 5, ratio: 0.8, at: 1,
      spans: [[1, 10, 0.8]] }), '/big', { size: 100, mtimeMs: 5, ratio: 0.9, at: 2 });
    expect(large.files['/big']).toMatchObject({ ratio: 0.9, spans: [[1, 10, 0.8]] });
  });

  it('keeps the lines a reading found over the cap, for a later reading to pass over without a Read', () => {
    const file = { path: '/f', size: 100, mtimeMs: 5 };
    let m = withFile(emptyMemory(), '/f', { size: 100, mtimeMs: 5, ratio: 0.8, at: 1 });
    // Lines 2-4 judged over the cap by the count of line 2, then lines 5 and 6 each refused: one range.
    m = withOverCap(m, file, [2, 4, 25_000]);
    m = withOverCap(m, file, [5, 5, 25_000]);
    m = withOverCap(m, file, [6, 6, 25_000]);
    m = withOverCap(m, file, [11, 12, 10_000]);
    expect(m.files['/f']!.overCap).toEqual([[2, 6, 25_000], [11, 12, 10_000]]);
    // A line over a cap is over every lower one, not over a higher one.
    expect(linesOverCap(m.files['/f']!.overCap, 25_000)).toEqual([[2, 6]]);
    expect(linesOverCap(m.files['/f']!.overCap, 10_000)).toEqual([[2, 6], [11, 12]]);
    expect(linesOverCap(m.files['/f']!.overCap, 30_000)).toEqual([]);
    // Only for the unchanged file the memory keeps; a later entry of it, and a copy's first, keep them.
    expect(withOverCap(m, { ...file, mtimeMs: 6 }, [20, 20, 25_000])).toBe(m);
    expect(withFile(m, '/f', { size: 100, mtimeMs: 5, ratio: 0.9, at: 2 }).files['/f']!.overCap)
      .toEqual([[2, 6, 25_000], [11, 12, 10_000]]);
    const copy = withFile(withFile(emptyMemory(), '/a/f', { size: 100, mtimeMs: 5, ratio: 0.8, at: 1,
      digest: '00112233aabbccdd', overCap: [[2, 6, 25_000]] }), '/b/f',
    { size: 100, mtimeMs: 9, ratio: 0.8, at: 2, digest: '00112233aabbccdd' });
    expect(copy.files['/b/f']!.overCap).toEqual([[2, 6, 25_000]]);
    expect(memoryFinding('/s/memory.v1.json', copy, 3).text).toContain('the densities of 2 files (2 with lines over the cap)');
    // Bounded, and only well formed from a file anyone could have damaged.
    for (let i = 0; i < MEMORY_MAX_OVER_CAP + 5; i++) m = withOverCap(m, file, [100 + 2 * i, 100 + 2 * i, 25_000]);
    expect(m.files['/f']!.overCap).toHaveLength(MEMORY_MAX_OVER_CAP);
    const raw = { estimate: ESTIMATE_VERSION, files: {
      '/ok': { size: 1, mtimeMs: 1, ratio: 1, at: 1, overCap: [[2, 6, 25_000]] },
      '/bad': { size: 1, mtimeMs: 1, ratio: 1, at: 1, overCap: [[6, 2, 25_000]] },
      '/odd': { size: 1, mtimeMs: 1, ratio: 1, at: 1, overCap: [[2, 6]] },
    } };
    const read = normalizeMemory(raw, 4);
    expect(read.files['/ok']!.overCap).toEqual([[2, 6, 25_000]]);
    expect(read.files['/bad']!.overCap).toBeUndefined();
    expect(read.files['/odd']!.overCap).toBeUndefined();
  });

  it('keeps a file\'s digest, sketch, model and spans only when well formed', () => {
    const raw = {
      estimate: ESTIMATE_VERSION,
      files: {
        '/a': { size: 1, mtimeMs: 1, ratio: 1, at: 1, digest: '00112233aabbccdd', model: 'claude-x', sketch: [3, 7] },
        '/b': { size: 1, mtimeMs: 1, ratio: 1, at: 1, digest: 'not hex at all!!', model: 'bad name',
          spans: [[5, 10, 1], [8, 12, 1]], sketch: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
        '/d': { size: 1, mtimeMs: 1, ratio: 1, at: 1, sketch: [-1, 2] },
        '/e': { size: 1, mtimeMs: 1, ratio: 1, at: 1, sketch: [] },
        '/c': { size: 1, mtimeMs: 1, ratio: 1, at: 1, spans: [[1, 4, 0.9], [5, 10, 1.1]] },
      },
    };
    const m = normalizeMemory(raw, 4);
    expect(m.files['/a']).toMatchObject({ digest: '00112233aabbccdd', model: 'claude-x', sketch: [3, 7] });
    expect(m.files['/b']).toEqual({ size: 1, mtimeMs: 1, ratio: 1, at: 1 });
    expect(m.files['/d']!.sketch).toBeUndefined();
    expect(m.files['/e']!.sketch).toBeUndefined();
    expect(m.files['/c']!.spans).toEqual([[1, 4, 0.9], [5, 10, 1.1]]);
  });

  it('stays within its size on disk by forgetting the least recent files first, so that it never stops learning', () => {
    // Every file at the most it keeps, each with every field and a long path: more than the limit holds.
    let m = emptyMemory();
    const dir = '/home/someone/projects/a-fairly-long-project-name/node_modules/@scope/package-name/dist/types';
    for (let i = 0; i < MEMORY_MAX_FILES; i++) {
      m = withFile(m, `${dir}/file${i}.d.ts`, {
        size: 1_234_567, mtimeMs: 1_796_498_921_162.137, ratio: 0.4690574985363408, at: 1e12 + i,
        countedShares: [0.123456789, 0.2345678, 0.3456789, 0.0123456, 0.456789, 0.0001234], charsPerToken: 3.4567890123,
        refused: true, noFloor: true, countedWindow: { first: 12_345, lines: 2345 }, digest: 'fc4a77c5148f869c',
        model: 'claude-sonnet-4-5-20250929',
        sketch: [
          3_444_444_444, 3_555_555_555, 3_666_666_666, 3_777_777_777, 3_888_888_888, 3_999_999_999, 4_000_000_001,
          4_294_967_295,
        ],
      });
    }
    const point = [1234.5678, 2345.6789, 345.67, 45.678, 5.6789, 0.12];
    for (let k = 0; k < MEMORY_MAX_MODELS; k++) {
      for (let i = 0; i < MEMORY_MAX_OBSERVATIONS; i++) {
        m = withObservation(m, k === 0 ? 'claude-x' : `claude-model-${k}`, { point, tokens: 23_456, at: 1e12 + i });
      }
    }
    expect(Buffer.byteLength(JSON.stringify(m))).toBeGreaterThan(MEMORY_FILE_MAX_BYTES);
    const text = serializeMemory(m, MEMORY_FILE_MAX_BYTES)!;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MEMORY_FILE_MAX_BYTES);
    const kept = normalizeMemory(JSON.parse(text), 6);
    expect(Object.keys(kept.files)).toContain(`${dir}/file${MEMORY_MAX_FILES - 1}.d.ts`);
    expect(Object.keys(kept.files)).not.toContain(`${dir}/file0.d.ts`);
    expect(observationsOf(kept, 'claude-x', 1e12)).toHaveLength(MEMORY_MAX_OBSERVATIONS);
    // A memory within the limit is written as it is.
    const small = withFile(emptyMemory(), '/f', { size: 1, mtimeMs: 1, ratio: 1, at: 1 });
    expect(serializeMemory(small, MEMORY_FILE_MAX_BYTES)).toBe(JSON.stringify(small));
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

  // What a retry tells of a model's line numbers, each kept the same way (memory.ts, `withTold`): the value, what the
  // model is taken to cost without it (the rule), and how `doctor` names it.
  const TOLD = [
    {
      what: 'what a model\'s line numbers cost where it is under the rule', field: 'lineNumbers', key: 'cost',
      set: withLineNumberCost, get: lineNumberCostOf, rule: 1, told: 0.72, invalid: [0, 1.5],
      doctor: 'line numbers cheaper than the rule: model-x (0.72 of it)', word: 'line numbers',
    },
    {
      what: 'how far a model\'s line numbers cost toward a token a digit', field: 'digits', key: 'split',
      set: withDigitSplitCost, get: digitSplitCostOf, rule: 0, told: 0.85, invalid: [-0.1, 1.5],
      doctor: 'line numbers dearer, toward a token a digit: model-x (0.85 of the way)', word: 'digit',
      // Kept as told: it outweighs the model's counts of data (`splitsDigits`), below.
      keepsTheRule: true,
    },
    {
      what: 'what an indented line\'s number costs a model beyond the rule', field: 'indentation', key: 'extra',
      set: withIndentationCost, get: indentationCostOf, rule: 0, told: 0.95, invalid: [0, 9],
      doctor: 'line numbers dearer on indented lines: model-x (+0.95 a line)', word: 'indented',
    },
  ];

  for (const t of TOLD) {
    it(`keeps ${t.what}, until a retry tells the rule again or it ages out`, () => {
      let m = t.set(emptyMemory(), 'model-x', t.rule, 1e12);
      if (t.keepsTheRule) expect(m.models['model-x']?.[t.field as keyof ModelMemory]).toEqual({ [t.key]: 0, at: 1e12 });
      else expect(m).toEqual(emptyMemory());
      m = emptyMemory();
      m = t.set(m, 'model-x', t.told, 1e12);
      expect(t.get(m, 'model-x', 1e12 + 5)).toBe(t.told);
      expect(t.get(m, 'model-y', 1e12 + 5)).toBe(t.rule);
      expect(t.get(m, undefined, 1e12 + 5)).toBe(t.rule);
      expect(t.get(m, 'model-x', 1e12 + MEMORY_MAX_AGE_MS + 1)).toBe(t.rule);
      m = withObservation(m, 'model-x', { point: [1, 0, 0, 0], tokens: 3, at: 1e12 + 1 });
      expect(memoryFinding('/s/memory.v1.json', m, 1e12 + 5).text).toContain(t.doctor);
      // The rule told again: forgotten, and the model's counts kept.
      m = t.set(m, 'model-x', t.rule, 1e12 + 2);
      expect(t.get(m, 'model-x', 1e12 + 5)).toBe(t.rule);
      expect(m.models['model-x']?.observations).toHaveLength(1);
      expect(memoryFinding('/s/memory.v1.json', m, 1e12 + 5).text).not.toContain(t.word);
      const hostile = [...t.invalid.map((v) => ({ [t.key]: v, at: 1 })), 'x', { [t.key]: t.told, at: 'x' }];
      for (const bad of hostile) {
        const raw = { models: { m: { observations: [], [t.field]: bad } } };
        expect(normalizeMemory(raw, 4).models.m?.[t.field as keyof ModelMemory]).toBeUndefined();
      }
    });
  }

  it('keeps what retries told of a model side by side, with its counts, through a save and a load', () => {
    let m = withObservation(emptyMemory(), 'model-x', { point: [1, 0, 0, 0], tokens: 3, at: 1e12 });
    for (const t of TOLD) m = t.set(m, 'model-x', t.told, 1e12 + 1);
    const loaded = normalizeMemory(JSON.parse(JSON.stringify(m)), 4);
    for (const t of TOLD) expect(t.get(loaded, 'model-x', 1e12 + 5), t.field).toBe(t.told);
    expect(observationsOf(loaded, 'model-x', 1e12 + 5)).toHaveLength(1);
  });

  it('forgets the files a memory counted against another version of the estimate, and keeps the models', () => {
    const files = { '/a': { size: 1, mtimeMs: 1, ratio: 0.7, at: 1, spans: [[1, 10, 0.7]] } };
    const models = { m: { observations: [{ point: [1, 2, 3, 4], tokens: 5, at: 1 }] } };
    // Written before the version was kept (version 1), or by another version: a file's density is its count over an
    // estimate that has changed since.
    for (const raw of [{ files, models }, { estimate: ESTIMATE_VERSION - 1, files, models }, { estimate: '2', files }]) {
      const m = normalizeMemory(raw, 4);
      expect(m.files).toEqual({});
      expect(m.estimate).toBe(ESTIMATE_VERSION);
      if (raw.models) expect(m.models.m?.observations).toHaveLength(1);
    }
    const same = normalizeMemory({ estimate: ESTIMATE_VERSION, files, models }, 4);
    expect(same.files['/a']).toMatchObject({ ratio: 0.7, spans: [[1, 10, 0.7]] });
    // What it writes names the version, so that it reads back whole.
    expect(normalizeMemory(JSON.parse(serializeMemory(same, MEMORY_FILE_MAX_BYTES)!), 4)).toEqual(same);
  });

  it('a damaged or hostile file yields only its well-formed entries', () => {
    expect(normalizeMemory('x', 4)).toEqual(emptyMemory());
    const raw = JSON.parse('{"estimate":' + ESTIMATE_VERSION + ',"files":{"/a":{"size":1,"mtimeMs":1,"ratio":0,"at":1},"/b":{"size":1,"mtimeMs":1,"ratio":1.2,"at":1,"noFloor":true},"/c":{"size":1,"mtimeMs":1,"ratio":1.2,"at":1,"refused":true,"charsPerToken":-3},"/d":{"size":1,"mtimeMs":1,"ratio":1.2,"at":1,"refused":true,"charsPerToken":2.5},"__proto__":{"size":1,"mtimeMs":1,"ratio":1,"at":1}},'
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
