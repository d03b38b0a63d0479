// A stand-in for the Messages API on 127.0.0.1 (ENGINE.md §11): it plays the model by a scripted policy and
// answers count_tokens with a real tokenizer. It records what it was asked, so tests can see what the model saw.
import { createServer } from 'node:http';

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
export async function startStandIn({ policy, count }) {
  /** @type {Map<number, Reply>} */
  const replies = new Map();
  /** @type {Observation[]} */
  const observations = [];
  /** @type {CountRecord[]} */
  const counts = [];
  let ids = 0;

  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req.method ?? 'GET', req.url ?? '/', Buffer.concat(chunks).toString('utf8'), res);
      } catch (err) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
      }
    });
  });

  /** @param {string} method @param {string} url @param {string} raw @param {import('node:http').ServerResponse} res */
  function handle(method, url, raw, res) {
    const path = url.split('?')[0] ?? '';
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      const body = JSON.parse(raw);
      const text = messageText(body.messages ?? []);
      const tokens = count(text);
      counts.push({ chars: text.length, tokens, text });
      return json(res, { input_tokens: tokens });
    }
    if (method === 'POST' && path === '/v1/messages') {
      const body = JSON.parse(raw);
      const isMainLoop = (body.tools ?? []).some((/** @type {{name?: string}} */ t) => t.name === 'Read');
      /** @type {Reply} */
      let reply = { text: 'OK.' };
      if (isMainLoop) {
        const obs = observe(body.messages ?? []);
        let r = replies.get(obs.turn);
        if (!r) {
          observations.push(obs);
          r = policy(obs);
          replies.set(obs.turn, r);
        }
        reply = r;
      }
      const content = 'text' in reply
        ? [{ type: 'text', text: reply.text }]
        : reply.reads.map((input) => ({ type: 'tool_use', id: `toolu_e2e_${String(++ids).padStart(4, '0')}`, name: 'Read', input }));
      const message = {
        id: `msg_e2e_${++ids}`, type: 'message', role: 'assistant', model: body.model ?? 'stand-in', content,
        stop_reason: 'text' in reply ? 'end_turn' : 'tool_use', stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      };
      return body.stream ? stream(res, message) : json(res, message);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'stand-in' } }));
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const addr = server.address();
  if (!addr || typeof addr === 'string') throw new Error('stand-in has no port');
  return {
    port: addr.port,
    url: `http://127.0.0.1:${addr.port}`,
    observations,
    counts,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve(undefined));
    }),
  };
}

/** @param {import('node:http').ServerResponse} res @param {unknown} body */
function json(res, body) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** @param {import('node:http').ServerResponse} res @param {any} message */
function stream(res, message) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  /** @param {string} type @param {unknown} data */
  const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  event('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  message.content.forEach((/** @type {any} */ block, /** @type {number} */ index) => {
    if (block.type === 'text') {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    event('content_block_stop', { type: 'content_block_stop', index });
  });
  event('message_delta', { type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
  event('message_stop', { type: 'message_stop' });
  res.end();
}

/** The text a count_tokens request counts: every string or text block of its messages. */
function messageText(/** @type {any[]} */ messages) {
  return messages.map((m) => blockText(m.content)).join('');
}

/** @param {unknown} content @returns {string} */
function blockText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((/** @type {any} */ b) => (typeof b?.text === 'string' ? b.text : typeof b?.content === 'string' ? b.content : blockText(b?.content))).join('');
}

/**
 * What the model sees: the tool results and every system text after its last message (ENGINE.md §11).
 * @param {any[]} messages
 * @returns {Observation}
 */
export function observe(messages) {
  let last = -1;
  messages.forEach((m, i) => { if (m.role === 'assistant') last = i; });
  const turn = messages.filter((m) => m.role === 'assistant').length;
  /** @type {Map<string, Record<string, unknown>>} */
  const inputs = new Map();
  if (last >= 0 && Array.isArray(messages[last].content)) {
    for (const b of messages[last].content) if (b.type === 'tool_use') inputs.set(b.id, b.input);
  }
  /** @type {ToolOutcome[]} */
  const results = [];
  /** @type {string[]} */
  const context = [];
  for (const m of messages.slice(last + 1)) {
    if (m.role === 'system') { context.push(blockText(m.content)); continue; }
    if (typeof m.content === 'string') { context.push(m.content); continue; }
    for (const b of m.content ?? []) {
      if (b.type === 'tool_result') {
        const content = blockText(b.content);
        results.push({ tool_use_id: b.tool_use_id, input: inputs.get(b.tool_use_id) ?? {}, content, isError: b.is_error === true });
      } else if (b.type === 'text') {
        context.push(b.text);
      }
    }
  }
  return { turn, results, context: context.join('\n\n') };
}
