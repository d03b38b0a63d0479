// The engine's PARTIAL banner and the pager's own notes, read back from a transcript. Pure. The banner texts are in
// docs/ENGINE.md §4; the note texts are written by src/hooks/note.ts. Display text, so matched loosely.
import { PREFIX as NOTE_PREFIX } from '../hooks/note.js';
import { toInt } from '../hooks/refusal.js';

export interface Advice {
  first: number;
  lines: number;
}

export interface Banner {
  /** By lines, or a character excerpt of a file whose lines are too long to page (a single-line excerpt). */
  by: 'lines' | 'chars';
  tokens: number | undefined;
  cap: number | undefined;
  advice: Advice | undefined;
}

export function parseBanner(text: string): Banner {
  const counts = /\((\d[\d,]*) tokens, (?:cap (\d[\d,]*)|allow_large)/.exec(text);
  const next = /offset=(\d+) limit=(\d+)/.exec(text);
  return {
    by: /showing the first \d[\d,]* of \d[\d,]* characters/.test(text) ? 'chars' : 'lines',
    tokens: counts ? toInt(counts[1]) : undefined,
    cap: counts?.[2] ? toInt(counts[2]) : undefined,
    advice: next ? { first: toInt(next[1]), lines: toInt(next[2]) } : undefined,
  };
}

export type NoteKind = 'short-window' | 'refusal' | 'clamped';

export interface PagerNote {
  kind: NoteKind;
  /** The window the note names as the next step, if any. */
  advice: Advice | undefined;
}

/** A pager note, or undefined for any other hook's context. */
export function parseNote(text: string): PagerNote | undefined {
  const at = text.indexOf(NOTE_PREFIX);
  if (at < 0 || text.slice(0, at).trim() !== '') return undefined;
  const body = text.slice(at);
  const kind: NoteKind = /was shortened to lines/.test(body) ? 'clamped'
    : /the engine counted |a Read without limit may return|more than one Read may return/.test(body) ? 'refusal'
      : 'short-window';
  const next = /offset=(\d+) limit=(\d+)/.exec(body);
  return { kind, advice: next ? { first: toInt(next[1]), lines: toInt(next[2]) } : undefined };
}

/** A hook command a transcript records as having run, that ran the pager: by name, or a bundle's path
 * (`node "${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs" pre`; an exec-form hook is recorded as its command and arguments
 * joined by spaces). Looser than settings' isPagerCommand: any form that names it. */
export function ranThePager(command: string): boolean {
  return /read-ceiling-pager/i.test(command) || /dist[/\\]cli\.cjs"?\s+pre\b/.test(command);
}
