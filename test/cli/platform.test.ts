// What differs by platform, run through the built binary: stdin of every kind a hook may be given, where state
// lives by default, and the advice for a line over the cap. Runs on Linux as it is, and on Windows (Node for
// Windows under Wine, Windows paths in the inputs) under `npm run test:windows`.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_TIMEOUT_MS, WINDOWS, failureEvent, hookCommand, hookEnv, hookInput, hookPath, preEvent, runHook } from '../helpers/hook';
import { prose } from '../helpers/text';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-platform-'));
  env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'state') };
  writeFileSync(join(dir, 'big.txt'), prose(3000));
  writeFileSync(join(dir, "it's long.txt"), `first\n${'x'.repeat(450_000)}\nthird\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The hook with stdin given as `stdin` (a file descriptor, or 'ignore' for the null device). */
function runWithStdin(name: 'pre' | 'post', stdin: number | 'ignore', runEnv = env) {
  const [cmd, args] = hookCommand(name);
  return spawnSync(cmd, args, { stdio: [stdin, 'pipe', 'pipe'], env: hookEnv(runEnv), encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });
}

describe('stdin is read whatever it is', () => {
  it('a file (as `< input.json` gives it): pre clamps and records its plan', () => {
    const input = join(dir, 'input.json');
    writeFileSync(input, JSON.stringify(hookInput(preEvent('sess-file', 'toolu_file', { file_path: join(dir, 'big.txt'), limit: 3000 }))));
    const fd = openSync(input, 'r');
    const r = runWithStdin('pre', fd);
    closeSync(fd);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.updatedInput.limit).toBeLessThan(3000);
    // Recorded, so pre did not explain the clamp itself.
    expect(out.additionalContext).toBeUndefined();
    expect(existsSync(join(dir, 'state', 'sess-file.json'))).toBe(true);
  });

  it('the null device: no output, exit 0, no usage text', () => {
    const r = runWithStdin('pre', 'ignore');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('');
  });
});

describe('state lives where the platform keeps per-user state', () => {
  it.runIf(!WINDOWS)('Linux: under $XDG_STATE_HOME/read-ceiling-pager', () => {
    const base = join(dir, 'xdg');
    const { READ_CEILING_PAGER_STATE_DIR: _, ...rest } = env;
    const r = runHook('pre', preEvent('sess-default-dir', 'toolu_dir', { file_path: join(dir, 'big.txt'), limit: 3000 }), { ...rest, XDG_STATE_HOME: base });
    expect(r.json.hookSpecificOutput.additionalContext).toBeUndefined();
    // the session's state, and the compiled code of the hooks that sized the window (state/code-cache.ts)
    expect(readdirSync(join(base, 'read-ceiling-pager'))).toEqual(['code', 'sess-default-dir.json']);
  });

  // Wine sets %LOCALAPPDATA% itself (its prefix's user profile), so the test asks Node for Windows where it is.
  it.runIf(WINDOWS)('Windows: under %LOCALAPPDATA%\\read-ceiling-pager', () => {
    const { READ_CEILING_PAGER_STATE_DIR: _, ...rest } = env;
    const r = runHook('pre', preEvent('sess-default-dir-win', 'toolu_dir', { file_path: join(dir, 'big.txt'), limit: 3000 }), rest);
    expect(r.json.hookSpecificOutput.additionalContext).toBeUndefined();
    const [cmd, args] = hookCommand('');
    const listing = spawnSync(cmd, [args[0]!, '-e', `const fs = require('fs'), p = require('path').join(process.env.LOCALAPPDATA, 'read-ceiling-pager');
      fs.writeSync(1, JSON.stringify([p, fs.readdirSync(p)]))`], { env: hookEnv(process.env), encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });
    const [where, names] = JSON.parse(listing.stdout);
    expect(where).toMatch(/^[A-Z]:\\.*\\AppData\\Local\\read-ceiling-pager$/i);
    expect(names).toContain('sess-default-dir-win.json');
  });
});

describe('a line alone over the cap', () => {
  it('the advice quotes a path with a space and an apostrophe for the shell it names', () => {
    const file = join(dir, "it's long.txt");
    const r = runHook('post', failureEvent('sess-quote', 'q1', { file_path: file, offset: 2, limit: 2 }, 'File content (112500 tokens) exceeds maximum allowed tokens (25000).'), env);
    const advice: string = r.json.hookSpecificOutput.additionalContext;
    const p = hookPath(file);
    const sed = `\`sed -n '2p' '${p.replace(/'/g, `'\\''`)}' | cut -c 1-20000\``;
    expect(advice).toContain(WINDOWS
      ? `${sed} in Git Bash, or \`@(Get-Content -LiteralPath '${p.replace(/'/g, "''")}' -TotalCount 2)[-1][0..19999] -join ''\` in PowerShell.`
      : `${sed}.`);
  });
});

// doctor and install as a person runs them on Windows. Their output goes to a file: under Wine, Node for
// Windows cannot open a stream on a pipe (real Windows can), and these commands print through process.stdout.
describe.runIf(WINDOWS)('doctor and install on Windows', () => {
  function command(args: string[]): string {
    const out = join(dir, 'command.out');
    const fd = openSync(out, 'w');
    const [cmd, argv] = hookCommand('');
    spawnSync(cmd, [...argv.slice(0, 2), ...args], { stdio: ['ignore', fd, fd], env: hookEnv({ PATH: process.env.PATH, HOME: dir }), timeout: HOOK_TIMEOUT_MS });
    closeSync(fd);
    return readFileSync(out, 'utf8');
  }

  it('doctor names the state directory under %LOCALAPPDATA%', () => {
    expect(command(['doctor'])).toMatch(/^ok {4}state {2}[A-Z]:\\.*\\AppData\\Local\\read-ceiling-pager \(writable\)\r?$/im);
  });

  it('install writes exec form: node, then the bundle\'s own Windows path as one argument (no shell to quote for)', () => {
    const shown = command(['install', '--dry-run', '--scope', 'project', '--project-dir', hookPath(dir)]);
    expect(shown).toMatch(/"command": "node",\s+\+\s+"args": \[\s+\+\s+"Z:\\\\.*\\\\dist\\\\cli\.cjs",\s+\+\s+"pre"/);
    expect(shown).not.toMatch(/"command": "node [^"]/);
  });
});
