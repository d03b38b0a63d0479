// The npm package: what `npm pack` ships, and that `npx read-ceiling-pager` runs from the tarball, offline.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string; engines: { node: string }; scripts: Record<string, string>; allowScripts: Record<string, boolean>;
};
const dir = mkdtempSync(join(tmpdir(), 'rcp-pack-'));
let tarball: string;
let files: string[];

// npm with a fresh HOME and cache: nothing from this machine's npm set-up, and --offline so no registry.
const npmEnv = { PATH: process.env.PATH, HOME: dir, npm_config_cache: join(dir, 'cache'), npm_config_update_notifier: 'false' };

beforeAll(() => {
  // --ignore-scripts: packing must not rebuild dist/ under everyone else's feet; the committed bundle is what ships.
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO, env: npmEnv, encoding: 'utf8' });
  expect(r.status).toBe(0);
  const [entry] = JSON.parse(r.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(dir, entry!.filename);
  files = entry!.files.map((f) => f.path).sort();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function npx(...args: string[]) {
  const r = spawnSync('npx', ['--offline', '--yes', '--package', tarball, 'read-ceiling-pager', ...args], {
    cwd: dir, env: npmEnv, encoding: 'utf8', timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm pack', () => {
  it('holds the bin, the bundle, README, CHANGELOG, LICENSE, the example settings and the plugin files, nothing else', () => {
    expect(files).toEqual([
      '.claude-plugin/marketplace.json',
      '.claude-plugin/plugin.json',
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'bin/read-ceiling-pager.js',
      'dist/cli.cjs',
      'dist/commands.cjs',
      'dist/gates.cjs',
      'dist/main.cjs',
      'hooks/hooks.json',
      'package.json',
      'settings.example.json',
    ]);
  });

  it('states the Node versions it supports', () => {
    expect(pkg.engines.node).toBe('>=20.0.0');
  });

  it('has no install-time script: dist/ is committed, and an install runs none of our code', () => {
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts, script).not.toHaveProperty(script);
  });

  it('allowScripts names exactly the dev dependencies with install scripts (the engine links its binary, esbuild its own)', () => {
    const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const withScripts = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([path]) => path.replace(/^.*node_modules\//, '')).sort();
    expect(Object.keys(pkg.allowScripts).sort()).toEqual(withScripts);
    expect(Object.values(pkg.allowScripts).every((v) => v === true)).toBe(true);
  });
});

describe('npm install -g of the packed tarball', () => {
  it('prints no warning, installs a working read-ceiling-pager, and runs no script', () => {
    const prefix = join(dir, 'global');
    const r = spawnSync('npm', ['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', prefix, tarball], {
      cwd: dir, env: npmEnv, encoding: 'utf8', timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(/warn|script/i);
    const bin = process.platform === 'win32' ? join(prefix, 'read-ceiling-pager.cmd') : join(prefix, 'bin', 'read-ceiling-pager');
    const v = spawnSync(bin, ['--version'], { encoding: 'utf8', shell: process.platform === 'win32' });
    expect(v.stdout).toBe(`${pkg.version}\n`);
  });
});

describe('npx read-ceiling-pager from the packed tarball', () => {
  it('--version prints the version', () => {
    const r = npx('--version');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });

  it('--help lists the commands and an example', () => {
    const r = npx('--help');
    expect(r.code).toBe(0);
    for (const command of ['pre', 'post', 'install', 'uninstall', 'doctor']) expect(r.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(r.stdout).toContain('Examples:');
  });

  it.each(['install', 'uninstall', 'doctor'])('%s --help has an example', (command) => {
    const r = npx(command, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples?:\n {2}read-ceiling-pager /);
  });
});
