// The compiled code kept for the hooks' bundles, through the built binary: the first hook that loads a bundle keeps
// its code under the state directory, the next ones answer the same from it, and a damaged cache or a state
// directory it cannot write changes nothing a user sees.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preEvent, runHook, WINDOWS } from '../helpers/hook';
import { prose } from '../helpers/text';

let dir: string;
let file: string;
const event = () => preEvent('sess-code', `t${Math.random()}`, { file_path: file, offset: 1, limit: 3000 }, dir);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-code-cli-'));
  file = join(dir, 'big.txt');
  writeFileSync(file, prose(3000));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(state: string) {
  const r = runHook('pre', event(), { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: state });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout).hookSpecificOutput.updatedInput as { limit: number };
}

describe.skipIf(WINDOWS)('the compiled code kept for the hooks', () => {
  it('is kept by the first hook that loads the rest of the pager, and the hooks after it clamp the same', () => {
    const state = join(dir, 'state-a');
    const plain = run(join(dir, 'state-none'));
    const first = run(state);
    expect(first.limit).toBeLessThan(3000);
    expect(first).toEqual(plain);
    const code = readdirSync(join(state, 'code'));
    expect(code).toHaveLength(1);
    expect(code[0]).toMatch(new RegExp(`^main-${process.version}-${process.arch}-\\d+-\\d+\\.code$`));
    const kept = join(state, 'code', code[0]!);
    const size = statSync(kept).size;
    expect(size).toBeGreaterThan(10_000);
    expect(run(state)).toEqual(plain);
    expect(statSync(kept).size).toBe(size);

    writeFileSync(kept, 'damaged');
    expect(run(state)).toEqual(plain);
    expect(statSync(kept).size).toBeGreaterThan(10_000); // compiled again, and kept in its place
  });

  it('is left out where the state directory cannot be made, and the Read is clamped all the same', () => {
    expect(run(join(file, 'state'))).toEqual(run(join(dir, 'state-c'))); // under a file: no directory, even for root
  });

  it('is not kept where others may write the state directory', () => {
    const state = join(dir, 'state-shared');
    mkdirSync(join(state, 'code'), { recursive: true });
    chmodSync(join(state, 'code'), 0o777);
    expect(run(state).limit).toBeLessThan(3000);
    expect(readdirSync(join(state, 'code'))).toEqual([]);
  });

  it('holds nothing of the Read: only the code of the bundle', () => {
    const state = join(dir, 'state-b');
    run(state);
    const [name] = readdirSync(join(state, 'code'));
    expect(readFileSync(join(state, 'code', name!)).includes(Buffer.from(readFileSync(file, 'utf8').slice(0, 40)))).toBe(false);
  });
});
