// The user in the engine's permission dialog, for headless runs: a stdio MCP server (permission-server.mjs) named
// by --permission-prompt-tool answers every prompt by the test's rules, so the rejections are the engine's own.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'permission-server.mjs');
export const PERMISSION_TOOL = 'mcp__perm__decide';

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
export function permissionPrompts(dir, rules) {
  const rulesFile = join(dir, 'perm-rules.json');
  const logFile = join(dir, 'perm-log.jsonl');
  const configFile = join(dir, 'perm-mcp.json');
  writeFileSync(rulesFile, JSON.stringify(rules));
  writeFileSync(configFile, JSON.stringify({ mcpServers: { perm: { type: 'stdio', command: process.execPath, args: [SERVER, rulesFile, logFile] } } }));
  return {
    args: ['--mcp-config', configFile, '--strict-mcp-config', '--permission-prompt-tool', PERMISSION_TOOL],
    /** @returns {Prompt[]} */
    prompts: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []),
  };
}
