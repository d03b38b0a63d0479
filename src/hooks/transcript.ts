// The model's own tool input, read back from the session transcript. The post hooks see only the input that
// ran; when another hook shortened a window, the transcript still holds what the model asked for (the engine
// writes the assistant's tool_use line while the call runs: a hook may have to wait for it, `callOnceWritten`).
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRecord } from '../state/record.js';
import { isEngineVersion } from './engine-version.js';
import { PREFIX } from './note.js';

/** The tool_use is among the last lines written: the tail is enough, whatever the transcript's size. */
const TAIL_BYTES = 1024 * 1024;

/** The model's own input for a call: its record, waited for when it may yet come (`callOnceWritten`). */
export function modelInput(transcriptPath: unknown, toolUseId: string): Record<string, unknown> | undefined {
  return callOnceWritten(transcriptPath, toolUseId)?.input;
}

/** How long a hook waits, at most, for the record of the model's reply that made its call. The engine writes it while
 * the call runs, not before its hooks (docs/ENGINE.md §9.1): on the real engine (2.1.332) `pre` starts 50-60 ms before
 * it lands (until `pre` waited for it, the second window of every file in `e2e/whole-oracle.test.ts` was sized by the
 * estimate, as if no usage had been recorded), and a Read the engine does not count (no count_tokens request) can
 * end, and its post hooks start, before it lands too: a hook that read the transcript at once missed it for 10 of 12
 * such Reads, the pager's `post` for 1 of 24. */
export const CALL_RECORD_WAIT_MS = 500;
const CALL_RECORD_POLL_MS = 10;

/** The model's call `toolUseId` once the transcript holds it, polled for up to `CALL_RECORD_WAIT_MS`; undefined
 * when it did not come in that time. */
export function awaitModelCall(transcriptPath: string, toolUseId: string): ModelCall | undefined {
  const until = Date.now() + CALL_RECORD_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const call = modelCall(transcriptPath, toolUseId);
    if (call !== undefined || Date.now() >= until) return call;
    Atomics.wait(pause, 0, 0, CALL_RECORD_POLL_MS);
  }
}

/** The model's call `toolUseId`, waited for (`awaitModelCall`) when the transcript holds the conversation but not
 * this call yet: its record is on its way. A transcript that holds no message (kept elsewhere, or not written) is not
 * waited on, nor one not there at all: the engine creates it with the session's first call's record, so that call's
 * hooks cannot tell whether one is coming. */
export function callOnceWritten(transcriptPath: unknown, toolUseId: string): ModelCall | undefined {
  if (typeof transcriptPath !== 'string') return undefined;
  const tail = readTailBytes(transcriptPath, TAIL_BYTES)?.toString('utf8');
  if (tail === undefined) return undefined;
  const call = findToolUse(tail, toolUseId);
  if (call !== undefined || !/"type":"(?:user|assistant)"/.test(tail)) return call;
  return awaitModelCall(transcriptPath, toolUseId);
}

/** The model's own tool_use input, and the name of the model that wrote it (its counts are the ones the engine
 * checks against the cap). */
export function modelCall(transcriptPath: unknown, toolUseId: string): ModelCall | undefined {
  if (typeof transcriptPath !== 'string') return undefined;
  const tail = readTailBytes(transcriptPath, TAIL_BYTES);
  return tail ? findToolUse(tail.toString('utf8'), toolUseId) : undefined;
}

export interface ModelCall {
  name: string;
  input: Record<string, unknown>;
  model: string | undefined;
  /** The id of the model's message: parallel calls share it. */
  messageId?: string;
  /** Which conversation made the call: the session's, or a subagent's (`conversationOf`). */
  conversation: string | undefined;
}

/** The conversation a record belongs to: a subagent's records are marked `isSidechain`, with its `agentId`; its own
 * transcript holds only those, and older engines wrote them into the session's too. Undefined for a subagent's
 * record without its id: parallel subagents' records could not be told apart. */
function conversationOf(record: Record<string, unknown>): string | undefined {
  if (record.isSidechain !== true) return 'session';
  return typeof record.agentId === 'string' ? `agent ${record.agentId}` : undefined;
}

/** A subagent's own transcript (<session dir>/subagents/agent-<id>.jsonl) when the engine keeps one, else the
 * session's: a subagent's results live in its own file. */
