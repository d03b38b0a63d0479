// A stand-in for the Messages API on 127.0.0.1 (docs/ENGINE.md, "How"): it plays the model by a scripted policy and
// answers count_tokens with a real tokenizer. It records what it was asked, so tests can see what the model saw.
// With refuseSystem it plays an API that rejects role:"system" turns, which puts the engine in its fallback mode
// (docs/ENGINE.md §7.5): hook contexts then reach the model as <system-reminder> text beside the tool_result.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * @typedef {object} ToolOutcome
 * @property {string} tool_use_id
 * @property {Record<string, unknown>} input The model's own input.
 * @property {string} content The tool's text, without any <system-reminder> the engine appended to it.
 * @property {boolean} isError
 * @property {string[]} reminders Texts the engine delivered inside this tool_result as <system-reminder> blocks (its
 *   fallback mode, docs/ENGINE.md §7.5), tags removed; they are in the Observation's context too.
 * @typedef {object} Observation What the model sees when it is asked for its next message.
 * @property {number} turn Assistant messages so far (0 on the first request).
 * @property {string} [agent] Set when a subagent asks: the `prompt` of the Agent call that started it.
 * @property {ToolOutcome[]} results One per tool_use of the previous assistant message, with the model's own input.
 * @property {string} context Every system / reminder text after the last assistant message, joined by "\n\n":
 *   role:"system" messages, text blocks, and <system-reminder> blocks found inside tool_results (fallback mode).
 * @typedef {{ name: string, input: Record<string, unknown> }} ToolCall A tool_use of any tool.
 * @typedef {{ reads: Record<string, unknown>[] } | { calls: ToolCall[] } | { text: string }} Reply
 * @typedef {(obs: Observation) => Reply} Policy Plays the main loop and, with obs.agent set, each subagent the model
 *   started (a subagent's first user message holds the prompt of the Agent call the stand-in made).
 * @typedef {{ chars: number, tokens: number, text: string }} CountRecord
 * @typedef {object} StandIn
 * @property {number} port
 * @property {string} url
 * @property {Observation[]} observations Each main-loop turn as the model saw it (first sighting of each turn).
 * @property {Observation[]} agentObservations Each subagent turn, likewise, with `agent` set.
 * @property {string[]} classified The actions the auto-mode classifier was asked about (each stage counts).
 * @property {CountRecord[]} counts Every count_tokens request.
 * @property {() => any[]} conversation The messages of the last main-loop request the stand-in answered: the whole
 *   conversation as the model last saw it, raw.
 * @property {number} systemRefusals Requests answered 400 because they held a role:"system" message (refuseSystem).
 * @property {number} systemAnswered Main-loop requests answered that held a role:"system" message.
 * @property {() => string[]} readFields The Read tool's input fields as the engine last offered them to the model
 *   (an older engine lacks some, e.g. allow_large).
 * @property {() => Promise<void>} close
 */

/** The system prompt of the engine's auto-mode classifier (`--permission-mode auto`), a side request the stand-in
 * answers by `classify`. */
const CLASSIFIER_SYSTEM = 'You are a security monitor for autonomous AI coding agents';

/** The tools that start a subagent (named Task before Agent). */
const SUBAGENT_TOOLS = new Set(['Agent', 'Task']);

/** The 400 the real API gives a role it does not know in `messages`. The engine (2.1.332, 2.1.337) falls back only
 * when the message holds "Input should be 'user' or 'assistant'": a 400 with other text is retried, the run fails. */
const SYSTEM_ROLE_REFUSAL = {
  type: 'error',
  error: { type: 'invalid_request_error', message: "messages.1.role: Input should be 'user' or 'assistant'" },
};

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
export async function startStandIn({
  policy, count, refuseSystem = false, thinkMs = 0, classify, usage = false, noCountTokens = false,
}) {
  /** @type {Map<string, Reply>} by thread and turn */
  const replies = new Map();
  /** @type {Observation[]} */
  const observations = [];
  /** @type {Observation[]} */
  const agentObservations = [];
  /** @type {string[]} actions the classifier was asked about, in order */
  const classified = [];
  /** @type {string[]} prompts of the subagents the model started (its Agent / Task calls): they name their threads */
  const agentPrompts = [];
  /** @type {CountRecord[]} */
  const counts = [];
  /** @type {any[]} */
  let conversation = [];
  /** @type {string[]} */
  let readFields = [];
  let systemRefusals = 0;
  let systemAnswered = 0;
  let ids = 0;
  // Tool ids unique across stand-ins too, as the API's are: transcripts of several runs can be read together.
  const run = randomBytes(4).toString('hex');

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
      if (noCountTokens) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'Not found' } }));
        return;
      }
      const body = JSON.parse(raw);
      const text = messageText(body.messages ?? []);
      const tokens = count(text);
      counts.push({ chars: text.length, tokens, text });
      return json(res, { input_tokens: tokens });
    }
    if (method === 'POST' && path === '/v1/messages') {
      const body = JSON.parse(raw);
      const hasSystem = (body.messages ?? []).some((/** @type {{role?: string}} */ m) => m.role === 'system');
      if (refuseSystem && hasSystem) {
        systemRefusals++;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(SYSTEM_ROLE_REFUSAL));
        return;
      }
      // Some engines (2.1.2 among them) send a "Warmup" request with the main loop's tools at start: not a turn.
      const warmup = blockText(body.messages?.[0]?.content) === 'Warmup';
      const isMainLoop = !warmup && (body.tools ?? []).some((/** @type {{name?: string}} */ t) => t.name === 'Read');
      /** @type {Reply} */
      let reply = { text: 'OK.' };
      if (classify && blockText(body.system).includes(CLASSIFIER_SYSTEM)) {
        const action = classifiedAction(messageText(body.messages ?? []));
        classified.push(action);
        reply = { text: classify(action)
          ? '<block>yes</block><category>Irreversible Local Destruction</category><reason>[Irreversible Local Destruction] The stand-in blocks this.</reason>'
          : '<block>no</block>' };
      }
      if (isMainLoop) {
        const read = (body.tools ?? []).find((/** @type {{name?: string}} */ t) => t.name === 'Read');
        readFields = Object.keys(read?.input_schema?.properties ?? {});
        const messages = body.messages ?? [];
        const first = blockText(messages[0]?.content);
        const agent = agentPrompts.find((p) => first.includes(p));
        if (agent === undefined) {
          if (hasSystem) systemAnswered++;
          conversation = messages;
        }
        const obs = { ...observe(messages), ...(agent === undefined ? {} : { agent }) };
        const key = `${agent ?? ''}\u0000${obs.turn}`;
        let r = replies.get(key);
        if (!r) {
          (agent === undefined ? observations : agentObservations).push(obs);
          r = policy(obs);
          replies.set(key, r);
          if ('calls' in r) {
            for (const c of r.calls) if (SUBAGENT_TOOLS.has(c.name) && typeof c.input.prompt === 'string') agentPrompts.push(c.input.prompt);
          }
        }
        reply = r;
      }
      const content = 'text' in reply
        ? [{ type: 'text', text: reply.text }]
        : ('calls' in reply ? reply.calls : reply.reads.map((input) => ({ name: 'Read', input })))
          .map(({ name, input }) => ({ type: 'tool_use', id: `toolu_e2e_${run}_${String(++ids).padStart(4, '0')}`, name, input }));
      const cleared = isMainLoop ? serverClearing(body) : undefined;
      const message = {
        id: `msg_e2e_${run}_${++ids}`, type: 'message', role: 'assistant', model: body.model ?? 'stand-in', content,
        stop_reason: 'text' in reply ? 'end_turn' : 'tool_use', stop_sequence: null,
        usage: { input_tokens: usage && isMainLoop ? count(requestText(body)) : 10, output_tokens: 10 },
        ...(cleared ? { context_management: { applied_edits: [cleared] } } : {}),
      };
      const send = () => (body.stream ? stream(res, message) : json(res, message));
      if (isMainLoop && thinkMs > 0) setTimeout(send, thinkMs);
      else send();
      return;
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
    agentObservations,
    classified,
    counts,
    conversation: () => conversation,
    readFields: () => readFields,
    get systemRefusals() { return systemRefusals; },
    get systemAnswered() { return systemAnswered; },
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
  event('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: message.usage.input_tokens, output_tokens: 1 } } });
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
  event('message_delta', {
    type: 'message_delta', delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 },
    ...(message.context_management ? { context_management: message.context_management } : {}),
  });
  event('message_stop', { type: 'message_stop' });
  res.end();
}

