/** The hook wiring users copy: the repo's settings.example.json when present, else the documented form. */
export function exampleSettings(): any;
/** The example settings with `read-ceiling-pager <x>` run from this checkout; fails if the example has none. */
export function pagerSettings(): any;
/** A fresh directory under the system temp dir, removed by removeTempDirs(). @param {string} prefix */
export function tempDir(prefix: string): string;
/** Removes every directory tempDir() made in this process (kept when E2E_KEEP is set, to look at). */
export function removeTempDirs(): void;
/**
 * @typedef {object} RunOptions
 * @property {string} baseUrl The stand-in.
 * @property {string} cwd Project dir; the files live here.
 * @property {'pager' | 'none' | 'plugin'} hooks
 * @property {number} [cap] Sets CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS.
 * @property {string} [prompt]
 * @property {number} [timeoutMs]
 * @property {Record<string, string>} [extraEnv]
 * @property {boolean} [keepHome] Keep the engine's HOME (its transcripts under .claude/projects) until
 *   removeTempDirs(), for tests that read what the engine wrote.
 * @property {any} [settings] The project's .claude/settings.json, in place of the one `hooks` picks.
 * @property {string[]} [args] More engine arguments (for example --permission-prompt-tool, --mcp-config).
 * @property {string} [allowedTools] In place of "Read".
 * @property {string} [home] A HOME the test set up as a user would (`read-ceiling-pager install`, a plugin
 *   install): used as it is and kept, with no state-directory override, so the pager finds its state where a
 *   user's would be.
 * @typedef {object} RunResult
 * @property {any[]} events stream-json lines.
 * @property {string} stderr
 * @property {number | null} code
 * @property {number} ms
 * @property {string} home The engine's HOME; gone after the run unless keepHome.
 * @property {string} projects Where the engine wrote its transcripts: <home>/.claude/projects.
 */
/** @param {RunOptions} o @returns {Promise<RunResult>} */
export function runEngine(o: RunOptions): Promise<RunResult>;
export const REPO: string;
/** The engine the tests run: the pinned one, or E2E_CLAUDE (a native binary, or an older engine's cli.js) as
 * `npm run test:engines` sets it to try another version. */
export const CLAUDE: string;
/** How to start CLAUDE: a `.js` engine runs under this Node. Spawn `ENGINE[0]` with `[...ENGINE.slice(1), ...args]`. */
export const ENGINE: string[];
export const PAGER_BIN: string;
export const CAP_ENV: "CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS";
export type RunOptions = {
    /**
     * The stand-in.
     */
    baseUrl: string;
    /**
     * Project dir; the files live here.
     */
    cwd: string;
    hooks: "pager" | "none" | "plugin";
    /**
     * Sets CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS.
     */
    cap?: number | undefined;
    prompt?: string | undefined;
    timeoutMs?: number | undefined;
    extraEnv?: Record<string, string> | undefined;
    /**
     * Keep the engine's HOME (its transcripts under .claude/projects) until
     * removeTempDirs(), for tests that read what the engine wrote.
     */
    keepHome?: boolean | undefined;
    /**
     * The project's .claude/settings.json, in place of the one `hooks` picks.
     */
    settings?: any;
    /**
     * More engine arguments (for example --permission-prompt-tool, --mcp-config).
     */
    args?: string[] | undefined;
    /**
     * In place of "Read".
     */
    allowedTools?: string | undefined;
    /**
     * A HOME the test set up as a user would (`read-ceiling-pager install`, a plugin
     * install): used as it is and kept, with no state-directory override, so the pager finds its state where a
     * user's would be.
     */
    home?: string | undefined;
};
export type RunResult = {
    /**
     * stream-json lines.
     */
    events: any[];
    stderr: string;
    code: number | null;
    ms: number;
    /**
     * The engine's HOME; gone after the run unless keepHome.
     */
    home: string;
    /**
     * Where the engine wrote its transcripts: <home>/.claude/projects.
     */
    projects: string;
};
