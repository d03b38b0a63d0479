import { describe, expect, it } from 'vitest';
import {
  emptyState, learnedFor, learnsFromUsage, MAX_FILES, MAX_PASSED_OVER, MAX_PLANS, normalizeState, passedOverAfter,
  PLAN_MAX_AGE_MS, readingContinued, seenOf, takenFromFewLines, withLearned, withoutPlan, withoutReading, withPlan,
  withEngine, withReading, withSeen, withWholeReadsRefused, type Plan, type Reading,
} from '../../src/state/session';
import { refusesWholeRead } from '../../src/hooks/post';
import { wholeReads } from '../../src/hooks/pre';

const plan = (at: number): Plan => ({ file: '/f', size: 1, mtimeMs: 2, askedFirst: 1, askedLines: 3000, sentFirst: 1, sentLines: 900, estimate: 24000, cap: 25000, at });

describe('session state', () => {
  it('a plan is found by its tool_use_id and removed once used', () => {
    const s = withPlan(emptyState(), 'toolu_1', plan(1000));
    expect(s.plans.toolu_1?.sentLines).toBe(900);
    expect(withoutPlan(s, 'toolu_1').plans).toEqual({});
  });

  it('stays bounded: old plans and the oldest beyond the limit are dropped', () => {
    let s = emptyState();
    for (let i = 0; i < MAX_PLANS + 50; i++) s = withPlan(s, `t${i}`, plan(1_000_000 + i));
    expect(Object.keys(s.plans)).toHaveLength(MAX_PLANS);
    expect(s.plans.t0).toBeUndefined();
    expect(s.plans[`t${MAX_PLANS + 49}`]).toBeDefined();
    s = withPlan(s, 'late', plan(1_000_000 + MAX_PLANS + 50 + PLAN_MAX_AGE_MS));
    expect(Object.keys(s.plans)).toEqual(['late']);
  });

  it('a window\'s usage teaches a density it or a refusal taught before, never a banner\'s', () => {
    const shares = [0.5, 0.5, 0, 0, 0, 0];
    expect(learnsFromUsage(undefined)).toBe(true);
    expect(learnsFromUsage({ size: 1, mtimeMs: 2, ratio: 1.1, shares, at: 3 })).toBe(true);
    // A refusal's count: the refused window's text is often not the next one's.
    expect(learnsFromUsage({ size: 1, mtimeMs: 2, ratio: 1.1, refused: true, at: 3 })).toBe(true);
    // The usage of a window of a few long lines (no sample of its text): a later window of many lines teaches anew.
    const fewLines = { size: 1, mtimeMs: 2, ratio: 1.1, countedShares: shares, at: 3 };
    expect(learnsFromUsage(fewLines)).toBe(true);
    expect(takenFromFewLines(fewLines)).toBe(true);
    // A refusal's count of the same shares is the engine's own, not such a window's.
    expect(takenFromFewLines({ ...fewLines, refused: true })).toBe(false);
    expect(takenFromFewLines({ ...fewLines, shares })).toBe(false);
    // A refusal of a window the skip rule should never have counted, or a banner's count of the whole file: kept.
    expect(learnsFromUsage({ size: 1, mtimeMs: 2, ratio: 1.1, refused: true, noFloor: true, at: 3 })).toBe(false);
    expect(learnsFromUsage({ size: 1, mtimeMs: 2, ratio: 1.1, at: 3 })).toBe(false);
  });

  it('a learned density holds only while the file is unchanged', () => {
    let s = withLearned(emptyState(), '/f', { size: 10, mtimeMs: 5, ratio: 1.4, at: 1 }, 10000);
    expect(learnedFor(s, '/f', 10, 5)?.ratio).toBe(1.4);
    expect(learnedFor(s, '/f', 11, 5)).toBeUndefined();
    expect(learnedFor(s, '/f', 10, 6)).toBeUndefined();
    expect(learnedFor(s, '/other', 10, 5)).toBeUndefined();
    expect(s.cap).toBe(10000);
    for (let i = 0; i < MAX_FILES + 5; i++) s = withLearned(s, `/g${i}`, { size: 1, mtimeMs: 1, ratio: 1, at: 10 + i }, undefined);
    expect(Object.keys(s.files)).toHaveLength(MAX_FILES);
    expect(s.cap).toBe(10000);
  });

  it('a damaged or hostile file yields only its well-formed entries', () => {
    expect(normalizeState(null)).toEqual(emptyState());
    expect(normalizeState([1, 2])).toEqual(emptyState());
    const raw = JSON.parse('{"plans":{"__proto__":{"file":"/x"},"ok":' + JSON.stringify(plan(1)) + ',"bad":{"file":3}},"files":{"/f":{"size":1,"mtimeMs":1,"ratio":-1,"at":1},"/g":{"size":1,"mtimeMs":1,"ratio":2,"at":1}},"cap":"10000"}');
    const s = normalizeState(raw);
    expect(Object.keys(s.plans)).toEqual(['ok']);
    expect(Object.keys(s.files)).toEqual(['/g']);
    expect(s.cap).toBeUndefined();
    expect(Object.getPrototypeOf(s.plans)).toBe(Object.prototype);
    // A refusal's window, which the window after it is measured against, is kept only when it is one.
    const refused = { size: 1, mtimeMs: 1, ratio: 2, at: 1, countedWindow: { first: 3, lines: 40 } };
    const files = { '/a': refused, '/b': { ...refused, countedWindow: { first: 0, lines: 4 } }, '/c': { ...refused, countedWindow: [3, 40] } };
    expect(normalizeState({ files }).files).toEqual({ '/a': refused });
  });

  it('a reading is continued only by a Read from the named line, no longer than named, of the unchanged file', () => {
    const r: Reading = {
      size: 10, mtimeMs: 5, askedFirst: 1, askedLast: 3000, whole: false, nextFirst: 1100, nextLines: 950, at: 1,
    };
    const s = withReading(emptyState(), '/f', r);
    expect(readingContinued(s, '/f', 10, 5, 1100, 950)).toEqual(r);
    expect(readingContinued(s, '/f', 10, 5, 1100, 400)).toEqual(r);
    expect(readingContinued(s, '/f', 10, 5, 1100, 951)).toBeUndefined();
    expect(readingContinued(s, '/f', 10, 5, 1101, 10)).toBeUndefined();
    expect(readingContinued(s, '/f', 11, 5, 1100, 950)).toBeUndefined();
    expect(readingContinued(withoutReading(s, '/f'), '/f', 10, 5, 1100, 950)).toBeUndefined();
    expect(normalizeState(JSON.parse(JSON.stringify(s))).readings).toEqual({ '/f': r });
    expect(normalizeState({ readings: { '/f': { ...r, whole: 'yes' }, '/g': { ...r, nextLines: null } } }).readings).toEqual({});
    // A window named wide for `pre` to trim keeps its mark; a damaged mark drops the reading.
    const hopeful = withReading(emptyState(), '/f', { ...r, hopeful: true });
    expect(normalizeState(JSON.parse(JSON.stringify(hopeful))).readings['/f']?.hopeful).toBe(true);
    expect(normalizeState({ readings: { '/f': { ...r, hopeful: 'yes' } } }).readings).toEqual({});
  });

  it('keeps the lines it passed over, and where it goes on after one, through the session file; damaged ones go', () => {
    const r: Reading = {
      size: 10, mtimeMs: 5, askedFirst: 1, askedLast: 0, whole: true, nextFirst: 40, nextLines: 1, at: 1,
      passedOver: [[41, 44], [90, 90]], resume: 1100,
    };
    const s = withReading(emptyState(), '/f', r);
    expect(normalizeState(JSON.parse(JSON.stringify(s))).readings).toEqual({ '/f': r });
    const damaged = [
      { passedOver: [[44, 41]] },
      { passedOver: [[0, 3]] },
      { passedOver: [[4]] },
      { passedOver: [[4.5, 6]] },
      { passedOver: '41-44' },
      { passedOver: Array.from({ length: MAX_PASSED_OVER + 1 }, (_, i) => [i + 1, i + 1]) },
      { resume: 0 },
      { resume: '1100' },
    ];
    for (const d of damaged) expect(normalizeState({ readings: { '/f': { ...r, ...d } } }).readings).toEqual({});
  });

  it('a note adds the lines it passed over before any count, not after one, and keeps the newest ranges', () => {
    const left: Array<[number, number]> = [[41, 44]];
    expect(passedOverAfter(left, { first: 90, last: 92 }, true)).toEqual([[41, 44], [90, 92]]);
    // Past a count, the lines are passed over by it: nothing judges them again.
    expect(passedOverAfter(left, { first: 90, last: 92 }, false)).toEqual([[41, 44]]);
    expect(passedOverAfter([], undefined, true)).toEqual([]);
    const many = Array.from({ length: MAX_PASSED_OVER }, (_, i): [number, number] => [10 * i + 1, 10 * i + 2]);
    const kept = passedOverAfter(many, { first: 500, last: 500 }, true);
    expect(kept).toHaveLength(MAX_PASSED_OVER);
    expect(kept[0]).toEqual([11, 12]);
    expect(kept.at(-1)).toEqual([500, 500]);
    // The ranges it was given are not changed.
    expect(many[0]).toEqual([1, 2]);
    expect(many).toHaveLength(MAX_PASSED_OVER);
  });
});

