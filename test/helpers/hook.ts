// Runs the built binary as the engine runs a hook: JSON on stdin, stdout and exit code back.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'read-ceiling-pager.js');
/** The Node that runs the hooks: this one, or the lowest supported one (scripts/test-lowest-node.mjs). */
export const NODE = process.env.PAGER_NODE || process.execPath;

export interface HookRun {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

export function runHook(name: 'pre' | 'post', input: unknown, env: NodeJS.ProcessEnv): HookRun {
  const stdin = typeof input === 'string' ? input : JSON.stringify(input);
  const r = spawnSync(NODE, [BIN, name], { input: stdin, env, encoding: 'utf8', timeout: 20_000 });
  let json: any;
  try { json = r.stdout.trim() ? JSON.parse(r.stdout) : undefined; } catch { json = 'not json'; }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json };
}

/** What the engine's Read returns for a window (docs/ENGINE.md §1.4, §3.1, §6.2): lines split on \n, CRLF as LF,
 * the empty line after a final newline counted. */
export function engineRead(path: string, offset: number | undefined, limit: number | undefined) {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
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
