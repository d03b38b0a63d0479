/**
 * @typedef {{ tool: string, contains?: string, behavior: 'allow' | 'deny', message?: string, times?: number }} Rule
 * @typedef {{ request: { tool_name: string, input: Record<string, unknown>, tool_use_id?: string },
 *   answer: { behavior: string, message?: string } }} Prompt
 */
/**
 * Engine arguments that route permission prompts to the rules, and a reader of the prompts it answered.
 * @param {string} dir A temp dir for the config, rules and log.
 * @param {Rule[]} rules
 */
export function permissionPrompts(dir: string, rules: Rule[]): {
    args: string[];
    /** @returns {Prompt[]} */
    prompts: () => Prompt[];
};
export const PERMISSION_TOOL: "mcp__perm__decide";
export type Rule = {
    tool: string;
    contains?: string;
    behavior: "allow" | "deny";
    message?: string;
    times?: number;
};
export type Prompt = {
    request: {
        tool_name: string;
        input: Record<string, unknown>;
        tool_use_id?: string;
    };
    answer: {
        behavior: string;
        message?: string;
    };
};
