// The pager's three hook entries in a Claude Code settings object: recognise them, add them, remove them.
// Pure functions over parsed JSON; every other key and hook is carried over untouched, in its order.
import type { HookName } from '../hooks/output.js';
import { isRecord } from '../state/record.js';

export type HookEvent = 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure';
/** `gate`: the opt-in gates' PreToolUse hook on the tools other than Read (written only with `install --gates`). */
export type PagerHook = HookName;

/** Which hook of the pager runs on which engine event (docs/ENGINE.md §5.5, §6.2: post handles both post events). */
export const PAGER_EVENTS: ReadonlyArray<readonly [HookEvent, PagerHook]> = [
  ['PreToolUse', 'pre'],
  ['PostToolUse', 'post'],
  ['PostToolUseFailure', 'post'],
];

/** Seconds. A hook past its timeout is killed and the Read runs unmodified (docs/ENGINE.md §7.8), so keep it short. */
export const PAGER_TIMEOUT_S = 10;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A JSON object of a settings file (src/state/record.ts's check, typed as settings JSON). */
export const isObject = isRecord as (value: unknown) => value is JsonObject;

/** What a settings file must look like for us to edit it; anything else is refused, never repaired. */
export function shapeProblem(settings: Json): string | undefined {
  if (!isObject(settings)) return 'the top level is not a JSON object';
  const hooks = settings.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) return '"hooks" is not an object';
  for (const [event] of PAGER_EVENTS) {
    const groups = hooks[event];
    if (groups === undefined) continue;
    if (!Array.isArray(groups)) return `"hooks.${event}" is not an array`;
    for (const group of groups) {
      if (!isObject(group)) return `an entry of "hooks.${event}" is not an object`;
      if (group.hooks !== undefined && !Array.isArray(group.hooks)) return `an entry of "hooks.${event}" has "hooks" that is not an array`;
    }
  }
  return undefined;
}

/** A hook entry in exec form: `command` is the program and `args` its arguments, which the engine spawns with no
 * shell. No quoting, no shell to find or parse; and on Windows without Git Bash a PreToolUse hook that runs through
 * PowerShell blocks the tool call when it exits with anything but 0 or 2, which exec form is exempt from
 * (docs/ENGINE.md §7.12). */
export interface ExecHook {
  command: string;
  args: string[];
}

/** What follows the bundle: `pre`, `post` or `gate`, then `--gates a,b` when gates are switched on. */
export function pagerArgs(hook: PagerHook, gates: readonly string[] = []): string[] {
  return gates.length > 0 ? [hook, '--gates', gates.join(',')] : [hook];
}

/** `node <bundle>` as `install` writes it: the node given (`node` is looked up on the PATH the engine runs hooks
 * with) and the bundle's absolute path, as they are: with no shell, a space or a backslash needs no quoting. */
export function nodeExec(nodeBin: string, bundlePath: string): ExecHook {
  return { command: nodeBin, args: [bundlePath] };
}

/** The hook entry for one of the pager's hooks run by `invocation`. */
export function pagerExec(invocation: ExecHook, hook: PagerHook, gates: readonly string[] = []): ExecHook {
  return { command: invocation.command, args: [...invocation.args, ...pagerArgs(hook, gates)] };
}

/** An exec-form entry as one line, so that one parser reads both forms and `doctor` can show it: each word as it
 * is, or in double quotes (with `"` and `\` escaped) when it holds a space or a quote. Never run by a shell. */