/**
 * What the API's tool-result clearing (a `clear_tool_uses_20250919` edit in the request's context_management, which
 * the engine sends on a return after idle) would report: past the trigger, every tool use but the newest `keep` is
 * cleared. The stand-in reports it as the API does; the model it plays does not need the cleared text.
 * @param {any} body
 */
function serverClearing(body) {
  const edit = (body.context_management?.edits ?? []).find((/** @type {any} */ e) => e?.type === 'clear_tool_uses_20250919');
  if (!edit) return undefined;
  const excluded = new Set(edit.exclude_tools ?? []);
  const uses = (body.messages ?? []).flatMap((/** @type {any} */ m) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content : []))
    .filter((/** @type {any} */ b) => b.type === 'tool_use' && !excluded.has(b.name)).length;
  const trigger = edit.trigger?.value ?? 100;
  const keep = edit.keep?.value ?? 3;
  if (uses <= trigger || uses <= keep) return undefined;
  return { type: 'clear_tool_uses_20250919', cleared_tool_uses: uses - keep, cleared_input_tokens: 1000 * (uses - keep) };
}

/** The action an auto-mode classifier request is about: the last line of its <transcript>. */
function classifiedAction(/** @type {string} */ text) {
  const transcript = /<transcript>\n([\s\S]*?)<\/transcript>/.exec(text)?.[1] ?? '';
  return transcript.trim().split('\n').pop() ?? '';
}

