// A minimal stand-in for the Messages API (ENGINE.md §11), enough to script Read calls and collect the
// transcripts the real engine writes. Binds 127.0.0.1, port 0; close() when done.
// Used only until test/e2e offers a runner of its own.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * @param {Array<Step | ((messages: any[]) => Step)>} script one reply per main-loop turn; a function sees the messages so far
 * @typedef {{reads?: Array<Record<string, unknown>>, text?: string}} Step
 * @param {{tokensPerChar?: number}} [opts] count_tokens answers ceil(chars × tokensPerChar)
 */
export async function startStandIn(script, opts = {}) {
  const tokensPerChar = opts.tokensPerChar ?? 1;
  let toolSeq = 0;
  /** The messages of the last main-loop request: the whole conversation as the model saw it. */
  let lastMessages = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'POST') { res.writeHead(404).end(); return; }
      let body = {};
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'); } catch { /* empty */ }
      if (path.startsWith('/v1/messages/count_tokens')) {
        const text = (body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('');
        json(res, { input_tokens: Math.ceil(text.length * tokensPerChar) });
        return;
      }
      if (!path.startsWith('/v1/messages')) { res.writeHead(404).end(); return; }
      const main = (body.tools ?? []).some((t) => t.name === 'Read');
      let content;
      if (main) {
        lastMessages = body.messages ?? [];
        const turn = lastMessages.filter((m) => m.role === 'assistant').length;
        const entry = script[turn] ?? { text: 'Done.' };
        const step = typeof entry === 'function' ? entry(lastMessages) : entry;
        content = step.reads
          ? step.reads.map((input) => ({ type: 'tool_use', id: `toolu_${String(++toolSeq).padStart(4, '0')}${randomBytes(6).toString('hex')}`, name: 'Read', input }))
          : [{ type: 'text', text: step.text ?? 'Done.' }];
      } else {
        content = [{ type: 'text', text: 'ok' }];
      }
      const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const model = body.model ?? 'claude-opus-5-5';
      if (!body.stream) {
        json(res, { id: `msg_${toolSeq}`, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      ev('message_start', { message: { id: `msg_${toolSeq}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
      content.forEach((b, index) => {
        if (b.type === 'text') {
          ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
          ev('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
        } else {
          ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
          ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
        }
        ev('content_block_stop', { index });
      });
      ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
      ev('message_stop', {});
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    seen: () => lastMessages,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function json(res, obj) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}
