// What the session transcript says about earlier calls: which the user rejected in the permission dialog, and
// which results the model still has in its conversation. Reading is bounded to the tail; parsing is pure and
// tolerant (the first line of a tail may be cut, and records the gates do not know are skipped).
import { readTailBytes } from '../hooks/transcript.js';
import { isRecord } from '../state/record.js';

/** Enough for the last few hundred calls; an older result counts as gone, so the covered-reread gate keeps quiet. */
export const TAIL_BYTES = 4 * 1024 * 1024;

/** The engine's text for a tool result it cleared from the conversation. */
const CLEARED = '[Old tool result content cleared]';
const PERSISTED = '<persisted-output>';

/** Rejections are taken in at the very next gated call, so they are always near the end. */
export const REJECTION_TAIL_BYTES = 1024 * 1024;

/** The last `bytes` of the transcript, and whether that is all of it; undefined when there is none to read. */
export function readTail(
  path: string | undefined, bytes = TAIL_BYTES,
): { text: string; fromStart: boolean } | undefined {
  const buf = readTailBytes(path, bytes);
  return buf && { text: buf.toString('utf8'), fromStart: buf.length < bytes };
}

/** tool_use_ids the user rejected in the permission dialog: the engine records the result with
 * permissionDecision {decision: "reject", source: "user_reject"}. A classifier's or a hook's denial has
 * another source and is not a user's rejection. */
export const USER_REJECT = '"user_reject"';

export function userRejections(jsonl: string): string[] {
  const ids: string[] = [];
  for (const record of linesHolding(jsonl, USER_REJECT)) {
    const r = record as {
      type?: unknown; permissionDecision?: { decision?: unknown; source?: unknown }; message?: { content?: unknown };
    };
    if (r.type !== 'user' || r.permissionDecision?.decision !== 'reject' || r.permissionDecision.source !== 'user_reject') continue;
    for (const b of blocks(r.message?.content)) if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') ids.push(b.tool_use_id);
  }
  return ids;
}

/** Of these tool_use_ids, those whose successful result the model still has: recorded after the last
 * compaction (full or micro), not cut from the conversation since (by the engine or the API), and not cleared or
 * replaced by a preview. `fromStart`: the text is the whole transcript, not a tail of it. */
export function liveResults(jsonl: string, toolUseIds: readonly string[], fromStart = false): Set<string> {
  const barrier = lastLossBarrier(jsonl);
  const cut = cutResults(jsonl);
  const cleared = apiClearedReads(jsonl, barrier, fromStart || barrier >= 0);
  const live = new Set<string>();
  if (cleared === 'all') return live;
  for (const id of toolUseIds) {
    if (cut.has(id) || cleared.has(id)) continue;
    const needle = `"tool_use_id":${JSON.stringify(id)}`;
    for (let at = jsonl.lastIndexOf(needle); at > barrier; at = at > 0 ? jsonl.lastIndexOf(needle, at - 1) : -1) {
      const { record, start } = lineAt(jsonl, at);
      const r = record as { type?: unknown; isCompactSummary?: unknown; message?: { content?: unknown } } | undefined;
      if (!r || r.type !== 'user' || start <= barrier) continue;
      const result = blocks(r.message?.content).find((b) => b.type === 'tool_result' && b.tool_use_id === id);
      if (!result) continue;
      const gone = textOf(result.content).some((t) => t.includes(CLEARED) || t.includes(PERSISTED));
      if (result.is_error !== true && !gone) live.add(id);
      break;
    }
  }
  return live;
}

/** tool_use_ids whose results the engine cut from the conversation it sends, keeping the records as they were: an
 * attachment record {"type":"tool_results_cut","callIds":[…],"standIn":"[Old tool result content cleared]"} (2.1.332
 * and 2.1.337 write it when they clear old results after a long idle). The cut comes after the results, so a result
 * still in the tail has its cut there too. */
export function cutResults(jsonl: string): Set<string> {
  const ids = new Set<string>();
  for (const record of linesHolding(jsonl, '"tool_results_cut"')) {
    const r = record as { type?: unknown; attachment?: { type?: unknown; callIds?: unknown } };
    if (r.type !== 'attachment' || r.attachment?.type !== 'tool_results_cut' || !Array.isArray(r.attachment.callIds)) continue;
    for (const id of r.attachment.callIds) if (typeof id === 'string') ids.add(id);
  }
  return ids;
}

const API_CLEARING = 'clear_tool_uses_20250919';

/**
 * Read tool_use_ids whose results the API cleared from the conversation. The engine can ask the API to clear old tool
 * results (a `clear_tool_uses_20250919` context-management edit, which 2.1.332 and 2.1.337 send on a return after
 * idle): past `trigger` tool uses the API clears all but the newest `keep`. The engine records each request's
 * parameters (an `api-request` record, written before the answer, so before the hooks of the calls in it) and keeps
 * the API's report on the answer (`message.context_management.applied_edits`, the oldest N cleared). Either is
 * enough. Which tools the API left out is not recorded, so every tool use counts toward the newest `keep`, and the
 * first N Reads stand for the N cleared: never fewer Reads than the API cleared. 'all' when the API reported clearing
 * but the text does not reach back to where the conversation starts (`conversationStart`: the text is the whole
 * transcript, or it holds a compaction `barrier`).
 */
