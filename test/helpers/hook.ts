// Runs the built binary as the engine runs a hook: JSON on stdin, stdout and exit code back.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'read-ceiling-pager.js');
/** The Node that runs the hooks: this one, or the lowest supported one (scripts/test-lowest-node.mjs). */
export const NODE = process.env.PAGER_NODE || process.execPath;
/** Set by scripts/test-windows.mjs: Node for Windows (node.exe), run by Wine. The hooks then see Windows paths
 * (Wine shows this machine's / as drive Z:) and Windows file semantics as Wine gives them. */
const WINE_NODE = process.env.PAGER_WINE_NODE;
export const WINDOWS = WINE_NODE !== undefined;

/** A path of this machine as the hook sees it: `Z:\tmp\x.txt` under Wine. Paths already in that form stay. */
export function hookPath(p: string): string {
  return WINDOWS && p.startsWith('/') ? `Z:${p.replace(/\//g, '\\')}` : p;
}

/** The other way: a path the hook named, as this machine opens it. */
export function localPath(p: string): string {
  return WINDOWS && /^Z:\\/i.test(p) ? p.slice(2).replace(/\\/g, '/') : p;
}

/** The program and arguments that run a hook, as the engine would: `node <bundle> pre`. */
export function hookCommand(name: string): [string, string[]] {
  return WINE_NODE ? ['wine', [WINE_NODE, hookPath(BIN), name]] : [NODE, [BIN, name]];
}

/** The environment a hook runs with: paths in it as the hook sees them, and what Wine itself needs. */
export function hookEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!WINDOWS) return env;
  const out: NodeJS.ProcessEnv = { ...env, WINEPREFIX: process.env.WINEPREFIX, WINEDEBUG: '-all' };
  for (const key of ['READ_CEILING_PAGER_STATE_DIR', 'CLAUDE_PLUGIN_DATA', 'XDG_STATE_HOME', 'LOCALAPPDATA']) {
    if (out[key]) out[key] = hookPath(out[key]!);
  }
  return out;
}

const PATH_KEYS = new Set(['file_path', 'filePath', 'transcript_path', 'cwd']);

/** A hook input with every path in it as the hook sees it (only fields that hold paths: never file text). */
export function hookInput(input: unknown): unknown {
  if (!WINDOWS || typeof input !== 'object' || input === null) return input;
  if (Array.isArray(input)) return input.map(hookInput);
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, PATH_KEYS.has(k) && typeof v === 'string' ? hookPath(v) : hookInput(v)]));
}

/** Milliseconds one hook may take before a test gives up on it: a Wine start is slow. */
export const HOOK_TIMEOUT_MS = WINDOWS ? 90_000 : 20_000;

export interface HookRun {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

export function runHook(name: 'pre' | 'post', input: unknown, env: NodeJS.ProcessEnv): HookRun {
  const stdin = typeof input === 'string' ? input : JSON.stringify(hookInput(input));
  const [cmd, args] = hookCommand(name);
  const r = spawnSync(cmd, args, { input: stdin, env: hookEnv(env), encoding: 'utf8', timeout: HOOK_TIMEOUT_MS });
  let json: any;
  try { json = r.stdout.trim() ? JSON.parse(r.stdout) : undefined; } catch { json = 'not json'; }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** What the engine's Read returns for a window (docs/ENGINE.md §1.4, §3.1, §6.2): lines split on \n, CRLF as LF,
 * the empty line after a final newline counted. */
export function engineRead(path: string, offset: number | undefined, limit: number | undefined) {
  const text = readFileSync(localPath(path), 'utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const lines = text.split('\n');
  const first = Math.max(1, offset ?? 1);
  const slice = lines.slice(first - 1, limit === undefined ? undefined : first - 1 + limit);
  return {
    type: 'text',
    file: { filePath: path, content: slice.join('\n'), numLines: slice.length, startLine: offset === 0 ? 0 : first, totalLines: lines.length },
  };
}

export function preEvent(session: string, id: string, toolInput: Record<string, unknown>, cwd = '/') {
  return { session_id: session, transcript_path: '/nonexistent.jsonl', cwd, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: toolInput, tool_use_id: id };
}

export function postEvent(session: string, id: string, toolInput: Record<string, unknown>, response: unknown, cwd = '/') {
  return { session_id: session, cwd, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: toolInput, tool_response: response, tool_use_id: id };
}

export function failureEvent(session: string, id: string, toolInput: Record<string, unknown>, error: string, cwd = '/') {
  return { session_id: session, cwd, hook_event_name: 'PostToolUseFailure', tool_name: 'Read', tool_input: toolInput, tool_use_id: id, error, is_interrupt: false };
}

export interface FollowStep {
  asked: Record<string, unknown>;
  ran: Record<string, unknown>;
  /** The first and last line returned (0, -1 when none). */
  first: number;
  last: number;
  note: string | undefined;
}

/** A model that follows every note: asks `input`, lets pre rewrite it, reads as the engine does, and asks next
 * for the last `offset=N limit=M` the post note named, until a note names none. */
export function followNotes(
  session: string, input: Record<string, unknown>, env: NodeJS.ProcessEnv, idPrefix: string, maxSteps = 40,
): FollowStep[] {
  const steps: FollowStep[] = [];
  let asked: Record<string, unknown> | undefined = input;
  for (let i = 0; asked && i < maxSteps; i++) {
    const id = `${idPrefix}_${i}`;
    const pre = runHook('pre', preEvent(session, id, asked), env);
    const rewritten = pre.json?.hookSpecificOutput?.updatedInput;
    const ran: Record<string, unknown> = rewritten
      ? { ...rewritten, file_path: localPath(String(rewritten.file_path)) }
      : asked;
    const read = engineRead(String(ran.file_path), ran.offset as number | undefined, ran.limit as number | undefined);
    const post = runHook('post', postEvent(session, id, ran, read), env);
    const note: string | undefined = post.json?.hookSpecificOutput?.additionalContext;
    const first = Math.max(1, read.file.startLine);
    steps.push({ asked, ran, first, last: first + read.file.numLines - 1, note });
    const advice = note ? [...note.matchAll(/offset=(\d+) limit=(\d+)/g)].at(-1) : undefined;
    asked = advice ? { ...asked, offset: Number(advice[1]), limit: Number(advice[2]) } : undefined;
  }
  return steps;
}
