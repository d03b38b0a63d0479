// `install --gates`: the gate hook on the tools other than Read. Lives in the gates' bundle (dist/gates.cjs), so
// the bundle every Read loads carries none of it; `install` loads it on demand.
import {
  execLine, isObject, pagerExec, placeOneHandler, type ExecHook, type Json, type JsonObject, type MergeResult,
} from '../settings/hooks.js';
import { GATES, GATES_ON_OTHER_TOOLS } from './names.js';

/** The tools the gate hook runs on: those that can ask the user (Read is `pre`'s). On 2.1.332, Agent,
 * ScheduleWakeup, ListAgents, ReportFindings and ToolSearch ran without asking; every tool not named here starts
 * no process for the gates. */
export const GATE_MATCHER = '^(Bash|Edit|Write|MultiEdit|NotebookEdit|WebFetch|WebSearch|Glob|Grep|PowerShell|Skill|Workflow|mcp__.*)$';

/** Whether these gates need the gate hook: those that act on tools other than Read. */
export function needsGateHook(gates: readonly string[]): boolean {
  return GATES_ON_OTHER_TOOLS.some((g) => gates.includes(g));
}

/** `--gates a,b`: known gate names only, each once, in the order given; an error text otherwise. */
export function parseGateList(value: string): string[] | string {
  const names = value.split(',').map((g) => g.trim()).filter(Boolean);
  const unknown = names.filter((g) => !(GATES as readonly string[]).includes(g));
  if (unknown.length > 0 || names.length === 0) {
    return `expected one or more of ${GATES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`;
  }
  return [...new Set(names)];
}

/** Settings with exactly one gate hook running `invocation` (exec form, as the Read hooks) when the gates need
 * it, and none otherwise (so installing again without gates switches them off). Applied after mergePagerHooks;
 * nothing else moves. */
export function withGateHook(
  prev: MergeResult, invocation: ExecHook, timeout: number, known: readonly string[], gates: readonly string[],
): MergeResult {
  const next = structuredClone(prev.settings);
  const hooks: JsonObject = isObject(next.hooks) ? next.hooks : {};
  const groups: Json[] = Array.isArray(hooks.PreToolUse) ? hooks.PreToolUse : [];
  const changed = placeOneHandler(groups, {
    hook: 'gate', invocations: [execLine(invocation), ...known], matcher: GATE_MATCHER,
    exec: pagerExec(invocation, 'gate', gates), timeout, want: needsGateHook(gates),
  });
  if (!changed) return prev;
  hooks.PreToolUse = groups;
  next.hooks = hooks;
  return { settings: next, changed: true };
}
