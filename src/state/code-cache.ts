// V8's compiled code for the hooks' larger bundles (dist/main.cjs, dist/gates.cjs), kept beside the state. Node
// compiles a bundle from its source on every start, and a hook is a new process on every Read: main.cjs (about
// 110 KB) is compiled for every Read that needs the estimate. With the code V8 serialized after an earlier run (its
// top level and every function that run compiled), only the rest is compiled (README, "How well it estimates, and
// what it costs"). Node 22 can do this itself (`module.enableCompileCache`); Node 20, which the pager supports, cannot.
//
// The cache is code that runs, so it is read only from a directory of this user's that no one else can write, as a
// file of this user's that no one else can write, and never on Windows, where Node sees neither. V8 checks that a
// cache was made by this V8, with these flags, for a source of this length, and rejects it otherwise; the file's
// name holds the bundle's size and modification time besides, so an updated bundle never meets an old cache.
// Anything wrong means compiling as Node would: the cache only ever saves time.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isPrivateDir, readOwnBytes, stateDir, WINDOWS } from './dir.js';

/** The directory under the state directory that holds the compiled bundles. */
export const CODE_DIR = 'code';
/** A cache larger than this is not one of ours (main.cjs's is about 160 KB). */
const CODE_CACHE_MAX_BYTES = 8 * 1024 * 1024;
/** A half-written cache this old belongs to a hook that is gone. */
const STALE_TMP_MS = 60_000;

export interface LoadedBundle {
  exports: unknown;
  /** The bundle ran from compiled code kept before (V8 took the cache). */
  fromCache: boolean;
  /** Writes the compiled code, when there was no usable cache: call it once the run is done, so that every function
   * the run compiled is in it. Never throws. */
  save: () => void;
}

/** Where the compiled code of `file` (a bundle) is kept, for this Node on this machine; undefined on Windows. */
export function codeCacheFile(file: string, env: NodeJS.ProcessEnv): string | undefined {
  if (WINDOWS) return undefined;
  const st = statSync(file);
  const name = basename(file).replace(/\.cjs$/, '');
  return join(stateDir(env), CODE_DIR, `${name}-${process.version}-${process.arch}-${st.size}-${Math.trunc(st.mtimeMs)}.code`);
}

/** Loads a CommonJS bundle as `require` would, from the compiled code kept for it when there is a usable one. */
export function loadBundle(file: string, env: NodeJS.ProcessEnv): LoadedBundle {
  let cacheFile: string | undefined;
  let script: import('node:vm').Script | undefined;
  let cached: Buffer | undefined;
  try {
    cacheFile = codeCacheFile(file, env);
    if (cacheFile) {
      cached = readOwnCode(cacheFile);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Script } = require('node:vm') as typeof import('node:vm');
      script = new Script(wrap(readFileSync(file, 'utf8')), { filename: file, cachedData: cached });
    }
  } catch {
    script = undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!script || !cacheFile) return { exports: require(file) as unknown, fromCache: false, save: () => undefined };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as unknown };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createRequire } = require('node:module') as typeof import('node:module');
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const fromCache = cached !== undefined && !script.cachedDataRejected;
  const [keptAt, compiled] = [cacheFile, script]; // as narrowed here, for the closure
  return { exports: module.exports, fromCache, save: () => (fromCache ? undefined : saveCode(keptAt, compiled)) };
}

/** The wrapper Node puts around a CommonJS module's source. */
function wrap(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}

/** The bytes of a cache we wrote: ours and writable by no one else (`readOwnBytes`), in a private directory, at most
 * `CODE_CACHE_MAX_BYTES`. Undefined for anything else. */
function readOwnCode(file: string): Buffer | undefined {
  return isPrivateDir(dirname(file)) ? readOwnBytes(file, CODE_CACHE_MAX_BYTES, false) : undefined;
}

/** Writes the script's compiled code in place of any other cache of the same bundle (another size, time or Node),
 * through a file of its own renamed into place, so parallel hooks never read half a cache. */
function saveCode(file: string, script: import('node:vm').Script): void {
  const dir = dirname(file);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateDir(dir)) return;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
    const prefix = `${basename(file).split('-')[0]}-`; // the bundle's name: main-, gates-
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || name === basename(file)) continue;
      const path = join(dir, name);
      // another cache of the bundle, or what a hook killed while writing one left
      if (name.endsWith('.code') || (name.endsWith('.tmp') && now - statSync(path).mtimeMs > STALE_TMP_MS)) unlinkSync(path);
    }
  } catch {
    try { unlinkSync(tmp); } catch { /* never written */ }
  }
}
