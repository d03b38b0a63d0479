// The opt-in gates (issue #8), reached only when one is switched on. Each decides from the hook input, the
// session state and the session transcript; none calls a model. The only blocking answer is a deny reason,
// returned to io.ts; anything unexpected means no answer.
import { regularFile, resolvedPath, type HookContext } from '../hooks/context.js';
import { silentResult, type HookName, type HookResult, type Respond } from '../hooks/output.js';
import { agentTranscript, findToolUse as toolUse, readTailBytes } from '../hooks/transcript.js';
import { isRecord } from '../state/record.js';
import type { SessionState } from '../state/session.js';
import type { Gate } from './names.js';
import {
  callHash, coveredReason, coveringReads, isFileEdit, rejectedReason, requestedLines, rereadReason, returnedLines,
  windowKey,
} from './rules.js';
import {
  anyRejected, mustReread, readRecord, wasRejected, wasSeen, withDenied, withoutReread, withRead, withRejectedCall,
  withRejectedEdit, withSeen,
} from './state.js';
import {
  liveResults, readTail, REJECTION_TAIL_BYTES, USER_REJECT, userRejections,
} from './transcript.js';

export { hookGates } from './names.js';
export { GATE_MATCHER, needsGateHook, parseGateList, withGateHook } from './install.js';

/** With a gate on: a gate's deny wins over everything (the pager's clamp included); otherwise the pager answers
 * as it does with no gate (`respond`). A gate that fails says nothing, and the pager still answers. */
export function respondWithGates(
  name: HookName, json: unknown, ctx: HookContext, on: ReadonlySet<Gate>, respond: Respond,
): HookResult {
  if (name === 'pre' || name === 'gate') {
    let reason: string | undefined;
    try {
      reason = gateDeny(json, on, ctx);
    } catch {
      reason = undefined;
    }
    // Never "allow": a deny with its reason is the only blocking answer the project sends (docs/ENGINE.md §7.6).
    if (reason) return { kind: 'deny', reason };
    return name === 'gate' ? silentResult('no-gate-denied') : respond(name, json, ctx);
  }
  const out = respond(name, json, ctx);
  try {
    gateAfterRead(json, on, ctx);
  } catch { /* the pager's note still goes out */ }
  return out;
}

/** The fields of a tool hook input the gates use; checked by hand (no schema library in the gates' bundle). */
interface ToolEvent {
  session_id: string;
  transcript_path?: string;
  agent_id?: string;
  cwd?: unknown;
  hook_event_name: string;
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

function toolEvent(json: unknown): ToolEvent | undefined {
  if (!isRecord(json)) return undefined;
  const e = json;
  if (typeof e.session_id !== 'string' || typeof e.tool_name !== 'string' || typeof e.tool_use_id !== 'string'
    || typeof e.hook_event_name !== 'string' || !isRecord(e.tool_input)) return undefined;
  if ((e.transcript_path !== undefined && typeof e.transcript_path !== 'string') || (e.agent_id !== undefined && typeof e.agent_id !== 'string')) return undefined;
  return e as unknown as ToolEvent;
}

/** Lines a successful Read returned, as PostToolUse reports them. Only a text result carries the lines
 * themselves: an image, a notebook or an "unchanged since last read" stub (in the engine's code) does not. */
function readFile(
  event: ToolEvent, json: Record<string, unknown>,
): { filePath: string; startLine: number; numLines: number; totalLines: number } | undefined {
  const response = json.tool_response;
  const file = isRecord(response) && response.type === 'text' && isRecord(response.file) ? response.file : undefined;
  const filePath = event.tool_input.file_path;
  if (!file || typeof filePath !== 'string') return undefined;
  const { startLine, numLines, totalLines } = file;
  if (![startLine, numLines, totalLines].every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0)) return undefined;
  return { filePath, startLine: startLine as number, numLines: numLines as number, totalLines: totalLines as number };
}

/** PreToolUse (Read from `pre`, other tools from `gate`): the deny reason of the first gate that stops the
 * call, or undefined to let it go on. */
export function gateDeny(json: unknown, gates: ReadonlySet<Gate>, ctx: HookContext): string | undefined {
  const event = toolEvent(json);
  if (!event || event.hook_event_name !== 'PreToolUse') return undefined;
  const cwd = event.cwd;
  const isRead = event.tool_name === 'Read';
  const editPath = isFileEdit(event.tool_name) && typeof event.tool_input.file_path === 'string'
    ? resolvedPath(event.tool_input.file_path, cwd) : undefined;
  const rejections = gates.has('rejected-calls') || (gates.has('edit-after-reject') && editPath !== undefined);
  if (!rejections && !(gates.has('covered-reread') && isRead)) return undefined; // nothing here for this tool

  const transcript = agentTranscript(event.transcript_path, event.session_id, event.agent_id);
  let state = ctx.store.read(event.session_id);
  if (rejections) {
    // Most calls follow no rejection: one search of the undecoded tail settles it.
    const bytes = readTailBytes(transcript, REJECTION_TAIL_BYTES);
    let tail: string | undefined;
    if (bytes?.includes(USER_REJECT)) {
      tail = bytes.toString('utf8');
      state = takeInRejections(event, tail, gates, ctx, cwd, state);
    }
    if (gates.has('rejected-calls') && anyRejected(state)) {
      tail ??= bytes?.toString('utf8');
      // The engine's own record of this call when it has one, so both sides of the comparison have one form.
      const input = (tail && toolUse(tail, event.tool_use_id)?.input) ?? event.tool_input;
      if (wasRejected(state, callHash(event.tool_name, input))) return rejectedReason(event.tool_name);
    }
  }
  if (gates.has('edit-after-reject') && editPath !== undefined && mustReread(state, editPath)) {
    return rereadReason(event.tool_name, event.tool_input.file_path as string);
  }
  if (gates.has('covered-reread') && isRead) {
    return coveredRead(event, cwd, state, transcript, ctx);
  }
  return undefined;
}

