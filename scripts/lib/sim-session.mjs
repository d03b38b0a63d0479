// One reader's session on the simulated engine, with or without the pager's real hooks run in-process the way the
// engine runs them (docs/ENGINE.md §2.8 order, §6 stdin, §7 contexts): the model's tool_use goes to the transcript,
// then PreToolUse, the read with the updatedInput, then PostToolUse or PostToolUseFailure; the model gets the result,
// then PreToolUse context, the PARTIAL banner and the post context, in that order.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Cursor } from '../../test/e2e/harness/reader.mjs';
import { coerceInput, hookContext, simulateRead, validateUpdatedInput } from './engine-sim.mjs';

/** The reader's window in windows mode: the 2000 lines the Read tool's description suggests. */
export const WINDOW_LINES = 2000;
import { root } from './load-src.mjs';

/**
 * The pager's hook entry point (src/hooks/io.ts), bundled from the TypeScript sources: exactly what the hook
 * binary runs, minus reading stdin and writing stdout.
 * @returns {Promise<{
 *   answer: (name: 'pre' | 'post', raw: string, ctx: any) => string,
 *   contextFor: (now: number, env: Record<string, string>) => any,
 * }>}
 */
/** What the usage of a request counts besides the conversation's calls and results, and what one Read call writes. */
const SYSTEM_TOKENS = 20_000;
const CALL_TOKENS = 60;

