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

/** `lines` words of a made-up Russian word list, one a line, Hunspell's flags on every third (as `index.dic`). */
export function russianWordList(lines: number, seed = 1): string {
  const syllables = ['ба', 'во', 'ге', 'да', 'жи', 'зо', 'ка', 'ле', 'ми', 'но', 'пра', 'сту', 'ры', 'ть', 'ще', 'ю',
    'я', 'ов', 'ен', 'ий', 'ост', 'ние', 'гра', 'чик'];
  return Array.from({ length: lines }, (_, i) => {
    let word = '';
    for (let k = 0, x = i * 7919 + seed * 13; k < 2 + (i % 3); k++, x = Math.floor(x / 24) + k * 131) {
      word += syllables[x % 24];
    }
    return i % 3 === 0 ? `${word}/IJ` : word;
  }).join('\n');
}

/** `lines` entries of a made-up Chinese word list: a word, its frequency and its part of speech (as jieba's). */
export function chineseWordList(lines: number, seed = 1): string {
  const chars = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话';
  return Array.from({ length: lines }, (_, i) => {
    let word = '';
    for (let k = 0, x = i * 104_729 + seed * 7; k < 2 + (i % 3); k++, x = Math.floor(x / chars.length) + k * 977) {
      word += chars[x % chars.length];
    }
    return `${word} ${(i * 37) % 900 + 3} n`;
  }).join('\n');
}

/** `lines` absolute paths of a made-up package's files, one a line (as dpkg lists them). */
export function fileList(lines: number, seed = 1): string {
  const parts = ['usr', 'lib', 'share', 'python3', 'dist-packages', 'google', 'cloud', 'sdk', 'third_party', 'api',
    'v1', 'tests', 'data', 'locale', 'doc', 'man'];
  return Array.from({ length: lines }, (_, i) => {
    let path = '';
    for (let k = 0, x = i * 7919 + seed * 31; k < 3 + (i % 5); k++, x = Math.floor(x / parts.length) + k * 257) {
      path += `/${parts[x % parts.length]}`;
    }
    return `${path}/file_${i % 997}.${['py', 'json', 'gz', 'txt'][i % 4]}`;
  }).join('\n');
}

/** `lines` lines of a bundle's JavaScript whose mix of code changes every few hundred lines, as a compiler's does:
 * deeply indented statements, then a list of exported camelCase names (`fooBarBaz: () => fooBarBaz,`), then
 * unindented declarations. A tokenizer counts each kind at another share of the estimate (o200k takes an indented
 * line's newline and spaces as one token, and a camelCase name in fewer tokens than its case changes). */
export function mixedCode(lines: number, seed = 1): string {
  const words = ['node', 'symbol', 'type', 'checker', 'emit', 'source', 'file', 'flags', 'declaration', 'signature',
    'parameter', 'binding', 'scope', 'module', 'resolved', 'export'];
  let x = seed;
  const word = () => { x = (x * 1103515245 + 12345) % 2147483648; return words[x % words.length]!; };
  const camel = (n: number) => Array.from({ length: n }, (_, k) => (k === 0 ? word() : capitalized(word()))).join('');
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) {
    const block = 150 + ((i * 97 + seed) % 400);
    const kind = i % 3;
    for (let j = 0; j < block && out.length < lines; j++) {
      if (kind === 0) {
        const depth = 2 + ((j * 7 + i) % 5);
        out.push(`${'    '.repeat(depth)}if (${word()}.${word()} !== ${word()}) ${word()}(${word()}, ${j});`);
      } else if (kind === 1) {
        const name = camel(3 + (j % 3));
        out.push(`  ${name}: () => ${name},`);
      } else {
        out.push(`var ${word()}_${j} = ${camel(2)}(${word()}, "${word()} ${word()}", ${j % 10});`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

function capitalized(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** C as a parser generator writes it (tree-sitter's parser.c): `names` lines of symbol names, then tables of numbers
 * to `lines`. A model that counts names sparsely counts the tables far denser, relative to the estimate. */
export function generatedParser(lines: number, names = 2500, seed = 1): string {
  const words = ['identifier', 'statement', 'expression', 'declaration', 'pattern', 'template', 'property', 'member',
    'arguments', 'parenthesized', 'assignment', 'binary', 'unary', 'string', 'fragment', 'import', 'export', 'class'];
  let x = seed;
  const next = (n: number) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  const out: string[] = [];
  for (let i = 0; i < names && out.length < lines; i++) {
    const name = `${words[next(words.length)]}_${words[next(words.length)]}`;
    out.push(`  [sym_${name}] = "${name}",`);
  }
  for (let i = 0; out.length < lines; i++) {
    out.push(`  [${i}] = {.index = ${next(5000)}, .length = ${1 + next(6)}},`);
    out.push(`        '${"/;<@[`{}!%&*+-=>?^|~"[next(19)]}', ${next(300)},`);
  }
  return `${out.join('\n')}\n`;
}

/** `records` entries of a license list as JSON (as spdx-full.json): four short lines of name, URL and flags, then
 * the license's whole text on one line of 6,000-26,000 characters of sentences (every fourth license also numbers
 * its clauses and links its sources), the same for the same seed. A window of 25,000 tokens holds a few records, each
 * long line a twentieth to a fifth of it (1,250-4,700 o200k tokens). */
export function licenseRecords(records: number, seed = 1): string {
  const words = ['license', 'software', 'copyright', 'holder', 'permission', 'granted', 'redistribute', 'source',
    'binary', 'form', 'notice', 'warranty', 'liability', 'contributors', 'provided', 'conditions', 'the', 'of', 'and',
    'to', 'in', 'any', 'without', 'this', 'shall', 'be', 'or', 'for'];
  let x = seed;
  const next = (n: number) => { x = (x * 1103515245 + 12345) % 2147483648; return x % n; };
  const out = ['{'];
  for (let i = 0; i < records; i++) {
    const paragraphs: string[] = [];
    for (let length = 0, target = 6_000 + next(20_000); length < target;) {
      const sentence = Array.from({ length: 8 + next(12) }, () => words[next(words.length)]!).join(' ');
      // Some licenses number their clauses and cite their sources: a window's mix moves with its records.
      const clause = i % 4 === 1 ? `${1 + next(9)}.${1 + next(20)}.${next(10)} (see https://example.org/${next(99_999)}) ` : '';
      paragraphs.push(`${clause}${capitalized(sentence)}.`);
      length += sentence.length + 2;
    }
    out.push(`\t"LR-${i + 1}.0": {`, `\t\t"name": "License Record ${i + 1}",`,
      `\t\t"url": "https://example.org/licenses/lr-${i + 1}.html",`, `\t\t"osiApproved": ${i % 3 === 0},`,
      `\t\t"licenseText": "${paragraphs.join('\\n\\n')}"`, `\t}${i + 1 < records ? ',' : ''}`);
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}
