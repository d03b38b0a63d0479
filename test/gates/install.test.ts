// `install --gates`: the hook commands carry the gates; the gate hook is written only for gates that need it,
// and installing again without gates (or uninstalling) takes it out.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_MATCHER, parseGateList, withGateHook } from '../../src/gates/install.js';
import {
  isPagerCommand, matcherSelectsRead, mergePagerHooks as mergePager, removePagerHooks, type JsonObject,
} from '../../src/settings/hooks.js';

/** What `install` does: the pager's entries, then the gate hook (in or out). */
const mergePagerHooks = (s: JsonObject, inv: string, timeout = 10, known: string[] = [], gates: string[] = []) =>
  withGateHook(mergePager(s, inv, timeout, known, gates), inv, timeout, known, gates);
import { pagerInvocations } from '../../src/install/diagnosis.js';

const INV = 'node /opt/read-ceiling-pager/dist/cli.cjs';
const commands = (s: JsonObject) => JSON.stringify(s).match(/"command":"[^"]*"/g);

describe('install --gates', () => {
  it('covered-reread alone needs no gate hook', () => {
    const { settings } = mergePagerHooks({}, INV, 10, [], ['covered-reread']);
    expect(commands(settings)).toEqual([
      `"command":"${INV} pre --gates covered-reread"`, `"command":"${INV} post --gates covered-reread"`, `"command":"${INV} post --gates covered-reread"`,
    ]);
  });
  it('edit-after-reject or rejected-calls add the gate hook on the tools that ask the user, not on Read', () => {
    const { settings } = mergePagerHooks({}, INV, 10, [], ['rejected-calls']);
    const pre = (settings.hooks as JsonObject).PreToolUse as JsonObject[];
    expect(pre[1]).toEqual({ matcher: GATE_MATCHER, hooks: [{ type: 'command', command: `${INV} gate --gates rejected-calls`, timeout: 10 }] });
    expect(matcherSelectsRead(GATE_MATCHER)).toBe(false);
    for (const tool of ['Bash', 'Edit', 'Write', 'WebFetch', 'Skill', 'Workflow', 'mcp__github__create_issue']) expect(new RegExp(GATE_MATCHER).test(tool), tool).toBe(true);
    for (const tool of ['Read', 'TodoWrite', 'Task', 'Agent', 'BashOutput', 'ScheduleWakeup', 'ListAgents', 'ReportFindings', 'ToolSearch']) expect(new RegExp(GATE_MATCHER).test(tool), tool).toBe(false);
  });
  it('installing again changes the gates in place, and without gates takes the gate hook out', () => {
    const on = mergePagerHooks({}, INV, 10, [], ['edit-after-reject']).settings;
    const again = mergePagerHooks(on, INV, 10, [], ['edit-after-reject']);
    expect(again.changed).toBe(false);
    const off = mergePagerHooks(on, INV).settings;
    expect(off).toEqual(mergePagerHooks({}, INV).settings);
  });
  it('--gates takes known names only', () => {
    expect(parseGateList('rejected-calls, covered-reread,rejected-calls')).toEqual(['rejected-calls', 'covered-reread']);
    expect(parseGateList('bogus')).toMatch(/unknown: bogus/);
    expect(parseGateList(',')).toMatch(/expected one or more/);
  });
  it('uninstall removes the gate hook too, and its commands are the pager\'s', () => {
    const on = mergePagerHooks({ a: 1 }, INV, 10, [], ['rejected-calls', 'covered-reread']).settings;
    expect(removePagerHooks(on, [INV]).settings).toEqual({ a: 1 });
    expect(isPagerCommand(`${INV} gate --gates rejected-calls`, 'gate', [INV])).toBe(true);
    expect(isPagerCommand(`read-ceiling-pager pre --gates=covered-reread`, 'pre')).toBe(true);
    expect(isPagerCommand(`${INV} gate --gates rejected-calls`, 'pre', [INV])).toBe(false);
    expect(pagerInvocations([`${INV} pre --gates covered-reread`], () => true)).toEqual([INV]);
  });

  describe('the plugin\'s gate hook', () => {
    const REPO = join(__dirname, '../..');
    const plugin = JSON.parse(readFileSync(join(REPO, 'hooks/hooks.json'), 'utf8'));
    const entry = (plugin.hooks.PreToolUse as JsonObject[]).find((g) => g.matcher !== 'Read')!;
    const command = (entry.hooks as JsonObject[])[0]!.command as string;
    // The engine runs a hook command through the shell, as this test does.
    const run = (env: Record<string, string>) => execFileSync('sh', ['-c', command], {
      env: { PATH: process.env.PATH!, CLAUDE_PLUGIN_ROOT: REPO, ...env }, input: '{}', encoding: 'utf8', stdio: 'pipe',
    });
    it('runs on the tools install --gates wires', () => {
      expect(entry.matcher).toBe(GATE_MATCHER);
    });
    it('with no gate on, is a shell test that exits 0 without starting Node', () => {
      expect(command).toMatch(/^test -z "\$READ_CEILING_PAGER_GATES" \|\| node "\$\{CLAUDE_PLUGIN_ROOT\}\/dist\/cli\.cjs" gate$/);
      expect(run({ CLAUDE_PLUGIN_ROOT: '/nonexistent' })).toBe('');
    });
    it('with a gate on, runs the gate hook (which passes an input it cannot use)', () => {
      expect(run({ READ_CEILING_PAGER_GATES: 'rejected-calls' })).toBe('');
      expect(() => run({ READ_CEILING_PAGER_GATES: 'rejected-calls', CLAUDE_PLUGIN_ROOT: '/nonexistent' })).toThrow(/Cannot find module/);
    });
  });
});
