// The hook forms users end up with, each run as the engine runs it. Exec form (what install and the plugin
// write): the program spawned with its arguments and no shell. Command form (settings.example.json's
// `read-ceiling-pager pre`, the bin name on the PATH): by each shell that may run it, bash (Linux, macOS, Git Bash
// on Windows), sh/dash, and cmd.exe under Wine (only in `npm run test:windows`). The bundle sits in a folder with a
// space and an apostrophe, as under C:\Program Files or "Jo Doe's".
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeExec, pagerExec } from '../../src/settings/hooks';
import { HOOK_TIMEOUT_MS, ROOT, WINDOWS, hookEnv, hookInput, hookPath, preEvent } from '../helpers/hook';
import { prose } from '../helpers/text';

let dir: string;
let pluginRoot: string;
let event: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-shells-'));
  pluginRoot = join(dir, "Jo Doe's plugins", 'read-ceiling-pager');
  mkdirSync(join(pluginRoot, 'dist'), { recursive: true });
  mkdirSync(join(pluginRoot, 'bin'));
  for (const f of ['cli.cjs', 'main.cjs', 'gates.cjs']) copyFileSync(join(ROOT, 'dist', f), join(pluginRoot, 'dist', f));
  copyFileSync(join(ROOT, 'bin', 'read-ceiling-pager.js'), join(pluginRoot, 'bin', 'read-ceiling-pager.js'));
  writeFileSync(join(dir, 'big.txt'), prose(3000));
  event = JSON.stringify(hookInput(preEvent('sess-shells', 'toolu_sh', { file_path: join(dir, 'big.txt'), limit: 3000 })));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plugin = JSON.parse(readFileSync(join(ROOT, 'hooks', 'hooks.json'), 'utf8'));
const example = JSON.parse(readFileSync(join(ROOT, 'settings.example.json'), 'utf8'));
const examplePre: string = example.hooks.PreToolUse[0].hooks[0].command;

function clamped(stdout: string): boolean {
  try { return JSON.parse(stdout).hookSpecificOutput.updatedInput.limit < 3000; } catch { return false; }
}

describe.runIf(!WINDOWS)('exec form (install, the plugin): no shell', () => {
  const env = () => ({ PATH: `${dirname(process.execPath)}:${process.env.PATH}`, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') });
  const spawn = (command: string, args: string[]) =>
    spawnSync(command, args, { input: event, env: env(), encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });

  it('runs what install writes, the bundle\'s path as one argument, space and apostrophe and all', () => {
    const { command, args } = pagerExec(nodeExec('node', join(pluginRoot, 'dist', 'cli.cjs')), 'pre');
    const r = spawn(command, args);
    expect([r.status, r.stderr, clamped(r.stdout)]).toEqual([0, '', true]);
  });

  it('runs the plugin\'s Read hook as hooks/hooks.json writes it, ${CLAUDE_PLUGIN_ROOT} put in each argument', () => {
    const hook = plugin.hooks.PreToolUse[0].hooks[0] as { command: string; args: string[] };
    const r = spawn(hook.command, hook.args.map((a) => a.replaceAll('${CLAUDE_PLUGIN_ROOT}', pluginRoot)));
    expect([r.status, r.stderr, clamped(r.stdout)]).toEqual([0, '', true]);
  });
});

describe.runIf(!WINDOWS).each([['/bin/bash', ['-c']], ['/bin/sh', ['-c']]] as const)('command form under %s', (shell, flags) => {
  it('runs settings.example.json\'s hook, the bin name found on the PATH', () => {
    const bin = join(dir, 'npm-bin');
    mkdirSync(bin, { recursive: true });
    try { symlinkSync(join(pluginRoot, 'bin', 'read-ceiling-pager.js'), join(bin, 'read-ceiling-pager')); } catch { /* made by the other shell */ }
    expect(examplePre).toBe('read-ceiling-pager pre');
    const env = { PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH}`, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
    const r = spawnSync(shell, [...flags, examplePre], { input: event, env, encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });
    expect([r.status, r.stderr, clamped(r.stdout)]).toEqual([0, '', true]);
  });
});

// cmd.exe: what some Windows machines were reported to run hooks with. The engine this project pins runs a
// command-form hook with Git Bash, or PowerShell where Git Bash is missing, never cmd.exe; settings.example.json's
// bin name, which npm installs on Windows as a .cmd shim, still has to work there.
describe.runIf(WINDOWS)('under Wine', () => {
  const env = () => {
    const e = hookEnv({ PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') });
    e.WINEPATH = `${hookPath(join(dir, 'npm-bin'))};${hookPath(dirname(process.env.PAGER_WINE_NODE!))}`;
    return e;
  };

  it('exec form: node.exe started with the bundle\'s Windows path as one argument', () => {
    const { args } = pagerExec(nodeExec('node', hookPath(join(pluginRoot, 'dist', 'cli.cjs'))), 'pre');
    expect(args[0]).toMatch(/^Z:\\.*\\Jo Doe's plugins\\read-ceiling-pager\\dist\\cli\.cjs$/);
    const r = spawnSync('wine', [process.env.PAGER_WINE_NODE!, ...args], { input: event, env: env(), encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });
    // The signal and stderr say why when Wine itself fails (once, on a fresh prefix: no status within 0.4 s).
    expect([r.status, clamped(r.stdout)], `signal ${r.signal}, ${r.error?.message ?? ''} ${r.stderr}`).toEqual([0, true]);
  });

  it('cmd.exe runs settings.example.json\'s hook through a .cmd shim on the PATH, as npm installs the bin', () => {
    mkdirSync(join(dir, 'npm-bin'), { recursive: true });
    writeFileSync(join(dir, 'npm-bin', 'read-ceiling-pager.cmd'), `@node "${hookPath(join(pluginRoot, 'bin', 'read-ceiling-pager.js'))}" %*\r\n`);
    // In a batch file, so that cmd.exe parses the line itself: Wine would re-quote a command-line argument.
    const batch = join(dir, 'hook.cmd');
    writeFileSync(batch, `@${examplePre}\r\n`);
    const r = spawnSync('wine', ['cmd', '/c', hookPath(batch)], { input: event, env: env(), encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });
    expect([r.status, clamped(r.stdout)]).toEqual([0, true]);
  });
});
