// `install --gates`: the hook commands carry the gates; the gate hook is written only for gates that need it,
// and installing again without gates (or uninstalling) takes it out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_MATCHER, parseGateList, withGateHook } from '../../src/gates/install.js';
import {
  isPagerCommand, matcherSelectsRead, mergePagerHooks as mergePager, nodeExec, removePagerHooks, type ExecHook,
  type JsonObject,
} from '../../src/settings/hooks.js';
import { gateFindings, pagerInvocations, pagerWirings } from '../../src/install/diagnosis.js';

/** What `install` does: the pager's entries, then the gate hook (in or out). */
const mergePagerHooks = (s: JsonObject, inv: ExecHook, timeout = 10, known: string[] = [], gates: string[] = []) =>
  withGateHook(mergePager(s, inv, timeout, known, gates), inv, timeout, known, gates);

const BUNDLE = '/opt/read-ceiling-pager/dist/cli.cjs';
const EXEC = nodeExec('node', BUNDLE);
/** EXEC as the settings parser reads it back (handlerLine). */
const INV = `node ${BUNDLE}`;
/** Every hook's program and arguments, in order. */
const commands = (s: JsonObject) => Object.values(s.hooks as JsonObject).flatMap((groups) => (groups as JsonObject[])
  .flatMap((g) => (g.hooks as JsonObject[]).map((h) => [h.command, ...(h.args as string[])].join(' '))));

describe('install --gates', () => {
  it('covered-reread alone needs no gate hook', () => {
    const { settings } = mergePagerHooks({}, EXEC, 10, [], ['covered-reread']);
    expect(commands(settings)).toEqual([
      `${INV} pre --gates covered-reread`, `${INV} post --gates covered-reread`, `${INV} post --gates covered-reread`,
    ]);
  });
  it('edit-after-reject or rejected-calls add the gate hook on the tools that ask the user, not on Read', () => {
    const { settings } = mergePagerHooks({}, EXEC, 10, [], ['rejected-calls']);
    const pre = (settings.hooks as JsonObject).PreToolUse as JsonObject[];
    expect(pre[1]).toEqual({ matcher: GATE_MATCHER, hooks: [{ type: 'command', command: 'node', args: [BUNDLE, 'gate', '--gates', 'rejected-calls'], timeout: 10 }] });
    expect(matcherSelectsRead(GATE_MATCHER)).toBe(false);
    for (const tool of ['Bash', 'Edit', 'Write', 'WebFetch', 'Skill', 'Workflow', 'mcp__github__create_issue']) expect(new RegExp(GATE_MATCHER).test(tool), tool).toBe(true);
    for (const tool of ['Read', 'TodoWrite', 'Task', 'Agent', 'BashOutput', 'ScheduleWakeup', 'ListAgents', 'ReportFindings', 'ToolSearch']) expect(new RegExp(GATE_MATCHER).test(tool), tool).toBe(false);
  });
  it('installing again changes the gates in place, and without gates takes the gate hook out', () => {
    const on = mergePagerHooks({}, EXEC, 10, [], ['edit-after-reject']).settings;
    const again = mergePagerHooks(on, EXEC, 10, [], ['edit-after-reject']);
    expect(again.changed).toBe(false);
    const off = mergePagerHooks(on, EXEC).settings;
    expect(off).toEqual(mergePagerHooks({}, EXEC).settings);
  });
  it('a gate hook an earlier install wrote in command form becomes exec form where it stands', () => {
    const before: JsonObject = { hooks: { PreToolUse: [
      { matcher: GATE_MATCHER, hooks: [{ type: 'command', command: `${INV} gate --gates rejected-calls`, timeout: 10 }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: `${INV} pre --gates rejected-calls`, timeout: 10 }] },
    ] } };
    const { settings } = mergePagerHooks(before, EXEC, 10, [], ['rejected-calls']);
    expect(commands(settings)).toEqual([
      `${INV} gate --gates rejected-calls`, `${INV} pre --gates rejected-calls`, `${INV} post --gates rejected-calls`, `${INV} post --gates rejected-calls`,
    ]);
    expect(((settings.hooks as JsonObject).PreToolUse as JsonObject[])[0]).toEqual(
      { matcher: GATE_MATCHER, hooks: [{ type: 'command', command: 'node', args: [BUNDLE, 'gate', '--gates', 'rejected-calls'], timeout: 10 }] });
  });
  it('--gates takes known names only', () => {
    expect(parseGateList('rejected-calls, covered-reread,rejected-calls')).toEqual(['rejected-calls', 'covered-reread']);
    expect(parseGateList('bogus')).toMatch(/unknown: bogus/);
    expect(parseGateList(',')).toMatch(/expected one or more/);
  });
  it('uninstall removes the gate hook too, and its commands are the pager\'s', () => {
    const on = mergePagerHooks({ a: 1 }, EXEC, 10, [], ['rejected-calls', 'covered-reread']).settings;
    expect(removePagerHooks(on, [INV]).settings).toEqual({ a: 1 });
    expect(isPagerCommand(`${INV} gate --gates rejected-calls`, 'gate', [INV])).toBe(true);
    expect(isPagerCommand(`read-ceiling-pager pre --gates=covered-reread`, 'pre')).toBe(true);
    expect(isPagerCommand(`${INV} gate --gates rejected-calls`, 'pre', [INV])).toBe(false);
    expect(pagerInvocations([`${INV} pre --gates covered-reread`], () => true)).toEqual([INV]);
  });

  describe('the plugin', () => {
    const REPO = join(__dirname, '../..');
    const plugin = JSON.parse(readFileSync(join(REPO, 'hooks/hooks.json'), 'utf8')) as JsonObject;
    const source = { label: 'plugin read-ceiling-pager@read-ceiling-pager', kind: 'plugin' as const, settings: plugin };

    it('hooks Read only: no gate hook that would start node, or a shell, on every Bash, Edit or Write', () => {
      const matchers = Object.values(plugin.hooks as JsonObject)
        .flatMap((groups) => (groups as JsonObject[]).map((g) => g.matcher));
      expect(matchers).toEqual(['Read', 'Read', 'Read']);
    });

    it('doctor tells a plugin user with a gate on Bash/Edit/Write to use the npm install in its place', () => {
      const findings = gateFindings({
        env: { value: 'rejected-calls', from: '"env" in user settings' }, wirings: pagerWirings([source]), gateHookSources: [],
      });
      expect(findings[1]).toMatchObject({ level: 'warn', text: expect.stringContaining('only Reads are gated; the plugin hooks Read only') });
      expect(findings[1]!.text)
        .toContain('read-ceiling-pager install --gates rejected-calls, then /plugin disable read-ceiling-pager@read-ceiling-pager');
      const viaSettings = gateFindings({ env: { value: 'rejected-calls', from: 'x' }, wirings: [], gateHookSources: [] });
      expect(viaSettings[1]!.text).toMatch(/only Reads are gated; run: read-ceiling-pager install --gates rejected-calls$/);
      expect(gateFindings({ env: { value: 'covered-reread', from: 'x' }, wirings: pagerWirings([source]), gateHookSources: [] })).toHaveLength(1);
    });
  });
});
