// What a person sees from `estimate`, `audit` and `doctor`, whole, as snapshot files named after the command line
// (test/cli/__snapshots__/cli/). The built binary runs under a fixed environment: its own HOME, state directory
// and an empty PATH, fixed files and transcripts, and `audit --until` for a fixed clock. Paths and the Node version
// are written as <tmp>, <repo> and <node>, so a layout change shows up as a reviewable diff of the snapshot.
// Update after an intended change: npx vitest run test/cli/snapshots.test.ts -u
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transcript, lineBanner } from '../audit/records.js';
import { prose } from '../helpers/text';

const REPO = resolve(__dirname, '../..');
const BIN = join(REPO, 'bin', 'read-ceiling-pager.js');
const UNTIL = '2026-11-30T00:00:00.000Z';
const DAY = 86_400_000;
const T0 = Date.parse(UNTIL);

let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'rcp-snap-')));
  mkdirSync(join(root, 'home'));
  mkdirSync(join(root, 'empty-path'));
  // No PATH to search: doctor finds no `claude`, whatever this machine has installed.
  env = { PATH: join(root, 'empty-path'), HOME: join(root, 'home'), READ_CEILING_PAGER_STATE_DIR: join(root, 'state'), TZ: 'UTC' };
  writeFileSync(join(root, 'big.txt'), prose(3000));
  writeFileSync(join(root, 'small.txt'), prose(20));
  writeFileSync(join(root, 'huge.txt'), prose(5000));

  const projects = join(root, 'projects');
  const write = (path: string, t: Transcript) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, t.text());
    utimesSync(path, new Date(T0 - DAY), new Date(T0 - DAY));
  };
  const big = '/home/me/app/big.txt';
  write(join(projects, '-home-me-app', 'a1.jsonl'), new Transcript('a1', '/home/me/app', T0 - 2 * DAY).prompt()
    .read('r1', { file_path: big, offset: 1, limit: 3000 }).tokenRefusal('r1', 24000, 10000)
    .read('r2', { file_path: big, offset: 1, limit: 1000 }).ok('r2', big, { startLine: 1, numLines: 1000, totalLines: 3001 })
    .read('r3', { file_path: '/home/me/app/log.txt' })
    .ok('r3', '/home/me/app/log.txt', { startLine: 1, numLines: 400, totalLines: 5000, truncatedByTokenCap: true })
    .banner('r3', lineBanner('/home/me/app/log.txt', 400, 5000, 30000, 10000)));
  write(join(projects, '-home-me-lib', 'b1.jsonl'), new Transcript('b1', '/home/me/lib', T0 - DAY).prompt()
    .read('p1', { file_path: '/home/me/lib/gen.ts', offset: 1, limit: 3000 })
    .preHook('p1', { file_path: '/home/me/lib/gen.ts', offset: 1, limit: 1099 })
    .ok('p1', '/home/me/lib/gen.ts', { startLine: 1, numLines: 1099, totalLines: 3001 })
    .context('p1', 'PostToolUse', 'read-ceiling-pager: /home/me/lib/gen.ts has 3001 lines. This Read returned lines '
      + '1-1099 of the requested 1-3000, the most that fits under the 25000-token Read cap. Lines 1100-3000 are not '
      + 'shown yet; offset=1100 limit=1901 is the rest of the requested window.')
    .read('p2', { file_path: '/home/me/lib/gen.ts', offset: 1100, limit: 1901 })
    .preHook('p2', { file_path: '/home/me/lib/gen.ts', offset: 1100, limit: 1099 })
    .ok('p2', '/home/me/lib/gen.ts', { startLine: 1100, numLines: 1099, totalLines: 3001 }));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The command's whole screen: the command line, stdout, stderr when any, and the exit code, machine parts
 * replaced by placeholders. */
function screen(args: string[], extra: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: root, env: { ...env, ...extra }, encoding: 'utf8' });
  const clean = (s: string) => s.split(root).join('<tmp>').split(REPO).join('<repo>').split(process.version).join('<node>');
  const parts = [`$ read-ceiling-pager ${args.join(' ')}`, clean(r.stdout).trimEnd()];
  if (r.stderr) parts.push(`[stderr]\n${clean(r.stderr).trimEnd()}`);
  parts.push(`[exit ${r.status}]`, '');
  return parts.join('\n');
}

/** The snapshot file for a command line: its words joined by spaces, no slashes. */
function snapshotFile(args: string[]): string {
  return `__snapshots__/cli/${args.join(' ').replace(/[/\\:]/g, '_')}.txt`;
}

const CASES: Array<{ args: string[]; env?: NodeJS.ProcessEnv }> = [
  { args: ['estimate', 'big.txt', '--offset', '1', '--limit', '3000'] },
  { args: ['estimate', 'big.txt', '--offset', '1', '--limit', '3000', '--json'] },
  { args: ['estimate', 'big.txt', '--offset', '1', '--limit', '50'] },
  { args: ['estimate', 'huge.txt', '--cap', '10000'] },
  { args: ['estimate', 'small.txt'] },
  { args: ['audit', '--dir', 'projects', '--until', UNTIL] },
  { args: ['audit', '--dir', 'projects', '--until', UNTIL, '--by-project'] },
  { args: ['audit', '--dir', 'projects', '--until', UNTIL, '--json'] },
  { args: ['doctor'] },
];

describe('what the commands print, whole', () => {
  for (const c of CASES) {
    it(c.args.join(' '), async () => {
      await expect(screen(c.args, c.env)).toMatchFileSnapshot(snapshotFile(c.args));
    });
  }

  it('doctor, after install, with the trace on and the cap set', async () => {
    expect(spawnSync(process.execPath, [BIN, 'install'], { cwd: root, env, encoding: 'utf8' }).status).toBe(0);
    const extra = { READ_CEILING_PAGER_TRACE: join(root, 'trace.jsonl'), CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '10000' };
    await expect(screen(['doctor'], extra)).toMatchFileSnapshot(snapshotFile(['doctor', '(installed, trace on)']));
  });
});
