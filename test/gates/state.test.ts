// The gates' memory stays bounded: 64 reads per file, 500 files, 500 rejected calls, files to re-read and seen
// rejections, and a byte budget that leaves the pager its room in the 256 KiB session file.
import { describe, expect, it } from 'vitest';
import {
  GATES_MAX_BYTES, MAX_GATE_FILES, MAX_RANGES_PER_FILE, MAX_REJECTED, MAX_REREAD, mustReread, normalizeGates,
  readRecord,
  wasRejected, withDenied, withRead, withRejectedCall, withRejectedEdit, withSeen, wasSeen,
} from '../../src/gates/state.js';
import { emptyState, normalizeState, serializeWithin, type SessionState } from '../../src/state/session.js';

const file = { size: 100, mtimeMs: 5, totalLines: 1000 };
const range = (i: number) => ({ first: i, last: i + 1, toolUseId: `toolu_${i}`, at: i });

describe('gate state', () => {
  it('keeps the newest 64 reads of a file, and a changed file starts over', () => {
    let s: SessionState = emptyState();
    for (let i = 1; i <= 100; i++) s = withRead(s, '', '/f', file, range(i));
    const r = readRecord(s, '', '/f', 100, 5)!;
    expect(r.ranges).toHaveLength(MAX_RANGES_PER_FILE);
    expect(Math.min(...r.ranges.map((x) => x.first))).toBe(37);
    s = withRead(s, '', '/f', { ...file, size: 101 }, range(200));
    expect(readRecord(s, '', '/f', 101, 5)!.ranges).toHaveLength(1);
    expect(readRecord(s, '', '/f', 100, 5)).toBeUndefined();
  });
  it('at most 500 files over all agents, the least recently read going first', () => {
    let s: SessionState = emptyState();
    for (let i = 1; i <= 520; i++) s = withRead(s, i % 2 ? '' : 'agent-a', `/f${i}`, file, range(i));
    const gates = normalizeGates(s.gates!);
    const count = Object.values(gates.reads).reduce((n, files) => n + Object.keys(files).length, 0);
    expect(count).toBe(MAX_GATE_FILES);
    expect(readRecord(s, '', '/f1', 100, 5)).toBeUndefined();
    expect(readRecord(s, 'agent-a', '/f520', 100, 5)).toBeDefined();
  });
  it('at most 500 rejected calls and files to re-read; seen ids too', () => {
    let s: SessionState = emptyState();
    for (let i = 1; i <= 600; i++) s = withSeen(withRejectedEdit(withRejectedCall(s, `h${i}`, i), `/p${i}`, i), [`t${i}`], i);
    const g = normalizeGates(s.gates!);
    expect(Object.keys(g.rejected)).toHaveLength(MAX_REJECTED);
    expect(Object.keys(g.reread)).toHaveLength(MAX_REREAD);
    expect(wasRejected(s, 'h1') || mustReread(s, '/p1') || wasSeen(s, 't1')).toBe(false);
    expect(wasRejected(s, 'h600') && mustReread(s, '/p600') && wasSeen(s, 't600')).toBe(true);
  });
  it('stays under its byte budget, so the session file keeps the pager\'s room', () => {
    let s: SessionState = emptyState();
    const long = `/${'d'.repeat(2000)}`;
    for (let i = 1; i <= 200; i++) s = withRead(s, '', `${long}/${i}`, file, range(i));
    const text = JSON.stringify(s.gates);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(GATES_MAX_BYTES);
    expect(readRecord(s, '', `${long}/200`, 100, 5)).toBeDefined();
    expect(serializeWithin(s, 256 * 1024)).toBeDefined();
  });
  it('a denied window is remembered once per file; a rejected edit drops every agent\'s record of the file', () => {
    let s: SessionState = withRead(withRead(emptyState(), '', '/f', file, range(1)), 'a1', '/f', file, range(2));
    s = withDenied(withDenied(s, '', '/f', '1-2'), '', '/f', '1-2');
    expect(readRecord(s, '', '/f', 100, 5)!.denied).toEqual(['1-2']);
    s = withRejectedEdit(s, '/f', 9);
    expect(readRecord(s, '', '/f', 100, 5) ?? readRecord(s, 'a1', '/f', 100, 5)).toBeUndefined();
    expect(mustReread(s, '/f')).toBe(true);
  });
  it('a damaged gates part reads as empty parts, and survives the pager\'s own normalize untouched', () => {
    const raw = { plans: {}, files: {}, gates: { reads: { '': { '/f': { ranges: 'x' } } }, rejected: { h: 'x', k: 3 }, seen: [] } };
    const s = normalizeState(JSON.parse(JSON.stringify(raw)));
    expect(s.gates).toEqual(raw.gates);
    const g = normalizeGates(s.gates!);
    expect(g).toEqual({ reads: { '': {} }, rejected: { k: 3 }, reread: {}, seen: {} });
    expect(normalizeGates({ reads: { __proto__: { '/x': {} } } } as never).reads).toEqual({});
  });
});
