// Deterministic fixture text for the black-box tests.

/** `lines` numbered lines of pseudo-random English-like words, the same for the same seed. */
export function prose(lines: number, seed = 1): string {
  const words = ['the', 'window', 'engine', 'returned', 'lines', 'because', 'a', 'reader', 'asked', 'for', 'more', 'than', 'fits', 'under', 'cap', 'today'];
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const w: string[] = [];
    for (let j = 0; j < 14; j++) { x = (x * 1103515245 + 12345) % 2147483648; w.push(words[x % words.length]!); }
    out.push(`${i + 1}: ${w.join(' ')}.`);
  }
  return `${out.join('\n')}\n`;
}
