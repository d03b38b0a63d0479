/**
 * @typedef {object} SessionOptions
 * @property {string} cwd
 * @property {import('./reader.mjs').Target[]} targets
 * @property {'pager' | 'none' | 'plugin'} hooks
 * @property {number} [cap]
 * @property {string} [tokenizerName] Defaults to $E2E_TOKENIZER, then o200k.
 * @property {number} [scale] Multiplies every count: a denser model.
 * @property {number} [maxTurns]
 * @property {number} [timeoutMs]
 * @typedef {Awaited<ReturnType<typeof readSession>>} Session
 */
/** @param {SessionOptions} o */
export function readSession(o: SessionOptions): Promise<{
    cursors: import("./reader.mjs").Cursor[];
    /** @param {string} path */
    cursor: (path: string) => import("./reader.mjs").Cursor;
    calls: number;
    refusals: number;
    counts: import("./standin.mjs").CountRecord[];
    observations: import("./standin.mjs").Observation[];
    ran: Map<string, any>;
    run: import("./engine.mjs").RunResult;
    ok: boolean;
    tokenizer: import("./tokenizer.mjs").Tokenizer;
}>;
export type SessionOptions = {
    cwd: string;
    targets: import("./reader.mjs").Target[];
    hooks: "pager" | "none" | "plugin";
    cap?: number | undefined;
    /**
     * Defaults to $E2E_TOKENIZER, then o200k.
     */
    tokenizerName?: string | undefined;
    /**
     * Multiplies every count: a denser model.
     */
    scale?: number | undefined;
    maxTurns?: number | undefined;
    timeoutMs?: number | undefined;
};
export type Session = Awaited<ReturnType<typeof readSession>>;
