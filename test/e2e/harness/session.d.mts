/** The reader pages through `targets`, following notes. @param {SessionOptions} o */
export function readSession(o: SessionOptions): Promise<{
    cursors: import("./reader.mjs").Cursor[];
    /** @param {string} path */
    cursor: (path: string) => import("./reader.mjs").Cursor;
    calls: number;
    refusals: number;
    sessionId: string | undefined;
    /** The session's transcript, where the engine wrote it; gone after the run unless its HOME is kept. */
    transcript: string | undefined;
    counts: import("./standin.mjs").CountRecord[];
    observations: import("./standin.mjs").Observation[];
    /** Each subagent turn as the subagent saw it, `agent` set to the prompt that started it. */
    agentObservations: import("./standin.mjs").Observation[];
    /** The actions the auto-mode classifier was asked about. */
    classified: string[];
    /** The raw messages of the last main-loop request: the whole conversation as the model last saw it. */
    conversation: any[];
    /** The Read tool's input fields as this engine offers them (an older engine lacks allow_large). */
    readFields: string[];
    /** Requests the stand-in refused for holding a role:"system" message, and main-loop ones it answered with one. */
    systemRefusals: number;
    systemAnswered: number;
    ran: Map<string, any>;
    run: import("./engine.mjs").RunResult;
    ok: boolean;
    tokenizer: import("./tokenizer.mjs").Tokenizer;
}>;
/**
 * The model makes exactly the scripted calls: step i is its message at turn i; after the last step it says
 * "Done." and the run ends. A subagent it starts plays its own script from `agents`, likewise. In a resumed
 * session (`--resume`), step 0 is the first message of this run.
 * @param {ScriptOptions} o
 */
export function scriptSession(o: ScriptOptions): Promise<{
    sessionId: string | undefined;
    /** The session's transcript, where the engine wrote it; gone after the run unless its HOME is kept. */
    transcript: string | undefined;
    counts: import("./standin.mjs").CountRecord[];
    observations: import("./standin.mjs").Observation[];
    /** Each subagent turn as the subagent saw it, `agent` set to the prompt that started it. */
    agentObservations: import("./standin.mjs").Observation[];
    /** The actions the auto-mode classifier was asked about. */
    classified: string[];
    /** The raw messages of the last main-loop request: the whole conversation as the model last saw it. */
    conversation: any[];
    /** The Read tool's input fields as this engine offers them (an older engine lacks allow_large). */
    readFields: string[];
    /** Requests the stand-in refused for holding a role:"system" message, and main-loop ones it answered with one. */
    systemRefusals: number;
    systemAnswered: number;
    ran: Map<string, any>;
    run: import("./engine.mjs").RunResult;
    ok: boolean;
    tokenizer: import("./tokenizer.mjs").Tokenizer;
}>;
/**
 * What every session sets up around the model.
 */
export type EngineOptions = {
    cwd: string;
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
    /**
     * count_tokens by this function instead of a tokenizer.
     */
    count?: ((text: string) => number) | undefined;
    /**
     * The API has no count_tokens (see startStandIn).
     */
    noCountTokens?: boolean | undefined;
    /**
     * The API refuses role:"system" turns: the engine's fallback mode
     * (docs/ENGINE.md §7.5).
     */
    refuseSystem?: boolean | undefined;
    /**
     * Keep the engine's HOME and transcripts until removeTempDirs().
     */
    keepHome?: boolean | undefined;
    timeoutMs?: number | undefined;
    /**
     * See RunOptions.
     */
    settings?: any;
    /**
     * See RunOptions.
     */
    args?: string[] | undefined;
    /**
     * See RunOptions.
     */
    allowedTools?: string | undefined;
    /**
     * See RunOptions.
     */
    extraEnv?: Record<string, string> | undefined;
    /**
     * The model's time to answer each turn (see startStandIn).
     */
    thinkMs?: number | undefined;
    /**
     * The stand-in reports each request's input tokens as the API does (see startStandIn).
     */
    usage?: boolean | undefined;
    /**
     * See RunOptions: a HOME kept across runs, for a session resumed with `--resume`.
     */
    home?: string | undefined;
    /**
     * The user's prompt (`-p`), for example a slash command.
     */
    prompt?: string | undefined;
    /**
     * Plays the auto-mode classifier (see startStandIn).
     */
    classify?: ((action: string) => boolean) | undefined;
};
export type SessionOptions = EngineOptions & {
    targets: import("./reader.mjs").Target[];
    maxTurns?: number;
};
export type Session = Awaited<ReturnType<typeof readSession>>;
/**
 * One assistant message: fixed, or decided from what the model sees at that turn.
 */
export type ScriptStep = import("./standin.mjs").Reply | ((obs: import("./standin.mjs").Observation) => import("./standin.mjs").Reply);
/**
 * agents: the script of each subagent the model starts, by the `prompt` of its Agent call.
 */
export type ScriptOptions = EngineOptions & {
    script: ScriptStep[];
    agents?: Record<string, ScriptStep[]>;
};
export type ScriptedSession = Awaited<ReturnType<typeof scriptSession>>;
