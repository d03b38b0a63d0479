export function loadHooks(): Promise<any>;
/**
 * @typedef {object} SimStep One Read: what the model asked, what ran, what came back, what it was told.
 * @property {Record<string, unknown>} asked
 * @property {Record<string, unknown>} ran
 * @property {boolean} isError
 * @property {string} kind engine-sim's outcome kind
 * @property {number} [first]
 * @property {number} [lines]
 * @property {string} context
 * @property {string} decision the reader's
 * @property {string} content the tool_result text
 * @property {any} [response] the tool_response the post hook got (PostToolUse)
 * @property {string} [error] the error the post hook got (PostToolUseFailure)
 *
 * @param {object} o
 * @param {import('./engine-sim.mjs').SimFile} o.file
 * @param {(i0: number, i1: number) => number} o.count
 * @param {'windows' | 'whole'} o.mode
 * @param {Awaited<ReturnType<typeof loadHooks>> | undefined} o.hooks Undefined: the bare engine.
 * @param {string} o.stateDir The machine's: its pager state (and memory across sessions) lives under it.
 * @param {string} [o.model] The model the transcript names (the pager keeps what it learns per model).
 * @param {number} [o.cap]
 * @param {number} [o.maxCalls]
 * @param {SimClock} [o.clock]
 * @param {(text: string) => number} [o.countText] The model's tokenizer: with it, each assistant record carries the
 *   usage the API reports (the whole input of its request), as the engine records it; without it, no usage.
 * @param {boolean} [o.flatUsage] Without `countText`: the usage the e2e stand-in reports when it counts nothing
 *   (10 in, 10 out), as the real engine records it.
 */
export function simulateSession(o: {
    file: import("./engine-sim.mjs").SimFile;
    count: (i0: number, i1: number) => number;
    mode: "windows" | "whole";
    hooks: Awaited<ReturnType<typeof loadHooks>> | undefined;
    stateDir: string;
    model?: string | undefined;
    cap?: number | undefined;
    maxCalls?: number | undefined;
    clock?: SimClock | undefined;
    countText?: ((text: string) => number) | undefined;
    flatUsage?: boolean | undefined;
}): {
    steps: SimStep[];
    cursor: Cursor;
    hitMaxCalls: boolean;
};
/** The reader's window in windows mode: the 2000 lines the Read tool's description suggests. */
export const WINDOW_LINES: 2000;
/** A model turn and a hook run take time; the clock never runs behind the real one, so hook deadlines hold. */
export class SimClock {
    t: number;
    /** @param {number} ms */
    advance(ms: number): number;
}
/**
 * One Read: what the model asked, what ran, what came back, what it was told.
 */
export type SimStep = {
    asked: Record<string, unknown>;
    ran: Record<string, unknown>;
    isError: boolean;
    /**
     * engine-sim's outcome kind
     */
    kind: string;
    first?: number | undefined;
    lines?: number | undefined;
    context: string;
    /**
     * the reader's
     */
    decision: string;
    /**
     * the tool_result text
     */
    content: string;
    /**
     * the tool_response the post hook got (PostToolUse)
     */
    response?: any;
    /**
     * the error the post hook got (PostToolUseFailure)
     */
    error?: string | undefined;
};
import { Cursor } from '../../test/e2e/harness/reader.mjs';