/** PostToolUse on Read: remember the lines it returned (covered-reread), and let the file be edited again
 * (edit-after-reject). Never answers. */
export function gateAfterRead(json: unknown, gates: ReadonlySet<Gate>, ctx: HookContext): void {
  if (!gates.has('covered-reread') && !gates.has('edit-after-reject')) return;
  const event = toolEvent(json);
  if (!event || event.hook_event_name !== 'PostToolUse' || event.tool_name !== 'Read') return;
  const read = readFile(event, json as Record<string, unknown>);
  if (!read) return;
  const cwd = event.cwd;
  const path = resolvedPath(read.filePath, cwd);
  const file = regularFile(path, cwd);
  const lines = returnedLines(read);
  const agent = event.agent_id ?? '';
  const bytes = gates.has('edit-after-reject')
    ? readTailBytes(agentTranscript(event.transcript_path, event.session_id, event.agent_id), REJECTION_TAIL_BYTES)
    : undefined;
  const tail = bytes?.includes(USER_REJECT) ? bytes.toString('utf8') : undefined;
  ctx.store.update(event.session_id, (s) => {
    // A rejection not yet taken in came before this Read: take it in first, so this Read answers it.
    let next = tail !== undefined ? withRejections(s, tail, gates, ctx.now, cwd) : s;
    if (gates.has('edit-after-reject')) next = withoutReread(next, path);
    if (gates.has('covered-reread') && file && lines) {
      const { size, mtimeMs } = file.stat;
      next = withRead(next, agent, path, { size, mtimeMs, totalLines: read.totalLines },
        { ...lines, toolUseId: event.tool_use_id, at: ctx.now });
    }
    return next;
  });
}

/** The session state with every user rejection in the transcript tail taken in once. */
function takeInRejections(
  event: ToolEvent, tail: string, gates: ReadonlySet<Gate>, ctx: HookContext, cwd: unknown, state: SessionState,
): SessionState {
  if (!userRejections(tail).some((id) => !wasSeen(state, id))) return state;
  let after = state;
  const saved = ctx.store.update(event.session_id, (s) => (after = withRejections(s, tail, gates, ctx.now, cwd)));
  // Unsaved, the rejections still count for this call; the next hook takes them in again.
  return saved ? after : withRejections(state, tail, gates, ctx.now, cwd);
}

function withRejections(
  state: SessionState, tail: string, gates: ReadonlySet<Gate>, now: number, cwd: unknown,
): SessionState {
  const fresh = userRejections(tail).filter((id) => !wasSeen(state, id));
  if (fresh.length === 0) return state;
  let next = state;
  for (const id of fresh) {
    const call = toolUse(tail, id);
    if (!call) continue;
    if (gates.has('rejected-calls')) next = withRejectedCall(next, callHash(call.name, call.input), now);
    if (gates.has('edit-after-reject') && isFileEdit(call.name) && typeof call.input.file_path === 'string') {
      next = withRejectedEdit(next, resolvedPath(call.input.file_path, cwd), now);
    }
  }
  return withSeen(next, fresh, now);
}

function coveredRead(
  event: ToolEvent, cwd: unknown, state: SessionState, transcript: string | undefined, ctx: HookContext,
): string | undefined {
  const filePath = event.tool_input.file_path;
  if (typeof filePath !== 'string') return undefined;
  const file = regularFile(filePath, cwd);
  if (!file) return undefined;
  const agent = event.agent_id ?? '';
  const record = readRecord(state, agent, file.path, file.stat.size, file.stat.mtimeMs);
  if (!record) return undefined;
  const want = requestedLines(event.tool_input, record.totalLines);
  if (!want || record.denied.includes(windowKey(want)) || !coveringReads(record.ranges, want)) return undefined;
  // Covered on record; now only by results the model still has.
  const tail = readTail(transcript);
  if (tail === undefined) return undefined;
  const live = liveResults(tail.text, record.ranges.map((r) => r.toolUseId), tail.fromStart);
  const cover = coveringReads(record.ranges.filter((r) => live.has(r.toolUseId)), want);
  if (!cover) return undefined;
  // Denied once only: without a record of this denial the next identical Read would be denied again.
  const saved = ctx.store.update(event.session_id, (s) => withDenied(s, agent, file.path, windowKey(want)));
  return saved ? coveredReason(filePath, want, cover) : undefined;
}
