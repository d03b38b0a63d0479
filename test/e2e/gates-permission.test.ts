// Issue #8 on the real engine, with rejections the engine itself produces: a stdio MCP server named by
// --permission-prompt-tool plays the user in the permission dialog (harness/permission.mjs).
// Re-read after a rejected edit: the next Edit or Write of that file is denied until the model reads it; other
// files run. Rejected-call memory: the same tool with the same input again is denied without a second prompt.
// With the gates off, the engine asks the user again every time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GATE_MATCHER } from '../../src/gates/install.js';
import { pagerSettings, removeTempDirs, tempDir } from './harness/engine.mjs';
import { put } from './harness/files.mjs';
import { permissionPrompts, type Rule } from './harness/permission.mjs';
import { scriptSession, type ScriptStep } from './harness/session.mjs';

// A real model takes time to answer; the engine's transcript writes, which the gates read, settle meanwhile.
const THINK_MS = 400;
afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 180_000;


/** The pager's hooks plus the gate hook; `flag` puts `--gates <flag>` on every command (else the env switches). */
function settings(flag?: string) {
  const s = pagerSettings();
  const pre = s.hooks.PreToolUse[0].hooks[0].command as string;
  s.hooks.PreToolUse.push({ matcher: GATE_MATCHER, hooks: [{ type: 'command', command: pre.replace(/ pre$/, ' gate'), timeout: 10 }] });
  if (flag) for (const groups of Object.values(s.hooks) as any[][]) for (const g of groups) for (const h of g.hooks) h.command += ` --gates ${flag}`;
  return s;
}

async function run(
  dir: string, rules: Rule[], script: ScriptStep[], o: { flag?: string; env?: Record<string, string>; plugin?: any },
) {
  const perm = permissionPrompts(tempDir('perm'), rules);
  const s = await scriptSession({ thinkMs: THINK_MS, cwd: dir, ...(o.plugin ? { hooks: 'plugin', settings: o.plugin } : { hooks: 'pager', settings: settings(o.flag) }),
    args: perm.args, extraEnv: o.env, script, keepHome: true });
  return { ...s, prompts: perm.prompts(), result: (turn: number) => s.observations[turn + 1]!.results[0]! };
}

describe('re-read after a rejected edit', () => {
  const lines = 'line 1\nline 2\nline 3\n';
  const script = (a: string, b: string): ScriptStep[] => [
    { reads: [{ file_path: a }] }, // 0
    { calls: [{ name: 'Edit', input: { file_path: a, old_string: 'line 2\n', new_string: 'two\n' } }] }, // 1: the user rejects it
    { calls: [{ name: 'Edit', input: { file_path: a, old_string: 'line 2\n', new_string: 'TWO\n' } }] }, // 2: denied: read first
    { calls: [{ name: 'Write', input: { file_path: a, content: 'all new\n' } }] }, // 3: denied: read first
    { calls: [{ name: 'Edit', input: { file_path: b, old_string: 'line 1\n', new_string: 'one\n' } }] }, // 4: another file runs
    { reads: [{ file_path: a, offset: 2, limit: 1 }] }, // 5
    { calls: [{ name: 'Edit', input: { file_path: a, old_string: 'line 2\n', new_string: 'TWO\n' } }] }, // 6: runs
  ];
  const rules: Rule[] = [{ tool: 'Edit', contains: '"new_string":"two\\n"', behavior: 'deny', message: 'Not like that.' }];
  let on: Awaited<ReturnType<typeof run>>;
  let off: Awaited<ReturnType<typeof run>>;
  let files: { on: string[]; off: string[] };

  it('runs the script with the gate on (environment) and off', async () => {
    const d1 = tempDir('gate-edit-on');
    const d2 = tempDir('gate-edit-off');
    const [a1, b1, a2, b2] = [put(d1, 'a.txt', lines), put(d1, 'b.txt', lines), put(d2, 'a.txt', lines), put(d2, 'b.txt', lines)];
    [on, off] = await Promise.all([
      run(d1, rules, script(a1, b1), { env: { READ_CEILING_PAGER_GATES: 'edit-after-reject' } }),
      run(d2, rules, script(a2, b2), {}),
    ]);
    expect(on.ok, on.run.stderr).toBe(true);
    expect(off.ok, off.run.stderr).toBe(true);
    files = { on: [a1, b1].map((p) => readFileSync(p, 'utf8')), off: [a2, b2].map((p) => readFileSync(p, 'utf8')) };
  }, ENGINE_TIMEOUT);

  it('the rejection is the engine\'s own, from the permission dialog', () => {
    expect(on.result(1).isError).toBe(true);
    expect(on.result(1).content).toBe('Not like that.');
    expect(on.prompts[0]?.request.tool_name).toBe('Edit');
    expect(on.prompts[0]?.answer.behavior).toBe('deny');
  });

  it('denies the next Edit and Write of the file, saying to read it first, without asking the user', () => {
    for (const [turn, tool] of [[2, 'Edit'], [3, 'Write']] as const) {
      expect(on.result(turn).isError).toBe(true);
      expect(on.result(turn).content).toMatch(new RegExp(`^PreToolUse:${tool} hook error: read-ceiling-pager: the user rejected an Edit or Write of .*a\\.txt earlier, so this ${tool} was not run\\. Read .*a\\.txt first`));
    }
    expect(on.prompts.filter((p) => p.request.tool_name === 'Write')).toEqual([]);
  });

  it('an edit of another file runs; after a Read of the file its edit runs', () => {
    expect(on.result(4).isError).toBe(false);
    expect(on.result(6).isError).toBe(false);
    expect(files.on).toEqual(['line 1\nTWO\nline 3\n', 'one\nline 2\nline 3\n']);
  });

  it('with the gate off, nothing is denied by the pager: the engine asks the user each time', () => {
    for (let t = 2; t <= 6; t++) expect(off.result(t).content, `turn ${t}`).not.toMatch(/read-ceiling-pager/);
    expect(off.result(2).isError).toBe(false);
    expect(off.prompts.length).toBeGreaterThan(on.prompts.length);
    expect(files.off[0]).toBe('all new\n');
  });
});

