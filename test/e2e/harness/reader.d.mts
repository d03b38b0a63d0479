/**
 * A reader over several files at once: each turn it sends one Read per unfinished file, in one message.
 * @param {Target[]} targets
 * @param {{ maxTurns?: number }} [opts]
 */
export function reader(targets: Target[], opts?: {
    maxTurns?: number;
}): {
    cursors: Cursor[];
    policy: import("./standin.mjs").Policy;
};
/** The window a model falls back to when a read with no limit is refused and nothing says what to do. */
export const FALLBACK_LIMIT: 2000;
export class Cursor {
    /** @param {Target} t */
    constructor(t: Target);
    path: string;
    once: boolean;
    /** @type {ReadInput | undefined} */
    next: ReadInput | undefined;
    /** @type {Step[]} */
    steps: Step[];
    /** Set when the reader gave up (its window could not shrink further). */
    gaveUp: boolean;
    /** The page size it keeps paging with: what it first asked for, the first page it was told of, or what
     * halving left it with. A short "rest of the window" it was told about does not shrink it. */
    /** @type {number | undefined} */
    pageLimit: number | undefined;
    get done(): boolean;
    /** Every numbered line received, in order of arrival. */
    get received(): [number, string][];
    get refusals(): number;
    /**
     * @param {number} turn @param {import('./standin.mjs').ToolOutcome} r @param {string} context
     */
    see(turn: number, r: import("./standin.mjs").ToolOutcome, context: string): void;
}
export type Observation = import("./standin.mjs").Observation;
export type Reply = import("./standin.mjs").Reply;
export type ReadInput = {
    file_path: string;
    offset?: number;
    limit?: number;
    [k: string]: unknown;
};
/**
 * One Read as the model asked and saw it.
 */
export type Step = {
    turn: number;
    toolUseId: string;
    asked: ReadInput;
    isError: boolean;
    /**
     * The tool_result text.
     */
    content: string;
    /**
     * Numbered lines that came back.
     */
    lines: Array<[number, string]>;
    /**
     * Context lines about this file (hook notes, engine banners).
     */
    notes: string[];
    /**
     * The last offset/limit the notes named.
     */
    advice: {
        offset: number;
        limit: number;
    } | undefined;
    /**
     * What the reader made of it.
     */
    decision: string;
};
export type Target = {
    path: string;
    offset?: number | undefined;
    /**
     * Absent: a Read with no limit.
     */
    limit?: number | undefined;
    /**
     * Other input fields (allow_large, pages).
     */
    extra?: Record<string, unknown> | undefined;
    /**
     * Read once and stop, whatever comes back.
     */
    once?: boolean | undefined;
};