export async function loadHooks() {
  const dir = mkdtempSync(join(tmpdir(), 'rcp-hooks-'));
  const outfile = join(dir, 'hooks.mjs');
  try {
    await build({
      stdin: { contents: "export { answer, contextFor } from './src/hooks/io.ts';", resolveDir: root, loader: 'ts' },
      outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A model turn and a hook run take time; the clock never runs behind the real one, so hook deadlines hold. */
export class SimClock {
  constructor() { this.t = Date.now(); }
  /** @param {number} ms */
  advance(ms) { this.t = Math.max(Date.now(), this.t + ms); return this.t; }
}

let sessions = 0;

/**
 * @typedef {object} SimStep One Read: what the model asked, what ran, what came back, what it was told.
 * @property {Record<string, unknown>} asked
 * @property {Record<string, unknown>} ran
 * @property {boolean} isError
 * @property {string} kind engine-sim's outcome kind
 * @property {number} [first]
 * @property {number} [lines]
 * @property {string} context
 * @property {string} decision the reader's
 * @property {string} content the tool_result text
 * @property {any} [response] the tool_response the post hook got (PostToolUse)
 * @property {string} [error] the error the post hook got (PostToolUseFailure)
 *
 * @param {object} o
 * @param {import('./engine-sim.mjs').SimFile} o.file
 * @param {(i0: number, i1: number) => number} o.count
 * @param {'windows' | 'whole'} o.mode
 * @param {Awaited<ReturnType<typeof loadHooks>> | undefined} o.hooks Undefined: the bare engine.
 * @param {string} o.stateDir The machine's: its pager state (and memory across sessions) lives under it.
 * @param {string} [o.model] The model the transcript names (the pager keeps what it learns per model).
 * @param {number} [o.cap]
 * @param {number} [o.maxCalls]
 * @param {SimClock} [o.clock]
 * @param {(text: string) => number} [o.countText] The model's tokenizer: with it, each assistant record carries the
 *   usage the API reports (the whole input of its request), as the engine records it; without it, no usage.
 * @param {boolean} [o.flatUsage] Without `countText`: the usage the e2e stand-in reports when it counts nothing
 *   (10 in, 10 out), as the real engine records it.
 */
export function simulateSession(o) {
  const cap = o.cap ?? 25_000;
  const clock = o.clock ?? new SimClock();
  const sessionId = `sim-${process.pid}-${++sessions}`;
  const work = join(o.stateDir, 'sessions', sessionId);
  mkdirSync(work, { recursive: true });
  const transcript = join(work, `${sessionId}.jsonl`);
  writeFileSync(transcript, '');
  /** @type {Record<string, string>} */
  // The engine names itself to its hooks as the pinned engine does (docs/ENGINE.md 9.8): one that pages whole reads.
  const env = { READ_CEILING_PAGER_STATE_DIR: join(o.stateDir, 'state'), HOME: work, AI_AGENT: 'claude-code_2-1-332_harness' };
  if (cap !== 25_000) env.CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS = String(cap);
  const cwd = dirname(o.file.path);
  const target = o.mode === 'windows' ? { path: o.file.path, offset: 1, limit: WINDOW_LINES } : { path: o.file.path };
  const cursor = new Cursor(target);
  const maxCalls = o.maxCalls ?? 500;
  /** @type {SimStep[]} */
  const steps = [];
  let ids = 0;
  let parent = null;
  // The input of the next request: a system prompt and tools, then each call and its result with what joined it.
  let requestTokens = SYSTEM_TOKENS;
  for (let turn = 1; !cursor.done && steps.length < maxCalls; turn++) {
    const modelInput = /** @type {Record<string, unknown>} */ (cursor.next);
    const id = `toolu_sim_${sessionId}_${++ids}`;
    const uuid = `${sessionId}-a${ids}`;
    const now = clock.advance(2000);
    // The engine writes the assistant's tool_use before any hook runs (the post hook reads it back).
    appendFileSync(transcript, `${JSON.stringify({
      parentUuid: parent, isSidechain: false, type: 'assistant', uuid, sessionId, cwd, timestamp: new Date(now).toISOString(),
      message: {
        id: `msg_${uuid}`, type: 'message', role: 'assistant', model: o.model ?? 'claude-opus-5-5',
        content: [{ type: 'tool_use', id, name: 'Read', input: modelInput }], stop_reason: 'tool_use',
        ...(o.countText
          ? { usage: { input_tokens: requestTokens, output_tokens: CALL_TOKENS } }
          : o.flatUsage ? { usage: { input_tokens: 10, output_tokens: 10 } } : {}),
      },
    })}\n`);
    parent = uuid;
    const input = coerceInput(modelInput);
    const common = { session_id: sessionId, transcript_path: transcript, cwd, permission_mode: 'default', tool_name: 'Read', tool_use_id: id };

    let ran = input;
    let preContext;
    let badRewrite;
    if (o.hooks) {
      const out = o.hooks.answer('pre', JSON.stringify({ ...common, hook_event_name: 'PreToolUse', tool_input: input }), o.hooks.contextFor(now, env));
      if (out) {
        const spec = JSON.parse(out).hookSpecificOutput ?? {};
        if (spec.updatedInput) {
          const v = validateUpdatedInput(spec.updatedInput);
          if ('input' in v) ran = v.input; else badRewrite = v.error;
        }
        if (typeof spec.additionalContext === 'string') preContext = spec.additionalContext;
      }
    }
    const r = badRewrite
      ? { isError: true, content: badRewrite, kind: 'tokens', counted: false }
      : simulateRead(o.file, ran, { cap, count: o.count });
    let postContext;
    if (o.hooks && !badRewrite) {
      const event = r.isError
        ? { ...common, hook_event_name: 'PostToolUseFailure', tool_input: ran, error: r.error, is_interrupt: false, duration_ms: 15 }
        : { ...common, hook_event_name: 'PostToolUse', tool_input: ran, tool_response: r.response, duration_ms: 15 };
      const out = o.hooks.answer('post', JSON.stringify(event), o.hooks.contextFor(clock.advance(100), env));
      if (out) {
        const spec = JSON.parse(out).hookSpecificOutput ?? {};
        if (typeof spec.additionalContext === 'string') postContext = spec.additionalContext;
      }
    }
    appendFileSync(transcript, `${JSON.stringify({
      parentUuid: parent, isSidechain: false, type: 'user', uuid: `${sessionId}-u${ids}`, sessionId, cwd, timestamp: new Date(clock.t).toISOString(),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: r.content, is_error: r.isError }] },
      toolUseResult: r.isError ? `Error: ${r.content}` : r.response,
    })}\n`);
    parent = `${sessionId}-u${ids}`;
    // After a PARTIAL page the engine records its banner (the whole file's count) beside the result, after the post
    // hooks ran: the next Read's hooks can read it.
    if ('banner' in r && r.banner) {
      appendFileSync(transcript, `${JSON.stringify({
        parentUuid: parent, isSidechain: false, type: 'attachment', uuid: `${sessionId}-n${ids}`, sessionId, cwd,
        timestamp: new Date(clock.t).toISOString(),
        attachment: { type: 'read_truncation_notice', banner: r.banner, toolUseID: id },
      })}\n`);
    }
    // Each hook's context, as the engine records it (docs/ENGINE.md §9.5): the next hooks read it back.
    for (const [event, text] of [['PreToolUse', preContext], [r.isError ? 'PostToolUseFailure' : 'PostToolUse', postContext]]) {
      if (text === undefined) continue;
      appendFileSync(transcript, `${JSON.stringify({
        parentUuid: parent, isSidechain: false, type: 'attachment', uuid: `${sessionId}-${event}${ids}`, sessionId, cwd,
        timestamp: new Date(clock.t).toISOString(),
        attachment: { type: 'hook_additional_context', content: [text], hookName: `${event}:Read`, toolUseID: id, hookEvent: event },
      })}\n`);
    }
    const context = [
      preContext === undefined ? undefined : hookContext('PreToolUse', preContext),
      'banner' in r ? r.banner : undefined,
      postContext === undefined ? undefined : hookContext(r.isError ? 'PostToolUseFailure' : 'PostToolUse', postContext),
    ].filter((x) => x !== undefined).join('\n\n');
    cursor.see(
      turn, { tool_use_id: id, input: modelInput, content: r.content, isError: r.isError, reminders: [] }, context,
    );
    if (o.countText) requestTokens += CALL_TOKENS + o.countText(r.content) + (context ? o.countText(context) : 0);
    const seen = /** @type {any} */ (cursor.steps[cursor.steps.length - 1]);
    steps.push({
      asked: modelInput, ran, isError: r.isError, kind: r.kind, first: r.first, lines: r.lines, context,
      decision: seen.decision, content: r.content, response: r.response, error: r.error,
    });
  }
  rmSync(work, { recursive: true, force: true });
  return { steps, cursor, hitMaxCalls: !cursor.done };
}
