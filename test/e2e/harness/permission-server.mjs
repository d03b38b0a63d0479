// A stdio MCP server with one tool, `decide`, for the engine's --permission-prompt-tool: it plays the user in the
// permission dialog. Started by the engine (never by a test) as `node permission-server.mjs <rules.json> <log.jsonl>`.
// Rules are tried in order; the first that matches the tool name (and, when given, a substring of the input's
// JSON) answers, at most `times` times; no match allows the call unchanged. Every request and answer is logged.
import { appendFileSync, readFileSync } from 'node:fs';

const [rulesFile, logFile] = process.argv.slice(2);
/**
 * @type {{ tool: string, contains?: string, behavior: 'allow' | 'deny', message?: string, times?: number,
 *   used?: number }[]}
 */
const rules = rulesFile ? JSON.parse(readFileSync(rulesFile, 'utf8')) : [];

/** @param {any} args */
function decide(args) {
  const text = JSON.stringify(args?.input ?? {});
  for (const r of rules) {
    if (r.tool !== args?.tool_name || (r.contains !== undefined && !text.includes(r.contains))) continue;
    if (r.times !== undefined && (r.used ?? 0) >= r.times) continue;
    r.used = (r.used ?? 0) + 1;
    return r.behavior === 'deny' ? { behavior: 'deny', message: r.message ?? 'The user rejected this.' } : { behavior: 'allow', updatedInput: args.input };
  }
  return { behavior: 'allow', updatedInput: args?.input ?? {} };
}

/** @param {unknown} msg */
function send(msg) { process.stdout.write(`${JSON.stringify(msg)}\n`); }

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (line) handle(JSON.parse(line));
  }
});

/** @param {any} req */
function handle(req) {
  if (req.id === undefined) return; // a notification
  if (req.method === 'initialize') {
    return send({ jsonrpc: '2.0', id: req.id, result: {
      protocolVersion: req.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} },
      serverInfo: { name: 'e2e-permission', version: '1.0.0' },
    } });
  }
  if (req.method === 'tools/list') {
    return send({ jsonrpc: '2.0', id: req.id, result: { tools: [{
      name: 'decide', description: 'Answers a permission prompt as the user would.',
      inputSchema: { type: 'object', properties: { tool_name: { type: 'string' }, input: { type: 'object' }, tool_use_id: { type: 'string' } }, required: ['tool_name', 'input'] },
    }] } });
  }
  if (req.method === 'tools/call') {
    const answer = decide(req.params?.arguments);
    if (logFile) appendFileSync(logFile, `${JSON.stringify({ request: req.params?.arguments, answer })}\n`);
    return send({ jsonrpc: '2.0', id: req.id, result: { content: [{ type: 'text', text: JSON.stringify(answer) }] } });
  }
  if (req.method === 'ping') return send({ jsonrpc: '2.0', id: req.id, result: {} });
  send({ jsonrpc: '2.0', id: req.id, error: { code: -32601, message: `no method ${req.method}` } });
}
