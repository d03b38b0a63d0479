// Each way of installing, end to end on the real engine: a fresh HOME set up the way a user would
// (`read-ceiling-pager install`, or `claude plugin marketplace add` + `claude plugin install` from a plain clone),
// then a headless session against a stand-in model whose one Read asks for far more than the cap allows.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const CLAUDE = join(REPO, 'node_modules/.bin/claude');
const CAP = 2000;
const ASKED = 3000;

let server: Server;
let baseUrl: string;
/** The second main-loop request's messages: what the model saw after its Read. */
let seen: unknown[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'rcp-install-e2e-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      if (req.url?.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: Math.ceil(body.length / 4) }));
        return;
      }
      if (!req.url?.startsWith('/v1/messages')) { res.writeHead(404).end(); return; }
      const j = JSON.parse(body);
      const main = (j.tools ?? []).some((t: { name: string }) => t.name === 'Read');
      const turn = j.messages.filter((m: { role: string }) => m.role === 'assistant').length;
      if (main && turn === 1) seen = j.messages;
      const block = main && turn === 0
        ? { type: 'tool_use', id: 'toolu_e2e_1', name: 'Read', input: { file_path: currentFile, offset: 1, limit: ASKED } }
        : { type: 'text', text: 'done' };
      const stop = block.type === 'tool_use' ? 'tool_use' : 'end_turn';
      const message = { id: 'msg_e2e', type: 'message', role: 'assistant', model: j.model, content: [block], stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } };
      if (!j.stream) { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message)); return; }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev('message_start', { message: { ...message, content: [], stop_reason: null } });
      if (block.type === 'text') {
        ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'done' } });
      } else {
        ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_e2e_1', name: 'Read', input: {} } });
        ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify((block as { input: object }).input) } });
      }
      ev('content_block_stop', { index: 0 });
      ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
      ev('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(tmp, { recursive: true, force: true });
});

let currentFile = '';

function freshHome(name: string) {
  const home = join(tmp, name);
  const project = join(home, 'proj');
  mkdirSync(project, { recursive: true });
  currentFile = join(project, 'big.txt');
  writeFileSync(currentFile, Array.from({ length: 5000 }, (_, i) => `line ${i + 1} of a long file that no window of ${ASKED} lines can hold`).join('\n'));
  return { home, project, env: { PATH: process.env.PATH, HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } };
}

/** One headless session; returns the Read's tool_result text and the notes the model got after it. */
async function session(cwd: string, env: NodeJS.ProcessEnv) {
  seen = [];
  const child = spawn(CLAUDE, ['-p', 'Read the file.', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read'], {
    cwd,
    env: { ...env, ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_API_KEY: 'sk-ant-e2e', CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: String(CAP) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
  const code = await new Promise((r) => child.on('close', r));
  clearTimeout(timer);
  const text = JSON.stringify(seen);
  const result = (seen as Array<{ role: string; content: unknown }>)
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .find((b: { type?: string }) => b.type === 'tool_result') as { content: string } | undefined;
  const shown = typeof result?.content === 'string' ? result.content.split('\n').filter((l) => /^\d+\t/.test(l)).length : 0;
  return { code, stderr, shown, text, refused: /exceeds maximum allowed tokens/.test(text) };
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('installed, the real engine clamps a Read that would exceed the cap', () => {
  it('without the pager the engine refuses the window (the baseline these tests rely on)', async () => {
    const { project, env } = freshHome('baseline');
    const r = await session(project, env);
    expect(r.code).toBe(0);
    expect(r.refused).toBe(true);
  }, 120_000);

  it('via `read-ceiling-pager install` into ~/.claude/settings.json', async () => {
    const { project, env } = freshHome('settings');
    expect(run(process.execPath, [join(REPO, 'bin/read-ceiling-pager.js'), 'install'], project, env).code).toBe(0);
    const r = await session(project, env);
    expect(r.code).toBe(0);
    expect(r.refused).toBe(false);
    expect(r.shown).toBeGreaterThan(0);
    expect(r.shown).toBeLessThan(ASKED);
    expect(r.text).toContain('hook additional context');
  }, 120_000);

  it('via the marketplace: `claude plugin marketplace add <clone>` then `claude plugin install`', async () => {
    const { home, project, env } = freshHome('plugin');
    const clone = join(home, 'clone');
    // A plain clone of what is committed: the plugin must run with no build step.
    expect(run('git', ['clone', '-q', '--depth', '1', `file://${REPO}`, clone], home, env).code).toBe(0);
    expect(run(CLAUDE, ['plugin', 'marketplace', 'add', clone], project, env)).toMatchObject({ code: 0 });
    const installed = run(CLAUDE, ['plugin', 'install', 'read-ceiling-pager@read-ceiling-pager'], project, env);
    expect(installed.out).toContain('Successfully installed plugin: read-ceiling-pager@read-ceiling-pager');
    const r = await session(project, env);
    expect(r.code).toBe(0);
    expect(r.refused).toBe(false);
    expect(r.shown).toBeGreaterThan(0);
    expect(r.shown).toBeLessThan(ASKED);
    // State goes to the plugin's data directory, which survives plugin updates.
    const data = join(home, '.claude', 'plugins', 'data', 'read-ceiling-pager-read-ceiling-pager', 'state');
    expect(existsSync(data) && readdirSync(data).some((f) => f.endsWith('.json'))).toBe(true);
  }, 180_000); // plugin install copies the clone and the session may take 10+ s (ENGINE.md §9)
});
