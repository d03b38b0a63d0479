import { describe, expect, it } from 'vitest';
import { clampedInput, classifyRead } from '../../src/hooks/request';

describe('classifyRead names the engine path a Read takes', () => {
  it('an explicit window', () => {
    expect(classifyRead({ file_path: '/a', offset: 5, limit: 10 })).toEqual({ kind: 'window', first: 5, lines: 10 });
    expect(classifyRead({ file_path: '/a', limit: 10 })).toEqual({ kind: 'window', first: 1, lines: 10 });
  });

  it('offset 0 starts at line 1', () => {
    expect(classifyRead({ file_path: '/a', offset: 0, limit: 10 })).toEqual({ kind: 'window', first: 1, lines: 10 });
  });

  it('a whole-file read: no limit from line 1 (offset absent, 0 or 1)', () => {
    for (const offset of [undefined, 0, 1]) expect(classifyRead({ file_path: '/a', offset })).toEqual({ kind: 'whole' });
  });

  it('offset 2 or more without a limit reads the rest', () => {
    expect(classifyRead({ file_path: '/a', offset: 2 })).toEqual({ kind: 'rest', first: 2 });
  });

  it('leaves PDFs and allow_large alone', () => {
    expect(classifyRead({ file_path: '/a.pdf', pages: '1-3', limit: 10 })).toEqual({ kind: 'pass' });
    expect(classifyRead({ file_path: '/a', allow_large: true, limit: 10 })).toEqual({ kind: 'pass' });
    expect(classifyRead({ file_path: '/a', allow_large: false, limit: 10 })).toEqual({ kind: 'window', first: 1, lines: 10 });
  });
});

describe('clampedInput sends the whole input with only the window changed', () => {
  it('keeps every other field, unknown ones too', () => {
    const input = { file_path: '/a', offset: 7, limit: 3000, future_field: { x: 1 } };
    expect(clampedInput(input, 7, 1099)).toEqual({ file_path: '/a', offset: 7, limit: 1099, future_field: { x: 1 } });
  });

  it('turns offset 0 into 1 so lines keep their file numbers', () => {
    expect(clampedInput({ file_path: '/a', offset: 0, limit: 3000 }, 1, 1099)).toEqual({ file_path: '/a', offset: 1, limit: 1099 });
  });

  it('adds no offset to a read that had none from line 1', () => {
    expect(clampedInput({ file_path: '/a' }, 1, 900)).toEqual({ file_path: '/a', limit: 900 });
  });
});
