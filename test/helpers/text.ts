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

/** `lines` CSV rows of dates, prices and six-place fractions (a price history), the same for the same seed. */
export function csvPrices(lines: number, seed = 1): string {
  return Array.from({ length: lines }, (_, i) =>
    `${2000 + (i % 20)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 7 + seed) % 28)).padStart(2, '0')},` +
    `${((i * 7919 + seed * 31) % 200000) / 100},${(((i * 104729 + seed) % 9000000) / 1e6 + 30).toFixed(6)}`).join('\n');
}

/** `lines` CSV rows of zip codes, coordinates, towns and states, the same for the same seed. */
export function csvPlaces(lines: number, seed = 1): string {
  return Array.from({ length: lines }, (_, i) =>
    `"${10000 + ((i * 37 + seed) % 89999)}",${(30 + ((i * 13 + seed) % 1700) / 100).toFixed(6)},` +
    `${(-70 - ((i * 17 + seed) % 5000) / 100).toFixed(6)},"Springfield ${i % 97}","MA"`).join('\n');
}

/** `lines` CSV rows of ten-digit ids, amounts and six-place fractions (a ledger), the same for the same seed. */
export function csvLedger(lines: number, seed = 1): string {
  return Array.from({ length: lines }, (_, i) =>
    `${1_000_000_000 + ((i * 7_919_993 + seed) % 8_999_999_999)},${((i * 104_729 + seed) % 99_999_999) / 100},` +
    `${(((i * 1_299_709 + seed) % 1e9) / 1e7).toFixed(6)},${i % 3 === 0 ? 'paid' : 'due'}`).join('\n');
}
