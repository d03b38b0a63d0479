// What `doctor` concludes from what it found: pure functions from facts to findings, lines and an exit code.
import { isAbsolute } from 'node:path';
import { GATES, GATES_ENV, GATES_ON_OTHER_TOOLS } from '../gates/names.js';
import {
  compareVersions,
  FIRST_PAGING_ENGINE,
  FIRST_PERSISTING_ENGINE,
  FIRST_READ_EXEMPT_ENGINE,
} from '../hooks/engine-version.js';
import { isPagerCommand, readHandlers, type HookEvent, type Json, PAGER_EVENTS } from '../settings/hooks.js';
import {
  countsByLengthOf,
  digitSplitCostOf,
  digitSplitTold,
  indentationCostOf,
  lineNumberCostOf,
  observationsOf,
  type Memory,
} from '../state/memory.js';
import { splitsDigits } from '../state/model.js';

/** The Node versions the package supports; a unit test keeps it equal to package.json `engines.node`. */
export const SUPPORTED_NODE = '>=20.0.0';
export const MIN_NODE_MAJOR = 20;

/** The Claude Code versions the pager was verified on, oldest to pinned (`npm run test:engines`, scripts/engines.json;
 * a unit test keeps them equal). Before the oldest, the engine refuses a whole-file read over the cap where it
 * would page it (2.1.144 and older), and runs an exec-form hook without its arguments (2.1.137 and older). */
export const VERIFIED_ENGINES = { oldest: '2.1.145', newest: '2.1.337' } as const;

export type Level = 'ok' | 'warn' | 'fail';
export interface Finding { level: Level; topic: string; text: string }

/** One settings source the engine reads: a settings file, or an installed plugin's hooks. */
export interface Source {
  label: string;
  /** undefined: no such file. */
  settings: Json | undefined;
  parseError?: string;
  kind: 'settings' | 'plugin';
}

export interface Wiring { source: string; event: HookEvent; command: string }

/** Where the pager runs from: every pager handler on Read, per source and event. */
export function pagerWirings(sources: readonly Source[], known: readonly string[] = []): Wiring[] {
  const out: Wiring[] = [];
  for (const source of sources) {
    for (const [event, hook] of PAGER_EVENTS) {
      for (const handler of readHandlers(source.settings ?? null, event)) {
        if (isPagerCommand(handler.command, hook, known) || isPagerPlugin(source)) {
          out.push({ source: source.label, event, command: handler.command });
        }
      }
    }
  }
  return out;
}

/** PreToolUse hooks on Read that are not the pager: any of them may also return updatedInput. */
export function rivalPreHooks(sources: readonly Source[], known: readonly string[] = []): Wiring[] {
  const out: Wiring[] = [];
  for (const source of sources) {
    if (isPagerPlugin(source)) continue;
    for (const handler of readHandlers(source.settings ?? null, 'PreToolUse')) {
      if (!isPagerCommand(handler.command, undefined, known)) out.push({ source: source.label, event: 'PreToolUse', command: handler.command });
    }
  }
  return out;
}

function isPagerPlugin(source: Source): boolean {
  return source.kind === 'plugin' && source.label.startsWith('plugin read-ceiling-pager@');
}

/** The invocations (`node <bundle>`) among these commands whose bundle is the pager's, as `isPagerBundle`
 * judges a path (the caller looks at the package.json beside it). */
export function pagerInvocations(commands: readonly string[], isPagerBundle: (path: string) => boolean): string[] {
  const out = new Set<string>();
  for (const command of commands) {
    const bundle = bundleOf(command);
    if (bundle && isPagerBundle(bundle)) out.add(command.trim().replace(/\s+(pre|post|gate)(\s+--gates(=|\s+)[\w,-]+)?$/, ''));
  }
  return [...out];
}

export function nodeFinding(version: string): Finding {
  const major = Number.parseInt(version.replace(/^v/, ''), 10);
  return major >= MIN_NODE_MAJOR
    ? { level: 'ok', topic: 'node', text: `${version} (supported: ${SUPPORTED_NODE})` }
    : { level: 'fail', topic: 'node', text: `${version} is older than the pager supports (${SUPPORTED_NODE}); the hooks would not run` };
}