export function agentTranscript(
  transcriptPath: string | undefined, sessionId: string, agentId: string | undefined,
): string | undefined {
  if (!transcriptPath || !agentId || !/^[A-Za-z0-9_-]{1,128}$/.test(agentId) || !/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) return transcriptPath;
  const own = join(dirname(transcriptPath), sessionId, 'subagents', `agent-${agentId}.jsonl`);
  try {
    return statSync(own).isFile() ? own : transcriptPath;
  } catch {
    return transcriptPath;
  }
}

/** The transcript's size in bytes, or undefined when it is not a regular file: what tells that records were added
 * since it was read. */
export function transcriptSize(path: unknown): number | undefined {
  if (typeof path !== 'string' || path.includes('\0')) return undefined;
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : undefined;
  } catch {
    return undefined;
  }
}

/** The last `bytes` of a file (never a FIFO or a device), undecoded, or undefined when there is none to read. */
export function readTailBytes(path: string | undefined, bytes: number): Buffer | undefined {
  if (!path || path.includes('\0')) return undefined;
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return undefined;
      const length = Math.min(st.size, bytes);
      const buf = Buffer.allocUnsafe(length);
      const n = readSync(fd, buf, 0, length, st.size - length);
      return buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** The engine's version as the transcript's newest records name it (`"version"` on each conversation record), for an
 * engine that does not put it in its hooks' environment (engine-version.ts). */
export function transcriptEngineVersion(transcriptPath: unknown): string | undefined {
  if (typeof transcriptPath !== 'string') return undefined;
  const tail = readTailBytes(transcriptPath, VERSION_TAIL_BYTES);
  return tail ? engineVersionIn(tail.toString('utf8')) : undefined;
}

/** Enough for the newest few records; a record longer than this (a large result) leaves the version unknown. */
const VERSION_TAIL_BYTES = 256 * 1024;
const VERSION_RECORDS = 20;

/** The `version` of the newest whole record that has one, among the last `VERSION_RECORDS` lines. Pure. */
export function engineVersionIn(jsonl: string): string | undefined {
  // The first line of a tail may be cut: then it does not parse (a record's suffix ends with its outer brace too).
  const lines = jsonl.split('\n').slice(-VERSION_RECORDS);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!line.includes('"version"')) continue;
    try {
      const record: unknown = JSON.parse(line);
      if (isRecord(record) && isEngineVersion(record.version)) return record.version;
    } catch {
      // a record being written, or not JSON: the one before may tell
    }
  }
  return undefined;
}

/** The input of the tool_use block with this id, in the last JSONL line that holds it. Pure. */
export function findToolInput(jsonl: string, toolUseId: string): Record<string, unknown> | undefined {
  return findToolUse(jsonl, toolUseId)?.input;
}

/** The tool_use block with this id (name and input as the engine recorded them) and its record's model, from the
 * last assistant record in the JSONL that holds it. Pure; the post hook and the gates both read calls back this way. */
export function findToolUse(jsonl: string, toolUseId: string): ModelCall | undefined {
  const needle = `"id":${JSON.stringify(toolUseId)}`;
  let at = jsonl.lastIndexOf(needle);
  while (at >= 0) {
    const start = jsonl.lastIndexOf('\n', at) + 1;
    const endNl = jsonl.indexOf('\n', at);
    const line = jsonl.slice(start, endNl < 0 ? jsonl.length : endNl);
    const input = toolUseIn(line, toolUseId);
    if (input) return input;
    at = start > 0 ? jsonl.lastIndexOf(needle, start - 1) : -1;
  }
  return undefined;
}

function toolUseIn(line: string, toolUseId: string): ModelCall | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined; // the first line of the tail may be cut
  }
  if (!isRecord(record) || record.type !== 'assistant' || !isRecord(record.message)) return undefined;
  const { content, model, id } = record.message;
  if (!Array.isArray(content)) return undefined;
  for (const b of content) {
    if (isRecord(b) && b.type === 'tool_use' && b.id === toolUseId && typeof b.name === 'string' && isRecord(b.input)) {
      const call: ModelCall = {
        name: b.name,
        input: b.input,
        model: typeof model === 'string' ? model : undefined,
        conversation: conversationOf(record),
      };
      if (typeof id === 'string') call.messageId = id;
      return call;
    }
  }
  return undefined;
}

/** The inputs of every other Read call the model made in this JSONL: earlier ones, and the parallel ones of the same
 * message (the engine writes one assistant record per tool_use). Pure. */
