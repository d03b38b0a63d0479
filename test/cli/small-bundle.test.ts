// The small bundle every Read loads (dist/cli.cjs) answers a Read of a small file alone, `pre` and `post` alike,
// and loads the rest of the pager (dist/main.cjs) only when there may be something to say. Run here beside a
// stand-in main.cjs that leaves a mark when it is loaded.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
{
  mkdirSync(bundle);
  copyFileSync(resolve(__dirname, '../../dist/cli.cjs'), join(bundle, 'cli.cjs'));
  writeFileSync(join(bundle, 'main.cjs'), `require('node:fs').writeFileSync(${JSON.stringify(mark)}, '');\nexports.runHook = () => {};\n`);
  writeFileSync(small, Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n'));
  writeFileSync(big, 'word '.repeat(40_000));
  for (const name of ['shot.png', 'doc.PDF', 'nb.ipynb']) writeFileSync(join(dir, name), 'word '.repeat(40_000));
}
beforeEach(() => rmSync(mark, { force: true }));

function loadsMain(hook: 'pre' | 'post', event: unknown): boolean {
  const { READ_CEILING_PAGER_TRACE: _t, READ_CEILING_PAGER_GATES: _g, ...env } = process.env;
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
