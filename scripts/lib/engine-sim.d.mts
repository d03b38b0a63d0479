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
export function simFile(path: string, bytes?: Buffer): SimFile;
/** Lines [i0, i1) as the engine joins them: the raw window text it estimates and counts. */
export function windowText(f: SimFile, i0: number, i1: number): string;
/**
 * The engine's size format (docs/ENGINE.md §5.2): binary units, at most one decimal, `.0` dropped.
 * @param {number} n
 */
export function formatSize(n: number): string;
/** The engine's estimate (docs/ENGINE.md §3.2): round(len/4), len/2 for JSON files. */
export function estimate(f: SimFile, length: number): number;
/**
 * The input coercion that happens before any hook (docs/ENGINE.md §1.1): numeric strings and one-element arrays
 * become numbers, a negative offset is removed, a limit of 0 or below is removed, `length` becomes `limit`, unknown
 * keys dropped.
 * @param {Record<string, unknown>} raw
 * @returns {Record<string, unknown>}
 */
export function coerceInput(raw: Record<string, unknown>): Record<string, unknown>;
/**
 * `updatedInput` is validated without coercion, unknown keys dropped (docs/ENGINE.md §7.2). Returns the input that
 * runs, or an error text when the rewrite is invalid.
 * @param {Record<string, unknown>} u
 * @returns {{ input: Record<string, unknown> } | { error: string }}
 */
export function validateUpdatedInput(u: Record<string, unknown>): {
    input: Record<string, unknown>;
} | {
    error: string;
};
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
export function simulateRead(file: SimFile, input: Record<string, unknown>, o: {
    cap?: number;
    count: (i0: number, i1: number) => number;
    room?: number;
}): ReadOutcome;
/**
 * How the engine judges lines [i0, i1) (docs/ENGINE.md §2, §3): the range cap when a limit was given and the file is
 * over cap × 128 B (or streamed), then the estimate, count_tokens only past cap/4, and the cap. `over` means refused
 * (or paged, for a whole-file read).
 * @param {SimFile} file @param {number} i0 @param {number} i1
 * @param {{ cap: number, count: (i0: number, i1: number) => number, limited: boolean, whole: boolean }} o
 * @returns {{ over: boolean, tokens: number, counted: boolean, rangeBytes?: number }}
 */
export function judgeWindow(file: SimFile, i0: number, i1: number, o: {
    cap: number;
    count: (i0: number, i1: number) => number;
    limited: boolean;
    whole: boolean;
}): {
    over: boolean;
    tokens: number;
    counted: boolean;
    rangeBytes?: number;
};
/** The tool_result text of a successful text Read (docs/ENGINE.md §3.4, §1.5): `<n>\t<line>` joined by "\n", or a
 * warning. */
export function resultText(f: {
    content: string;
    numLines: number;
    startLine: number;
    totalLines: number;
}): string;
/**
 * How a hook's additionalContext reaches the model (docs/ENGINE.md §7.4).
 * @param {string} event @param {string} text
 */
export function hookContext(event: string, text: string): string;
export const DEFAULT_CAP: 25000;
/** A read with no `limit` of a file over this many bytes is a size error (docs/ENGINE.md §2.4). */
export const SIZE_CAP: 262144;
/** A window longer than cap × this in characters is refused on its estimate; the range cap is cap × this in bytes
 * (docs/ENGINE.md §2.5). */
export const RANGE_FACTOR: 128;
/** Files from this size on are streamed, and the range cap applies to them whatever their size
 * (docs/ENGINE.md §2.5). */
export const STREAMED_FILE: number;
/** The context room the engine reports on a fresh headless turn against the stand-in (seen on 2.1.332: 674,566,
 * then 662,168). It only picks which suffix an error carries; the room shrinks as a session grows, so this is an
 * approximation. */
export const DEFAULT_ROOM: 660000;
export const SUFFIX_ALLOW_LARGE: " To read it anyway, up to what still fits in your context, call Read again with allow_large: true — only if you genuinely need all of it or the user asked for the whole file.";
export const SUFFIX_NO_ROOM: " Even with allow_large, this is more than fits in the context you have left this turn (other large reads in the same turn share that room).";
/**
 * A file as the engine decodes it: UTF-8, BOM stripped, lines split on "\n" with one trailing "\r" dropped from
 * each; a final newline gives an empty last line, counted like any other.
 */
export type SimFile = {
    path: string;
    /**
     * Bytes on disk.
     */
    size: number;
    /**
     * .json, .jsonl or .jsonc: the engine estimates len/2 instead of len/4.
     */
    json: boolean;
    lines: string[];
    /**
     * Offset of each line in `text`, and text.length + 1 after the last.
     */
    starts: number[];
    /**
     * The lines joined by "\n".
     */
    text: string;
};
export type ReadOutcome = {
    isError: boolean;
    /**
     * The tool_result text the model sees.
     */
    content: string;
    /**
     * The tool_response hooks see (PostToolUse), absent on an error.
     */
    response?: any;
    /**
     * The error string hooks see (PostToolUseFailure).
     */
    error?: string | undefined;
    /**
     * The PARTIAL banner, delivered beside the result (never to hooks).
     */
    banner?: string | undefined;
    kind: "whole" | "window" | "partial" | "past-end" | "empty" | "size" | "range" | "tokens";
    /**
     * First file line returned (1-based), when lines came back.
     */
    first?: number | undefined;
    /**
     * Lines returned.
     */
    lines?: number | undefined;
    /**
     * The engine's count (or estimate) of the text it judged.
     */
    tokens?: number | undefined;
    /**
     * Whether count_tokens was asked.
     */
    counted: boolean;
};