export function otherReads(jsonl: string, toolUseId: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let lastStart = -1;
  for (let at = jsonl.indexOf('"name":"Read"'); at >= 0; at = jsonl.indexOf('"name":"Read"', at + 1)) {
    const start = jsonl.lastIndexOf('\n', at) + 1;
    if (start === lastStart) continue; // a record with several Reads is read once
    lastStart = start;
    const record = recordAt(jsonl, at);
    if (!isRecord(record) || record.type !== 'assistant' || !isRecord(record.message)) continue;
    if (!Array.isArray(record.message.content)) continue;
    for (const b of record.message.content) {
      if (isRecord(b) && b.type === 'tool_use' && b.name === 'Read' && b.id !== toolUseId && isRecord(b.input)) out.push(b.input);
    }
  }
  return out;
}

/** The model's other Reads (earlier ones, and those of the same message), from the tail of the session transcript. */
export function otherReadsIn(transcriptPath: unknown, toolUseId: string): Record<string, unknown>[] {
  if (typeof transcriptPath !== 'string') return [];
  const tail = readTailBytes(transcriptPath, TAIL_BYTES);
  return tail ? otherReads(tail.toString('utf8'), toolUseId) : [];
}

/** The engine's count of a whole file, from the banner of its partial page: a `read_truncation_notice` attachment
 * the engine writes after the post hooks of that Read ran (2.1.205 and later), or, on older engines, a
 * `<system-reminder>` at the head of the Read's own tool_result record. Pure. */
export function findBannerCount(jsonl: string, toolUseId: string): BannerCount | undefined {
  const banner = attachedBanner(jsonl, toolUseId) ?? resultBanner(jsonl, toolUseId);
  if (banner === undefined) return undefined;
  const m = /\((\d+) tokens, cap (\d+)\)/.exec(banner);
  if (!m) return undefined;
  const shown = /showing lines (\d+)-(\d+) of (\d+) total/.exec(banner);
  return {
    tokens: Number(m[1]),
    cap: Number(m[2]),
    model: findToolUse(jsonl, toolUseId)?.model,
    banner,
    ...(shown ? { page: { first: Number(shown[1]), lines: Number(shown[2]) - Number(shown[1]) + 1 } } : {}),
  };
}

function attachedBanner(jsonl: string, toolUseId: string): string | undefined {
  const needle = `"toolUseID":${JSON.stringify(toolUseId)}`;
  for (let at = jsonl.lastIndexOf(needle); at >= 0; at = at > 0 ? jsonl.lastIndexOf(needle, at - 1) : -1) {
    const record = recordAt(jsonl, at);
    const a = (record as { attachment?: { type?: unknown; toolUseID?: unknown; banner?: unknown } } | null)?.attachment;
    if (a?.type === 'read_truncation_notice' && a.toolUseID === toolUseId && typeof a.banner === 'string') return a.banner;
  }
  return undefined;
}

/** Where an engine before 2.1.205 put the banner: the head of the result, before the first numbered line, so no
 * text of the file can stand there. */
const RESULT_BANNER = /^<system-reminder>(\[Truncated: PARTIAL view [^\n]*?\])<\/system-reminder>\n/;

function resultBanner(jsonl: string, toolUseId: string): string | undefined {
  const needle = `"tool_use_id":${JSON.stringify(toolUseId)}`;
  for (let at = jsonl.lastIndexOf(needle); at >= 0; at = at > 0 ? jsonl.lastIndexOf(needle, at - 1) : -1) {
    const record = recordAt(jsonl, at);
    if (!isRecord(record) || record.type !== 'user' || !isRecord(record.message)) continue;
    const content = record.message.content;
    if (!Array.isArray(content)) continue;
    for (const b of content) {
      if (!isRecord(b) || b.type !== 'tool_result' || b.tool_use_id !== toolUseId) continue;
      const first = Array.isArray(b.content) ? b.content[0] : b.content;
      const text = typeof first === 'string' ? first : isRecord(first) && typeof first.text === 'string' ? first.text : undefined;
      const m = text === undefined ? null : RESULT_BANNER.exec(text);
      if (m) return m[1];
    }
  }
  return undefined;
}

export interface BannerCount {
  tokens: number;
  cap: number;
  /** The model whose Read it was. */
  model: string | undefined;
  /** The banner itself: the model reads it with the page (before 2.1.205, at the head of the result). */
  banner: string;
  /** The lines the page showed, where the banner names them (not for a character excerpt). */
  page?: { first: number; lines: number };
}

/** The banner count of a partial page, read from the session transcript. */
export function bannerCount(transcriptPath: unknown, toolUseId: string): BannerCount | undefined {
  if (typeof transcriptPath !== 'string') return undefined;
  const tail = readTailBytes(transcriptPath, TAIL_BYTES);
  return tail ? findBannerCount(tail.toString('utf8'), toolUseId) : undefined;
}

