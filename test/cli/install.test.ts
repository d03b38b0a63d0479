// `install` / `uninstall` of the built binary on real settings files, in a fresh HOME and project.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const BIN = join(REPO, 'bin/read-ceiling-pager.js');
const BUNDLE = realpathSync(join(REPO, 'dist/cli.cjs'));
const BAK = '.read-ceiling-pager.bak';

let home: string;
let project: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rcp-install-home-'));
  project = join(home, 'work', 'proj');
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: home },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const userFile = () => join(home, '.claude', 'settings.json');
const read = (f: string) => readFileSync(f, 'utf8');

/** What install writes: exec form, node and this bundle's path with no shell. */
const OURS = {
  PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [BUNDLE, 'pre'], timeout: 10 }] }],
  PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [BUNDLE, 'post'], timeout: 10 }] }],
  PostToolUseFailure: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [BUNDLE, 'post'], timeout: 10 }] }],
};
/** What install wrote before exec form: the same in command form, run by a shell. */
const COMMAND_FORM = {
  PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `node ${BUNDLE} pre`, timeout: 10 }] }],
  PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `node ${BUNDLE} post`, timeout: 10 }] }],
  PostToolUseFailure: [{ matcher: 'Read', hooks: [{ type: 'command', command: `node ${BUNDLE} post`, timeout: 10 }] }],
};

