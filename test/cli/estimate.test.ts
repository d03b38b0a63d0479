// Black-box tests of the built binary's `estimate` command (run `npm run build` first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(__dirname, '..', '..', 'bin', 'read-ceiling-pager.js');
let dir: string;
const env = { ...process.env, CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '' };
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'estimate', ...args], { encoding: 'utf8', env });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-estimate-'));
  writeFileSync(join(dir, 'big.ts'), 'export function handleRequest(input: string): number { return input.length * 42; }\n'.repeat(8000));
  writeFileSync(join(dir, 'small.txt'), 'hello\n'.repeat(100));
  writeFileSync(join(dir, 'data.json'), `[${Array.from({ length: 20000 }, (_, i) => `{"id":${i},"v":"x${i}"}`).join(',\n')}]`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('read-ceiling-pager estimate', () => {
  it('says pre clamps an over-cap window, to which limit, and the note that follows', () => {
    const r = run(join(dir, 'big.ts'), '--offset', '1', '--limit', '6000');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^pre +clamps to limit \d+: lines 1-[\d,]+/m);
    expect(r.stdout).toMatch(/^cap +25,000 tokens \(default\)/m);
    expect(r.stdout).toMatch(/^note +read-ceiling-pager: .*has 8001 lines\. This Read returned lines 1-\d+ of the requested 1-6000/m);
  });

  it('prints the same decision as JSON, with the input pre would send', () => {
    const r = run(join(dir, 'big.ts'), '--offset', '101', '--limit', '6000', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.window).toEqual({ first: 101, lines: 6000 });
    expect(j.clamp.limit).toBeGreaterThan(0);
    expect(j.clamp.limit).toBeLessThan(6000);
    expect(j.clamp.tokens).toBeLessThanOrEqual(25_000);
    expect(j.estimate.tokens).toBeGreaterThan(25_000);
    expect(j.updatedInput).toEqual({ file_path: join(dir, 'big.ts'), offset: 101, limit: j.clamp.limit });
    expect(j.note).toContain(`offset=${101 + j.clamp.limit}`);
  });

  it('clamps to fewer lines under a smaller --cap', () => {
    const at = (cap: string) => JSON.parse(run(join(dir, 'big.ts'), '--limit', '6000', '--cap', cap, '--json').stdout);
    const big = at('25000');
    const small = at('10000');
    expect(small.cap).toEqual({ cap: 10000, from: 'option' });
    expect(small.clamp.limit).toBeLessThan(big.clamp.limit);
  });

  it('leaves a window alone when it fits, and says why', () => {
    const r = run(join(dir, 'big.ts'), '--limit', '50');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^pre +leaves the Read alone: the window is at most 25000 characters/m);
    const small = run(join(dir, 'small.txt'), '--limit', '10', '--json');
    expect(JSON.parse(small.stdout)).toMatchObject({ clamp: null, updatedInput: null });
  });

  it('says a window from a first line over the cap is sent with no limit, for the engine\'s excerpt', () => {
    const file = join(dir, 'one-long-line.txt');
    writeFileSync(file, `${'lorem ipsum dolor sit amet '.repeat(8000)}\nshort\n`);
    const r = run(file, '--offset', '1', '--limit', '50', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.reason).toMatch(/^line 1 alone is over the cap, so the engine refuses any window holding it: sent with no limit/);
    expect(j.updatedInput).toEqual({ file_path: file });
    // The same bytes named as a notebook: the engine reads its cells whatever the window, and pre leaves it alone.
    const notebook = join(dir, 'one-long-line.ipynb');
    writeFileSync(notebook, `${'lorem ipsum dolor sit amet '.repeat(8000)}\nshort\n`);
    const nb = JSON.parse(run(notebook, '--offset', '1', '--limit', '50', '--json').stdout);
    expect(nb.reason).toMatch(/^an image, a PDF, a notebook/);
    expect(nb.updatedInput).toBeNull();
  });

  it('uses the JSON floor of cap/2 characters for .json files', () => {
    const j = JSON.parse(run(join(dir, 'data.json'), '--limit', '20000', '--json').stdout);
    expect(j.neverCountedChars).toBe(12_500);
    expect(j.clamp).not.toBeNull();
  });

  it('fails clearly on a missing file, a directory and bad numbers', () => {
    const missing = run(join(dir, 'nope.txt'));
    expect(missing.status).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/no such file: .*nope\.txt/);

    const directory = run(dir);
    expect(directory.status).not.toBe(0);
    expect(directory.stderr).toMatch(/is a directory/);

    for (const args of [['--limit', 'abc'], ['--limit', '0'], ['--offset', '-3'], ['--cap', '1.5']]) {
      const bad = run(join(dir, 'big.ts'), ...args);
      expect(bad.status, args.join(' ')).not.toBe(0);
      expect(bad.stderr).toMatch(/invalid|expected a whole number/);
    }
  });
});
