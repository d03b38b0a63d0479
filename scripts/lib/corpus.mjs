// The corpus: real text from node_modules and Debian packages, plus generated text for classes no package
// holds (numbers, logs, emoji, repeated patterns). Every file goes to one side of a fixed split, by a hash of
// its path: "fit" files calibrate the weights, "held" files are what the benchmark and held-out errors use.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { rng } from '../../test/e2e/harness/files.mjs';
import { root } from './load-src.mjs';

/** Seeded PRNG, so generated classes are the same on every run: the e2e harness's. */
export { rng };

const NM = join(root, 'node_modules');
const MAX_FILE = 120_000;
const STATSMODELS = '/usr/lib/python3/dist-packages/statsmodels';

function walk(dir, accept, out = [], depth = 0) {
  if (!existsSync(dir) || depth > 12) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, accept, out, depth + 1);
    else if (e.isFile() && accept(p)) out.push(p);
  }
  return out;
}

const read = (p) => {
  const b = readFileSync(p);
  return (p.endsWith('.gz') ? gunzipSync(b) : b).toString('utf8').slice(0, MAX_FILE);
};
const stripTags = (html) => html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '')
  .replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/&nbsp;/g, ' ')
  .replace(/\n{3,}/g, '\n\n');
const jsonValues = (p) => Object.values(JSON.parse(readFileSync(p, 'utf8'))).join('\n');
const avgLine = (t) => t.length / Math.max(1, t.split('\n').length);

function generated(kind, seed, size) {
  const r = rng(seed);
  const pick = (a) => a[Math.floor(r() * a.length)];
  const words = read(join(NM, 'typescript', 'README.md')).match(/[A-Za-z]{3,}/g);
  const out = [];
  let n = 0;
  while (n < size) {
    let line;
    if (kind === 'numbers') {
      const cols = 3 + Math.floor(r() * 6);
      line = Array.from({ length: cols }, () => {
        const k = r();
        return k < 0.3 ? String(Math.floor(r() * 1e6))
          : k < 0.6 ? (r() * 1000 - 500).toFixed(4)
            : k < 0.8 ? String(Math.floor(r() * 100)) : (r() * 1e9).toExponential(3);
      }).join(r() < 0.5 ? ',' : '\t');
    } else if (kind === 'logs') {
      const ts = new Date(1.7e12 + Math.floor(r() * 3e10)).toISOString();
      const ip = `${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}`;
      const id = Math.floor(r() * 2 ** 48).toString(16).padStart(12, '0');
      line = `${ts} ${pick(['INFO', 'WARN', 'ERROR', 'DEBUG'])} [${pick(['http', 'db', 'worker-3', 'auth'])}] req=${id} ip=${ip} ${Array.from({ length: 3 + Math.floor(r() * 10) }, () => pick(words)).join(' ')} latency=${(r() * 900).toFixed(1)}ms status=${pick([200, 201, 204, 301, 404, 500])}`;
    } else if (kind === 'emoji') {
      const emoji = ['😀', '🎉', '👍', '🚀', '🔥', '✅', '❤️', '🙏', '📦', '🐛', '✨', '👨‍💻', '🇫🇷', '⚠️'];
      line = Array.from({ length: 4 + Math.floor(r() * 12) }, () => (r() < 0.35 ? pick(emoji) : pick(words))).join(' ');
    } else if (kind === 'repeat') {
      const unit = pick(['ab', 'xy', 'la', 'ok']);
      line = unit.repeat(10 + Math.floor(r() * 60));
    } else {
      throw new Error(kind);
    }
    out.push(line);
    n += line.length + 1;
  }
  return out.join('\n') + '\n';
}