describe('install', () => {
  it('creates ~/.claude/settings.json with the three entries running this bundle through node', () => {
    const r = run('install');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`Installed read-ceiling-pager in user settings (${userFile()})`);
    expect(r.stdout).toContain(`  PreToolUse         Read  node ${BUNDLE} pre\n`);
    expect(r.stdout).toContain('exec form ("command" and "args"): the engine starts the program with no shell');
    expect(JSON.parse(read(userFile()))).toEqual({ hooks: OURS });
    expect(read(userFile())).toBe(`${JSON.stringify({ hooks: OURS }, null, 2)}\n`);
    expect(existsSync(userFile() + BAK)).toBe(false); // there was nothing to back up
  });

  it('is idempotent: the second run changes nothing and says so', () => {
    run('install');
    const first = read(userFile());
    const r = run('install');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`read-ceiling-pager is already installed in user settings (${userFile()}): nothing changed.\n`);
    expect(read(userFile())).toBe(first);
    expect(existsSync(userFile() + BAK)).toBe(false);
  });

  it('keeps every other key and hook byte for byte, in the file\'s own style, and backs the old file up', () => {
    const original = [
      '{',
      '\t"model": "opus",',
      '\t"hooks": {',
      '\t\t"PreToolUse": [',
      '\t\t\t{',
      '\t\t\t\t"matcher": "Bash",',
      '\t\t\t\t"hooks": [',
      '\t\t\t\t\t{',
      '\t\t\t\t\t\t"type": "command",',
      '\t\t\t\t\t\t"command": "guard.sh"',
      '\t\t\t\t\t}',
      '\t\t\t\t]',
      '\t\t\t}',
      '\t\t]',
      '\t},',
      '\t"permissions": {',
      '\t\t"allow": [',
      '\t\t\t"Read"',
      '\t\t]',
      '\t}',
      '}',
      '',
    ].join('\n');
    mkdirSync(join(home, '.claude'));
    writeFileSync(userFile(), original);

    expect(run('install').code).toBe(0);
    const after = read(userFile());
    expect(read(userFile() + BAK)).toBe(original);
    const parsed = JSON.parse(after);
    expect(Object.keys(parsed)).toEqual(['model', 'hooks', 'permissions']);
    expect(parsed.hooks.PreToolUse[0]).toEqual({ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] });
    expect(parsed.hooks.PreToolUse[1]).toEqual(OURS.PreToolUse[0]);
    expect(after).toMatch(/^\{\n\t"model"/);

    const r = run('uninstall');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Removed read-ceiling-pager from user settings (${userFile()})`);
    expect(read(userFile())).toBe(original);
  });

  it('shows a diff on --dry-run and writes nothing', () => {
    mkdirSync(join(home, '.claude'));
    writeFileSync(userFile(), '{\n  "model": "opus"\n}\n');
    const r = run('install', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`--- ${userFile()}\n+++ ${userFile()}\n@@ -1,3 +1,53 @@\n {\n-  "model": "opus"\n+  "model": "opus",\n+  "hooks": {`);
    expect(r.stdout).toContain(`+            "command": "node",\n+            "args": [\n+              "${BUNDLE}",\n+              "pre"\n+            ],`);
    expect(r.stdout).toContain(`Dry run: ${userFile()} was not changed.`);
    expect(read(userFile())).toBe('{\n  "model": "opus"\n}\n');
    expect(existsSync(userFile() + BAK)).toBe(false);
  });

  it('refuses a file it cannot parse, says which and why, and leaves it alone', () => {
    mkdirSync(join(home, '.claude'));
    writeFileSync(userFile(), '{ "model": "opus", }\n');
    const r = run('install');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`will not install: ${userFile()} cannot be edited safely: it is not valid JSON`);
    expect(r.stderr).toContain('Nothing was changed.');
    expect(read(userFile())).toBe('{ "model": "opus", }\n');
    expect(existsSync(userFile() + BAK)).toBe(false);
  });

  it('refuses settings whose hooks it does not understand', () => {
    mkdirSync(join(home, '.claude'));
    writeFileSync(userFile(), '{"hooks": {"PreToolUse": {"matcher": "Read"}}}');
    const r = run('install');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"hooks.PreToolUse" is not an array');
    expect(read(userFile())).toBe('{"hooks": {"PreToolUse": {"matcher": "Read"}}}');
  });

  it.each([
    ['project', ['.claude', 'settings.json']],
    ['local', ['.claude', 'settings.local.json']],
  ])('--scope %s writes the project\'s own file and nothing else', (scope, parts) => {
    const r = run('install', '--scope', scope);
    expect(r.code).toBe(0);
    expect(JSON.parse(read(join(project, ...parts)))).toEqual({ hooks: OURS });
    expect(existsSync(userFile())).toBe(false);
    expect(run('uninstall', '--scope', scope).code).toBe(0);
    expect(JSON.parse(read(join(project, ...parts)))).toEqual({});
  });

  it('rejects an unknown scope', () => {
    const r = run('install', '--scope', 'global');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("argument 'global' is invalid. Allowed choices are user, project, local.");
  });

  it('writes through a symlinked settings file instead of replacing the link', () => {
    const dotfiles = join(home, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(dotfiles, 'settings.json'), '{}\n');
    symlinkSync(join(dotfiles, 'settings.json'), userFile());
    expect(run('install').code).toBe(0);
    expect(realpathSync(userFile())).toBe(join(dotfiles, 'settings.json'));
    expect(JSON.parse(read(join(dotfiles, 'settings.json')))).toEqual({ hooks: OURS });
  });

  it('replaces an older way of wiring the pager (npx) instead of adding a second one', () => {
    mkdirSync(join(home, '.claude'));
    const old = JSON.parse(read(join(REPO, 'settings.example.json')));
    old.hooks.PreToolUse[0].hooks[0].command = 'npx read-ceiling-pager pre';
    writeFileSync(userFile(), JSON.stringify(old, null, 2));
    expect(run('install').code).toBe(0);
    expect(JSON.parse(read(userFile()))).toEqual({ hooks: OURS });
  });

  it('turns the command-form entries of an earlier install into exec form where they stand, never a second copy', () => {
    mkdirSync(join(home, '.claude'));
    const other = { matcher: 'Read', hooks: [{ type: 'command', command: 'audit-reads.sh' }] };
    const before = { hooks: { ...COMMAND_FORM, PostToolUse: [other, ...COMMAND_FORM.PostToolUse] } };
    writeFileSync(userFile(), JSON.stringify(before, null, 2));
    expect(run('install').code).toBe(0);
    expect(JSON.parse(read(userFile()))).toEqual({ hooks: { ...OURS, PostToolUse: [other, ...OURS.PostToolUse] } });
    expect(run('install').stdout).toContain('already installed');
  });
});

describe('uninstall', () => {
  it('removes entries in command form as well as exec form', () => {
    mkdirSync(join(home, '.claude'));
    writeFileSync(userFile(), JSON.stringify({ model: 'opus', hooks: COMMAND_FORM }, null, 2));
    expect(run('uninstall').code).toBe(0);
    expect(JSON.parse(read(userFile()))).toEqual({ model: 'opus' });
  });

  it('removes exactly its own entries: another tool\'s Read hooks stay', () => {
    const theirs = { matcher: 'Read', hooks: [{ type: 'command', command: 'audit-reads.sh' }] };
    mkdirSync(join(home, '.claude'));
    writeFileSync(userFile(), JSON.stringify({ hooks: { PostToolUse: [theirs] } }, null, 2));
    run('install');
    expect(JSON.parse(read(userFile())).hooks.PostToolUse).toEqual([theirs, OURS.PostToolUse[0]]);
    expect(run('uninstall').code).toBe(0);
    expect(JSON.parse(read(userFile()))).toEqual({ hooks: { PostToolUse: [theirs] } });
  });

  it('says so when there is nothing to remove, and writes nothing', () => {
    const r = run('uninstall');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`read-ceiling-pager is not installed in user settings (${userFile()}): nothing changed.\n`);
    expect(existsSync(userFile())).toBe(false);
  });
});