/** The JSONL record on the line that holds index `at`, or undefined when that line is not whole JSON (the first
 * line of a tail may be cut). */
function recordAt(jsonl: string, at: number): unknown {
  const start = jsonl.lastIndexOf('\n', at) + 1;
  const endNl = jsonl.indexOf('\n', at);
  try {
    return JSON.parse(jsonl.slice(start, endNl < 0 ? jsonl.length : endNl));
  } catch {
    return undefined;
  }
}

/** What the model's next API request added to its input after a tool call, in the model's own tokens: the input
 * of the request that carried the call's result, less the input of the request that made the call and less what
 * that request wrote back (its text and tool calls; not its thinking, which may not be sent again). That is the
 * result as the model saw it, plus whatever else joined it (reminders, hook notes): never less than the result.
 * Undefined unless the call was its message's only one, its result the next message's only one, and nothing
 * between them shrank the conversation (a compaction, or the API clearing old results). Pure. */
export function findResultTokens(jsonl: string, toolUseId: string): ResultTokens | undefined {
  const call = findToolUse(jsonl, toolUseId);
  const calling = call?.conversation !== undefined ? callingRequest(jsonl, call) : undefined;
  if (!call || !calling) return undefined;
  const { before, from } = calling;
  let read = from;
  const otherNotes: string[] = [];
  const ownNotes: string[] = [];
  for (const line of jsonl.slice(from + 1).split('\n')) {
    read += line.length + 1;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(record) || conversationOf(record) !== call.conversation) continue;
    otherNotes.push(...notesOfOtherHooks(record));
    ownNotes.push(...ownNotesIn(record, toolUseId));
    if (record.type === 'user' && isRecord(record.message) && Array.isArray(record.message.content)) {
      const other = record.message.content.some(
        (b) => isRecord(b) && b.type === 'tool_result' && b.tool_use_id !== toolUseId,
      );
      if (other) return undefined;
    }
    const message = assistantMessage(record);
    if (!message || message.id === call.messageId) continue;
    // A compaction, or old results cut by the engine or cleared by the API, in between: the request shrank.
    if (SHRINKS.some((mark) => jsonl.slice(from, read).includes(mark))) return undefined;
    const edits = isRecord(message.context_management) ? message.context_management.applied_edits : undefined;
    if (Array.isArray(edits) && edits.length > 0) return undefined;
    const after = usageOf(message.usage);
    if (!after) return undefined;
    const added = after.input - before.input - before.written;
    return added > 0 ? { tokens: added, model: call.model, otherNotes, ownNotes } : undefined;
  }
  return undefined;
}

/** The notes of hooks other than ours in an attachment record, each as the model reads it, after the engine's framing
 * (docs/ENGINE.md §7.4, §9.5). Ours are left out: each is one line that starts with `PREFIX`, and the margins were
 * measured with their tokens in the usage (usage.ts, `otherNotesTokens`). The record holds what the model read: a
 * hook's note over 10,000 characters as the engine's `<persisted-output>` preview of it (2.1.332, 2.1.337). A record
 * over that (`PREVIEWED_NOTE_CHARS`, its notes together) is left in: not all of it may have been read. */
function notesOfOtherHooks(record: Record<string, unknown>): string[] {
  const a = record.type === 'attachment' && isRecord(record.attachment) ? record.attachment : undefined;
  if (a?.type !== 'hook_additional_context') return [];
  const hook = typeof a.hookName === 'string' ? a.hookName : '';
  const parts = Array.isArray(a.content) ? a.content : [a.content];
  const texts = parts.filter((p): p is string => typeof p === 'string');
  if (texts.reduce((n, p) => n + p.length, 0) > PREVIEWED_NOTE_CHARS) return [];
  const others = texts
    .map((p) => p.split('\n').filter((line) => !line.startsWith(PREFIX)).join('\n'))
    .filter((p) => p.trim() !== '');
  return others.map((p) => `${hook} hook additional context: ${p}`);
}

/** Our own notes on the call `toolUseId` in an attachment record, and the engine's banner of its partial page. */
function ownNotesIn(record: Record<string, unknown>, toolUseId: string): string[] {
  const a = record.type === 'attachment' && isRecord(record.attachment) ? record.attachment : undefined;
  if (!a || a.toolUseID !== toolUseId) return [];
  if (a.type === 'read_truncation_notice') return typeof a.banner === 'string' ? [a.banner] : [];
  if (a.type !== 'hook_additional_context') return [];
  const parts = Array.isArray(a.content) ? a.content : [a.content];
  return parts
    .filter((p): p is string => typeof p === 'string')
    .flatMap((p) => p.split('\n').filter((line) => line.startsWith(PREFIX)));
}

