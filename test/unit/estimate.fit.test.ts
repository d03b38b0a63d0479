import { describe, expect, it } from 'vitest';
import { numberWidth, WindowFit, type Budget } from '../../src/estimate/fit.js';
import { estimateTokens } from '../../src/estimate/density.js';

const budget = (b: Partial<Budget>): Budget => ({
  cap: 1000, charFloor: 0, ratio: 1, safety: 1, maxLines: Infinity, ...b,
});

function run(lines: string[], b: Budget, firstLine = 1) {
  const fit = new WindowFit(b, firstLine);
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

  it('after a refusal, bounds text of the same kind by the refused window\'s characters per token', () => {
    // The refusal measured 3 characters per engine token; this prose is estimated sparser, by less than the spread.
    const chars = (line.length + 1) / perLine; // characters per estimated token of the prose
    const cpt = chars / 1.2;
    const cap = 100 * perLine;
    const bounded = run(Array(1000).fill(line), budget({ cap, charsPerToken: cpt }));
    // The cap's worth of characters at the refused density: 100 × perLine tokens × cpt characters.
    expect(bounded.chars).toBeLessThanOrEqual(cap * cpt);
    expect(bounded.chars).toBeGreaterThan(cap * cpt - line.length - 1);
    expect(bounded.lines).toBeLessThan(run(Array(1000).fill(line), budget({ cap })).lines);
  });

  it('after a refusal, sizes text the estimate finds of another kind (much sparser) by the estimate alone', () => {
    const chars = (line.length + 1) / perLine;
    const cap = 100 * perLine;
    const alone = run(Array(1000).fill(line), budget({ cap }));
    // A refusal in CJK text, at about one character per token: the prose after it is not bounded by that.
    expect(run(Array(1000).fill(line), budget({ cap, charsPerToken: chars / 3 }))).toEqual(alone);
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

describe('a window whose numbered result an engine shows only up to a length (resultChars)', () => {
  // Ten characters a line: each numbered line is `     n→` (7), its text (10) and a newline, but for the last.
  const lines = Array(1000).fill('abcdefghij');
  const plenty = { cap: 1e9, charFloor: 0 };

  it('stops at the last line whose numbered result fits, and says that the length stopped it', () => {
    const r = run(lines, budget({ ...plenty, resultChars: 1000 }));
    // 55 lines: 55 × 17 + 54 = 989; 56 lines: 1007.
    expect(r.lines).toBe(55);
    expect(r.whole).toBe(false);
    expect(r.byResultChars).toBe(true);
    expect(r.chars).toBe(55 * 10 + 54);
  });

  it('counts the wider numbers of lines from 1,000,000 on', () => {
    expect([1, 999_999, 1_000_000, 12_345_678].map(numberWidth)).toEqual([7, 7, 8, 9]);
    // From line 999,990: ten lines at 7, the rest at 8.
    const r = run(lines, budget({ ...plenty, resultChars: 1000 }), 999_990);
    expect(r.lines).toBe(53); // 10 × 17 + 43 × 18 + 52 = 996; one more line is 1015
  });

  it('lets the token cap stop the window first, and without the limit, goes on to the end', () => {
    const byTokens = run(lines, budget({ cap: 20 * estimateTokens('abcdefghij\n'), charFloor: 0, resultChars: 1e6 }));
    expect(byTokens.byResultChars).toBe(false);
    const all = run(lines, budget(plenty));
    expect(all).toMatchObject({ whole: true, lines: 1000, byResultChars: false });
  });

  it('holds even where the window is short enough never to be counted (the floor)', () => {
    const r = run(lines, budget({ cap: 1000, charFloor: 1e6, resultChars: 1000 }));
    expect(r.lines).toBe(55);
  });
});

describe('WindowFit at two margins in one pass', () => {
  // Each line fed in pieces, as chunks of a file cut it: the fit is checked after every piece.
  function feed(fit: WindowFit, lines: string[], piece: number): void {
    let i = 0;
    for (; i < lines.length; i++) {
      const text = lines[i]!;
      let ok = true;
      for (let at = 0; ok && at < text.length; at += piece) {
        ok = fit.addText(text, at, Math.min(text.length, at + piece));
      }
      if (!ok || !fit.endLine()) break;
    }
    if (i === lines.length) fit.endOfFile();
  }
  const texts: Record<string, string[]> = {
    prose: Array.from({ length: 400 }, (_, i) => `Line ${i}: some words of prose, with punctuation; and more words.`),
    code: Array.from({ length: 400 }, (_, i) => `    const value${i} = compute(input[${i}], { key: "x${i}" }); // note`),
    // Escapes that complete and roll back their characters' counts: the estimate can fall as a line goes on.
    escapes: Array.from({ length: 300 }, (_, i) => `"k${i}": "\\u0645\\u0631\\u062d\\u0628\\u0627 \\u4f60\\u597d ${i}",`),
    cjk: Array.from({ length: 300 }, (_, i) => `第${i}行：東京都の天気は晴れ、最高気温は二十五度です。한국어 문장도 있습니다.`),
    long: Array.from({ length: 40 }, (_, i) => `${i} ` + 'word '.repeat(200 + 37 * (i % 5))),
  };
  const budgets: Record<string, Partial<Budget>> = {
    plain: { cap: 3000 },
    floor: { cap: 3000, charFloor: 2000 },
    'refused chars per token': { cap: 3000, charsPerToken: 3.1 },
    'result length': { cap: 100000, resultChars: 9000 },
    'a few lines': { cap: 3000, maxLines: 25 },
    'one line over': { cap: 120 },
  };
  for (const [text, lines] of Object.entries(texts)) {
    for (const [name, b] of Object.entries(budgets)) {
      it(`finds what a pass at the larger margin alone finds: ${text}, ${name}`, () => {
        for (const piece of [7, 64, 100000]) {
          const both = new WindowFit(budget({ ...b, safety: 1.1, innerSafety: 1.12 }));
          feed(both, lines, piece);
          const alone = new WindowFit(budget({ ...b, safety: 1.12 }));
          feed(alone, lines, piece);
          const { groups, digits, digitRuns, ...inner } = both.innerResult()!;
          expect(inner).toEqual(alone.result());
          expect(groups).toEqual(alone.groups());
          expect({ digits, digitRuns }).toEqual(alone.digitCounts());
          // And the smaller margin's own fit is the one a pass at it alone finds.
          const outer = new WindowFit(budget({ ...b, safety: 1.1 }));
          feed(outer, lines, piece);
          expect(both.result()).toEqual(outer.result());
        }
      });
    }
  }

  it('is no fit of its own without a second margin', () => {
    const fit = new WindowFit(budget({ cap: 3000 }));
    feed(fit, texts.prose!, 64);
    expect(fit.innerResult()).toBeUndefined();
  });
});
