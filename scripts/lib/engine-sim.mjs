// A pure simulation of Claude Code 2.1.332's Read tool for one text file: what the model sees (the numbered
// tool_result text, is_error, the PARTIAL banner) and what the hooks see (tool_response, or the error string).
// Every rule and text is from docs/ENGINE.md §1–5 and the engine's embedded code;
// scripts/rounds.mjs uses it to count rounds, test/e2e/rounds-sim.test.ts checks it against the real engine.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';

export const DEFAULT_CAP = 25_000;
/** A read with no `limit` of a file over this many bytes is a size error (docs/ENGINE.md §2.4). */
export const SIZE_CAP = 262_144;
/** A window longer than cap × this in characters is refused on its estimate; the range cap is cap × this in bytes
 * (docs/ENGINE.md §2.5). */
export const RANGE_FACTOR = 128;
/** Files from this size on are streamed, and the range cap applies to them whatever their size
 * (docs/ENGINE.md §2.5). */
export const STREAMED_FILE = 10 * 1024 * 1024;
/** The context room the engine reports on a fresh headless turn against the stand-in (seen on 2.1.332: 674,566,
 * then 662,168). It only picks which suffix an error carries; the room shrinks as a session grows, so this is an
 * approximation. */
export const DEFAULT_ROOM = 660_000;
/** Bytes per token the engine assumes for the raised size limit under allow_large [I]: only for the suffix. */
const ROOM_BYTES_PER_TOKEN = 4;

const DASH = '\u2014';
const PARTIAL = `[Truncated: PARTIAL view ${DASH} `;
export const SUFFIX_ALLOW_LARGE = ` To read it anyway, up to what still fits in your context, call Read again with allow_large: true ${DASH} only if you genuinely need all of it or the user asked for the whole file.`;
export const SUFFIX_NO_ROOM = ' Even with allow_large, this is more than fits in the context you have left this turn (other large reads in the same turn share that room).';
const EMPTY_WARNING = '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>';

/**
 * A file as the engine decodes it: UTF-8, BOM stripped, lines split on "\n" with one trailing "\r" dropped from
 * each; a final newline gives an empty last line, counted like any other.
 * @typedef {object} SimFile
 * @property {string} path
 * @property {number} size Bytes on disk.
 * @property {boolean} json .json, .jsonl or .jsonc: the engine estimates len/2 instead of len/4.
 * @property {string[]} lines
 * @property {number[]} starts Offset of each line in `text`, and text.length + 1 after the last.
 * @property {string} text The lines joined by "\n".
 */

