// The repository as a Claude Code plugin and marketplace, judged by the pinned engine's own validator.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GATE_MATCHER } from '../../src/gates/install.js';

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
  it('passes the plugin with no errors and no warnings, and sees the three Read hooks and the gate hook', () => {
    const { code, report } = validate(REPO);
    expect(report.manifest.errors).toEqual([]);
    expect(report.manifest.warnings).toEqual([]);
    expect(report.success).toBe(true);
    expect(code).toBe(0);
    expect(report.provides.hooks).toEqual([
      { event: 'PreToolUse', matcher: 'Read', type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs" pre' },
      { event: 'PreToolUse', matcher: GATE_MATCHER, type: 'command', command: 'test -z "$READ_CEILING_PAGER_GATES" || node "${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs" gate' },
      { event: 'PostToolUse', matcher: 'Read', type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs" post' },
      { event: 'PostToolUseFailure', matcher: 'Read', type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs" post' },
    ]);
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
