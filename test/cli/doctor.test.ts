// `doctor` of the built binary against real settings files in a fresh HOME.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const BIN = join(REPO, 'bin/read-ceiling-pager.js');
const BUNDLE = realpathSync(join(REPO, 'dist/cli.cjs'));
const ENGINE_BIN_DIR = join(REPO, 'node_modules/.bin');
const engines = JSON.parse(readFileSync(join(REPO, 'scripts/engines.json'), 'utf8')) as { versions: string[] };
const VERIFIED = `${engines.versions[0]} to ${engines.versions.at(-1)}`;

let home: string;
let project: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rcp-doctor-home-'));
  project = join(home, 'proj');
  mkdirSync(join(project, '.claude'), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** PATH without the engine unless asked, so the engine line is known either way. */
function run(args: string[], opts: { engine?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const path = (process.env.PATH ?? '').split(':').filter((p) => p !== ENGINE_BIN_DIR && !p.endsWith('node_modules/.bin'));
  if (opts.engine) path.unshift(ENGINE_BIN_DIR);
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: project,
    env: { PATH: path.join(':'), HOME: home, ...opts.env },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const line = (out: string, topic: string) => out.split('\n').filter((l) => l.slice(6, 12).trim() === topic);

describe('doctor', () => {
  it('fails when nothing wires the pager, and says how to fix it', () => {
    const r = run(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(line(r.stdout, 'wired')).toEqual(['FAIL  wired  nowhere: no settings file or enabled plugin runs the pager (run: read-ceiling-pager install)']);
    expect(line(r.stdout, 'node')[0]).toBe(`ok    node   ${process.version} (supported: >=20.0.0)`);
  });

  it('after install: passes, names the file and the command, the cap, the state dir and the engine', () => {
    expect(run(['install']).code).toBe(0);
    const r = run(['doctor'], { engine: true });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'wired')).toEqual([
      `ok    wired  user settings ${join(home, '.claude', 'settings.json')}: node ${BUNDLE} pre | node ${BUNDLE} post`,
    ]);
    expect(line(r.stdout, 'cap')[0]).toMatch(/^ok {4}cap {4}25000 tokens \(the engine's default; CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS is not set\)/);
    expect(line(r.stdout, 'state')).toEqual([`ok    state  ${join(home, '.local', 'state', 'read-ceiling-pager')} (writable)`]);
    expect(line(r.stdout, 'engine')).toEqual([`ok    engine Claude Code 2.1.337 (claude on PATH; the pager was verified on ${VERIFIED})`]);
  });

  it('names the gates that are on and where from, and warns when a gate that needs the gate hook lacks it', () => {
    expect(line(run(['doctor']).stdout, 'gates')).toEqual(['ok    gates  none on (they are opt-in: see docs/GATES.md)']);
    expect(run(['install', '--gates', 'covered-reread,rejected-calls']).code).toBe(0);
    const userSettings = join(home, '.claude', 'settings.json');
    let r = run(['doctor']);
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'gates')).toEqual([`ok    gates  covered-reread, rejected-calls (--gates in user settings ${userSettings})`]);

    // Installed without the gate hook, then switched on through a settings file's env: only Reads are gated.
    expect(run(['install']).code).toBe(0);
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ env: { READ_CEILING_PAGER_GATES: 'edit-after-reject' } }));
    r = run(['doctor'], { env: { READ_CEILING_PAGER_GATES: 'covered-reread' } });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'gates')).toEqual([
      `ok    gates  edit-after-reject (READ_CEILING_PAGER_GATES from "env" in project settings ${join(project, '.claude', 'settings.json')})`,
      'warn  gates  edit-after-reject on, but no gate hook runs on the tools that ask the user (Bash, Edit, Write, …), so only Reads are gated; run: read-ceiling-pager install --gates edit-after-reject',
    ]);
  });

  it('warns when the engine on the PATH is older than the verified range, and still exits 0', () => {
    expect(run(['install']).code).toBe(0);
    const bin = join(home, 'old-engine');
    mkdirSync(bin);
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\necho "2.1.100 (Claude Code)"\n');
    chmodSync(join(bin, 'claude'), 0o755);
    const r = run(['doctor'], { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'engine')).toEqual([
      `warn  engine Claude Code 2.1.100 (claude on PATH) is older than the versions the pager was verified on (${VERIFIED}): it runs exec-form hooks (the plugin's, \`install\`'s) without their arguments, so only the command form of settings.example.json runs the pager; a whole-file read over the cap is refused, not paged (the pager sends it as a window); update Claude Code`,
    ]);
  });

  it('says when claude is not on the PATH', () => {
    const r = run(['doctor']);
    expect(line(r.stdout, 'engine')).toEqual(['warn  engine `claude` is not on the PATH here, so its version is unknown']);
  });

  it('warns when it is wired twice and names a rival PreToolUse hook on Read', () => {
    run(['install']);
    run(['install', '--scope', 'local']);
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Read|Grep', hooks: [{ type: 'command', command: 'rewrite-paths.sh' }] }] },
    }));
    const r = run(['doctor']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warn  wired  2 times on PreToolUse (user settings');
    expect(r.stdout).toContain(`warn  rival  another PreToolUse hook on Read in project settings ${join(project, '.claude', 'settings.json')}: rewrite-paths.sh — if it also returns updatedInput, the hook that finishes last wins`);
  });

  it('reports the cap from a settings env block, the highest-precedence file winning', () => {
    run(['install']);
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({
      ...JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')),
      env: { CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '40000' },
    }));
    writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ env: { CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '10000' } }));
    const r = run(['doctor']);
    expect(line(r.stdout, 'cap')).toEqual([
      `ok    cap    10000 tokens (CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS from "env" in local project settings ${join(project, '.claude', 'settings.local.json')})`,
    ]);
  });

  it('fails when the wired bundle is gone or all hooks are disabled', () => {
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node /gone/read-ceiling-pager/dist/cli.cjs pre' }] }] },
    }));
    let r = run(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL  wired  user settings');
    expect(r.stdout).toContain('runs /gone/read-ceiling-pager/dist/cli.cjs, which does not exist');

    rmSync(join(home, '.claude', 'settings.json'));
    run(['install']);
    writeFileSync(join(project, '.claude', 'settings.local.json'), '{"disableAllHooks": true}');
    r = run(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL  wired  "disableAllHooks": true in local project settings`);
  });

  it('warns, without failing, when the state directory cannot be written', () => {
    run(['install']);
    const locked = join(home, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    const r = run(['doctor'], { env: { READ_CEILING_PAGER_STATE_DIR: join(locked, 'state') } });
    chmodSync(locked, 0o700);
    if (process.getuid?.() === 0) {
      expect(line(r.stdout, 'state')[0]).toMatch(/^ok/); // root writes anywhere: nothing to warn about
    } else {
      expect(line(r.stdout, 'state')[0]).toMatch(/^warn {2}state {2}.*locked\/state is not writable/);
    }
    expect(r.code).toBe(0);
  });

  it('sees the pager wired by its installed plugin', () => {
    const root = join(home, '.claude', 'plugins', 'cache', 'rcp', 'read-ceiling-pager', '0.1.0');
    mkdirSync(join(root, 'hooks'), { recursive: true });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'hooks', 'hooks.json'), readFileSync(join(REPO, 'hooks', 'hooks.json')));
    writeFileSync(join(root, 'dist', 'cli.cjs'), '');
    writeFileSync(join(home, '.claude', 'plugins', 'installed_plugins.json'), JSON.stringify({
      version: 2, plugins: { 'read-ceiling-pager@rcp': [{ scope: 'user', installPath: root, version: '0.1.0' }] },
    }));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'read-ceiling-pager@rcp': true } }));
    let r = run(['doctor']);
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'wired')[0]).toBe('ok    wired  plugin read-ceiling-pager@rcp: node ${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs pre | node ${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs post');
    expect(line(r.stdout, 'state')).toEqual([`ok    state  ${join(home, '.claude', 'plugins', 'data', 'read-ceiling-pager-rcp', 'state')} (writable)`]);
    // The plugin hooks Read only: a gate on Read needs nothing more, one on Bash/Edit/Write needs the npm install.
    expect(line(run(['doctor'], { env: { READ_CEILING_PAGER_GATES: 'covered-reread' } }).stdout, 'gates'))
      .toEqual(['ok    gates  covered-reread (READ_CEILING_PAGER_GATES from the environment)']);
    expect(line(run(['doctor'], { env: { READ_CEILING_PAGER_GATES: 'rejected-calls' } }).stdout, 'gates')).toEqual([
      'ok    gates  rejected-calls (READ_CEILING_PAGER_GATES from the environment)',
      'warn  gates  rejected-calls on, but no gate hook runs on the tools that ask the user (Bash, Edit, Write, …), so only Reads are gated; '
      + 'the plugin hooks Read only. To gate them, use the npm package in place of the plugin: npm install -g read-ceiling-pager && '
      + 'read-ceiling-pager install --gates rejected-calls, then /plugin disable read-ceiling-pager@rcp',
    ]);

    writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ enabledPlugins: { 'read-ceiling-pager@rcp': false } }));
    r = run(['doctor']);
    expect(r.code).toBe(1);
  });
});
