/**
 * @param {{ policy: Policy, count: (text: string) => number, refuseSystem?: boolean, thinkMs?: number,
 *   classify?: (action: string) => boolean, usage?: boolean, noCountTokens?: boolean }} opts
 *   noCountTokens: answer count_tokens 404, as an API gateway without it does; the engine then counts a window by
 *   its length (docs/ENGINE.md §3.3). `count` still sizes the usage.
 *   classify: plays the auto-mode classifier: given the action under review (its transcript line, for example
 *   `{"Bash":"make"}`), true blocks it. Without it the classifier gets "OK.", which the engine takes as no verdict.
 *   refuseSystem: answer 400 to any /v1/messages body holding a role:"system" message (docs/ENGINE.md §7.5).
 *   thinkMs: wait this long before each main-loop reply, as a real model does; the engine's transcript writes
 *   settle in that time, which tests of what the transcript shows at the next hook rely on.
 *   usage: report each main-loop request's input as the API does (counted with `count`: the system text, every
 *   message's text, tool inputs and results), not a constant.
 * @returns {Promise<StandIn>}
 */
export function startStandIn({ policy, count, refuseSystem, thinkMs, classify, usage, noCountTokens, }: {
    policy: Policy;
    count: (text: string) => number;
    refuseSystem?: boolean;
    thinkMs?: number;
    classify?: (action: string) => boolean;
    usage?: boolean;
    noCountTokens?: boolean;
}): Promise<StandIn>;
/**
 * What the model sees: the tool results and every system text after its last message (docs/ENGINE.md §7.4).
 * @param {any[]} messages
 * @returns {Observation}
 */
export function observe(messages: any[]): Observation;
/**
 * A tool_result's own text apart from the <system-reminder> blocks the engine appends in fallback mode, after
 * "\n\n" inside the string or as later text blocks of the content (docs/ENGINE.md §7.5). A result that is nothing but a
 * reminder (offset past EOF, an empty file) is the tool's own text and stays.
 * @param {unknown} raw
 * @returns {{ content: string, reminders: string[] }}
 */
export function splitReminders(raw: unknown): {
    content: string;
    reminders: string[];
};
export type ToolOutcome = {
    tool_use_id: string;
    /**
     * The model's own input.
     */
    input: Record<string, unknown>;
    /**
     * The tool's text, without any <system-reminder> the engine appended to it.
     */
    content: string;
    isError: boolean;
    /**
     * Texts the engine delivered inside this tool_result as <system-reminder> blocks (its
     * fallback mode, docs/ENGINE.md §7.5), tags removed; they are in the Observation's context too.
     */
    reminders: string[];
};
/**
 * What the model sees when it is asked for its next message.
 */
export type Observation = {
    /**
     * Assistant messages so far (0 on the first request).
     */
    turn: number;
    /**
     * Set when a subagent asks: the `prompt` of the Agent call that started it.
     */
    agent?: string | undefined;
    /**
     * One per tool_use of the previous assistant message, with the model's own input.
     */
    results: ToolOutcome[];
    /**
     * Every system / reminder text after the last assistant message, joined by "\n\n":
     * role:"system" messages, text blocks, and <system-reminder> blocks found inside tool_results (fallback mode).
     */
    context: string;
};
/**
 * A tool_use of any tool.
 */
export type ToolCall = {
    name: string;
    input: Record<string, unknown>;
};
export type Reply = {
    reads: Record<string, unknown>[];
} | {
    calls: ToolCall[];
} | {
    text: string;
};
/**
 * Plays the main loop and, with obs.agent set, each subagent the model
 * started (a subagent's first user message holds the prompt of the Agent call the stand-in made).
 */
export type Policy = (obs: Observation) => Reply;
export type CountRecord = {
    chars: number;
    tokens: number;
    text: string;
};
export type StandIn = {
    port: number;
    url: string;
    /**
     * Each main-loop turn as the model saw it (first sighting of each turn).
     */
    observations: Observation[];
    /**
     * Each subagent turn, likewise, with `agent` set.
     */
    agentObservations: Observation[];
    /**
     * The actions the auto-mode classifier was asked about (each stage counts).
     */
    classified: string[];
    /**
     * Every count_tokens request.
     */
    counts: CountRecord[];
    /**
     * The messages of the last main-loop request the stand-in answered: the whole
     * conversation as the model last saw it, raw.
     */
    conversation: () => any[];
    /**
     * Requests answered 400 because they held a role:"system" message (refuseSystem).
     */
    systemRefusals: number;
    /**
     * Main-loop requests answered that held a role:"system" message.
     */
    systemAnswered: number;
    /**
     * The Read tool's input fields as the engine last offered them to the model
     * (an older engine lacks some, e.g. allow_large).
     */
    readFields: () => string[];
    close: () => Promise<void>;
};
