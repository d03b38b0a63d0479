import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bundleOf, exitCode, nodeFinding, pagerInvocations, pagerWirings, rivalPreHooks, SUPPORTED_NODE, traceFinding,
  wiringFindings,
  type Source,
} from '../../src/install/diagnosis.js';
import { unifiedDiff } from '../../src/settings/diff.js';
import { formatSettings, parseSettings } from '../../src/settings/format.js';
import {
  execLine, handlerLine, isPagerCommand, isPagerHandler, matcherSelectsRead, mergePagerHooks, nodeExec,
  removePagerHooks, shapeProblem,
  type JsonObject,
} from '../../src/settings/hooks.js';

const BUNDLE = '/opt/rcp/dist/cli.cjs';
const INV = nodeExec('node', BUNDLE);
/** INV as handlerLine reads it back. */
const LINE = `node ${BUNDLE}`;
/** A hook in command form, as settings.example.json and installs before exec form wrote them. */
const entry = (command: string, timeout = 10) => ({ matcher: 'Read', hooks: [{ type: 'command', command, timeout }] });
/** What install writes: exec form. */
const execEntry = (hook: string, timeout = 10) => ({ matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [BUNDLE, hook], timeout }] });

describe('mergePagerHooks', () => {
  it('adds one Read group per event to empty settings', () => {
    const { settings, changed } = mergePagerHooks({}, INV);
    expect(changed).toBe(true);
    expect(settings).toEqual({
      hooks: {
        PreToolUse: [execEntry('pre')],
        PostToolUse: [execEntry('post')],
        PostToolUseFailure: [execEntry('post')],
      },
    });
  });

  it('keeps every other key and hook, in order, and appends after them', () => {
    const before: JsonObject = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
      },
      permissions: { allow: ['Read'] },
    };
    const { settings } = mergePagerHooks(before, INV);
    expect(Object.keys(settings)).toEqual(['model', 'hooks', 'permissions']);
    const hooks = settings.hooks as JsonObject;
    expect(Object.keys(hooks)).toEqual(['PreToolUse', 'Stop', 'PostToolUse', 'PostToolUseFailure']);
    expect(hooks.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }, execEntry('pre')]);
    expect(hooks.Stop).toEqual((before.hooks as JsonObject).Stop);
    expect(before.hooks).toEqual({
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
    }); // the input is not mutated
  });

  it('is idempotent: a second merge reports no change and returns the same object', () => {
    const once = mergePagerHooks({ a: 1 }, INV).settings;
    const twice = mergePagerHooks(once, INV);
    expect(twice.changed).toBe(false);
    expect(twice.settings).toBe(once);
  });

  it('updates an older form of the entry where it stands and drops duplicates', () => {
    const before: JsonObject = {
      hooks: {
        PreToolUse: [
          { matcher: 'Read', hooks: [{ type: 'command', command: 'npx read-ceiling-pager pre', timeout: 30 }, { type: 'command', command: 'other pre' }] },
          entry('read-ceiling-pager pre'),
        ],
      },
    };
    const { settings, changed } = mergePagerHooks(before, INV);
    expect(changed).toBe(true);
    expect((settings.hooks as JsonObject).PreToolUse).toEqual([
      { matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [BUNDLE, 'pre'], timeout: 10 }, { type: 'command', command: 'other pre' }] },
    ]);
  });

  it('turns the command-form entries of an earlier install into exec form where they stand, never a second copy', () => {
    const spaced = '/Users/Jo Doe/$x/read-ceiling-pager/dist/cli.cjs';
    const before: JsonObject = {
      hooks: {
        PreToolUse: [entry(`node "/Users/Jo Doe/\\$x/read-ceiling-pager/dist/cli.cjs" pre --gates covered-reread`)],
        PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node C:/Users/jo/read-ceiling-pager/dist/cli.cjs post', timeout: 10, statusMessage: 'paging' }] }],
        PostToolUseFailure: [entry('read-ceiling-pager post'), entry(`${LINE} post`)],
      },
    };
    const inv = nodeExec('node', spaced);
    const { settings } = mergePagerHooks(before, inv, 10, [LINE]);
    expect(settings.hooks).toEqual({
      PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [spaced, 'pre'], timeout: 10 }] }],
      PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [spaced, 'post'], timeout: 10, statusMessage: 'paging' }] }],
      PostToolUseFailure: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [spaced, 'post'], timeout: 10 }] }],
    });
    // In the same key order as a fresh entry, the user's own keys after.
    const hooks = settings.hooks as { [event: string]: Array<{ hooks: JsonObject[] }> };
    expect(Object.keys(hooks.PreToolUse![0]!.hooks[0]!)).toEqual(['type', 'command', 'args', 'timeout']);
    expect(Object.keys(hooks.PostToolUse![0]!.hooks[0]!)).toEqual(['type', 'command', 'args', 'timeout', 'statusMessage']);
    expect(mergePagerHooks(settings, inv).changed).toBe(false);
  });

  it('writes --gates as two arguments and takes them off again', () => {
    const on = mergePagerHooks({}, INV, 10, [], ['covered-reread', 'rejected-calls']).settings;
    expect((on.hooks as JsonObject).PreToolUse).toEqual([
      { matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: [BUNDLE, 'pre', '--gates', 'covered-reread,rejected-calls'], timeout: 10 }] },
    ]);
    expect(mergePagerHooks(on, INV).settings).toEqual(mergePagerHooks({}, INV).settings);
  });

  it('recognises a copy installed from a folder of any name only when told it is the pager', () => {
    const other = 'node /home/me/src/pager/dist/cli.cjs';
    const before: JsonObject = { hooks: { PreToolUse: [entry(`${other} pre`)] } };
    expect(((mergePagerHooks(before, INV).settings.hooks as JsonObject).PreToolUse as unknown[]).length).toBe(2);
    expect((mergePagerHooks(before, INV, 10, [other]).settings.hooks as JsonObject).PreToolUse).toEqual([execEntry('pre')]);
  });
});

