// The only module that knows the hook wire format: stdin JSON in, at most one JSON object out, exit 0.
// Everything that goes wrong in here fails open: no output, and the Read runs as the model asked.
import { StateStore, stateDir } from '../state/store.js';
import type { HookContext } from './context.js';
import { PostEvent, PreToolUse } from './input.js';
import { handlePost } from './post.js';
import { handlePre } from './pre.js';

/** Past this the hook stops reading the file and passes the Read through. Generous on purpose: on a busy
 * machine dozens of parallel hooks share two cores, and the settings give each hook 10 s. */
export const SCAN_DEADLINE_MS = 7_000;
/** Waiting for the session lock gives up here; a hook that cannot record its plan explains its clamp itself. */
export const LOCK_DEADLINE_MS = 8_500;
/** Stdin still open at the scan deadline: nothing could be done in time anyway, so say nothing. */
const STDIN_DEADLINE_MS = SCAN_DEADLINE_MS;
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

export type HookName = 'pre' | 'post';

export function runHook(name: HookName): void {
  const started = Date.now();
  process.exitCode = 0;
  // A reader that went away must not turn into an exit 1 with a stack trace.
  process.stdout.on('error', () => undefined);
  readStdin(started + STDIN_DEADLINE_MS, (raw) => {
    const out = raw === undefined ? '' : answer(name, raw, contextFor(started));
    if (out) process.stdout.write(out);
    process.exitCode = 0;
  });
}

/** Exactly what the hook prints for this stdin: one JSON line, or nothing. Never throws. */
export function answer(name: HookName, raw: string, ctx: HookContext): string {
  try {
    const json: unknown = JSON.parse(raw);
    const output = respond(name, json, ctx);
    return output ? `${JSON.stringify(output)}\n` : '';
  } catch {
    return '';
  }
}

/** The decision for one parsed hook input, as the JSON the engine expects (or undefined: say nothing). */
export function respond(name: HookName, json: unknown, ctx: HookContext): object | undefined {
  if (name === 'pre') {
    const event = PreToolUse.safeParse(json);
    if (!event.success) return undefined;
    const decision = handlePre(event.data, ctx);
    // Last line of the promise, whatever the handler computed: only `limit` lowered (and offset 0 → 1).
    if (!decision || !onlyLowersLimit(event.data.tool_input, decision.updatedInput)) return undefined;
    // Never a permissionDecision: the pager rewrites the window, it grants nothing.
    const out: Record<string, unknown> = { hookEventName: 'PreToolUse', updatedInput: decision.updatedInput };
    if (decision.additionalContext) out.additionalContext = decision.additionalContext;
    return { hookSpecificOutput: out };
  }
  const event = PostEvent.safeParse(json);
  if (!event.success) return undefined;
  const note = handlePost(event.data, ctx);
  if (!note) return undefined;
  return { hookSpecificOutput: { hookEventName: event.data.hook_event_name, additionalContext: note } };
}

/** True when `next` is `input` with a positive integer `limit` no larger than the one asked (any, when none
 * was) and `offset` unchanged or 0 → 1; every other field the same value. */
export function onlyLowersLimit(input: Record<string, unknown>, next: Record<string, unknown>): boolean {
  const limit = next.limit;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) return false;
  if (typeof input.limit === 'number' && input.limit > 0 && limit > input.limit) return false;
  if (!(next.offset === input.offset || (input.offset === 0 && next.offset === 1))) return false;
  const keys = new Set([...Object.keys(input), ...Object.keys(next)]);
  for (const k of keys) {
    if (k === 'limit' || k === 'offset') continue;
    if (!Object.prototype.hasOwnProperty.call(next, k) || !Object.prototype.hasOwnProperty.call(input, k)) return false;
    if (JSON.stringify(next[k]) !== JSON.stringify(input[k])) return false;
  }
  return true;
}

export function contextFor(started: number, env: NodeJS.ProcessEnv = process.env): HookContext {
  return {
    env,
    now: started,
    deadline: started + SCAN_DEADLINE_MS,
    store: new StateStore(stateDir(env), started + LOCK_DEADLINE_MS),
  };
}

/** All of stdin, or undefined when it is too large to be a hook input, breaks, or is still open at the
 * deadline. Read through the event loop, so a writer that never closes cannot hold the hook past it. */
function readStdin(deadline: number, done: (raw: string | undefined) => void): void {
  const stdin = process.stdin;
  const chunks: Buffer[] = [];
  let total = 0;
  let finished = false;
  const finish = (raw: string | undefined) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    stdin.removeAllListeners('data');
    stdin.destroy();
    try { done(raw); } catch { /* fail open */ }
  };
  const timer = setTimeout(() => finish(undefined), Math.max(0, deadline - Date.now()));
  stdin.on('data', (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buf.length;
    if (total > MAX_STDIN_BYTES) return finish(undefined);
    chunks.push(buf);
  });
  stdin.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
  stdin.on('error', () => finish(undefined));
}