/** What an engine before the verified range does differently (docs/ENGINE.md 9.9, 10): each for the versions from
 * `from` and before `before`. */
const OLDER_ENGINES: readonly { from?: string; before: string; text: string }[] = [
  { before: '2.1.2', text: "it ignores the pager's rewrite of a Read (it takes one only with a permission decision, which the pager never sends), so only the notes work" },
  { from: FIRST_PERSISTING_ENGINE, before: FIRST_READ_EXEMPT_ENGINE, text: 'it shows a Read result over 100,000 characters only as a preview (the pager keeps windows under that)' },
  { before: '2.1.143', text: "it runs exec-form hooks (the plugin's, `install`'s) without their arguments, so only the command form of settings.example.json runs the pager" },
  { before: FIRST_PAGING_ENGINE, text: 'a whole-file read over the cap is refused, not paged (the pager sends it as a window)' },
];

/** `claude --version`'s version against the verified range; undefined when no `claude` answered. */
export function engineFinding(version: string | undefined): Finding {
  const range = `${VERIFIED_ENGINES.oldest} to ${VERIFIED_ENGINES.newest}`;
  if (!version) return { level: 'warn', topic: 'engine', text: '`claude` is not on the PATH here, so its version is unknown' };
  if (compareVersions(version, VERIFIED_ENGINES.oldest) < 0) {
    const differs = OLDER_ENGINES.filter((o) => compareVersions(version, o.before) < 0 && compareVersions(version, o.from ?? '0.0.0') >= 0);
    return { level: 'warn', topic: 'engine', text: `Claude Code ${version} (claude on PATH) is older than the versions the pager was verified on (${range}): ${differs.map((o) => o.text).join('; ')}; update Claude Code` };
  }
  if (compareVersions(version, VERIFIED_ENGINES.newest) > 0) {
    return { level: 'warn', topic: 'engine', text: `Claude Code ${version} (claude on PATH) is newer than the versions the pager was verified on (${range}): it fails open, but the engine's limits may have moved` };
  }
  return { level: 'ok', topic: 'engine', text: `Claude Code ${version} (claude on PATH; the pager was verified on ${range})` };
}

export interface WiringFacts {
  wirings: Wiring[];
  /** A wired bundle path that does not exist, with the source that names it. */
  missing: Array<{ source: string; path: string }>;
  hooksDisabledBy?: string;
}

export function wiringFindings(facts: WiringFacts): Finding[] {
  const out: Finding[] = [];
  if (facts.hooksDisabledBy) {
    out.push({ level: 'fail', topic: 'wired', text: `"disableAllHooks": true in ${facts.hooksDisabledBy}: no hook runs, the pager neither` });
  }
  const pre = facts.wirings.filter((w) => w.event === 'PreToolUse');
  const bySource = [...new Set(facts.wirings.map((w) => w.source))];
  if (facts.wirings.length === 0) {
    out.push({ level: 'fail', topic: 'wired', text: 'nowhere: no settings file or enabled plugin runs the pager (run: read-ceiling-pager install)' });
  } else {
    for (const source of bySource) {
      const events = facts.wirings.filter((w) => w.source === source);
      const commands = [...new Set(events.map((w) => w.command))];
      const missingEvents = PAGER_EVENTS.map(([e]) => e).filter((e) => !events.some((w) => w.event === e));
      const gap = missingEvents.length ? `; missing ${missingEvents.join(', ')}` : '';
      out.push({ level: missingEvents.length ? 'warn' : 'ok', topic: 'wired', text: `${source}: ${commands.join(' | ')}${gap}` });
    }
    if (pre.length > 1) {
      out.push({ level: 'warn', topic: 'wired', text: `${pre.length} times on PreToolUse (${[...new Set(pre.map((w) => w.source))].join(', ')}): every Read runs it ${pre.length} times and notes repeat; keep one` });
    }
  }
  for (const m of facts.missing) {
    out.push({ level: 'fail', topic: 'wired', text: `${m.source} runs ${m.path}, which does not exist (run install again from the copy you use)` });
  }
  return out;
}