describe('rejected-call memory', () => {
  const script = (dir: string): ScriptStep[] => [
    { calls: [{ name: 'Bash', input: { command: `touch ${join(dir, 'made-by-bash.txt')}`, description: 'make a file' } }] }, // 0: rejected
    { calls: [{ name: 'Bash', input: { description: 'make a file', command: `touch ${join(dir, 'made-by-bash.txt')}` } }] }, // 1: same → denied
    { calls: [{ name: 'Bash', input: { command: `touch ${join(dir, 'other.txt')}`, description: 'make another' } }] }, // 2: runs
    { calls: [{ name: 'Write', input: { file_path: join(dir, 'w.txt'), content: 'first\n' } }] }, // 3: rejected
    { calls: [{ name: 'Write', input: { file_path: join(dir, 'w.txt'), content: 'second\n' } }] }, // 4: another input runs
    { calls: [{ name: 'Write', input: { file_path: join(dir, 'w.txt'), content: 'first\n' } }] }, // 5: same as 3 → denied
  ];
  const rules: Rule[] = [
    { tool: 'Bash', contains: 'made-by-bash', behavior: 'deny', message: 'Do not create that file.' },
    { tool: 'Write', contains: '"content":"first\\n"', behavior: 'deny', message: 'No.' },
  ];
  let on: Awaited<ReturnType<typeof run>>;
  let off: Awaited<ReturnType<typeof run>>;

  it('runs the script with the gate on (flag) and off', async () => {
    const d1 = tempDir('gate-calls-on');
    const d2 = tempDir('gate-calls-off');
    [on, off] = await Promise.all([run(d1, rules, script(d1), { flag: 'rejected-calls' }), run(d2, rules, script(d2), {})]);
    expect(on.ok, on.run.stderr).toBe(true);
    expect(off.ok, off.run.stderr).toBe(true);
  }, ENGINE_TIMEOUT);

  it('denies the same tool with the same input again, without a second prompt', () => {
    expect(on.result(0).content).toBe('Do not create that file.');
    for (const [turn, tool] of [[1, 'Bash'], [5, 'Write']] as const) {
      expect(on.result(turn).isError).toBe(true);
      expect(on.result(turn).content).toBe(`PreToolUse:${tool} hook error: read-ceiling-pager: the user rejected this same ${tool} call (same input) earlier in this session, so it was not run again. Ask the user how to go on, or take another way.`);
    }
    expect(on.prompts.filter((p) => p.request.tool_name === 'Bash' && JSON.stringify(p.request.input).includes('made-by-bash'))).toHaveLength(1);
    expect(on.prompts.filter((p) => p.request.tool_name === 'Write' && JSON.stringify(p.request.input).includes('first'))).toHaveLength(1);
  });

  it('another input of the same tool runs', () => {
    expect(on.result(2).isError).toBe(false);
    expect(on.result(4).isError).toBe(false);
  });

  it('with the gate off, the engine asks the user again', () => {
    for (let t = 0; t < 6; t++) expect(off.result(t).content, `turn ${t}`).not.toMatch(/read-ceiling-pager/);
    expect(off.prompts.filter((p) => JSON.stringify(p.request.input).includes('made-by-bash'))).toHaveLength(2);
    expect(off.result(1).content).toBe('Do not create that file.');
  });
});

