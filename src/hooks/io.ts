// The only module that knows the hook wire format: stdin JSON in, at most one JSON object out, exit 0.
// Everything that goes wrong in here fails open: no output, and the Read runs as the model asked.
import { writeSync } from 'node:fs';
import type { Gate } from '../gates/names.js';
import { StateStore, stateDir } from '../state/store.js';
import type { HookContext } from './context.js';
import { PostEvent, PreToolUse } from './input.js';
import { silentResult, toWire, type HookAnswer, type HookName, type HookResult, type Respond } from './output.js';
import { handlePost } from './post.js';
import { handlePre } from './pre.js';
import { tooSmallToMatter } from './small.js';
import { pause, readStdin, SCAN_DEADLINE_MS } from './stdin.js';
import { appendTrace, traceLine, tracePath } from './trace.js';
import { agentTranscript } from './transcript.js';

/** Waiting for the session lock gives up here; a hook that cannot record its plan explains its clamp itself. */
export const LOCK_DEADLINE_MS = 8_500;
export { SCAN_DEADLINE_MS };

/** The gates switched on, and their code (dist/gates.cjs, loaded by cli.ts only when one is on). */
export interface Gates {
  on: ReadonlySet<Gate>;
  run: {
    respondWithGates(
      name: HookName, json: unknown, ctx: HookContext, on: ReadonlySet<Gate>, respond: Respond,
    ): HookResult;
  };
}

/** One hook run: its input read here, or already read by cli.ts (`input`), which answers the commonest Read, of a
 * small file, without loading this bundle. */
export function runHook(name: HookName, gates?: Gates, input?: { raw: string | undefined; started: number }): void {
  const started = input?.started ?? Date.now();
  process.exitCode = 0;
  // No gate on: `gate` has nothing to do, not even reading its input.
  if (name === 'gate' && !gates?.on.size) return;
  const raw = input ? input.raw : readStdin(started + SCAN_DEADLINE_MS);
  const ctx = contextFor(started);
  const trace = tracePath(process.env);
  let unsaved = 0;
  if (trace) {
    // Only when tracing: count the state writes the store refused (a full, read-only or foreign directory).
    const update = ctx.store.update.bind(ctx.store);
    ctx.store.update = (id, change) => {
      const saved = update(id, change);
      if (!saved) unsaved++;
      return saved;
    };
  }
  const run = raw === undefined ? { json: undefined, result: silentResult('no-input') } : decide(name, raw, ctx, gates);
  const out = printed(run.result);
  if (out) writeStdout(out);
  if (trace) appendTrace(trace, traceLine(name, run.json, run.result, started, Date.now(), unsaved));
}

/** Written straight to fd 1: process.stdout would load the network stack on every Read. A reader that went
 * away must not turn into an exit 1 with a stack trace. */
function writeStdout(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(1, bytes, done);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') { pause(); continue; }
      return;
    }
  }
}

/** Exactly what the hook prints for this stdin: one JSON line, or nothing. Never throws. */
export function answer(name: HookName, raw: string, ctx: HookContext, gates?: Gates): string {
  return printed(decide(name, raw, ctx, gates).result);
}

/** The parsed input (for the trace) and the outcome of one hook run. Never throws: a failure is a silence. */
function decide(name: HookName, raw: string, ctx: HookContext, gates?: Gates): { json: unknown; result: HookResult } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { json: undefined, result: silentResult('bad-json') };
  }
  try {
    const result = gates?.on.size
      ? gates.run.respondWithGates(name, json, ctx, gates.on, respond)
      : respond(name, json, ctx);
    return { json, result };
  } catch (err) {
    return { json, result: silentResult('error', err instanceof Error ? err.message.slice(0, 200) : undefined) };
  }
}

function printed(result: HookResult): string {
  try {
    return result.kind === 'silent' ? '' : `${JSON.stringify(toWire(result))}\n`;
  } catch {
    return '';
  }
}

/** The decision for one parsed hook input: an answer for the engine, or silence and why. */
export function respond(name: HookName, json: unknown, ctx: HookContext): HookResult {
  if (name === 'gate') return silentResult('no-gate-denied');
  if (name === 'pre') {
    // Most Reads are of small files: one stat answers them, before any parsing.
    if (tooSmallToMatter(json, ctx.env)) return silentResult('small-or-not-a-file');
    const event = PreToolUse.safeParse(json);
    if (!event.success) return silentResult('not-a-read-event');
    const decision = handlePre(inOwnTranscript(event.data), ctx);
    if ('pass' in decision) return silentResult(decision.pass);
    // Last line of the promise, whatever the handler computed: only `limit` lowered (and offset 0 → 1), or a window
    // from line 1 read whole.
    const input = event.data.tool_input;
    if (!onlyLowersLimit(input, decision.updatedInput) && !onlyReadsWhole(input, decision.updatedInput))
      return silentResult('unsafe-rewrite');
    // Never a permissionDecision: the pager rewrites the window, it grants nothing.
    const rewrite: HookAnswer = { kind: 'rewrite', updatedInput: decision.updatedInput };
    if (decision.additionalContext) rewrite.context = decision.additionalContext;
    return rewrite;
  }
  const event = PostEvent.safeParse(json);
  if (!event.success) return silentResult('not-a-read-event');
  const note = handlePost(inOwnTranscript(event.data), ctx);
  if (typeof note !== 'string') return silentResult(note.silent);
  return { kind: 'note', event: event.data.hook_event_name, context: note };
}

/** The event with the transcript of the conversation that made the call: a subagent's hooks are handed the session's
 * transcript, while its calls, their results and its requests' usage are written to its own. */
function inOwnTranscript<E extends PreToolUse | PostEvent>(event: E): E {
  const own = agentTranscript(event.transcript_path, event.session_id, event.agent_id);
  return own === event.transcript_path ? event : { ...event, transcript_path: own };
}

/** True when `next` is `input` with a positive integer `limit` no larger than the one asked (any, when none
 * was) and `offset` unchanged or 0 → 1; every other field the same value. */
export function onlyLowersLimit(input: Record<string, unknown>, next: Record<string, unknown>): boolean {
  const limit = next.limit;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) return false;
  if (typeof input.limit === 'number' && input.limit > 0 && limit > input.limit) return false;
  if (!(next.offset === input.offset || (input.offset === 0 && next.offset === 1))) return false;
  const { limit: _a, offset: _b, ...asked } = input;
  const { limit: _c, offset: _d, ...sent } = next;
  return sameFields(asked, sent);
}

/** True when `next` is `input`, a window from line 1 (`offset` absent, 0 or 1), with neither `offset` nor `limit`:
 * a read of the whole file, which the engine pages and never refuses under 256 KiB. Every other field the same. */
export function onlyReadsWhole(input: Record<string, unknown>, next: Record<string, unknown>): boolean {
  if (Object.hasOwn(next, 'limit') || Object.hasOwn(next, 'offset')) return false;
  if (typeof input.limit !== 'number' || !(input.offset === undefined || input.offset === 0 || input.offset === 1))
    return false;
  const { limit: _limit, offset: _offset, ...rest } = input;
  return sameFields(rest, next);
}

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (!Object.hasOwn(a, k) || !Object.hasOwn(b, k)) return false;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
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
