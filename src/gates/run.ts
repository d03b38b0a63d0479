// The opt-in gates (issue #8), reached only when one is switched on. Each decides from the hook input, the
// session state and the session transcript; none calls a model. The only blocking answer is a deny reason,
// returned to io.ts; anything unexpected means no answer.
import * as z from 'zod/mini';
import { regularFile, resolvedPath, type HookContext } from '../hooks/context.js';
import {
  mustReread, readRecord, wasRejected, wasSeen, withDenied, withoutReread, withRead, withRejectedCall, withRejectedEdit,
  withSeen, type SessionState,
} from '../state/session.js';
import type { Gate } from './names.js';
import {
  callHash, coveredReason, coveringReads, isFileEdit, rejectedReason, requestedLines, rereadReason, returnedLines, windowKey,
} from './rules.js';
import { agentTranscript, liveResults, readTail, toolUse, userRejections } from './transcript.js';

const ToolEvent = z.looseObject({
  session_id: z.string(),
  transcript_path: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  tool_name: z.string(),
  tool_use_id: z.string(),
  tool_input: z.record(z.string(), z.unknown()),
});
type ToolEvent = z.infer<typeof ToolEvent>;

const line = z.number().check(z.int(), z.nonnegative());
const ReadSuccess = z.looseObject({
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.literal('Read'),
  tool_input: z.looseObject({ file_path: z.string() }),
  tool_response: z.looseObject({ file: z.looseObject({ startLine: line, numLines: line, totalLines: line }) }),
});

/** PreToolUse (Read from `pre`, other tools from `gate`): the deny reason of the first gate that stops the
 * call, or undefined to let it go on. */
export function gateDeny(json: unknown, gates: ReadonlySet<Gate>, ctx: HookContext): string | undefined {
  const parsed = ToolEvent.safeParse(json);
  if (!parsed.success || (json as { hook_event_name?: unknown }).hook_event_name !== 'PreToolUse') return undefined;
  const event = parsed.data;
  const cwd = (json as { cwd?: unknown }).cwd;
  const isRead = event.tool_name === 'Read';
  const editPath = isFileEdit(event.tool_name) && typeof event.tool_input.file_path === 'string'
    ? resolvedPath(event.tool_input.file_path, cwd) : undefined;
  const rejections = gates.has('rejected-calls') || (gates.has('edit-after-reject') && editPath !== undefined);
  if (!rejections && !(gates.has('covered-reread') && isRead)) return undefined; // nothing here for this tool

  const transcript = agentTranscript(event.transcript_path, event.session_id, event.agent_id);
  const tail = rejections ? readTail(transcript) : undefined;
  const state = rejections ? takeInRejections(event, tail, gates, ctx, cwd) : ctx.store.read(event.session_id);

  if (gates.has('rejected-calls')) {
    // The engine's own record of this call when it has one, so both sides of the comparison have one form.
    const input = (tail && toolUse(tail, event.tool_use_id)?.input) ?? event.tool_input;
    if (wasRejected(state, callHash(event.tool_name, input))) return rejectedReason(event.tool_name);
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
  const parsed = ToolEvent.safeParse(json);
  const read = ReadSuccess.safeParse(json);
  if (!parsed.success || !read.success) return;
  const event = parsed.data;
  const cwd = (json as { cwd?: unknown }).cwd;
  const path = resolvedPath(read.data.tool_input.file_path, cwd);
  const file = regularFile(path, cwd);
  const lines = returnedLines(read.data.tool_response.file);
  const agent = event.agent_id ?? '';
  const tail = gates.has('edit-after-reject') ? readTail(agentTranscript(event.transcript_path, event.session_id, event.agent_id)) : undefined;
  ctx.store.update(event.session_id, (s) => {
    // A rejection not yet taken in came before this Read: take it in first, so this Read answers it.
    let next = tail !== undefined ? withRejections(s, tail, gates, ctx.now, cwd) : s;
    if (gates.has('edit-after-reject')) next = withoutReread(next, path);
    if (gates.has('covered-reread') && file && lines) {
      const { size, mtimeMs } = file.stat;
      next = withRead(next, agent, path, { size, mtimeMs, totalLines: read.data.tool_response.file.totalLines },
        { ...lines, toolUseId: event.tool_use_id, at: ctx.now });
    }
    return next;
  });
}

/** The session state with every user rejection in the transcript tail taken in once. */
function takeInRejections(event: ToolEvent, tail: string | undefined, gates: ReadonlySet<Gate>, ctx: HookContext, cwd: unknown): SessionState {
  const state = ctx.store.read(event.session_id);
  if (tail === undefined || !userRejections(tail).some((id) => !wasSeen(state, id))) return state;
  let after = state;
  const saved = ctx.store.update(event.session_id, (s) => (after = withRejections(s, tail, gates, ctx.now, cwd)));
  // Unsaved, the rejections still count for this call; the next hook takes them in again.
  return saved ? after : withRejections(state, tail, gates, ctx.now, cwd);
}

function withRejections(state: SessionState, tail: string, gates: ReadonlySet<Gate>, now: number, cwd: unknown): SessionState {
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

function coveredRead(event: ToolEvent, cwd: unknown, state: SessionState, transcript: string | undefined, ctx: HookContext): string | undefined {
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
  const live = liveResults(tail, record.ranges.map((r) => r.toolUseId));
  const cover = coveringReads(record.ranges.filter((r) => live.has(r.toolUseId)), want);
  if (!cover) return undefined;
  // Denied once only: without a record of this denial the next identical Read would be denied again.
  const saved = ctx.store.update(event.session_id, (s) => withDenied(s, agent, file.path, windowKey(want)));
  return saved ? coveredReason(filePath, want, cover) : undefined;
}
