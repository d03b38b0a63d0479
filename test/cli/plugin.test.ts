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
    contents?: Array<{ errors: unknown[]; warnings: Array<{ path: string; message: string }> }>;
  };
  return { code: r.status, report: JSON.parse(r.stdout) as Report };
}

describe('claude plugin validate', () => {
  it('finds no error in the plugin and one warning only (claude.ai refuses files in bin/), and sees its three hooks, on Read only, in exec form', () => {
    const { code, report } = validate(REPO);
    expect(report.manifest.errors).toEqual([]);
    expect(report.manifest.warnings).toEqual([]);
    // From 2.1.337 the folder's own plugin is checked too, and it has one warning, about claude.ai, not Claude Code:
    // claude.ai refuses a plugin with files in bin/, which holds the npm package's bin/read-ceiling-pager.js. Claude
    // Code loads the plugin (docs/ENGINE.md §7.10); --strict fails on that warning, and only on it.
    const contents = report.contents ?? [];
    expect(contents.flatMap((c) => c.errors)).toEqual([]);
    expect(contents.flatMap((c) => c.warnings.map((w) => w.path))).toEqual(['bin']);
    expect(contents[0]!.warnings[0]!.message).toMatch(/^claude\.ai refuses a plugin with files in its bin\/ folder, though Claude Code loads it\./);
    expect(report.success).toBe(false);
    expect(code).toBe(1);
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
