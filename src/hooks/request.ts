// What kind of Read the model asked for, in the engine's terms (docs/ENGINE.md §1–2). Pure.
import type { ReadInput } from './input.js';

export type ReadRequest =
  /** Not the pager's business: PDFs, images, notebooks, allow_large. */
  | { kind: 'pass' }
  /** An explicit window: refused, never paged, when over the cap. */
  | { kind: 'window'; first: number; lines: number }
  /** `offset` ≥ 2 with no limit: the rest of the file, refused when over the cap or the size cap. */
  | { kind: 'rest'; first: number }
  /** No limit from line 1: paged by the engine under 256 KiB, an error above. */
  | { kind: 'whole' };

/** A Read of the file's lines: every kind but `pass`. */
export type LinesRequest = Exclude<ReadRequest, { kind: 'pass' }>;

/** What the engine reads some other way than as numbered lines, by extension (docs/ENGINE.md §1.7): images and PDFs
 * go to the model as they are, and a notebook as all of its cells; `offset` and `limit` change nothing for them. */
export type NotLines = 'image' | 'pdf' | 'notebook';
const NOT_LINES: Readonly<Record<string, NotLines>> = {
  png: 'image', jpg: 'image', jpeg: 'image', gif: 'image', webp: 'image', pdf: 'pdf', ipynb: 'notebook',
};

/** How the engine reads a path that is not read as lines, or undefined for one that is. */
export function notLines(path: string): NotLines | undefined {
  const ext = extensionOf(path);
  return Object.hasOwn(NOT_LINES, ext) ? NOT_LINES[ext] : undefined;
}

/** A path's extension as node's `extname` gives it, lower-cased and without the dot: '' for none, and for a name
 * that only starts with a dot or ends with one. */
function extensionOf(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The engine reads a file named without an extension as an image when its first bytes are one's
 * (docs/ENGINE.md §1.7): only such a path needs its first `IMAGE_SIGNATURE_BYTES` looked at. */
export function mayBeImageBySignature(path: string): boolean {
  return extensionOf(path) === '';
}

export const IMAGE_SIGNATURE_BYTES = 12;

/** Whether a file's first bytes are a PNG's, a JPEG's, a GIF's or a WebP's signature, as the engine tells them. */
export function isImageSignature(head: Uint8Array): boolean {
  const at = (i: number, bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  if (head.length < 4) return false;
  if (at(0, [0x89, 0x50, 0x4e, 0x47]) || at(0, [0xff, 0xd8, 0xff])) return true; // PNG, JPEG
  if (at(0, [0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return true; // GIF
  return at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50]); // RIFF....WEBP
}

export function classifyRead(input: ReadInput): ReadRequest {
  if (input.pages !== undefined) return { kind: 'pass' };
  if (notLines(input.file_path) !== undefined) return { kind: 'pass' };
  if (input.allow_large !== undefined && input.allow_large !== false) return { kind: 'pass' };
  // offset 0 starts at line 1 (the engine only labels it 0).
  const first = Math.max(1, input.offset ?? 1);
  if (input.limit !== undefined && input.limit > 0) return { kind: 'window', first, lines: input.limit };
  return first >= 2 ? { kind: 'rest', first } : { kind: 'whole' };
}

/** The first line a Read asks for (1 for a read with no limit). */
export function firstLine(request: LinesRequest): number {
  return request.kind === 'whole' ? 1 : request.first;
}

/** The lines a Read asks for, or undefined for a read to the end of the file. */
export function askedLines(request: LinesRequest): number | undefined {
  return request.kind === 'window' ? request.lines : undefined;
}

/** The whole input with only the window changed: updatedInput replaces the input, so every other field
 * must travel with it. `offset: 0` becomes 1 so the lines are labelled as the file numbers them. */
export function clampedInput(input: ReadInput, first: number, lines: number): Record<string, unknown> {
  const next: Record<string, unknown> = { ...input, limit: lines };
  if (input.offset !== undefined || first > 1) next.offset = first;
  return next;
}

/** The whole input as a read of the whole file: no offset, no limit, every other field as it was. */
export function wholeInput(input: ReadInput): Record<string, unknown> {
  const { offset: _offset, limit: _limit, ...rest } = input;
  return { ...rest };
}
