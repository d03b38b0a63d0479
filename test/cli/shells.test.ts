// The exact hook command strings that install, settings.example.json and the plugin write, run by each shell
// that may run them: bash (Linux, macOS, Git Bash on Windows), sh/dash, and cmd.exe under Wine (only in
// `npm run test:windows`). The bundle sits in a folder with a space, as under C:\Program Files or "Jo Doe".
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeInvocation, pagerCommand } from '../../src/settings/hooks';
import { HOOK_TIMEOUT_MS, ROOT, WINDOWS, hookEnv, hookInput, hookPath, preEvent } from '../helpers/hook';
import { prose } from '../helpers/text';

let dir: string;
let pluginRoot: string;
let event: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-shells-'));
  pluginRoot = join(dir, "Jo Doe's plugins", 'read-ceiling-pager');
  mkdirSync(join(pluginRoot, 'dist'), { recursive: true });
  for (const f of ['cli.cjs', 'gates.cjs']) copyFileSync(join(ROOT, 'dist', f), join(pluginRoot, 'dist', f));
  writeFileSync(join(dir, 'big.txt'), prose(3000));
  event = JSON.stringify(hookInput(preEvent('sess-shells', 'toolu_sh', { file_path: join(dir, 'big.txt'), limit: 3000 })));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plugin = JSON.parse(readFileSync(join(ROOT, 'hooks', 'hooks.json'), 'utf8'));
const pluginPre: string = plugin.hooks.PreToolUse[0].hooks[0].command;
const pluginGate: string = plugin.hooks.PreToolUse[1].hooks[0].command;

function clamped(stdout: string): boolean {
  try { return JSON.parse(stdout).hookSpecificOutput.updatedInput.limit < 3000; } catch { return false; }
}

describe.runIf(!WINDOWS).each([['/bin/bash', ['-c']], ['/bin/sh', ['-c']]] as const)('%s', (shell, flags) => {
  const env = () => ({ PATH: `${dirname(process.execPath)}:${process.env.PATH}`, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state'), CLAUDE_PLUGIN_ROOT: pluginRoot });
  const run = (command: string, extra: NodeJS.ProcessEnv = {}) =>
    spawnSync(shell, [...flags, command], { input: event, env: { ...env(), ...extra }, encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });

  it('runs the command install writes for a bundle under a path with a space and an apostrophe', () => {
    const command = pagerCommand(nodeInvocation('node', join(pluginRoot, 'dist', 'cli.cjs')), 'pre');
    expect(command).toContain('"');
    const r = run(command);
    expect([r.status, r.stderr, clamped(r.stdout)]).toEqual([0, '', true]);
  });

  it('runs the plugin\'s Read hook as hooks/hooks.json writes it', () => {
    const r = run(pluginPre);
    expect([r.status, r.stderr, clamped(r.stdout)]).toEqual([0, '', true]);
  });

  it('the plugin\'s gate hook starts no Node while no gate is named, and runs the gate hook when one is', () => {
    const off = run(pluginGate, { PATH: '/nonexistent' }); // no node to find: it must not be needed
    expect([off.status, off.stdout, off.stderr]).toEqual([0, '', '']);
    const on = run(pluginGate, { READ_CEILING_PAGER_GATES: 'rejected-calls' });
    expect([on.status, on.stdout, on.stderr]).toEqual([0, '', '']);
  });
});

// cmd.exe: what some Windows machines were reported to run hooks with. The engine this project pins runs a
// hook with Git Bash, or PowerShell where Git Bash is missing, never cmd.exe; the command install writes
// still has to work there. (The plugin's ${CLAUDE_PLUGIN_ROOT} is not cmd.exe syntax.)
describe.runIf(WINDOWS)('cmd.exe under Wine', () => {
  it('runs the command install writes on Windows, with forward slashes and the path quoted', () => {
    const bundle = hookPath(join(pluginRoot, 'dist', 'cli.cjs'));
    const command = pagerCommand(nodeInvocation('node', bundle, 'win32'), 'pre');
    expect(command).toMatch(/^node "Z:\/.*\/Jo Doe's plugins\/read-ceiling-pager\/dist\/cli\.cjs" pre$/);
    const env = hookEnv({ PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') });
    // node.exe on the Windows PATH, as an installer puts it there.
    env.WINEPATH = hookPath(dirname(process.env.PAGER_WINE_NODE!));
    // In a batch file, so that cmd.exe parses the line itself: Wine would re-quote a command-line argument.
    const batch = join(dir, 'hook.cmd');
    writeFileSync(batch, `@${command}\r\n`);
    const r = spawnSync('wine', ['cmd', '/c', hookPath(batch)], { input: event, env, encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });
    expect([r.status, clamped(r.stdout)]).toEqual([0, true]);
  });
});