export function apiClearedReads(jsonl: string, barrier: number, conversationStart: boolean): Set<string> | 'all' {
  const cleared = new Set<string>();
  if (!jsonl.includes(API_CLEARING, barrier + 1)) return cleared;
  const uses = toolUsesAfter(jsonl, barrier);

  // The last request sent, as the engine recorded it: a later request without the edit sees every result again.
  const request = lastRecordAfter(jsonl, '"type":"api-request"', barrier);
  const params = request?.record as
    { type?: unknown; params?: { context_management?: { edits?: unknown } } } | undefined;
  const edits = params?.type === 'api-request' ? params.params?.context_management?.edits : undefined;
  const edit = (Array.isArray(edits) ? edits : [])
    .find((e) => isRecord(e) && e.type === API_CLEARING) as Record<string, unknown> | undefined;
  if (edit && request) {
    const before = uses.filter((u) => u.at < request.start);
    const count = (x: unknown) => (isRecord(x) && x.type === 'tool_uses' && typeof x.value === 'number' && x.value >= 0 ? x.value : undefined);
    const keep = count(edit.keep) ?? 0;
    const trigger = count(edit.trigger) ?? 0; // a trigger in tokens: taken as reached
    if (!conversationStart || before.length > trigger) {
      for (const u of before.slice(0, Math.max(0, before.length - keep))) if (u.name === 'Read') cleared.add(u.id);
    }
  }

  // The API's own report on its last answer that made one.
  let reported = 0;
  for (
    let at = jsonl.lastIndexOf(API_CLEARING);
    at > barrier && reported === 0;
    at = at > 0 ? jsonl.lastIndexOf(API_CLEARING, at - 1) : -1
  ) {
    const { record, start } = lineAt(jsonl, at);
    if (start <= barrier) break;
    const r = record as { type?: unknown; message?: { context_management?: { applied_edits?: unknown } } } | undefined;
    const applied = r?.type === 'assistant' ? r.message?.context_management?.applied_edits : undefined;
    for (const e of Array.isArray(applied) ? applied : []) {
      if (isRecord(e) && e.type === API_CLEARING && typeof e.cleared_tool_uses === 'number' && e.cleared_tool_uses > 0) reported = Math.max(reported, e.cleared_tool_uses);
    }
    at = start;
  }
  if (reported > 0) {
    if (!conversationStart) return 'all';
    for (const u of uses.filter((x) => x.name === 'Read').slice(0, reported)) cleared.add(u.id);
  }
  return cleared;
}

/** Every tool_use in the assistant records after `barrier`, in order, with the offset of its record. */
function toolUsesAfter(jsonl: string, barrier: number): Array<{ id: string; name: unknown; at: number }> {
  const uses: Array<{ id: string; name: unknown; at: number }> = [];
  for (let at = jsonl.indexOf('"tool_use"', barrier + 1); at >= 0; at = jsonl.indexOf('"tool_use"', at + 1)) {
    const { record, start } = lineAt(jsonl, at);
    const r = record as { type?: unknown; message?: { content?: unknown } } | undefined;
    if (start > barrier && r?.type === 'assistant') {
      for (const b of blocks(r.message?.content)) if (b.type === 'tool_use' && typeof b.id === 'string') uses.push({ id: b.id, name: b.name, at: start });
    }
    const end = jsonl.indexOf('\n', at);
    if (end < 0) break;
    at = end; // on to the next record
  }
  return uses;
}

/** The last record holding `needle` that starts after `barrier`, parsed, with its offset. */
function lastRecordAfter(
  jsonl: string, needle: string, barrier: number,
): { record: unknown; start: number } | undefined {
  const at = jsonl.lastIndexOf(needle);
  if (at <= barrier) return undefined;
  const found = lineAt(jsonl, at);
  return found.start > barrier ? found : undefined;
}

/** Offset of the last record after which earlier results may be gone from the conversation: a compact or
 * microcompact boundary, or a compaction summary. -1 when the tail holds none. */
export function lastLossBarrier(jsonl: string): number {
  let best = -1;
  for (const needle of ['compact_boundary"', '"isCompactSummary":true']) {
    for (let at = jsonl.lastIndexOf(needle); at > best; at = at > 0 ? jsonl.lastIndexOf(needle, at - 1) : -1) {
      const { record, start } = lineAt(jsonl, at);
      const r = record as { type?: unknown; subtype?: unknown; isCompactSummary?: unknown } | undefined;
      if (r && ((r.type === 'system' && (r.subtype === 'compact_boundary' || r.subtype === 'microcompact_boundary')) || r.isCompactSummary === true)) {
        best = Math.max(best, start);
        break;
      }
    }
  }
  return best;
}

/** The parsed JSONL records whose line contains `needle`, last first when `fromEnd`. */
function linesHolding(jsonl: string, needle: string, fromEnd = false): unknown[] {
  const out: unknown[] = [];
  let seenStart = -1;
  for (let at = jsonl.lastIndexOf(needle); at >= 0; at = at > 0 ? jsonl.lastIndexOf(needle, at - 1) : -1) {
    const { record, start } = lineAt(jsonl, at);
    if (start === seenStart) continue;
    seenStart = start;
    if (record !== undefined) out.push(record);
    if (start === 0) break;
    at = start; // the next search starts before this line
  }
  return fromEnd ? out : out.reverse();
}

function lineAt(jsonl: string, at: number): { record: unknown; start: number } {
  const start = jsonl.lastIndexOf('\n', at) + 1;
  const nl = jsonl.indexOf('\n', at);
  try {
    return { record: JSON.parse(jsonl.slice(start, nl < 0 ? jsonl.length : nl)), start };
  } catch {
    return { record: undefined, start }; // the tail's first line may be cut
  }
}

function blocks(content: unknown): Record<string, unknown>[] {
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

function textOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  return blocks(content).map((b) => (typeof b.text === 'string' ? b.text : ''));
}