/** Classes and where their files come from. `ext` names the extension a bench file gets. */
export const CLASSES = {
  // English prose: licences and the Debian Reference as plain text (cut in parts, each part a "file").
  prose: { ext: 'txt', files: () => [
    ...walk('/usr/share/common-licenses', (p) => !/GPL$|LGPL$|GFDL$/.test(p)),
    ...walk(NM, (p) => /^(LICENSE|LICENCE|COPYING)/i.test(basename(p))),
    ...Array.from({ length: 8 }, (_, i) => `/usr/share/debian-reference/debian-reference.en.txt.gz#${i}`),
  ] },
  markdown: { ext: 'md', files: () => walk(NM, (p) => /\.(md|markdown)$/i.test(p)) },
  ts: { ext: 'ts', files: () => walk(NM, (p) => p.endsWith('.ts') && !/\/typescript\/lib\/lib\./.test(p)) },
  js: { ext: 'js', files: () => walk(NM, (p) => /\.(m|c)?js$/.test(p)).filter((p) => statSync(p).size > 2000) },
  minified: { ext: 'js', files: () => walk(NM, (p) => /\.(m|c)?js$/.test(p)).filter((p) => statSync(p).size > 20_000) },
  python: { ext: 'py', files: () => walk('/usr/lib/python3.11', (p) => p.endsWith('.py')) },
  html: { ext: 'html', files: () => [
    ...walk('/usr/share/debian-reference', (p) => p.endsWith('.en.html')),
    ...walk('/usr/share/doc', (p) => p.endsWith('.html') && !/\.(ja|ko|zh)/.test(p)),
  ] },
  // Manifests, configs, type maps and the lockfile; the localized message catalogues serve the script classes.
  json: { ext: 'json', files: () => [...walk(NM, (p) => p.endsWith('.json') && !/diagnosticMessages/.test(p)), join(root, 'package-lock.json')] },
  ko: { ext: 'txt', files: () => [
    ...walk('/usr/share/doc/debian/FAQ/ko', (p) => p.endsWith('.html')),
    join(NM, 'typescript/lib/ko/diagnosticMessages.generated.json'),
  ] },
  zh: { ext: 'txt', files: () => [
    ...walk('/usr/share/man/zh_CN', (p) => p.endsWith('.gz')), ...walk('/usr/share/man/zh_TW', (p) => p.endsWith('.gz')),
    join(NM, 'typescript/lib/zh-cn/diagnosticMessages.generated.json'), join(NM, 'typescript/lib/zh-tw/diagnosticMessages.generated.json'),
  ] },
  ja: { ext: 'txt', files: () => [
    ...walk('/usr/share/debian-reference', (p) => p.endsWith('.ja.html')),
    join(NM, 'typescript/lib/ja/diagnosticMessages.generated.json'),
  ] },
  ru: { ext: 'txt', files: () => [
    ...walk('/usr/share/man/ru', (p) => p.endsWith('.gz')),
    join(NM, 'typescript/lib/ru/diagnosticMessages.generated.json'),
  ] },
  // Scripts of three-byte letters (Indic, Thai, Lao, Khmer, Myanmar, Sinhala, Georgian, Ethiopic): the translations
  // in Debian's gettext catalogues. Tokenizers disagree on them by up to four times (byte-level ones split the
  // letters apart), so they are shown in the tables and left out of the fit (calibrate.mjs).
  indic: { ext: 'txt', tableOnly: true, files: () => walk('/usr/share/locale', (p) =>
    /\/(as|bn|bn_IN|gu|hi|kn|mai|ml|mr|ne|or|pa|si|ta|te|th|lo|km|my|ka|am|ti)\/LC_MESSAGES\/[^/]+\.mo$/.test(p)) },
  // Real data files: statistical datasets and results (CSV and JSON of numbers, many of them long floats), the ISO
  // code lists (JSON records) and the distributions' release tables (CSV of dates), from Debian's python3-statsmodels,
  // python3-sklearn, iso-codes and distro-info-data. Shown in the tables and left out of the fit: fitted, they cost
  // more calls on the rounds benchmark than the refusals they saved (docs/CALIBRATION.md, "Real data files").
  data: { ext: 'csv', tableOnly: true, files: () => [
    ...walk(STATSMODELS, (p) => /\/(datasets|results)\/.*\.(csv|json)$/.test(p)),
    ...walk('/usr/lib/python3/dist-packages/sklearn/datasets/data', (p) => p.endsWith('.csv')),
    ...walk('/usr/share/iso-codes/json', (p) => p.endsWith('.json') && !/schema-/.test(p)),
    ...walk('/usr/share/distro-info', (p) => p.endsWith('.csv')),
  ] },
  numbers: { ext: 'csv', generated: true },
  logs: { ext: 'log', generated: true },
  emoji: { ext: 'txt', generated: true },
  repeat: { ext: 'txt', generated: true },
};

