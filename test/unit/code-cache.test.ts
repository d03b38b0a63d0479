// The compiled code kept for the hooks' bundles: a bundle loads the same with or without it, a kept cache is used
// on the next start, and nothing but a cache of ours, in a directory of ours, is ever run. Each load is a process
// of its own, as each hook is: within one process V8 would find the script compiled already and ignore any cache.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CODE_DIR, codeCacheFile } from '../../src/state/code-cache.js';
import { WINDOWS } from '../../src/state/dir.js';

let loader: string;
let loaderDir: string;
beforeAll(async () => {
  loaderDir = mkdtempSync(join(tmpdir(), 'rcp-code-loader-'));
  loader = join(loaderDir, 'code-cache.cjs');
  await build({ entryPoints: [join(__dirname, '../../src/state/code-cache.ts')], outfile: loader, bundle: true,
    platform: 'node', format: 'cjs', logLevel: 'warning' });
});
afterAll(() => rmSync(loaderDir, { recursive: true, force: true }));

/** One start: loads the bundle in a new Node process, saves its code as a hook does when it exits. */
function loadBundle(file: string, env: NodeJS.ProcessEnv): { exports: unknown; fromCache: boolean } {
  const script = `const { loadBundle } = require(${JSON.stringify(loader)});
    const b = loadBundle(${JSON.stringify(file)}, process.env);
    b.save();
    process.stdout.write(JSON.stringify({ exports: b.exports, fromCache: b.fromCache }));`;
  const r = spawnSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { exports: unknown; fromCache: boolean };
}

let dir: string;
let env: NodeJS.ProcessEnv;
let bundle: string;

/** A CommonJS bundle as esbuild writes one: a builtin required, functions that run, exports set. */
function writeBundle(answer: number): void {
  writeFileSync(bundle, `"use strict";const p=require("node:path");
function twice(x){return x*2}
module.exports={answer:twice(${answer}),base:p.basename(__filename),dir:__dirname,self:this===module.exports};\n`);
}
const codeFiles = () => (existsSync(join(dir, 'state', CODE_DIR)) ? readdirSync(join(dir, 'state', CODE_DIR)) : []);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-code-'));
  env = { READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
  bundle = join(dir, 'main.cjs');
  writeBundle(21);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(WINDOWS)('the compiled code kept for a bundle', () => {
  it('loads the bundle as require would, keeps its code on save, and starts from it the next time', () => {
    const first = loadBundle(bundle, env);
    expect(first.exports).toEqual({ answer: 42, base: 'main.cjs', dir, self: true });
    expect(first.fromCache).toBe(false);
    expect(codeFiles()).toHaveLength(1);
    const kept = codeCacheFile(bundle, env)!;
    utimesSync(kept, new Date(0), new Date(0));
    const second = loadBundle(bundle, env);
    expect(second.fromCache).toBe(true);
    expect(second.exports).toEqual(first.exports);
    expect(readdirSync(join(dir, 'state', CODE_DIR)).map((n) => n)).toEqual([kept.split('/').pop()]);
    expect(statSync(kept).mtimeMs).toBe(0); // a cache V8 took is left as it is
  });

  it('compiles from the source when the kept code is damaged, and keeps good code in its place', () => {
    loadBundle(bundle, env);
    writeFileSync(codeCacheFile(bundle, env)!, Buffer.from('not V8 code at all, only bytes'));
    const damaged = loadBundle(bundle, env);
    expect(damaged.fromCache).toBe(false);
    expect(damaged.exports).toMatchObject({ answer: 42 });
    expect(loadBundle(bundle, env).fromCache).toBe(true);
  });

  it('never runs an old cache for an updated bundle, and drops the old one when it keeps the new', () => {
    loadBundle(bundle, env);
    const old = codeFiles();
    writeBundle(50);
    utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
    const updated = loadBundle(bundle, env);
    expect(updated.fromCache).toBe(false);
    expect(updated.exports).toMatchObject({ answer: 100 });
    expect(codeFiles()).toHaveLength(1);
    expect(codeFiles()).not.toEqual(old);
  });

  it('reads no cache that someone else could have written, and writes none into a directory others can', () => {
    loadBundle(bundle, env);
    const file = codeCacheFile(bundle, env)!;
    chmodSync(file, 0o666);
    expect(loadBundle(bundle, env).fromCache).toBe(false); // and the cache it kept in its place is ours alone
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadBundle(bundle, env).fromCache).toBe(true);
    chmodSync(join(dir, 'state', CODE_DIR), 0o777);
    expect(loadBundle(bundle, env).fromCache).toBe(false);
    rmSync(file);
    expect(loadBundle(bundle, env)).toMatchObject({ exports: { answer: 42 }, fromCache: false });
    expect(codeFiles()).toEqual([]);
  });

  it('fails as require does for a bundle that is not there', () => {
    expect(() => loadBundle(join(dir, 'missing.cjs'), env)).toThrow(/Cannot find module/);
  });
});