export function execLine(e: ExecHook): string {
  return [e.command, ...e.args].map((w) => (/^[^\s"']+$/.test(w) ? w : `"${w.replace(/(["\\])/g, '\\$1')}"`)).join(' ');
}

/** A handler's command line: `command` as written (command form, run by a shell), or exec form's `command` and
 * `args` as execLine writes them. Undefined for anything that is not a command hook we can read. */
export function handlerLine(handler: unknown): string | undefined {
  if (!isObject(handler) || typeof handler.command !== 'string') return undefined;
  const { command, args } = handler;
  if (args === undefined) return command;
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return undefined;
  return execLine({ command, args: args as string[] });
}

const HOOK_COMMAND = /^(.*?)\s+(pre|post|gate)(?:\s+--gates(?:=|\s+)[\w,-]+)?\s*$/;

/** Is this command line (handlerLine's) one of the pager's hooks, in any of the forms it is installed with (bin
 * name, npx, the bundle by path, the plugin root; command or exec form)? `hook` narrows it to `pre` or `post`.
 * The extra strings are exact invocations to recognise too (those whose bundle is the pager's, which may live in
 * any folder). */
export function isPagerCommand(command: unknown, hook?: PagerHook, exactInvocations: readonly string[] = []): boolean {
  if (typeof command !== 'string') return false;
  const m = HOOK_COMMAND.exec(command.trim());
  if (!m) return false;
  const [, invocation = '', which] = m;
  if (hook && which !== hook) return false;
  if (exactInvocations.includes(invocation)) return true;
  // The bin name (npx may pin a version), the bin shim or a bundle inside a folder named after the package.
  return /(^|[\s"'/\\])read-ceiling-pager(\.js|@[\w.^~<>=-]+)?["']?$/.test(invocation)
    || /read-ceiling-pager[/\\]+(dist[/\\]+cli\.cjs|bin[/\\]+read-ceiling-pager\.js)["']?$/.test(invocation);
}

/** Is this handler (either form) one of the pager's hooks? */
export function isPagerHandler(handler: unknown, hook?: PagerHook, exactInvocations: readonly string[] = []): boolean {
  return isPagerCommand(handlerLine(handler), hook, exactInvocations);
}

export interface HookHandlerRef {
  event: HookEvent;
  matcher: string | undefined;
  command: string;
  timeout: number | undefined;
}

/** Every command hook on the given event whose matcher selects the Read tool; `command` is its handlerLine. */
export function readHandlers(settings: Json, event: HookEvent): HookHandlerRef[] {
  const out: HookHandlerRef[] = [];
  if (!isObject(settings) || !isObject(settings.hooks)) return out;
  const groups = settings.hooks[event];
  if (!Array.isArray(groups)) return out;
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
    if (!matcherSelectsRead(matcher)) continue;
    for (const handler of group.hooks) {
      const command = handlerLine(handler);
      if (!isObject(handler) || command === undefined) continue;
      out.push({
        event,
        matcher,
        command,
        timeout: typeof handler.timeout === 'number' ? handler.timeout : undefined,
      });
    }
  }
  return out;
}

/** The engine's matcher rule: empty or `*` matches every tool, a plain name or `A|B` list matches exactly,
 * anything else is a regular expression. */
export function matcherSelectsRead(matcher: string | undefined): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').includes('Read');
  try {
    return new RegExp(matcher).test('Read');
  } catch {
    return false;
  }
}

/** Every hook's command line (handlerLine) on the pager's three events, whatever the matcher. */
export function hookCommands(settings: Json): string[] {
  const out: string[] = [];
  if (!isObject(settings) || !isObject(settings.hooks)) return out;
  for (const [event] of PAGER_EVENTS) {
    const groups = settings.hooks[event];
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const h of group.hooks) {
        const line = handlerLine(h);
        if (line !== undefined) out.push(line);
      }
    }
  }
  return out;
}

export interface MergeResult {
  settings: JsonObject;
  changed: boolean;
}

/** Settings with exactly one pager entry per event, running `invocation` in exec form. An entry already there in
 * another form (command form, an older path, npx) is updated where it stands; duplicates of it are dropped; a
 * missing one is appended as its own `Read` group. Nothing else moves. `known`: invocations (as handlerLine
 * writes them, without the hook's own arguments) whose bundle is the pager's. */
export function mergePagerHooks(
  settings: JsonObject, invocation: ExecHook, timeout = PAGER_TIMEOUT_S, known: readonly string[] = [],
  gates: readonly string[] = [],
): MergeResult {
  const next = structuredClone(settings);
  let changed = false;
  const hooks: JsonObject = isObject(next.hooks) ? next.hooks : {};
  for (const [event, hook] of PAGER_EVENTS) {
    const groups: Json[] = Array.isArray(hooks[event]) ? hooks[event] : [];
    const exec = pagerExec(invocation, hook, gates);
    if (placeOneHandler(groups, { hook, invocations: [execLine(invocation), ...known], matcher: 'Read', exec, timeout, want: true })) changed = true;
    hooks[event] = groups;
  }
  if (changed) next.hooks = hooks;
  return { settings: changed ? next : settings, changed };
}

/** In one event's groups, exactly one handler of the pager's `hook` when `want` (the first one already in a
 * `matcher` group, updated to `exec` where it stands, else a new group appended) and none otherwise; other
 * copies are dropped, with any group they alone filled. Returns whether `groups` changed. */
export function placeOneHandler(
  groups: Json[],
  o: {
    hook: PagerHook; invocations: readonly string[]; matcher: string; exec: ExecHook; timeout: number; want: boolean;
  },
): boolean {
  const wanted = () => ({ type: 'command', command: o.exec.command, args: [...o.exec.args], timeout: o.timeout });
  let changed = false;
  let kept = false;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g];
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    const handlers = group.hooks;
    const before = handlers.length;
    for (let h = 0; h < handlers.length; h++) {
      const handler = handlers[h];
      if (!isObject(handler) || !isPagerHandler(handler, o.hook, o.invocations)) continue;
      if (o.want && !kept && group.matcher === o.matcher) {
        kept = true;
        if (handler.type !== 'command' || handler.command !== o.exec.command || handler.timeout !== o.timeout
          || JSON.stringify(handler.args) !== JSON.stringify(o.exec.args)) {
          // A command-form entry becomes exec form where it stands; its other keys stay, after ours.
          const { type: _type, command: _command, args: _args, timeout: _timeout, ...rest } = handler;
          handlers[h] = { ...wanted(), ...rest };
          changed = true;
        }
      } else {
        handlers.splice(h--, 1);
        changed = true;
      }
    }
    if (handlers.length === 0 && before > 0) groups.splice(g--, 1);
  }
  if (o.want && !kept) {
    groups.push({ matcher: o.matcher, hooks: [wanted()] });
    changed = true;
  }
  return changed;
}

/** Settings without the pager's entries. A group, event list or `hooks` object that held only the pager's
 * entries goes with them; one that was already empty stays. */
export function removePagerHooks(settings: JsonObject, exactInvocations: readonly string[] = []): MergeResult {
  const next = structuredClone(settings);
  if (!isObject(next.hooks)) return { settings, changed: false };
  const hooks = next.hooks;
  let changed = false;
  for (const [event, hook] of PAGER_EVENTS) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    let removedHere = false;
    for (let g = 0; g < groups.length; g++) {
      const group = groups[g];
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      const before = group.hooks.length;
      group.hooks = group.hooks.filter((handler) => !(isPagerHandler(handler, hook, exactInvocations)
        || (event === 'PreToolUse' && isPagerHandler(handler, 'gate', exactInvocations))));
      if (group.hooks.length !== before) {
        removedHere = true;
        if (group.hooks.length === 0) groups.splice(g--, 1);
      }
    }
    if (removedHere) {
      changed = true;
      if (groups.length === 0) delete hooks[event];
    }
  }
  if (!changed) return { settings, changed: false };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return { settings: next, changed: true };
}