export interface GateFacts {
  /** READ_CEILING_PAGER_GATES as the hooks will see it, and where it comes from. */
  env?: { value: string; from: string };
  /** The pager's Read hooks (`--gates` on their commands counts). */
  wirings: Wiring[];
  /** Sources that run `gate` on the tools that ask the user. */
  gateHookSources: string[];
}

/** The plugin's label among the wirings (`plugin read-ceiling-pager@<marketplace>`), when it wires the pager. */
function pluginWiring(wirings: readonly Wiring[]): string | undefined {
  return wirings.find((w) => w.source.startsWith('plugin read-ceiling-pager@'))?.source;
}

/** Which opt-in gates are on, and whether those that act on other tools than Read have the hook they need. */
export function gateFindings(f: GateFacts): Finding[] {
  const on = new Map<string, string[]>();
  const note = (list: string, from: string) => {
    for (const name of list.split(',').map((g) => g.trim())) {
      if ((GATES as readonly string[]).includes(name)) on.set(name, [...new Set([...(on.get(name) ?? []), from])]);
    }
  };
  if (f.env?.value) note(f.env.value, `${GATES_ENV} from ${f.env.from}`);
  for (const w of f.wirings) {
    const flag = /\s--gates(?:=|\s+)([\w,-]+)\s*$/.exec(w.command);
    if (flag?.[1]) note(flag[1], `--gates in ${w.source}`);
  }
  if (on.size === 0) return [{ level: 'ok', topic: 'gates', text: 'none on (they are opt-in: see docs/GATES.md)' }];
  const names = GATES.filter((g) => on.has(g));
  const from = [...new Set(names.flatMap((g) => on.get(g)!))];
  const out: Finding[] = [{ level: 'ok', topic: 'gates', text: `${names.join(', ')} (${from.join('; ')})` }];
  const needHook = names.filter((g) => GATES_ON_OTHER_TOOLS.includes(g));
  if (needHook.length > 0 && f.gateHookSources.length === 0) {
    const plugin = pluginWiring(f.wirings);
    // The plugin has hooks on Read only: `install --gates` beside it would run every Read hook twice.
    const todo = plugin
      ? `the plugin hooks Read only. To gate them, use the npm package in place of the plugin: npm install -g read-ceiling-pager && read-ceiling-pager install --gates ${names.join(',')}, then /plugin disable ${plugin.slice('plugin '.length)}`
      : `run: read-ceiling-pager install --gates ${names.join(',')}`;
    out.push({
      level: 'warn', topic: 'gates',
      text: `${needHook.join(' and ')} on, but no gate hook runs on the tools that ask the user (Bash, Edit, Write, …), so only Reads are gated; ${todo}`,
    });
  }
  return out;
}

export function rivalFindings(rivals: readonly Wiring[]): Finding[] {
  return rivals.map((r) => ({
    level: 'warn' as const,
    topic: 'rival',
    text: `another PreToolUse hook on Read in ${r.source}: ${r.command} — if it also returns updatedInput, the hook that finishes last wins`,
  }));
}

/** What the pager remembers across sessions under one state directory (state/memory.ts): how much, each model
 * whose engine counted by length (an API without count_tokens), which sizes that model's windows by length from a
 * new session's first Read, each model whose counts of data tell that it counts numbers a token a digit, each whose
 * line numbers cost less than the rule the usage is read by, each whose line numbers cost more by the digit, and each
 * whose line numbers cost more on an indented line. Never a failure. */