/** @param {string} path @param {Buffer} [bytes] @returns {SimFile} */
export function simFile(path, bytes = readFileSync(path)) {
  // UTF-16LE after its mark, anything else as UTF-8 (docs/ENGINE.md §3.1).
  let decoded = bytes.toString(bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf16le' : 'utf8');
  if (decoded.charCodeAt(0) === 0xfeff) decoded = decoded.slice(1);
  const lines = decoded.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const starts = new Array(lines.length + 1);
  let at = 0;
  for (let i = 0; i < lines.length; i++) { starts[i] = at; at += lines[i].length + 1; }
  starts[lines.length] = at;
  return { path, size: bytes.length, json: /^(json|jsonl|jsonc)$/.test(extname(path).toLowerCase().slice(1)), lines, starts, text: lines.join('\n') };
}

/** Lines [i0, i1) as the engine joins them: the raw window text it estimates and counts. */
export function windowText(/** @type {SimFile} */ f, /** @type {number} */ i0, /** @type {number} */ i1) {
  return i1 <= i0 ? '' : f.text.slice(f.starts[i0], f.starts[i1] - 1);
}

/**
 * The engine's size format (docs/ENGINE.md §5.2): binary units, at most one decimal, `.0` dropped.
 * @param {number} n
 */
export function formatSize(n) {
  const k = n / 1024;
  if (k < 1) return `${n} bytes`;
  if (k < 1024) return `${k.toFixed(1).replace(/\.0$/, '')}KB`;
  const m = k / 1024;
  if (m < 1024) return `${m.toFixed(1).replace(/\.0$/, '')}MB`;
  return `${(m / 1024).toFixed(1).replace(/\.0$/, '')}GB`;
}

/** The engine's estimate (docs/ENGINE.md §3.2): round(len/4), len/2 for JSON files. */
export function estimate(/** @type {SimFile} */ f, /** @type {number} */ length) {
  return Math.round(length / (f.json ? 2 : 4));
}

/**
 * The input coercion that happens before any hook (docs/ENGINE.md §1.1): numeric strings and one-element arrays
 * become numbers, a negative offset is removed, a limit of 0 or below is removed, `length` becomes `limit`, unknown
 * keys dropped.
 * @param {Record<string, unknown>} raw
 * @returns {Record<string, unknown>}
 */
export function coerceInput(raw) {
  const num = (/** @type {unknown} */ v) => {
    const x = Array.isArray(v) && v.length === 1 ? v[0] : v;
    if (typeof x === 'number') return x;
    if (typeof x === 'string' && /^\s*-?\d+\s*$/.test(x)) return Number(x);
    return undefined;
  };
  /** @type {Record<string, unknown>} */
  const out = { file_path: raw.file_path };
  const offset = num(raw.offset);
  if (offset !== undefined && Number.isInteger(offset) && offset >= 0) out.offset = offset;
  const limit = num(raw.limit ?? raw.length);
  if (limit !== undefined && Number.isInteger(limit) && limit > 0) out.limit = limit;
  if (raw.pages !== undefined) out.pages = raw.pages;
  if (raw.allow_large !== undefined) out.allow_large = raw.allow_large;
  return out;
}

/**
 * `updatedInput` is validated without coercion, unknown keys dropped (docs/ENGINE.md §7.2). Returns the input that
 * runs, or an error text when the rewrite is invalid.
 * @param {Record<string, unknown>} u
 * @returns {{ input: Record<string, unknown> } | { error: string }}
 */
export function validateUpdatedInput(u) {
  const bad = (/** @type {string} */ why) => ({
    error: `PreToolUse hook for Read returned updatedInput that failed schema validation: ${why}\nThe tool input from the model was valid; the hook's rewrite of it was not.`,
  });
  if (typeof u?.file_path !== 'string') return bad('file_path: expected string');
  if (u.offset !== undefined && !(Number.isInteger(u.offset) && /** @type {number} */ (u.offset) >= 0)) return bad('offset: expected integer >= 0');
  if (u.limit !== undefined && !(Number.isInteger(u.limit) && /** @type {number} */ (u.limit) > 0)) return bad('limit: expected integer > 0');
  /** @type {Record<string, unknown>} */
  const input = { file_path: u.file_path };
  for (const k of ['offset', 'limit', 'pages', 'allow_large']) if (u[k] !== undefined) input[k] = u[k];
  return { input };
}

/**
 * @typedef {object} ReadOutcome
 * @property {boolean} isError
 * @property {string} content The tool_result text the model sees.
 * @property {any} [response] The tool_response hooks see (PostToolUse), absent on an error.
 * @property {string} [error] The error string hooks see (PostToolUseFailure).
 * @property {string} [banner] The PARTIAL banner, delivered beside the result (never to hooks).
 * @property {'whole'|'window'|'partial'|'past-end'|'empty'|'size'|'range'|'tokens'} kind
 * @property {number} [first] First file line returned (1-based), when lines came back.
 * @property {number} [lines] Lines returned.
 * @property {number} [tokens] The engine's count (or estimate) of the text it judged.
 * @property {boolean} counted Whether count_tokens was asked.
 */

/**
 * One Read of `file` with the (coerced, possibly rewritten) input, as the engine runs it.
 * @param {SimFile} file
 * @param {Record<string, unknown>} input
 * @param {{ cap?: number, count: (i0: number, i1: number) => number, room?: number }} o
 *   count: tokens of lines [i0, i1) joined by "\n" (what count_tokens answers for that text).
 * @returns {ReadOutcome}
 */
export function simulateRead(file, input, o) {
  const cap = o.cap ?? DEFAULT_CAP;
  const room = o.room ?? DEFAULT_ROOM;
  const suffix = (/** @type {{ bytes?: number, tokens?: number }} */ x) => {
    if (room <= cap) return SUFFIX_NO_ROOM;
    const roomBytes = Math.max(SIZE_CAP, room * ROOM_BYTES_PER_TOKEN * 3);
    return (x.bytes === undefined || x.bytes <= roomBytes) && (x.tokens === undefined || x.tokens <= room)
      ? SUFFIX_ALLOW_LARGE
      : SUFFIX_NO_ROOM;
  };
  const fail = (/** @type {ReadOutcome['kind']} */ kind, /** @type {string} */ message,
    /** @type {number | undefined} */ tokens, counted = false) =>
    /** @type {ReadOutcome} */ ({ isError: true, content: message, error: message, kind, tokens, counted });

  const y = /** @type {number | undefined} */ (input.offset) ?? 1;
  const k = /** @type {number | undefined} */ (input.limit);
  const whole = y <= 1 && k === undefined && input.pages === undefined;
  const from = y === 0 ? 0 : y - 1;
  const total = file.lines.length;

  // The size cap (no limit) or the range cap (a limit, on a file over cap × 128 B or a streamed one).
  if (k === undefined && file.size > SIZE_CAP) {
    return fail('size', `File content (${formatSize(file.size)}) exceeds maximum allowed size (${formatSize(SIZE_CAP)}). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.${suffix({ bytes: file.size })}`);
  }
  const to = k === undefined ? total : Math.min(total, from + k);
  const i0 = Math.min(from, total);
  const i1 = Math.max(i0, to);
  const j = judgeWindow(file, i0, i1, { cap, count: o.count, limited: k !== undefined, whole });
  if (j.rangeBytes !== undefined) {
    return fail('range', `The requested line range contains over ${formatSize(cap * RANGE_FACTOR)} of text, more than a read can return. Use a smaller limit ${DASH} or, if a single line is this large, no limit will fit it: search for specific content instead.${suffix({ bytes: j.rangeBytes })}`);
  }
  const { tokens, counted, over } = j;
  const content = () => (i1 - i0 === 1 ? wellFormed(file.lines[i0]) : windowText(file, i0, i1));
  const tokenError = () => `File content (${tokens} tokens) exceeds maximum allowed tokens (${cap}). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.${suffix({ tokens })}`;
  if (over && !whole) return fail('tokens', tokenError(), tokens, counted);

  if (over) return partialPage(file, input, cap, tokens, suffix({ tokens }), counted);

  const text = content();
  const response = { type: 'text', file: { filePath: input.file_path, content: text, numLines: i1 - i0, startLine: y, totalLines: total } };
  const kind = i1 - i0 === 0 ? 'past-end' : (total === 1 && text === '' ? 'empty' : (whole ? 'whole' : 'window'));
  return {
    isError: false, content: resultText(response.file), response, kind, first: i0 + 1, lines: i1 - i0, tokens, counted,
  };
}

/**
 * How the engine judges lines [i0, i1) (docs/ENGINE.md §2, §3): the range cap when a limit was given and the file is
 * over cap × 128 B (or streamed), then the estimate, count_tokens only past cap/4, and the cap. `over` means refused
 * (or paged, for a whole-file read).
 * @param {SimFile} file @param {number} i0 @param {number} i1
 * @param {{ cap: number, count: (i0: number, i1: number) => number, limited: boolean, whole: boolean }} o
 * @returns {{ over: boolean, tokens: number, counted: boolean, rangeBytes?: number }}
 */
export function judgeWindow(file, i0, i1, o) {
  const { cap } = o;
  if (o.limited) {
    const maxSelected = cap * RANGE_FACTOR;
    if (!(file.size < STREAMED_FILE && file.size <= maxSelected)) {
      let selected = 0;
      for (let i = i0; i < i1; i++) {
        const s = selected + (i > i0 ? 1 : 0) + Buffer.byteLength(file.lines[i]);
        if (s > maxSelected) return { over: true, tokens: 0, counted: false, rangeBytes: s };
        selected = s;
      }
    }
  }
  const length = i1 > i0 ? file.starts[i1] - 1 - file.starts[i0] : 0;
  const est = estimate(file, length);
  if (!est || est <= cap / 4) return { over: false, tokens: est, counted: false };
  // refused on the estimate
  if (!o.whole && length > cap * RANGE_FACTOR) return { over: true, tokens: est, counted: false };
  const tokens = o.count(i0, i1);
  return { over: tokens > cap, tokens, counted: true };
}

/** The engine's own page of a whole-file read over the cap (docs/ENGINE.md §4), and its banner. */
function partialPage(/** @type {SimFile} */ file, /** @type {Record<string, unknown>} */ input,
  /** @type {number} */ cap, /** @type {number} */ tokens, /** @type {string} */ suffix,
  /** @type {boolean} */ counted) {
  const all = file.text;
  const lines = file.lines;
  const r = Math.max(0.5, all.length / Math.max(1, tokens));
  const over = (/** @type {string} */ s) => s.length / r > cap;
  let n = Math.max(1, Math.min(lines.length, Math.floor(lines.length * cap / Math.max(1, tokens) * 0.85)));
  let page = windowText(file, 0, n);
  for (let i = 0; i < 6; i++) {
    if (!over(page) || n <= 1) break;
    n = Math.max(1, Math.floor(n * 0.7));
    page = windowText(file, 0, n);
  }
  let byChars = false;
  if (over(page) || page.trim() === '') {
    let chars = Math.max(1, Math.floor(cap * r * 0.85));
    for (let i = 0; i < 6; i++) {
      page = all.slice(0, chars);
      if (!over(page)) break;
      chars = Math.max(1, Math.floor(chars * 0.7));
    }
    const last = page.charCodeAt(page.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) page = page.slice(0, -1);
    byChars = true;
  }
  const text = wellFormed(page);
  const numLines = byChars ? countNewlines(page) + 1 : n;
  const total = lines.length;
  const y = /** @type {number | undefined} */ (input.offset) ?? 1;
  const path = file.path;
  const banner = !byChars && numLines < total
    ? `${PARTIAL}${path}: showing lines 1-${numLines} of ${total} total (${tokens} tokens, cap ${cap}). Call Read with offset=${numLines + 1} limit=${numLines} for the next page, or Grep to find a specific section.${suffix} Do NOT answer from this page alone if the answer may be further in the file.]`
    : `${PARTIAL}${path}: showing the first ${page.length} of ${all.length} characters (${tokens} tokens, cap ${cap}); this file has very long lines and cannot be paginated by line. Use Grep to find a specific section, or Read with offset/limit to page through it.${suffix} Do NOT answer from this excerpt alone if the answer may be elsewhere in the file.]`;
  const response = {
    type: 'text',
    file: {
      filePath: input.file_path, content: text, numLines, startLine: Math.max(1, y), totalLines: total,
      truncatedByTokenCap: true,
    },
  };
  return {
    isError: false, content: resultText(response.file), response, banner, kind: 'partial', first: 1, lines: numLines,
    tokens, counted,
  };
}

/** The tool_result text of a successful text Read (docs/ENGINE.md §3.4, §1.5): `<n>\t<line>` joined by "\n", or a
 * warning. */
export function resultText(
  /** @type {{ content: string, numLines: number, startLine: number, totalLines: number }} */ f,
) {
  if (f.content) {
    const out = [];
    let n = f.startLine;
    let at = 0;
    let nl = f.content.indexOf('\n');
    while (nl !== -1) { out.push(numbered(f.content.slice(at, nl), n++)); at = nl + 1; nl = f.content.indexOf('\n', at); }
    out.push(numbered(f.content.slice(at), n));
    return out.join('\n');
  }
  if (f.numLines >= 1 && f.totalLines > 1) return numbered('', f.startLine);
  if (f.numLines >= 1 || f.totalLines === 0) return EMPTY_WARNING;
  return `<system-reminder>Warning: the file exists but is shorter than the provided offset (${f.startLine}). The file has ${f.totalLines} lines.</system-reminder>`;
}

function numbered(/** @type {string} */ line, /** @type {number} */ n) {
  return `${n}\t${line.endsWith('\r') ? line.slice(0, -1) : line}`;
}

/** Lone surrogates become U+FFFD, as the engine's UTF-16 round trip does. @param {string} s */
function wellFormed(s) {
  return Buffer.from(s, 'utf16le').toString('utf16le');
}

function countNewlines(/** @type {string} */ s) {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * How a hook's additionalContext reaches the model (docs/ENGINE.md §7.4).
 * @param {string} event @param {string} text
 */
export function hookContext(event, text) {
  return `${event}:Read hook additional context: ${text}`;
}