describe('removePagerHooks', () => {
  it('removes exactly the pager entries and the containers they alone filled', () => {
    const before: JsonObject = {
      hooks: {
        PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'guard.sh' }] }],
        Stop: [],
      },
    };
    const installed = mergePagerHooks(before, INV).settings;
    const { settings, changed } = removePagerHooks(installed, [LINE]);
    expect(changed).toBe(true);
    expect(settings).toEqual(before);
  });

  it('leaves hooks it does not recognise, even on the same events', () => {
    const s: JsonObject = { hooks: { PreToolUse: [
      entry('node /x/other-tool/dist/cli.cjs pre'), entry('my-read-ceiling-pager-fork pre'),
      { matcher: 'Read', hooks: [{ type: 'command', command: 'read-ceiling-pager-missing-xyz', args: ['pre'] }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: ['/x/other-tool/dist/cli.cjs', 'pre'] }] },
    ] } };
    expect(removePagerHooks(s)).toEqual({ settings: s, changed: false });
  });

  it('removes both forms: command form and exec form, the bin name and the bundle by path', () => {
    const s: JsonObject = { hooks: { PreToolUse: [
      entry('read-ceiling-pager pre'),
      { matcher: 'Read', hooks: [{ type: 'command', command: 'read-ceiling-pager', args: ['pre'] }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\Users\\Jo Doe\\AppData\\Roaming\\npm\\node_modules\\read-ceiling-pager\\dist\\cli.cjs', 'pre'] }] },
      { matcher: 'Read', hooks: [{ type: 'command', command: 'node', args: ['/home/me/src/pager/dist/cli.cjs', 'pre', '--gates', 'covered-reread'] }] },
    ] } };
    expect(removePagerHooks(s, ['node /home/me/src/pager/dist/cli.cjs'])).toEqual({ settings: {}, changed: true });
  });

  it('install then uninstall gives back any settings whose hook lists are non-empty', () => {
    const handler = fc.record({ type: fc.constant('command'), command: fc.constantFrom('a.sh', 'lint --fix', 'node x.js pre') });
    const group = fc.record({ matcher: fc.constantFrom('Read', 'Bash', '*', 'Edit|Write'), hooks: fc.array(handler, { minLength: 1, maxLength: 3 }) });
    const hooks = fc.dictionary(fc.constantFrom('PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop'), fc.array(group, { minLength: 1, maxLength: 3 }), { minKeys: 1 });
    fc.assert(fc.property(fc.record({ hooks, model: fc.string() }, { requiredKeys: ['hooks'] }), (s) => {
      const settings = s as unknown as JsonObject;
      expect(removePagerHooks(mergePagerHooks(settings, INV).settings, [LINE]).settings).toEqual(settings);
    }));
  });
});

describe('isPagerCommand', () => {
  it.each([
    ['read-ceiling-pager pre', true],
    ['npx read-ceiling-pager post', true],
    ['npx -y read-ceiling-pager@0.1.0 pre', true],
    ['npx -y read-ceiling-pager-fork pre', false],
    ['node /usr/lib/node_modules/read-ceiling-pager/dist/cli.cjs pre', true],
    ['node "C:\\Users\\me\\read-ceiling-pager\\bin\\read-ceiling-pager.js" post', true],
    ['read-ceiling-pager estimate', false],
    ['not-read-ceiling-pager pre', false],
    ['echo read-ceiling-pager pre; rm -rf /', false],
  ])('%s → %s', (command, expected) => {
    expect(isPagerCommand(command)).toBe(expected);
  });

  it('narrows to pre or post', () => {
    expect(isPagerCommand('read-ceiling-pager pre', 'post')).toBe(false);
  });
});