describe('the last window kept for learning from the usage', () => {
  it('is found only for the unchanged file, is replaced and removed, and survives a round trip; damaged entries go', () => {
    const w = { size: 10, mtimeMs: 5, id: 'toolu_1', first: 1, lines: 300, at: 1000 };
    let s = withSeen(emptyState(), '/f', w);
    expect(seenOf(s, '/f', 10, 5)).toEqual(w);
    expect(seenOf(s, '/f', 11, 5)).toBeUndefined();
    s = withSeen(s, '/f', { ...w, id: 'toolu_2', at: 2000 });
    expect(seenOf(s, '/f', 10, 5)?.id).toBe('toolu_2');
    expect(normalizeState(JSON.parse(JSON.stringify(s))).seen).toEqual(s.seen);
    expect(seenOf(withSeen(s, '/f', undefined), '/f', 10, 5)).toBeUndefined();
    const damaged = normalizeState({ seen: { '/a': { ...w, id: 7 }, '/b': { ...w, lines: 'x' }, '/c': w } });
    expect(Object.keys(damaged.seen ?? {})).toEqual(['/c']);
  });
});

describe('an engine that refuses a whole read it could page (before 2.1.145)', () => {
  it('is told by a token refusal of a Read with no limit from line 1 of a file under 256 KiB, and nothing else', () => {
    expect(refusesWholeRead({ kind: 'whole' }, 200_000)).toBe(true);
    expect(refusesWholeRead({ kind: 'whole' }, 262_144)).toBe(true);
    expect(refusesWholeRead({ kind: 'whole' }, 262_145)).toBe(false); // refused on size by every engine
    expect(refusesWholeRead({ kind: 'window', first: 1, lines: 3000 }, 200_000)).toBe(false);
    expect(refusesWholeRead({ kind: 'rest', first: 2 }, 200_000)).toBe(false);
  });

  it('sends whole reads as windows for the rest of the session, as the user\'s window mode does', () => {
    const s = withWholeReadsRefused(emptyState());
    // A window too, and one that a whole read fitting only by the point estimate does not skip (pre.ts, planWindow).
    expect(wholeReads({}, s)).toBe('refused');
    expect(wholeReads({ READ_CEILING_PAGER_WHOLE_READS: 'window' }, s)).toBe('refused');
    expect(wholeReads({}, emptyState())).toBe('engine');
    expect(wholeReads({ READ_CEILING_PAGER_WHOLE_READS: 'window' }, emptyState())).toBe('window');
    expect(withWholeReadsRefused(s)).toBe(s);
  });

  it('survives the session file, and only as true', () => {
    const saved = JSON.parse(JSON.stringify(withWholeReadsRefused(emptyState())));
    expect(normalizeState(saved).refusesWholeReads).toBe(true);
    expect(normalizeState({ refusesWholeReads: 'yes' }).refusesWholeReads).toBeUndefined();
    expect(normalizeState({ refusesWholeReads: false }).refusesWholeReads).toBeUndefined();
  });

  it('keeps the engine version that told it, when one did, and only a version', () => {
    const told = JSON.parse(JSON.stringify(withWholeReadsRefused(withEngine(emptyState(), '2.1.144'))));
    expect(normalizeState(told)).toMatchObject({ refusesWholeReads: true, engine: '2.1.144' });
    expect(withWholeReadsRefused(emptyState()).engine).toBeUndefined();
    const known = withEngine(emptyState(), '2.1.50');
    expect(withEngine(known, '2.1.50')).toBe(known);
    expect(normalizeState({ refusesWholeReads: true, engine: '../x' }).engine).toBeUndefined();
  });
});
