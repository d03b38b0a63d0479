// One transcript line in, the facts the census needs out. Pure. Shapes verified on Claude Code 2.1.337 (see
// test/audit/ and the audit tests): a Read is an assistant `tool_use`; its outcome is the user `tool_result` plus the
// record's `toolUseResult`; the PARTIAL banner is an `attachment` of type `read_truncation_notice`; a hook's printed
// JSON is an `attachment` `hook_success` (stdout); a hook's context is an `attachment` `hook_additional_context`.
// `api-request-blob` records repeat the same texts as sent to the API and are deliberately ignored.
import { notLines } from '../hooks/request.js';
import { isRecord as isObject } from '../state/record.js';

/** The model's Read input, coerced the way the engine coerces it (docs/ENGINE.md §1). */
export interface ReadWindow {
  path: string;
  /** First line, 1-based (offset 0 and absent both start at line 1). */
  first: number;
  /** Line count, or undefined for "to the end of the file". */
  lines: number | undefined;
  /** `pages` (PDF), `allow_large`, or an image, PDF or notebook, which the engine does not read as lines: not a
   * plain text window. */
  special: boolean;
  /** No limit, from line 1: the engine pages these under 256 KiB. */
  whole: boolean;
}

export type AuditEvent =
  | { kind: 'read'; id: string; window: ReadWindow }
  | { kind: 'result'; id: string; isError: boolean; text: string; file: ResultFile | undefined }
  | { kind: 'banner'; id: string; text: string; source: 'attachment' | 'inline' }
  | { kind: 'hook-output'; id: string; event: string; command: string; updatedInput: Record<string, unknown> | undefined }
  | { kind: 'context'; id: string; event: string; text: string };

export interface ResultFile {
  startLine: number;
  numLines: number;
  totalLines: number;
  truncatedByTokenCap: boolean;
}

export interface Classified {
  /** The record's `type`, or '' when it has none. */
  type: string;
  known: boolean;
  sessionId: string | undefined;
  /** Milliseconds since the epoch, when the record carries a parsable timestamp. */
  at: number | undefined;
  cwd: string | undefined;
  /** Conversation records (user, assistant, attachment, system) show that a session was active then. */
  conversational: boolean;
  events: AuditEvent[];
}

/** Record types Claude Code writes that the census has nothing to take from. Anything else is counted as unknown. */
const OTHER_KNOWN = new Set([
  'summary', 'queue-operation', 'api-request', 'api-request-shape', 'api-request-blob', 'atis-latch', 'cost-state',
  'last-prompt', 'tools-used', 'file-history-snapshot', 'custom-title', 'progress', 'tag', 'agent-name',
  'permission-mode', 'pr-link', 'mode',
  // New in 2.1.337 (2.1.332 writes none): the provider and the kind of credential the session's requests go by.
  'api-request-route',
]);
const CONVERSATIONAL = new Set(['user', 'assistant', 'attachment', 'system']);

const BANNER_MARK = '[Truncated: PARTIAL view';

export function classifyRecord(rec: unknown): Classified {
  const r = isObject(rec) ? rec : {};
  const type = typeof r.type === 'string' ? r.type : '';
  const out: Classified = {
    type,
    known: CONVERSATIONAL.has(type) || OTHER_KNOWN.has(type),
    sessionId: typeof r.sessionId === 'string' ? r.sessionId : undefined,
    at: typeof r.timestamp === 'string' ? parseTime(r.timestamp) : undefined,
    cwd: typeof r.cwd === 'string' ? r.cwd : undefined,
    conversational: CONVERSATIONAL.has(type),
    events: [],
  };
  if (type === 'assistant') assistantEvents(r, out.events);
  else if (type === 'user') userEvents(r, out.events);
  else if (type === 'attachment') attachmentEvents(r, out.events);
  return out;
}

function assistantEvents(r: Record<string, unknown>, events: AuditEvent[]): void {
  for (const block of contentBlocks(r.message)) {
    if (block.type !== 'tool_use' || block.name !== 'Read' || typeof block.id !== 'string') continue;
    const window = readWindow(block.input);
    if (window) events.push({ kind: 'read', id: block.id, window });
  }
}