// The plugin hooks Read only (hooks/hooks.json): no hook of it runs on Bash or Write, whatever gates are named.
// Those two gates need `read-ceiling-pager install --gates`; doctor says so to a plugin user (test/cli/doctor.test.ts).
describe('as a plugin, with the gates on other tools named in the settings\' "env"', () => {
  const script = (dir: string): ScriptStep[] => [
    { calls: [{ name: 'Bash', input: { command: `touch ${join(dir, 'made-by-bash.txt')}` } }] }, // 0: rejected
    { calls: [{ name: 'Bash', input: { command: `touch ${join(dir, 'made-by-bash.txt')}` } }] }, // 1: asked again
    { calls: [{ name: 'Write', input: { file_path: join(dir, 'a.txt'), content: 'first\n' } }] }, // 2: rejected
    { calls: [{ name: 'Write', input: { file_path: join(dir, 'a.txt'), content: 'second\n' } }] }, // 3: runs, unread
  ];
  const rules: Rule[] = [
    { tool: 'Bash', contains: 'made-by-bash', behavior: 'deny', message: 'Not that.' },
    { tool: 'Write', contains: '"content":"first\\n"', behavior: 'deny', message: 'No.' },
  ];

  it('gates nothing but Reads: the rejected Bash is asked again and the blind Write runs', async () => {
    const dir = tempDir('gate-plugin');
    put(dir, 'a.txt', 'old\n');
    const on = await run(dir, rules, script(dir), { plugin: { env: { READ_CEILING_PAGER_GATES: 'rejected-calls,edit-after-reject' } } });
    expect(on.ok, on.run.stderr).toBe(true);
    for (let t = 0; t < 4; t++) expect(on.result(t).content, `turn ${t}`).not.toMatch(/read-ceiling-pager/);
    expect(on.prompts.filter((p) => p.request.tool_name === 'Bash')).toHaveLength(2);
    expect(on.result(3).isError).toBe(false);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('second\n');
  }, ENGINE_TIMEOUT);
});

describe('an auto-mode classifier block is not a user rejection', () => {
  // The engine's auto mode asks its classifier, which the stand-in plays: it blocks each call the first time, and
  // allows the same call once the model has seen the block. A gate that took the block for the user's would deny
  // the second call itself.
  let s: Awaited<ReturnType<typeof scriptSession>>;
  let dir: string;
  let outside: string;
  const result = (turn: number) => s.observations[turn + 1]!.results[0]!;

  it('runs a session in auto mode with every gate on', async () => {
    dir = tempDir('gate-auto');
    outside = tempDir('gate-auto-outside'); // a Write outside the project goes to the classifier
    const target = put(outside, 'a.txt', 'old\n');
    const bash = { name: 'Bash', input: { command: `rm -rf ${join(outside, 'build')}` } };
    const write = (content: string) => ({ name: 'Write', input: { file_path: target, content } });
    let blocking = true;
    s = await scriptSession({
      thinkMs: THINK_MS, cwd: dir, hooks: 'pager', settings: settings('rejected-calls,edit-after-reject,covered-reread'),
      args: ['--permission-mode', 'auto'], keepHome: true,
      classify: () => blocking,
      script: [
        { calls: [bash] }, // 0: the classifier blocks it
        () => { blocking = false; return { calls: [bash] }; }, // 1: the same call, which the classifier now allows
        { reads: [{ file_path: target }] }, // 2: the engine wants a file read before it is written
        () => { blocking = true; return { calls: [write('first\n')] }; }, // 3: the classifier blocks it
        () => { blocking = false; return { calls: [write('second\n')] }; }, // 4: a rewrite without a Read, allowed
      ],
    });
    expect(s.ok, s.run.stderr).toBe(true);
    expect(s.classified.length).toBeGreaterThanOrEqual(4); // each call went to the classifier
  }, ENGINE_TIMEOUT);

  it('the blocks are the classifier\'s, as the engine records them', () => {
    for (const t of [0, 3]) {
      expect(result(t).isError).toBe(true);
      expect(result(t).content).toMatch(/^Permission for this action was denied by the Claude Code auto mode classifier/);
    }
    const transcript = readFileSync(s.transcript!, 'utf8');
    const denials = transcript.split('\n').filter((l) => l.includes('"toolDenialKind":"automode-blocked"'));
    expect(denials).toHaveLength(2);
    for (const d of denials) expect(JSON.parse(d).permissionDecision).toMatchObject({ decision: 'reject', reasonType: 'classifier' });
    expect(transcript).not.toMatch(/"user_reject"/);
  });

  it('no gate denies the same call again, nor a rewrite of the file the block was about', () => {
    expect(result(1)).toMatchObject({ isError: false, content: '(Bash completed with no output)' });
    expect(result(4).isError).toBe(false);
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('second\n');
  });
});