/** Over this many characters, a hook's note reaches the model as a saved file and a preview (docs/ENGINE.md 7.4). */
const PREVIEWED_NOTE_CHARS = 10_000;

/** The usage of the request that made the call, and where its message's last record ends; undefined unless the
 * call was its message's only one and the record carries a usage. */
function callingRequest(jsonl: string, call: ModelCall): { before: Usage; from: number } | undefined {
  if (call.messageId === undefined) return undefined;
  const messageNeedle = `"id":${JSON.stringify(call.messageId)}`;
  let calls = 0;
  let before: Usage | undefined;
  let from = -1;
  for (let at = jsonl.indexOf(messageNeedle); at >= 0; at = jsonl.indexOf(messageNeedle, at + 1)) {
    const message = assistantMessage(recordAt(jsonl, at));
    if (message?.id !== call.messageId) continue;
    calls += message.content.filter((b) => isRecord(b) && b.type === 'tool_use').length;
    before = usageOf(message.usage) ?? before;
    from = Math.max(from, jsonl.indexOf('\n', at));
  }
  return calls === 1 && before && before.input > 0 && from >= 0 ? { before, from } : undefined;
}

/** Every request the engine sends holds its system prompt and tool definitions, thousands of tokens: a usage below
 * this is not the API's (a stand-in that counts nothing reports 10). */
const LEAST_REQUEST_INPUT = 1000;

/** Whether the model's next request will tell what this call's result added (`findResultTokens`): the engine
 * records the API's usage, and the call was its message's only one. Pure. */
export function findUsageToCome(jsonl: string, toolUseId: string): boolean {
  const call = findToolUse(jsonl, toolUseId);
  const calling = call?.conversation !== undefined ? callingRequest(jsonl, call) : undefined;
  return calling !== undefined && calling.before.input >= LEAST_REQUEST_INPUT;
}

/** `findUsageToCome`, from the session transcript. */
export function usageToCome(transcriptPath: unknown, toolUseId: string): boolean {
  if (typeof transcriptPath !== 'string') return false;
  const tail = readTailBytes(transcriptPath, TAIL_BYTES);
  return tail ? findUsageToCome(tail.toString('utf8'), toolUseId) : false;
}

export interface ResultTokens {
  tokens: number;
  /** The model that made the call: whose tokens these are. */
  model: string | undefined;
  /** Other hooks' notes that joined the result in the next request, as the model reads them (after the engine's
   * framing): their tokens are in `tokens` too. Not ours (`notesOfOtherHooks`). */
  otherNotes: string[];
  /** Our own notes on this call, and the engine's banner when the result was a partial page (2.1.205 and later;
   * before, the banner is in the result): their tokens are in `tokens` too. */
  ownNotes: string[];
}

const SHRINKS = ['"tool_results_cut"', 'clear_tool_uses', 'compact_boundary'];

/** The result tokens of a tool call, read from the session transcript. */
export function resultTokens(transcriptPath: unknown, toolUseId: string): ResultTokens | undefined {
  if (typeof transcriptPath !== 'string') return undefined;
  const tail = readTailBytes(transcriptPath, TAIL_BYTES);
  return tail ? findResultTokens(tail.toString('utf8'), toolUseId) : undefined;
}

interface Usage {
  /** The whole input of the request, cached or not. */
  input: number;
  /** What the reply wrote that the next request sends back: its output less its thinking. */
  written: number;
}

function usageOf(u: unknown): Usage | undefined {
  if (!isRecord(u)) return undefined;
  const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  const input = n(u.input_tokens);
  const output = n(u.output_tokens);
  if (input === undefined || output === undefined) return undefined;
  const thinking = isRecord(u.output_tokens_details) ? (n(u.output_tokens_details.thinking_tokens) ?? 0) : 0;
  return {
    input: input + (n(u.cache_creation_input_tokens) ?? 0) + (n(u.cache_read_input_tokens) ?? 0),
    written: Math.max(0, output - thinking),
  };
}

function assistantMessage(
  record: unknown,
): { id: unknown; content: unknown[]; usage: unknown; context_management: unknown } | undefined {
  if (!isRecord(record) || record.type !== 'assistant' || !isRecord(record.message)) return undefined;
  const m = record.message;
  return Array.isArray(m.content)
    ? { id: m.id, content: m.content, usage: m.usage, context_management: m.context_management }
    : undefined;
}
