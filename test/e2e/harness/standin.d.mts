/**
 * @typedef {{ tool_use_id: string, input: Record<string, unknown>, content: string, isError: boolean }} ToolOutcome
 * @typedef {object} Observation What the model sees when it is asked for its next message.
 * @property {number} turn Assistant messages so far (0 on the first request).
 * @property {ToolOutcome[]} results One per tool_use of the previous assistant message, with the model's own input.
 * @property {string} context Every system / reminder text after the last assistant message, joined by "\n\n".
 * @typedef {{ reads: Record<string, unknown>[] } | { text: string }} Reply
 * @typedef {(obs: Observation) => Reply} Policy
 * @typedef {{ chars: number, tokens: number, text: string }} CountRecord
 * @typedef {object} StandIn
 * @property {number} port
 * @property {string} url
 * @property {Observation[]} observations Each main-loop turn as the model saw it (first sighting of each turn).
 * @property {CountRecord[]} counts Every count_tokens request.
 * @property {() => Promise<void>} close
 */
/**
 * @param {{ policy: Policy, count: (text: string) => number }} opts
 * @returns {Promise<StandIn>}
 */
export function startStandIn({ policy, count }: {
    policy: Policy;
    count: (text: string) => number;
}): Promise<StandIn>;
/**
 * What the model sees: the tool results and every system text after its last message (ENGINE.md §11).
 * @param {any[]} messages
 * @returns {Observation}
 */
export function observe(messages: any[]): Observation;
export type ToolOutcome = {
    tool_use_id: string;
    input: Record<string, unknown>;
    content: string;
    isError: boolean;
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
     * One per tool_use of the previous assistant message, with the model's own input.
     */
    results: ToolOutcome[];
    /**
     * Every system / reminder text after the last assistant message, joined by "\n\n".
     */
    context: string;
};
export type Reply = {
    reads: Record<string, unknown>[];
} | {
    text: string;
};
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
     * Every count_tokens request.
     */
    counts: CountRecord[];
    close: () => Promise<void>;
};