/** The text as the engine counts it: CRLF as LF. */
function textOf(cls, p) {
  return rawTextOf(cls, p).replace(/\r\n/g, '\n');
}

function rawTextOf(cls, p) {
  if (/diagnosticMessages/.test(p)) return jsonValues(p);
  if (p.endsWith('.mo')) return moTranslations(readFileSync(p));
  const part = /^(.*)#(\d+)$/.exec(p);
  if (part) {
    const all = (p.endsWith('.gz') || part[1].endsWith('.gz') ? gunzipSync(readFileSync(part[1])) : readFileSync(part[1])).toString('utf8');
    const size = Math.ceil(all.length / 8);
    return all.slice(Number(part[2]) * size, (Number(part[2]) + 1) * size).slice(0, MAX_FILE);
  }
  const t = read(p);
  if ((cls === 'ko' || cls === 'ja') && p.endsWith('.html')) return stripTags(t);
  return t;
}

const orderKey = (p) => (p.startsWith(root) ? `~${p.slice(root.length)}` : p);

export function side(path) {
  return createHash('sha1').update(path.replace(root, '')).digest()[0] % 3 === 0 ? 'held' : 'fit';
}

/** The translations of a gettext catalogue (GNU .mo: a header, then tables of lengths and offsets), one per line;
 * the header entry (the first, for the empty message) is left out. */
function moTranslations(b) {
  const le = b.readUInt32LE(0) === 0x950412de;
  const u = (at) => (le ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const count = u(8);
  const table = u(16);
  const out = [];
  for (let i = 1; i < count; i++) {
    const length = u(table + 8 * i);
    const at = u(table + 8 * i + 4);
    out.push(b.subarray(at, at + length).toString('utf8').replace(/\0/g, '\n'));
  }
  return out.join('\n');
}

/** The texts of one class on one side of the split, up to `budget` characters in total. */
export function texts(cls, which, budget) {
  const spec = CLASSES[cls];
  if (spec.generated) {
    return [{ path: `generated:${cls}:${which}`, text: generated(cls, which === 'fit' ? 1 : 2, budget) }];
  }
  // Ordered by a key that does not depend on where the repository lives (the system's files, then the
  // repository's, by their path in it), so a refit anywhere draws the same files.
  const files = spec.files().filter((p) => side(p) === which).sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : 1));
  // Spread the budget over many files: a deterministic shuffle, then take until full.
  const r = rng(cls.length * 7919 + (which === 'fit' ? 1 : 2));
  const order = files.map((p) => [r(), p]).sort((a, b) => a[0] - b[0]).map((x) => x[1]);
  const out = [];
  let total = 0;
  for (const p of order) {
    if (total >= budget) break;
    let text;
    try { text = textOf(cls, p); } catch { continue; }
    if (text.includes('\0') || text.length < 200) continue;
    const long = avgLine(text) > 400;
    if (cls === 'minified' ? !long : long) continue;
    if (cls !== 'minified' && /\.(m|c)?js$/.test(p) && /\.min\./.test(p)) continue;
    // No one file may be most of a class: at most a fifth of the budget each.
    out.push({ path: p, text: text.slice(0, Math.min(budget - total + 2000, Math.ceil(budget / 5))) });
    total += out[out.length - 1].text.length;
  }
  return out;
}