describe('matcherSelectsRead', () => {
  it.each([
    [undefined, true], ['', true], ['*', true], ['Read', true], ['Edit|Read', true], ['Reader', false],
    ['Edit', false], ['Re.*', true], ['^(Read|Write)$', true], ['mcp__.*', false], ['[', false],
  ])('%s → %s', (matcher, expected) => {
    expect(matcherSelectsRead(matcher)).toBe(expected);
  });
});

describe('handlerLine / execLine / bundleOf', () => {
  it('reads a command-form hook as written and an exec-form hook as its words, quoted only where one holds a space or quote', () => {
    expect(handlerLine({ type: 'command', command: 'node "/a b/dist/cli.cjs" pre' })).toBe('node "/a b/dist/cli.cjs" pre');
    expect(handlerLine({ type: 'command', command: 'node', args: ['/opt/rcp/dist/cli.cjs', 'pre'] })).toBe('node /opt/rcp/dist/cli.cjs pre');
    expect(handlerLine({ type: 'command', command: 'node', args: ['C:\\Users\\Jo Doe\\rcp\\dist\\cli.cjs', 'pre'] }))
      .toBe('node "C:\\\\Users\\\\Jo Doe\\\\rcp\\\\dist\\\\cli.cjs" pre');
    expect(handlerLine({ type: 'command', command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs', 'pre'] })).toBe('node ${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs pre');
    expect(handlerLine({ type: 'command', command: 'x', args: [1] })).toBeUndefined();
    expect(handlerLine({ type: 'http', url: 'http://127.0.0.1/' })).toBeUndefined();
  });

  it('finds the bundle of either form, Windows paths included, and none behind a placeholder or a bin name', () => {
    for (const path of ['/opt/rcp/dist/cli.cjs', '/Users/Jo Doe/a"b/$x/dist/cli.cjs', 'C:\\Users\\jo\\rcp\\dist\\cli.cjs', 'C:\\Users\\Jo Doe\\rcp\\dist\\cli.cjs']) {
      expect(bundleOf(execLine({ command: 'node', args: [path, 'pre', '--gates', 'covered-reread'] }))).toBe(path);
    }
    expect(bundleOf('node "/Users/Jo Doe/\\$x/dist/cli.cjs" pre')).toBe('/Users/Jo Doe/$x/dist/cli.cjs'); // command form, as installs before wrote it
    expect(bundleOf('node "C:/Users/Jo Doe/rcp/dist/cli.cjs" pre')).toBe('C:/Users/Jo Doe/rcp/dist/cli.cjs');
    expect(bundleOf(execLine({ command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs', 'pre'] }))).toBeUndefined();
    expect(bundleOf('node "${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs" pre')).toBeUndefined();
    expect(bundleOf('read-ceiling-pager pre')).toBeUndefined();
  });

  it('recognises the pager in exec form as in command form', () => {
    expect(isPagerHandler({ type: 'command', command: 'node', args: ['/usr/lib/node_modules/read-ceiling-pager/dist/cli.cjs', 'post'] }, 'post')).toBe(true);
    expect(isPagerHandler({ type: 'command', command: 'node', args: ['/usr/lib/node_modules/read-ceiling-pager/dist/cli.cjs', 'post'] }, 'pre')).toBe(false);
    expect(isPagerHandler({ type: 'command', command: 'read-ceiling-pager', args: ['gate', '--gates', 'rejected-calls'] }, 'gate')).toBe(true);
    expect(isPagerHandler({ type: 'command', command: 'node', args: ['/home/me/pager/dist/cli.cjs', 'pre'] }, 'pre', [LINE])).toBe(false);
    expect(isPagerHandler({ type: 'command', command: 'node', args: [BUNDLE, 'pre'] }, 'pre', [LINE])).toBe(true);
    expect(isPagerHandler({ type: 'command', command: 'read-ceiling-pager-missing-xyz', args: ['pre'] })).toBe(false);
  });
});

describe('parseSettings / formatSettings', () => {
  it('treats a missing or blank file as {}', () => {
    expect(parseSettings(undefined)).toMatchObject({ ok: true, settings: {} });
    expect(parseSettings('  \n')).toMatchObject({ ok: true, settings: {} });
  });

  it('refuses what is not a JSON object, saying why', () => {
    expect(parseSettings('{ "a": 1, }')).toMatchObject({ ok: false, reason: expect.stringContaining('not valid JSON') });
    expect(parseSettings('[]')).toEqual({ ok: false, reason: 'its top level is not a JSON object' });
  });

  it.each([
    ['two spaces, LF', '{\n  "a": [\n    1\n  ]\n}\n'],
    ['tabs, CRLF, no final newline', '{\r\n\t"a": {\r\n\t\t"b": true\r\n\t}\r\n}'],
    ['BOM and four spaces', '\uFEFF{\n    "a": "x"\n}\n'],
  ])('writes a file back byte for byte in its own style: %s', (_name, text) => {
    const parsed = parseSettings(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(formatSettings(parsed.settings, parsed.style)).toBe(text);
  });
});

describe('shapeProblem', () => {
  it('names the part that is not what the engine expects', () => {
    expect(shapeProblem({ hooks: [] })).toBe('"hooks" is not an object');
    expect(shapeProblem({ hooks: { PreToolUse: {} } })).toBe('"hooks.PreToolUse" is not an array');
    expect(shapeProblem({ hooks: { Stop: 'x' } })).toBeUndefined(); // not an event we touch
  });
});

describe('unifiedDiff', () => {
  it('shows removed and added lines with context', () => {
    const diff = unifiedDiff('{\n  "a": 1\n}\n', '{\n  "a": 1,\n  "b": 2\n}\n', 'old', 'new');
    expect(diff).toBe('--- old\n+++ new\n@@ -1,3 +1,4 @@\n {\n-  "a": 1\n+  "a": 1,\n+  "b": 2\n }\n');
  });

  it('is empty when nothing changes', () => {
    expect(unifiedDiff('x\n', 'x\n', 'a', 'b')).toBe('');
  });
});

describe('diagnosis', () => {
  const settings = (label: string, s: JsonObject): Source => ({ label, settings: s, kind: 'settings' });

  it('says whether the trace is on, where it writes, and when it would write nothing', () => {
    const env = { value: '/tmp/t.jsonl', from: 'the environment' };
    expect(traceFinding(undefined, 'missing', 100)).toMatchObject({ level: 'ok', text: expect.stringMatching(/^off /) });
    expect(traceFinding(env, 'missing', 100))
      .toEqual({ level: 'ok', topic: 'trace', text: 'on (the environment): each hook run appends a line to /tmp/t.jsonl' });
    expect(traceFinding(env, { size: 99 }, 100).level).toBe('ok');
    expect(traceFinding(env, { size: 100 }, 100)).toMatchObject({ level: 'warn', text: expect.stringContaining('is full') });
    expect(traceFinding(env, { problem: 'no write permission' }, 100).level).toBe('warn');
    expect(traceFinding({ value: 'rel.jsonl', from: 'x' }, 'missing', 100).text).toContain('not an absolute path');
  });

  it('keeps the supported Node range equal to package.json engines', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { engines: { node: string } };
    expect(SUPPORTED_NODE).toBe(pkg.engines.node);
    expect(nodeFinding('v18.20.0').level).toBe('fail');
    expect(nodeFinding('v20.0.0').level).toBe('ok');
  });

  it('finds the pager in settings and in its plugin, and flags double wiring', () => {
    const user = settings('user', mergePagerHooks({}, INV).settings);
    const plugin: Source = {
      label: 'plugin read-ceiling-pager@read-ceiling-pager',
      kind: 'plugin',
      settings: JSON.parse(readFileSync(join(__dirname, '../../hooks/hooks.json'), 'utf8')),
    };
    const wirings = pagerWirings([user, plugin], [LINE]);
    expect(wirings).toHaveLength(6);
    const findings = wiringFindings({ wirings, missing: [] });
    expect(findings.map((f) => f.level)).toEqual(['ok', 'ok', 'warn']);
    expect(findings[2]!.text).toMatch(/^2 times on PreToolUse/);
    expect(exitCode(findings)).toBe(0);
  });

  it('fails when nothing wires it, when hooks are disabled, or when the wired bundle is gone', () => {
    expect(exitCode(wiringFindings({ wirings: [], missing: [] }))).toBe(1);
    const w = [{ source: 'user', event: 'PreToolUse' as const, command: `${LINE} pre` }];
    expect(exitCode(wiringFindings({ wirings: w, missing: [], hooksDisabledBy: 'user' }))).toBe(1);
    expect(exitCode(wiringFindings({ wirings: w, missing: [{ source: 'user', path: '/gone' }] }))).toBe(1);
  });

  it('lists PreToolUse hooks on Read that are not the pager as rivals', () => {
    const s = settings('project', {
      hooks: {
        PreToolUse: [
          { matcher: 'Read|Grep', hooks: [{ type: 'command', command: 'guard.sh' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'bash-only.sh' }] },
          execEntry('pre'),
        ],
      },
    });
    expect(rivalPreHooks([s], [LINE]).map((r) => r.command)).toEqual(['guard.sh']);
  });

  it('recognises the bundles the caller vouches for', () => {
    const cmds = ['node /a/dist/cli.cjs pre', 'node /b/dist/cli.cjs post', 'guard.sh'];
    expect(pagerInvocations(cmds, (p) => p.startsWith('/a/'))).toEqual(['node /a/dist/cli.cjs']);
  });
});
