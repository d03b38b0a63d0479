// Test files generated at test time: small but real, deterministic, each with the density of its kind.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A small deterministic PRNG (mulberry32), so every run reads the same files. */
export function rng(seed = 1) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ('the of and to in is was that for on as with by at from his her they this which but be had not are '
  + 'river mountain library window harbour lantern engine summer morning letter garden silence journey pattern '
  + 'quietly carefully suddenly remembered whispered travelled measured counted opened carried borrowed').split(' ');
const HANGUL = '가나다라마바사아자차카타파하서울부산대한민국사람시간문제경제정부사회데이터파일검색결과설명이름주소';
const HAN = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴落';

/** @param {() => number} r @param {string} s */
const pick = (r, s) => s[Math.floor(r() * s.length)] ?? '';
/** @param {() => number} r @template T @param {T[]} a @returns {T} */
const pickOf = (r, a) => /** @type {T} */ (a[Math.floor(r() * a.length)]);

/** @param {() => number} r @param {number} n */
function sentence(r, n) {
  const w = Array.from({ length: n }, () => pickOf(r, WORDS));
  const s = w.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

/** English prose, one paragraph per line. */
export function prose(lines = 300, seed = 1) {
  const r = rng(seed);
  return Array.from({ length: lines }, (_, i) => `${i % 7 === 0 ? '' : sentence(r, 6 + Math.floor(r() * 18))}`).join('\n') + '\n';
}

/** English prose as in prose(), as many lines as it takes to reach `bytes`: a file of a given size.
 * @param {number} bytes */
export function proseOfSize(bytes, seed = 1) {
  const r = rng(seed);
  /** @type {string[]} */
  const out = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = i % 7 === 0 ? '' : sentence(r, 6 + Math.floor(r() * 18));
    out.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return out.join('\n') + '\n';
}

/** TypeScript-like code: indentation, identifiers, punctuation. */
export function code(functions = 40, seed = 2) {
  const r = rng(seed);
  const out = [];
  for (let f = 0; f < functions; f++) {
    const name = `${pickOf(r, WORDS)}${pickOf(r, WORDS).replace(/^./, (c) => c.toUpperCase())}${f}`;
    out.push(`export function ${name}(input: Record<string, number>, limit = ${Math.floor(r() * 1000)}): number[] {`);
    out.push('  const result: number[] = [];');
    out.push(`  for (const [key, value] of Object.entries(input)) {`);
    out.push(`    if (value > limit && key.startsWith('${pickOf(r, WORDS)}')) {`);
    out.push(`      result.push(Math.round(value * ${(r() * 10).toFixed(3)}) + key.length); // ${sentence(r, 5)}`);
    out.push('    }');
    out.push('  }');
    out.push('  return result.sort((a, b) => a - b);');
    out.push('}');
    out.push('');
  }
  return out.join('\n') + '\n';
}

/** Pretty-printed JSON whose strings are in one script (Hangul or Han). */
export function cjsonPretty(script = 'ko', records = 60, seed = 3) {
  const r = rng(seed);
  const chars = script === 'ko' ? HANGUL : HAN;
  const word = () => Array.from({ length: 2 + Math.floor(r() * 4) }, () => pick(r, chars)).join('');
  const text = (n = 6) => Array.from({ length: n }, word).join(script === 'ko' ? ' ' : '');
  const items = Array.from({ length: records }, (_, i) => ({
    id: i + 1, title: text(3), body: text(10 + Math.floor(r() * 10)), tags: [word(), word()],
  }));
  return JSON.stringify({ items }, null, 2) + '\n';
}

/** JSON Lines: one minified record per line, a few hundred characters each. */
export function minifiedJsonl(lines = 120, seed = 4) {
  const r = rng(seed);
  return Array.from({ length: lines }, (_, i) => JSON.stringify({
    id: i + 1, ts: 1_700_000_000 + Math.floor(r() * 1e6),
    user: { name: pickOf(r, WORDS), score: +(r() * 100).toFixed(2) },
    values: Array.from({ length: 8 + Math.floor(r() * 12) }, () => Math.floor(r() * 100000)),
    note: sentence(r, 4 + Math.floor(r() * 8)),
  })).join('\n') + '\n';
}

/** GeoJSON features, one to a line, about 1,500 characters each (a map layer's or an event feed's records): a
 * window holds fewer than 100 of them. */
export function featureLines(lines = 300, seed = 6) {
  const r = rng(seed);
  return Array.from({ length: lines }, (_, i) => JSON.stringify({
    type: 'Feature', id: `ev${i + 1}`,
    properties: {
      mag: +(r() * 6).toFixed(2), time: 1_700_000_000_000 + Math.floor(r() * 1e9), status: 'reviewed',
      place: `${Math.floor(r() * 200)} km ${pickOf(r, ['N', 'NNW', 'SE', 'W'])} of ${pickOf(r, WORDS)} ${pickOf(r, WORDS)}`,
      description: Array.from({ length: 20 }, () => sentence(r, 8 + Math.floor(r() * 6))).join(' '),
    },
    geometry: {
      type: 'Point',
      coordinates: [+(r() * 360 - 180).toFixed(4), +(r() * 180 - 90).toFixed(4), +(r() * 30).toFixed(2)],
    },
  })).join('\n') + '\n';
}

/** @param {string} text */
export const crlf = (text) => text.replace(/\n/g, '\r\n');
/** @param {string} text */
export const noFinalNewline = (text) => text.replace(/\n$/, '');

/** Prose with one line at `at` far longer than the cap. */
export function withLongLine(lines = 120, at = 40, longChars = 40_000, seed = 5) {
  const r = rng(seed);
  const ls = prose(lines, seed).split('\n');
  let long = '';
  while (long.length < longChars) long += sentence(r, 12) + ' ';
  ls[at - 1] = long;
  return ls.join('\n');
}

/**
 * The lines of a file as the engine numbers them: BOM stripped, CRLF as LF, a lone trailing CR dropped; a final
 * newline gives an empty last line.
 * @param {string} path
 */
export function engineLines(path) {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  return text.split('\n').map((l) => l.replace(/\r$/, ''));
}

/** @param {string} dir @param {string} name @param {string} text */
export function put(dir, name, text) {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A small valid PDF with one line of text per page (xref offsets computed). @param {string[]} pages */
export function minimalPdf(pages) {
  const objs = ['<< /Type /Catalog /Pages 2 0 R >>', ''];
  /** @type {string[]} */
  const kids = [];
  const font = 3 + pages.length * 2;
  pages.forEach((text, i) => {
    const page = 3 + i * 2;
    kids.push(`${page} 0 R`);
    const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET`;
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`);
    objs.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  objs[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  objs.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  let out = '%PDF-1.4\n';
  const offsets = objs.map((o, i) => { const at = out.length; out += `${i + 1} 0 obj\n${o}\nendobj\n`; return at; });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return out;
}