export function memoryFinding(file: string, memory: Memory | undefined, now: number): Finding {
  if (!memory) return { level: 'ok', topic: 'memory', text: `${file}: nothing remembered yet` };
  const models = Object.keys(memory.models);
  const byLength = models.filter((m) => countsByLengthOf(memory, m, now));
  const cheapNumbers = models
    .filter((m) => lineNumberCostOf(memory, m, now) < 1)
    .map((m) => `${m} (${lineNumberCostOf(memory, m, now)} of it)`);
  const splitNumbers = models
    .filter((m) => digitSplitCostOf(memory, m, now) > 0)
    .map((m) => `${m} (${digitSplitCostOf(memory, m, now)} of the way)`);
  // A retry's word on the line numbers outweighs the counts of data (state/memory.ts, `digits`).
  const digitCounters = models.filter(
    (m) => digitSplitTold(memory, m, now) === undefined && splitsDigits(observationsOf(memory, m, now)),
  );
  const dearIndents = models
    .filter((m) => indentationCostOf(memory, m, now) > 0)
    .map((m) => `${m} (+${indentationCostOf(memory, m, now)} a line)`);
  const counts = models.reduce((n, m) => n + observationsOf(memory, m, now).length, 0);
  const some = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const mapped = Object.values(memory.files).filter((f) => f.spans?.length).length;
  const overCap = Object.values(memory.files).filter((f) => f.overCap?.length).length;
  const aside = [
    ...(mapped ? [`${mapped} window by window`] : []),
    ...(overCap ? [`${overCap} with lines over the cap`] : []),
  ];
  const parts = [
    `the densities of ${some(Object.keys(memory.files).length, 'file')}${aside.length ? ` (${aside.join(', ')})` : ''}`,
    `${some(counts, 'count')} of ${some(models.length, 'model')}`,
    ...(byLength.length ? [`counted by length (an API without count_tokens): ${byLength.join(', ')}`] : []),
    ...(cheapNumbers.length ? [`line numbers cheaper than the rule: ${cheapNumbers.join(', ')}`] : []),
    ...(digitCounters.length ? [`numbers counted a token a digit (its counts of data): ${digitCounters.join(', ')}`] : []),
    ...(splitNumbers.length ? [`line numbers dearer, toward a token a digit: ${splitNumbers.join(', ')}`] : []),
    ...(dearIndents.length ? [`line numbers dearer on indented lines: ${dearIndents.join(', ')}`] : []),
  ];
  return { level: 'ok', topic: 'memory', text: `${file}: ${parts.join('; ')} (delete the file to forget)` };
}

/** The opt-in trace (src/hooks/trace.ts): off, on and where, or on but writing nothing. Never a failure. */
export function traceFinding(setting: { value: string; from: string } | undefined,
  file: { size: number } | 'missing' | { problem: string }, maxBytes: number): Finding {
  if (!setting) return { level: 'ok', topic: 'trace', text: 'off (set READ_CEILING_PAGER_TRACE to a file path for a line per hook run)' };
  const { value, from } = setting;
  if (!isAbsolute(value)) {
    return { level: 'warn', topic: 'trace', text: `READ_CEILING_PAGER_TRACE=${value} (${from}) is not an absolute path: no trace is written` };
  }
  if (typeof file === 'object' && 'problem' in file) {
    return { level: 'warn', topic: 'trace', text: `on (${from}), but ${value} cannot be written: ${file.problem}` };
  }
  if (file !== 'missing' && file.size >= maxBytes) {
    return { level: 'warn', topic: 'trace', text: `on (${from}), but ${value} is full (${file.size} bytes): delete it to go on` };
  }
  return { level: 'ok', topic: 'trace', text: `on (${from}): each hook run appends a line to ${value}` };
}

/** Nonzero exactly when something would stop the pager from running. */
export function exitCode(findings: readonly Finding[]): number {
  return findings.some((f) => f.level === 'fail') ? 1 : 0;
}

export function render(findings: readonly Finding[]): string {
  const mark: Record<Level, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };
  return findings.map((f) => `${mark[f.level]}  ${f.topic.padEnd(6)} ${f.text}`).join('\n') + '\n';
}

/** The path of the bundle a `node <path> pre|post` command runs, when it names one. */
export function bundleOf(command: string): string | undefined {
  const m = /^\s*(?:"[^"]*"|\S+)\s+(?:"((?:[^"\\]|\\.)*)"|(\S+))\s+(?:pre|post|gate)(?:\s+--gates(?:=|\s+)[\w,-]+)?\s*$/.exec(command);
  if (!m) return undefined;
  const path = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
  return path && /\.(c?js|mjs)$/.test(path) && !path.includes('${') ? path : undefined;
}
