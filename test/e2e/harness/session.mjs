// One scripted session on the real engine: start the stand-in, run the engine with or without the pager, let
// the reader page through its targets, stop the stand-in. Shared by the tests and `npm run demo`.
import { runEngine } from './engine.mjs';
import { reader } from './reader.mjs';
import { startStandIn } from './standin.mjs';
import { tokenizer } from './tokenizer.mjs';

/**
 * @typedef {object} SessionOptions
 * @property {string} cwd
 * @property {import('./reader.mjs').Target[]} targets
 * @property {'pager' | 'none' | 'plugin'} hooks
 * @property {number} [cap]
 * @property {string} [tokenizerName] Defaults to $E2E_TOKENIZER, then o200k.
 * @property {number} [scale] Multiplies every count: a denser model.
 * @property {number} [maxTurns]
 * @property {number} [timeoutMs]
 * @typedef {Awaited<ReturnType<typeof readSession>>} Session
 */

/** @param {SessionOptions} o */
export async function readSession(o) {
  const tok = tokenizer({ name: o.tokenizerName, scale: o.scale });
  const r = reader(o.targets, { maxTurns: o.maxTurns });
  const standIn = await startStandIn({ policy: r.policy, count: tok.count });
  try {
    const run = await runEngine({ baseUrl: standIn.url, cwd: o.cwd, hooks: o.hooks, cap: o.cap, timeoutMs: o.timeoutMs });
    /** @type {Map<string, any>} what the engine ran, by tool_use_id (stream-json's tool_use_result) */
    const ran = new Map();
    for (const e of run.events) {
      if (e.type !== 'user' || !Array.isArray(e.message?.content)) continue;
      for (const b of e.message.content) if (b.type === 'tool_result') ran.set(b.tool_use_id, e.tool_use_result);
    }
    const result = run.events.find((e) => e.type === 'result');
    const steps = r.cursors.flatMap((c) => c.steps);
    return {
      cursors: r.cursors,
      /** @param {string} path */
      cursor: (path) => {
        const c = r.cursors.find((x) => x.path === path);
        if (!c) throw new Error(`no cursor for ${path}`);
        return c;
      },
      calls: steps.length,
      refusals: steps.filter((s) => s.isError).length,
      counts: standIn.counts,
      observations: standIn.observations,
      ran,
      run,
      ok: run.code === 0 && result?.subtype === 'success',
      tokenizer: tok,
    };
  } finally {
    await standIn.close();
  }
}
