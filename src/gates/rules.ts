// The gates' pure decisions: which lines a Read asks for and which it got, whether earlier Reads cover a
// window, what identifies a call, and every sentence a gate tells the model.
import type { ReadRange } from './state.js';

export interface Lines { first: number; last: number }

/** The lines a Read asks for, given the file's line count as the engine counts it; undefined for PDF pages
 * (never gated) and for a start past the end. No limit means to the end of the file; offset 0 is line 1. */
export function requestedLines(input: Record<string, unknown>, totalLines: number): Lines | undefined {
  if (input.pages !== undefined) return undefined;
  const offset = typeof input.offset === 'number' && Number.isSafeInteger(input.offset) && input.offset >= 1 ? input.offset : 1;
  const limit = typeof input.limit === 'number' && Number.isSafeInteger(input.limit) && input.limit >= 1 ? input.limit : undefined;
  if (offset > totalLines) return undefined;
  return { first: offset, last: limit === undefined ? totalLines : Math.min(offset + limit - 1, totalLines) };
}

/** The lines a successful Read returned (offset 0 labels line 1 as 0), or undefined when it returned none. */
export function returnedLines(file: { startLine: number; numLines: number }): Lines | undefined {
  if (file.numLines < 1) return undefined;
  const first = Math.max(1, file.startLine);
  return { first, last: first + file.numLines - 1 };
}

/** The earlier Reads that together cover `want` (touching ranges join), or undefined when they do not. */
export function coveringReads(
  ranges: readonly ReadRange[], want: Lines,
): { span: Lines; reads: ReadRange[] } | undefined {
  const sorted = [...ranges].sort((a, b) => a.first - b.first || b.last - a.last);
  let span: Lines | undefined;
  let reads: ReadRange[] = [];
  for (const r of sorted) {
    if (span && r.first <= span.last + 1) {
      span.last = Math.max(span.last, r.last);
      reads.push(r);
    } else {
      if (span && span.first <= want.first && span.last >= want.last) break;
      span = { first: r.first, last: r.last };
      reads = [r];
    }
  }
  if (!span || span.first > want.first || span.last < want.last) return undefined;
  // Only the Reads that overlap the window are needed to cover it.
  return { span, reads: reads.filter((r) => r.last >= want.first && r.first <= want.last) };
}

/** A window's key for the deny-once rule. */
export function windowKey(want: Lines): string {
  return `${want.first}-${want.last}`;
}

/** Identifies a call: tool name and input, with object keys in a fixed order (the engine's records and hook
 * inputs order them differently). */
export function callHash(toolName: string, input: unknown): string {
  // Pure JS on purpose: loading node:crypto costs a hook several milliseconds. Two seeds, 106 bits: no
  // collision among 500 remembered calls.
  const text = `${toolName}\0${canonicalJson(input)}`;
  return cyrb53(text, 0).toString(16).padStart(14, '0') + cyrb53(text, 0x9e3779b9).toString(16).padStart(14, '0');
}

/** A 53-bit string hash (cyrb53, public domain). */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The tools whose rejection leaves the model's view of a file stale. */
export function isFileEdit(toolName: string): boolean {
  return toolName === 'Edit' || toolName === 'Write';
}

const span = (l: Lines) => (l.first === l.last ? `line ${l.first}` : `lines ${l.first}-${l.last}`);

export function coveredReason(path: string, want: Lines, cover: { span: Lines; reads: ReadRange[] }): string {
  const earlier = cover.reads.length === 1 ? `an earlier Read returned ${span(cover.reads[0]!)}`
    : `earlier Reads returned ${cover.reads.map((r) => span(r).replace(/^lines? /, '')).join(', ')} (together ${span(cover.span)})`;
  return `read-ceiling-pager: ${span(want)} of ${path} ${want.first === want.last ? 'is' : 'are'} already in this conversation: ${earlier}, and the file is `
    + 'unchanged since (same modification time and size). That Read was not run; use the earlier result. '
    + 'If it is really needed again, repeat this same Read and it will run.';
}

export function rereadReason(toolName: string, path: string): string {
  return `read-ceiling-pager: the user rejected an Edit or Write of ${path} earlier, so this ${toolName} was not run. `
    + `Read ${path} first (it is unchanged by the rejected edit), then edit it.`;
}

export function rejectedReason(toolName: string): string {
  return `read-ceiling-pager: the user rejected this same ${toolName} call (same input) earlier in this session, so it was `
    + 'not run again. Ask the user how to go on, or take another way.';
}