function userEvents(r: Record<string, unknown>, events: AuditEvent[]): void {
  const results = contentBlocks(r.message).filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string');
  // `toolUseResult` belongs to the record; it can only be told apart when the record holds one result.
  const file = results.length === 1 ? resultFile(r.toolUseResult) : undefined;
  for (const block of results) {
    const id = block.tool_use_id as string;
    const text = resultText(block.content);
    events.push({ kind: 'result', id, isError: block.is_error === true, text, file });
    // Fallback mode (docs/ENGINE.md §7.5): the banner rides inside the tool_result as a system-reminder.
    const at = text.indexOf(BANNER_MARK);
    if (at >= 0) events.push({ kind: 'banner', id, text: text.slice(at), source: 'inline' });
  }
}

function attachmentEvents(r: Record<string, unknown>, events: AuditEvent[]): void {
  const a = isObject(r.attachment) ? r.attachment : undefined;
  if (!a) return;
  const id = typeof a.toolUseID === 'string' ? a.toolUseID : '';
  if (a.type === 'read_truncation_notice') {
    if (typeof a.banner === 'string') events.push({ kind: 'banner', id, text: a.banner, source: 'attachment' });
  } else if (a.type === 'hook_additional_context') {
    const event = hookEvent(a);
    const parts = Array.isArray(a.content) ? a.content : [a.content];
    for (const part of parts) {
      // Several hooks of one event arrive joined by newlines in one part (docs/ENGINE.md §7.4).
      if (typeof part === 'string') for (const text of splitNotes(part)) events.push({ kind: 'context', id, event, text });
    }
  } else if (a.type === 'hook_success') {
    const event = hookEvent(a);
    const command = typeof a.command === 'string' ? a.command : '';
    events.push({ kind: 'hook-output', id, event, command, updatedInput: updatedInputOf(a.stdout) });
  }
}

/** The parts of one context string that are separate notes: each pager note starts with its prefix. */
function splitNotes(text: string): string[] {
  return text.split(/\n(?=read-ceiling-pager:)/);
}

function hookEvent(a: Record<string, unknown>): string {
  if (typeof a.hookEvent === 'string') return a.hookEvent;
  return typeof a.hookName === 'string' ? a.hookName.split(':')[0]! : '';
}

function updatedInputOf(stdout: unknown): Record<string, unknown> | undefined {
  if (typeof stdout !== 'string' || !stdout.includes('updatedInput')) return undefined;
  try {
    const json: unknown = JSON.parse(stdout.trim());
    const specific = isObject(json) && isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : undefined;
    return specific && isObject(specific.updatedInput) ? specific.updatedInput : undefined;
  } catch {
    return undefined;
  }
}

/** The Read window an input asks for, with the engine's coercions (strings to numbers, 0 and negatives dropped). */
export function readWindow(input: unknown): ReadWindow | undefined {
  if (!isObject(input) || typeof input.file_path !== 'string') return undefined;
  const offset = toInt(input.offset);
  const limit = toInt(input.limit ?? input.length);
  const special = input.pages !== undefined || (input.allow_large !== undefined && input.allow_large !== false) ||
    notLines(input.file_path) !== undefined;
  const first = offset !== undefined && offset > 0 ? offset : 1;
  const lines = limit !== undefined && limit > 0 ? limit : undefined;
  const whole = lines === undefined && first === 1 && input.pages === undefined;
  return { path: input.file_path, first, lines, special, whole };
}

function toInt(v: unknown): number | undefined {
  if (Array.isArray(v) && v.length === 1) v = v[0];
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

function resultFile(v: unknown): ResultFile | undefined {
  const file = isObject(v) && isObject(v.file) ? v.file : undefined;
  if (!file || typeof file.numLines !== 'number' || typeof file.startLine !== 'number') return undefined;
  return {
    startLine: file.startLine,
    numLines: file.numLines,
    totalLines: typeof file.totalLines === 'number' ? file.totalLines : file.numLines,
    truncatedByTokenCap: file.truncatedByTokenCap === true,
  };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
}

function contentBlocks(message: unknown): Array<Record<string, unknown>> {
  const content = isObject(message) ? message.content : undefined;
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function parseTime(s: string): number | undefined {
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : undefined;
}
