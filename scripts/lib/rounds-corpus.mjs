// The rounds benchmark's corpus: the files scripts/rounds-corpus.json names, from npm packages pinned by exact
// version, fetched once with `npm pack` into node_modules/.cache/read-ceiling-pager/rounds/ and reused. Offline, a
// package that is not cached yet is skipped with a message.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './load-src.mjs';

export const CORPUS_LIST = join(root, 'scripts', 'rounds-corpus.json');
/** Files measured after the pager's decisions were made, from packages the corpus does not hold: a check that what
 * the corpus shows holds on text nobody tuned on (`npm run bench:rounds -- --held-out`). */
export const HELD_OUT_LIST = join(root, 'scripts', 'rounds-held-out.json');
export const CACHE = join(root, 'node_modules', '.cache', 'read-ceiling-pager', 'rounds');

/**
 * @typedef {{ id: string, path: string, cls: string, pkg: string }} CorpusFile id: a short name for tables.
 * @param {{ log?: (s: string) => void, list?: string }} [o] list: another list of the same shape (HELD_OUT_LIST).
 * @returns {{ files: CorpusFile[], skipped: string[] }}
 */
export function corpusFiles(o = {}) {
  const log = o.log ?? ((s) => process.stderr.write(`${s}\n`));
  const list = JSON.parse(readFileSync(o.list ?? CORPUS_LIST, 'utf8'));
  /** @type {CorpusFile[]} */
  const files = [];
  /** @type {string[]} */
  const skipped = [];
  for (const p of list.packages) {
    const spec = `${p.name}@${p.version}`;
    const dir = join(CACHE, spec.replace('/', '+'));
    if (!existsSync(join(dir, '.complete'))) {
      try {
        fetchPackage(spec, dir, p.files.map((/** @type {[string, string]} */ f) => f[0]));
      } catch (err) {
        log(`rounds corpus: cannot fetch ${spec} (offline?), its ${p.files.length} file(s) skipped: ${String(err).split('\n')[0]}`);
        skipped.push(spec);
        continue;
      }
    }
    for (const [path, cls] of p.files) {
      const full = join(dir, path);
      if (!existsSync(full)) { log(`rounds corpus: ${spec} has no ${path}, skipped`); skipped.push(`${spec}/${path}`); continue; }
      files.push({ id: `${p.name}/${path.replace(/^[^/]+\//, '')}`, path: full, cls, pkg: spec });
    }
  }
  return { files, skipped };
}

/** `npm pack` the exact version into a temporary folder, unpack it, keep only the listed files, move them into
 * place. */
function fetchPackage(/** @type {string} */ spec, /** @type {string} */ dir, /** @type {string[]} */ keep) {
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', tmp], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error('npm pack wrote no tarball');
    execFileSync('tar', ['xzf', tgz, ...keep], { cwd: tmp, stdio: 'ignore' });
    rmSync(join(tmp, tgz));
    writeFileSync(join(tmp, '.complete'), `${spec}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
