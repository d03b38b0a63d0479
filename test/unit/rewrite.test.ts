// The last check on what `pre` sends: only `limit` lowered, or a window from line 1 read whole; nothing else moves.
import { describe, expect, it } from 'vitest';
import { onlyLowersLimit, onlyReadsWhole } from '../../src/hooks/io';

const asked = { file_path: '/p/a.txt', offset: 1, limit: 2000, future: [1] };

describe('onlyLowersLimit', () => {
  it('takes a lower limit, with offset 0 sent as 1', () => {
    expect(onlyLowersLimit(asked, { ...asked, limit: 500 })).toBe(true);
    expect(onlyLowersLimit({ ...asked, offset: 0 }, { ...asked, limit: 500 })).toBe(true);
  });

  it('refuses a higher limit, a moved offset, a field dropped or changed', () => {
    expect(onlyLowersLimit(asked, { ...asked, limit: 2001 })).toBe(false);
    expect(onlyLowersLimit(asked, { ...asked, offset: 2, limit: 500 })).toBe(false);
    const { future: _, ...dropped } = asked;
    expect(onlyLowersLimit(asked, { ...dropped, limit: 500 })).toBe(false);
    expect(onlyLowersLimit(asked, { ...asked, limit: 500, future: [2] })).toBe(false);
  });
});

describe('onlyReadsWhole', () => {
  it('takes a window from line 1 sent with neither offset nor limit', () => {
    for (const offset of [undefined, 0, 1]) {
      expect(onlyReadsWhole({ ...asked, offset }, { file_path: '/p/a.txt', future: [1] })).toBe(true);
    }
  });

  it('refuses a window from a later line, a read with no limit, or any other field dropped or changed', () => {
    expect(onlyReadsWhole({ ...asked, offset: 2 }, { file_path: '/p/a.txt', future: [1] })).toBe(false);
    const { limit: _, ...noLimit } = asked;
    expect(onlyReadsWhole(noLimit, { file_path: '/p/a.txt', future: [1] })).toBe(false);
    expect(onlyReadsWhole(asked, { file_path: '/p/a.txt' })).toBe(false);
    expect(onlyReadsWhole(asked, { file_path: '/p/b.txt', future: [1] })).toBe(false);
    expect(onlyReadsWhole(asked, { file_path: '/p/a.txt', future: [1], limit: 2000 })).toBe(false);
  });
});
