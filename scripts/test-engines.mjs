// Runs the end-to-end smoke tests against each Claude Code version in scripts/engines.json, oldest supported to
// the pinned one. Each engine is fetched once with `npm pack` (the main package, plus this platform's binary
// package for native builds; glibc Linux, macOS, Windows) into node_modules/.cache (or TEST_ENGINES_CACHE), and
// reused after. The pinned version runs from node_modules as installed. The harness runs each through E2E_CLAUDE
// (test/e2e/harness/engine.mjs).
//
//   npm run test:engines                 every listed version, and the older ones (below)
//   npm run test:engines -- --ci         the oldest and the oldest older one (what .ci/run runs, after `npm test`,
//                                        whose end-to-end tests run every smoke test on the pinned one)
//   npm run test:engines -- 2.1.150 …    these versions, listed or not (to look for the oldest that works)
//
// `older` in engines.json: versions before the verified range, oldest first, which the pager meets in the wild
// (fleets pin their engine), and the tests of what it does for them; 2.1.50 and 2.1.100 are a cli.js run under Node,
// no native binary.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENGINE_PKG = '@anthropic-ai/claude-code';
const list = JSON.parse(readFileSync(join(root, 'scripts', 'engines.json'), 'utf8'));
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies[ENGINE_PKG];
// TEST_ENGINES_CACHE moves it (CI keeps it where `npm ci` does not empty it).
const cache = process.env.TEST_ENGINES_CACHE || join(root, 'node_modules', '.cache', 'read-ceiling-pager', 'engines');
const win = process.platform === 'win32';
const npm = win ? 'npm.cmd' : 'npm';

const args = process.argv.slice(2);
const ci = args.includes('--ci') || process.env.TEST_ENGINES === 'ci';
const named = args.filter((a) => /^\d+\.\d+\.\d+/.test(a));
const older = list.older.versions;
const versions = named.length
  ? named
  : ci
    ? [older[0], list.versions[0]]
    : [...older, ...list.versions];
/** The tests a version runs: the smoke tests in the verified range, the older ones' own before it. */
const testsOf = (version) => (older.includes(version) ? list.older.tests : list.smoke);
if (list.versions.at(-1) !== pinned) throw new Error(`scripts/engines.json ends at ${list.versions.at(-1)}, package.json pins ${pinned}`);

/** The command that starts this engine version: its binary, or its cli.js (the harness runs a .js under Node). */
function engine(version) {
  if (version === pinned) {
    const installed = JSON.parse(readFileSync(join(root, 'node_modules', ENGINE_PKG, 'package.json'), 'utf8'));
    if (installed.version === pinned) return join(root, 'node_modules', ENGINE_PKG, installed.bin.claude);
  }
  const dir = join(cache, version);
  const record = join(dir, 'engine.json');
  if (existsSync(record)) return join(dir, JSON.parse(readFileSync(record, 'utf8')).path);

  // Fetched into a scratch directory and renamed into place, so an interrupted fetch is never taken for a cached one.
  const part = `${dir}.part`;
  rmSync(part, { recursive: true, force: true });
  const main = unpack(`${ENGINE_PKG}@${version}`, join(part, 'main'));
  const manifest = JSON.parse(readFileSync(join(main, 'package.json'), 'utf8'));
  const binPath = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.claude;
  let path;
  if (/\.[cm]?js$/.test(binPath)) {
    path = join('main', 'package', binPath);
  } else {
    // A native build: the binary is in the platform package the main one lists as optional.
    const platformPkg = `${ENGINE_PKG}-${process.platform}-${process.arch}`;
    if (!manifest.optionalDependencies?.[platformPkg]) throw new Error(`${ENGINE_PKG}@${version} has no ${platformPkg}`);
    const plat = unpack(`${platformPkg}@${manifest.optionalDependencies[platformPkg]}`, join(part, 'platform'));
    const exe = readdirSync(plat).find((f) => f === 'claude' || f === 'claude.exe');
    if (!exe) throw new Error(`${platformPkg}@${version} holds no claude binary`);
    chmodSync(join(plat, exe), 0o755);
    path = join('platform', 'package', exe);
  }
  writeFileSync(join(part, 'engine.json'), JSON.stringify({ version, path }) + '\n');
  renameSync(part, dir);
  return join(dir, path);
}

/** `npm pack <spec>` into `into` and unpack it there; returns the unpacked package directory. */
function unpack(spec, into) {
  mkdirSync(into, { recursive: true });
  const out = execFileSync(npm, ['pack', spec, '--json', '--pack-destination', into], { cwd: into, encoding: 'utf8', shell: win, stdio: ['ignore', 'pipe', 'inherit'] });
  const [{ filename }] = JSON.parse(out);
  const tgz = filename.replace(/^@/, '').replace(/\//g, '-');
  // Relative names and cwd: Windows' tar would take a drive letter for a remote host.
  execFileSync('tar', ['-xzf', tgz], { cwd: into, stdio: 'inherit' });
  rmSync(join(into, tgz));
  return join(into, 'package');
}

const results = [];
for (const version of versions) {
  let command;
  try {
    command = engine(version);
  } catch (err) {
    results.push({ version, ok: false, why: `could not fetch: ${err.message}` });
    continue;
  }
  // As the harness starts it: a .js engine under this Node.
  const [exe, ...lead] = /\.[cm]?js$/.test(command) ? [process.execPath, command] : [command];
  const reported = spawnSync(exe, [...lead, '--version'], { encoding: 'utf8', timeout: 60_000 });
  const seen = /\d+\.\d+\.\d+/.exec(reported.stdout ?? '')?.[0];
  if (seen !== version) {
    results.push({ version, ok: false, why: `${command} --version says ${JSON.stringify((reported.stdout || reported.stderr || String(reported.error)).trim())}` });
    continue;
  }
  console.log(`\ntest:engines: Claude Code ${version} (${command})`);
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...testsOf(version)], {
    cwd: root, stdio: 'inherit', env: { ...process.env, E2E_CLAUDE: command },
  });
  results.push({ version, ok: r.status === 0, why: r.status === 0 ? '' : `smoke tests failed (exit ${r.status})` });
}

console.log('\ntest:engines:');
for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'}  ${r.version.padEnd(9)} ${r.why}`);
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