/** The text a count_tokens request counts: every string or text block of its messages. */
/** The text of a whole request, as a usage count sees it: system, messages, and the tool calls' inputs. */
function requestText(/** @type {any} */ body) {
  const calls = (body.messages ?? []).flatMap((/** @type {any} */ m) => (Array.isArray(m.content) ? m.content : []))
    .filter((/** @type {any} */ b) => b?.type === 'tool_use').map((/** @type {any} */ b) => JSON.stringify(b.input));
  return blockText(body.system) + messageText(body.messages ?? []) + calls.join('');
}

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
 * What the model sees: the tool results and every system text after its last message (docs/ENGINE.md §7.4).
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
        const { content, reminders } = splitReminders(b.content);
        results.push({
          tool_use_id: b.tool_use_id, input: inputs.get(b.tool_use_id) ?? {}, content, isError: b.is_error === true,
          reminders,
        });
        context.push(...reminders);
      } else if (b.type === 'text') {
        context.push(b.text);
      }
    }
  }
  return { turn, results, context: context.join('\n\n') };
}

const LEADING_BANNER = /^<system-reminder>(\[Truncated: PARTIAL view [^\n]*?\])<\/system-reminder>\n\n/;
const TRAILING_REMINDER = /\n\n<system-reminder>\n((?:(?!<\/system-reminder>)[\s\S])*)\n<\/system-reminder>\s*$/;

/**
 * A tool_result's own text apart from the <system-reminder> blocks the engine appends in fallback mode, after
 * "\n\n" inside the string or as later text blocks of the content (docs/ENGINE.md §7.5), and the banner of a partial
 * page that an engine before 2.1.205 puts at its head. A result that is nothing but a
 * reminder (offset past EOF, an empty file) is the tool's own text and stays.
 * @param {unknown} raw
 * @returns {{ content: string, reminders: string[] }}
 */
export function splitReminders(raw) {
  /** @type {string[]} */
  const reminders = [];
  let content;
  if (Array.isArray(raw)) {
    const texts = raw.map((b) => blockText([b]));
    const own = [];
    for (const [i, t] of texts.entries()) {
      const m = /^<system-reminder>\n?([\s\S]*?)\n?<\/system-reminder>\s*$/.exec(t);
      if (i > 0 && m) reminders.push(/** @type {string} */ (m[1]));
      else own.push(t);
    }
    content = own.join('');
  } else {
    content = blockText(raw);
  }
  for (let m = TRAILING_REMINDER.exec(content); m; m = TRAILING_REMINDER.exec(content)) {
    reminders.unshift(/** @type {string} */ (m[1]));
    content = content.slice(0, m.index);
  }
  // Engines before 2.1.205 put a partial page's banner at the head of the result (docs/ENGINE.md 4.2).
  const head = LEADING_BANNER.exec(content);
  if (head && head[0].length < content.length) {
    reminders.unshift(/** @type {string} */ (head[1]));
    content = content.slice(head[0].length);
  }
  return { content, reminders };
}
