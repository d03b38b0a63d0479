// The small bundle every Read loads (dist/cli.cjs) answers a Read of a small file alone, `pre` and `post` alike,
// and loads the rest of the pager (dist/main.cjs) only when there may be something to say. Run here beside a
// stand-in main.cjs that leaves a mark when it is loaded.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { engineRead, failureEvent, postEvent, preEvent } from '../helpers/hook';

const dir = mkdtempSync(join(tmpdir(), 'rcp-small-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bundle = join(dir, 'dist');
const mark = join(dir, 'main-loaded');
const small = join(dir, 'lines.txt');
const big = join(dir, 'big.txt');
const state = join(dir, 'state');
// 20 KB: under the never-counted floor at the default cap (25,000 characters), over it at 10,000.
const mid = join(dir, 'mid.ts');
const midJson = join(dir, 'mid.json');
{
  mkdirSync(bundle);
  copyFileSync(resolve(__dirname, '../../dist/cli.cjs'), join(bundle, 'cli.cjs'));
  writeFileSync(join(bundle, 'main.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(mark)}, '');\nexports.runHook = () => {};\n`);
  writeFileSync(small, Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n'));
  writeFileSync(big, 'word '.repeat(40_000));
  for (const name of ['shot.png', 'doc.PDF', 'nb.ipynb']) writeFileSync(join(dir, name), 'word '.repeat(40_000));
  writeFileSync(mid, 'export const x = 1;\n'.repeat(1000));
  writeFileSync(midJson, `[${'1,'.repeat(9_999)}1]`);
  mkdirSync(state);
}
beforeEach(() => rmSync(mark, { force: true }));

function loadsMain(hook: 'pre' | 'post', event: unknown, extra: NodeJS.ProcessEnv = {}): boolean {
  const {
    READ_CEILING_PAGER_TRACE: _t, READ_CEILING_PAGER_GATES: _g, CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: _c, ...rest
  } = process.env;
  const env = { ...rest, READ_CEILING_PAGER_STATE_DIR: state, ...extra };
  const r = spawnSync(process.execPath, [join(bundle, 'cli.cjs'), hook], { input: JSON.stringify(event), env, encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(r.stdout).toBe('');
  return existsSync(mark);
}

describe('the small bundle alone', () => {
  it('pre of a small file', () => {
    expect(loadsMain('pre', preEvent('s', 't1', { file_path: small, offset: 1, limit: 100 }, dir))).toBe(false);
    expect(loadsMain('pre', preEvent('s', 't2', { file_path: big, offset: 1, limit: 100 }, dir))).toBe(true);
  });

  it('post of a small file read whole, to its end, or refused', () => {
    const whole = { file_path: small };
    expect(loadsMain('post', postEvent('s', 'p1', whole, engineRead(small, undefined, undefined), dir))).toBe(false);
    const tail = { file_path: small, offset: 250, limit: 100 };
    expect(loadsMain('post', postEvent('s', 'p2', tail, engineRead(small, 250, 100), dir))).toBe(false);
    expect(loadsMain('post', failureEvent('s', 'p3', tail, 'File does not exist.', dir))).toBe(false);
  });

  it('but not post of a window that came back short of the file\'s end (another hook may have shortened it), nor of a large file', () => {
    const window = { file_path: small, offset: 10, limit: 20 };
    expect(loadsMain('post', postEvent('s', 'p4', window, engineRead(small, 10, 20), dir))).toBe(true);
    const whole = { file_path: big };
    expect(loadsMain('post', postEvent('s', 'p5', whole, engineRead(big, undefined, undefined), dir))).toBe(true);
  });

  it('a large image, PDF or notebook, which the engine does not read as lines: alone but for a refused notebook', () => {
    const refused = 'File content (40000 tokens) exceeds maximum allowed tokens (25000).';
    for (const name of ['shot.png', 'doc.PDF', 'nb.ipynb']) {
      const input = { file_path: join(dir, name), offset: 1, limit: 2000 };
      expect([name, loadsMain('pre', preEvent('s', 'n1', input, dir))]).toEqual([name, false]);
      expect([name, loadsMain('post', failureEvent('s', 'n2', input, refused, dir))]).toEqual([name, name === 'nb.ipynb']);
    }
  });
});

describe('a file under the never-counted floor at the cap the session is known to run at', () => {
  const window = { file_path: mid, offset: 1, limit: 2000 };
  const whole = { file_path: mid };

  it('at the default cap, in a session with no state file: alone, pre and post, a window or the whole file', () => {
    expect(loadsMain('pre', preEvent('fresh', 'm1', window, dir))).toBe(false);
    expect(loadsMain('pre', preEvent('fresh', 'm2', whole, dir))).toBe(false);
    expect(loadsMain('post', postEvent('fresh', 'm3', whole, engineRead(mid, undefined, undefined), dir))).toBe(false);
    expect(loadsMain('post', postEvent('fresh', 'm4', window, engineRead(mid, 1, 2000), dir))).toBe(false);
  });

  it('but a refusal or a partial page of it, which says the session runs at a smaller cap: the whole hook explains it '
    + 'and learns that cap', () => {
    const refused = 'File content (10400 tokens) exceeds maximum allowed tokens (10000).';
    expect(loadsMain('post', failureEvent('fresh', 'm9', window, refused, dir))).toBe(true);
    const page = engineRead(mid, undefined, undefined);
    const partial = { ...page, file: { ...page.file, numLines: 900, truncatedByTokenCap: true } };
    expect(loadsMain('post', postEvent('fresh', 'm10', whole, partial, dir))).toBe(true);
  });

  it('alone too in a session whose state file holds no cap, or cannot be read as the store reads it', () => {
    writeFileSync(join(state, 'plain.json'), JSON.stringify({ plans: {}, files: {} }));
    expect(loadsMain('pre', preEvent('plain', 'm11', window, dir))).toBe(false);
    writeFileSync(join(state, 'broken.json'), '{"cap": 100');
    expect(loadsMain('pre', preEvent('broken', 'm12', window, dir))).toBe(false);
    if (process.platform !== 'win32') {
      // A FIFO in place of the state file: read without waiting, and holding nothing.
      spawnSync('mkfifo', [join(state, 'fifo.json')]);
      expect(loadsMain('pre', preEvent('fifo', 'm13', window, dir))).toBe(false);
      // A directory others may write to: the store believes nothing in it, and neither does the small bundle.
      const shared = join(dir, 'shared-state');
      mkdirSync(shared);
      chmodSync(shared, 0o777);
      writeFileSync(join(shared, 'known.json'), JSON.stringify({ plans: {}, files: {}, cap: 10_000 }));
      expect(loadsMain('pre', preEvent('known', 'm15', window, dir), { READ_CEILING_PAGER_STATE_DIR: shared })).toBe(false);
    }
  });

  it('but not in a session a refusal taught a cap of 10,000 (kept in its state file), nor at 10,000 by the '
    + 'environment, nor for JSON (whose floor is half the cap)', () => {
    writeFileSync(join(state, 'known.json'), JSON.stringify({ plans: {}, files: {}, cap: 10_000 }));
    expect(loadsMain('pre', preEvent('known', 'm5', window, dir))).toBe(true);
    expect(loadsMain('post', postEvent('known', 'm14', whole, engineRead(mid, undefined, undefined), dir))).toBe(true);
    expect(loadsMain('pre', preEvent('fresh', 'm6', window, dir), { CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '10000' }))
      .toBe(true);
    expect(loadsMain('pre', preEvent('fresh', 'm7', { file_path: midJson, offset: 1, limit: 2000 }, dir))).toBe(true);
    // A session id that cannot name a state file: the smallest known cap.
    expect(loadsMain('pre', preEvent('../x', 'm8', window, dir))).toBe(true);
  });
});
