// The repository as a Claude Code plugin and marketplace, judged by the pinned engine's own validator.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const CLAUDE = join(REPO, 'node_modules/.bin/claude');
const home = mkdtempSync(join(tmpdir(), 'rcp-plugin-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function validate(target: string) {
  const r = spawnSync(CLAUDE, ['plugin', 'validate', '--strict', '--json', target], {
    cwd: REPO,
    env: { PATH: process.env.PATH, HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  type Report = {
    success: boolean; manifest: { errors: unknown[]; warnings: unknown[] }; provides: { hooks: unknown[] };
  };
  return { code: r.status, report: JSON.parse(r.stdout) as Report };
}

describe('claude plugin validate', () => {
  it('passes the plugin with no errors and no warnings, and sees its three hooks, on Read only, in exec form', () => {
    const { code, report } = validate(REPO);
    expect(report.manifest.errors).toEqual([]);
    expect(report.manifest.warnings).toEqual([]);
    expect(report.success).toBe(true);
    expect(code).toBe(0);
    // Exec form: the engine spawns node with these arguments and no shell, so no PowerShell ever parses them.
    const hook = (event: string, which: string) => ({ event, matcher: 'Read', type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs', which] });
    expect(report.provides.hooks).toEqual([hook('PreToolUse', 'pre'), hook('PostToolUse', 'post'), hook('PostToolUseFailure', 'post')]);
  });

  it('passes the marketplace with no errors and no warnings', () => {
    const { code, report } = validate(join(REPO, '.claude-plugin', 'marketplace.json'));
    expect(report.manifest.errors).toEqual([]);
    expect(report.manifest.warnings).toEqual([]);
    expect(code).toBe(0);
  });
});

describe('plugin metadata', () => {
  it('carries the package version everywhere a user or the engine reads one', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    const plugin = JSON.parse(readFileSync(join(REPO, '.claude-plugin', 'plugin.json'), 'utf8'));
    const market = JSON.parse(readFileSync(join(REPO, '.claude-plugin', 'marketplace.json'), 'utf8'));
    expect(plugin.version).toBe(pkg.version);
    expect(market.plugins[0].version).toBe(pkg.version);
    expect(market.plugins[0].name).toBe(plugin.name);
    expect(plugin.license).toBe(pkg.license);
  });
});

describe('the repository URL', () => {
  // package.json `repository` is the one source; every other file that names the repository must agree with it.
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  const url = (pkg.repository.url as string).replace(/^git\+/, '').replace(/\.git$/, '');
  const slug = /^https:\/\/github\.com\/([\w.-]+\/[\w.-]+)$/.exec(url)?.[1];

  it('is a GitHub repository, and the package homepage and bug tracker are in it', () => {
    expect(slug, url).toBeDefined();
    expect(pkg.homepage).toBe(`${url}#readme`);
    expect(pkg.bugs).toEqual({ url: `${url}/issues` });
  });

  it('is the one the plugin and the marketplace name', () => {
    const plugin = JSON.parse(readFileSync(join(REPO, '.claude-plugin', 'plugin.json'), 'utf8'));
    const market = JSON.parse(readFileSync(join(REPO, '.claude-plugin', 'marketplace.json'), 'utf8'));
    expect(plugin.repository).toBe(url);
    expect(market.plugins[0].repository).toBe(url);
    expect(market.plugins[0].homepage).toBe(pkg.homepage);
  });

  it('is the only repository of ours that README, CHANGELOG, docs and workflows name', () => {
    const dirs = ['docs', '.github/workflows'].map((d) => join(REPO, d)).filter((d) => existsSync(d));
    const files = ['README.md', 'CHANGELOG.md'].map((f) => join(REPO, f)).filter((f) => existsSync(f)).concat(dirs.flatMap((d) => readdirSync(d).map((f) => join(d, f))));
    const named = new Set<string>();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/github\.com\/([\w.-]+\/[\w-]+(?:\.[\w-]+)*?)(?:\.git)?(?=[/#)\s"'`>]|$)/g)) named.add(m[1]!);
      for (const m of text.matchAll(/marketplace add ([\w.-]+\/[\w.-]+)/g)) named.add(m[1]!);
    }
    // The engine's own repository (its issues are cited) is not ours.
    named.delete('anthropics/claude-code');
    expect([...named]).toEqual([slug]);
  });
});
