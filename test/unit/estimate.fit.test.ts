import { describe, expect, it } from 'vitest';
import { WindowFit, type Budget } from '../../src/estimate/fit.js';
import { estimateTokens } from '../../src/estimate/density.js';

const budget = (b: Partial<Budget>): Budget => ({
  cap: 1000, charFloor: 0, ratio: 1, safety: 1, maxLines: Infinity, ...b,
});

function run(lines: string[], b: Budget) {
  const fit = new WindowFit(b);
  let i = 0;
  for (; i < lines.length; i++) {
    if (!fit.addText(lines[i]!)) break;
    if (!fit.endLine()) break;
  }
  if (i === lines.length) fit.endOfFile();
  return fit.result();
}

describe('WindowFit boundaries', () => {
  const line = 'some words of prose, with punctuation; and more words';
  const perLine = estimateTokens(line + '\n');

  it('takes the largest prefix whose safe estimate stays under the cap', () => {
    const r = run(Array(1000).fill(line), budget({ cap: 100 * perLine }));
    expect(r.whole).toBe(false);
    expect(r.lines).toBeGreaterThanOrEqual(99);
    expect(r.lines).toBeLessThanOrEqual(101);
    expect(r.pointTokens).toBeLessThanOrEqual(100 * perLine);
  });

  it('applies the learned ratio and the safety factor', () => {
    const plain = run(Array(1000).fill(line), budget({ cap: 100 * perLine })).lines;
    const learned = run(Array(1000).fill(line), budget({ cap: 100 * perLine, ratio: 2 })).lines;
    const safe = run(Array(1000).fill(line), budget({ cap: 100 * perLine, safety: 1.25 })).lines;
    expect(learned).toBeGreaterThanOrEqual(49);
    expect(learned).toBeLessThanOrEqual(51);
    expect(safe).toBeLessThan(plain);
    expect(safe).toBeGreaterThanOrEqual(79);
  });

  it('never cuts below the never-counted floor, however dense the text', () => {
    const dense = '한'.repeat(99);
    const r = run(Array(100).fill(dense), budget({ cap: 10, charFloor: 2500 }));
    // 25 lines of 99 characters and 24 joining newlines: 2,499 characters, at most the floor.
    expect(r.lines).toBe(25);
    expect(r.chars).toBeLessThanOrEqual(2500);
  });

  it('stops at maxLines and reports the window whole', () => {
    const r = run(Array(50).fill(line), budget({ cap: 1e9, maxLines: 10 }));
    expect(r).toMatchObject({ lines: 10, whole: true });
  });

  it('reports a window that reaches the end of the file whole', () => {
    expect(run(['a', 'b', ''], budget({ cap: 1e9 }))).toMatchObject({ lines: 3, whole: true });
  });

  it('fits no line when the first line alone is over the cap', () => {
    const r = run(['x'.repeat(100_000), 'short'], budget({ cap: 100 }));
    expect(r).toMatchObject({ lines: 0, whole: false });
  });
});
