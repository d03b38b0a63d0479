import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookGates } from '../../src/gates/names.js';
import {
  callHash, canonicalJson, coveredReason, coveringReads, isFileEdit, rejectedReason, requestedLines, rereadReason,
  returnedLines, windowKey,
} from '../../src/gates/rules.js';

const r = (first: number, last: number, id = `t${first}`) => ({ first, last, toolUseId: id, at: first });

describe('hookGates', () => {
  it('reads the flag in both forms and the environment, joined; unknown names are ignored', () => {
    expect([...hookGates([], {})!]).toEqual([]);
    expect([...hookGates(['--gates', 'covered-reread,bogus'], {})!]).toEqual(['covered-reread']);
    expect([...hookGates(['--gates=rejected-calls'], { READ_CEILING_PAGER_GATES: 'edit-after-reject' })!].sort())
      .toEqual(['edit-after-reject', 'rejected-calls']);
    expect([...hookGates([], { READ_CEILING_PAGER_GATES: ' covered-reread , rejected-calls' })!]).toEqual(['covered-reread', 'rejected-calls']);
  });
  it('anything else after the hook name is not a hook invocation', () => {
    expect(hookGates(['--help'], {})).toBeUndefined();
    expect(hookGates(['--gates'], {})).toBeUndefined();
    expect(hookGates(['--gates', 'a', 'b'], {})).toBeUndefined();
  });
});

describe('requestedLines', () => {
  it('no offset or limit: the whole file; offset 0 is line 1; a limit past the end stops at the end', () => {
    expect(requestedLines({ file_path: '/f' }, 31)).toEqual({ first: 1, last: 31 });
    expect(requestedLines({ file_path: '/f', offset: 0, limit: 3 }, 31)).toEqual({ first: 1, last: 3 });
    expect(requestedLines({ file_path: '/f', offset: 5, limit: 12 }, 31)).toEqual({ first: 5, last: 16 });
    expect(requestedLines({ file_path: '/f', offset: 20, limit: 100 }, 31)).toEqual({ first: 20, last: 31 });
    expect(requestedLines({ file_path: '/f', offset: 7 }, 31)).toEqual({ first: 7, last: 31 });
  });
  it('PDF pages and a start past the end are never gated', () => {
    expect(requestedLines({ file_path: '/f.pdf', pages: '1' }, 31)).toBeUndefined();
    expect(requestedLines({ file_path: '/f', offset: 32, limit: 1 }, 31)).toBeUndefined();
  });
});

describe('returnedLines', () => {
  it('is what the engine returned, offset 0 labelling line 1 as 0', () => {
    expect(returnedLines({ startLine: 3, numLines: 5 })).toEqual({ first: 3, last: 7 });
    expect(returnedLines({ startLine: 0, numLines: 3 })).toEqual({ first: 1, last: 3 });
    expect(returnedLines({ startLine: 40, numLines: 0 })).toBeUndefined();
  });
});

describe('coveringReads', () => {
  it('touching ranges join; overlapping ones too', () => {
    expect(coveringReads([r(1, 10), r(11, 20)], { first: 5, last: 16 })?.span).toEqual({ first: 1, last: 20 });
    expect(coveringReads([r(11, 20), r(1, 12)], { first: 2, last: 19 })?.span).toEqual({ first: 1, last: 20 });
  });
  it('a gap, or a window reaching past the ranges, is not covered', () => {
    expect(coveringReads([r(1, 10), r(12, 20)], { first: 5, last: 16 })).toBeUndefined();
    expect(coveringReads([r(1, 10)], { first: 5, last: 11 })).toBeUndefined();
    expect(coveringReads([], { first: 1, last: 1 })).toBeUndefined();
  });
  it('names only the Reads that overlap the window, and finds a covering span that is not the last', () => {
    const c = coveringReads([r(1, 5), r(6, 10), r(30, 40)], { first: 7, last: 9 });
    expect(c?.span).toEqual({ first: 1, last: 10 });
    expect(c?.reads.map((x) => x.toolUseId)).toEqual(['t6']);
  });
  it('is exact at the edges', () => {
    expect(coveringReads([r(1, 10)], { first: 1, last: 10 })).toBeDefined();
    expect(coveringReads([r(2, 10)], { first: 1, last: 10 })).toBeUndefined();
  });
});

describe('call identity and texts', () => {
  it('hashes tool name and input with keys in any order alike', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(callHash('Edit', { file_path: '/a', old_string: 'x', new_string: 'y' }))
      .toBe(callHash('Edit', { new_string: 'y', old_string: 'x', file_path: '/a' }));
    expect(callHash('Edit', { file_path: '/a' })).not.toBe(callHash('Write', { file_path: '/a' }));
    expect(callHash('Bash', { command: 'rm a' })).not.toBe(callHash('Bash', { command: 'rm b' }));
  });
  it('Edit and Write are the file edits', () => {
    expect(isFileEdit('Edit') && isFileEdit('Write')).toBe(true);
    expect(isFileEdit('Read') || isFileEdit('Bash') || isFileEdit('NotebookEdit')).toBe(false);
  });
  it('the covered reason names the path, the window and the earlier lines', () => {
    expect(coveredReason('/r/a.ts', { first: 3, last: 3 }, { span: { first: 1, last: 9 }, reads: [r(1, 9)] }))
      .toMatch(/^read-ceiling-pager: line 3 of \/r\/a\.ts is already in this conversation: an earlier Read returned lines 1-9,/);
    expect(windowKey({ first: 3, last: 7 })).toBe('3-7');
  });
});

describe('the README', () => {
  it('quotes each gate\'s reason exactly as the model gets it', () => {
    const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
    const cover = coveringReads([r(1, 10), r(11, 20)], { first: 5, last: 16 })!;
    for (const reason of [
      coveredReason('/repo/a.txt', { first: 5, last: 16 }, cover), rereadReason('Write', '/repo/a.txt'), rejectedReason('Bash'),
    ]) expect(readme).toContain(`\n${reason}\n`);
  });
});
