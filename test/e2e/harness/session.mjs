// One scripted session on the real engine: start the stand-in, run the engine with or without the pager, play
// the model, stop the stand-in. The model is either the reader, which pages through its targets by following
// notes (readSession), or an exact script of calls (scriptSession). Shared by the tests and `npm run demo`.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runEngine } from './engine.mjs';
import { reader } from './reader.mjs';
import { startStandIn } from './standin.mjs';
import { tokenizer } from './tokenizer.mjs';

/**
 * @typedef {object} EngineOptions What every session sets up around the model.
 * @property {string} cwd
 * @property {'pager' | 'none' | 'plugin'} hooks
 * @property {number} [cap]
 * @property {string} [tokenizerName] Defaults to $E2E_TOKENIZER, then o200k.
 * @property {number} [scale] Multiplies every count: a denser model.
 * @property {(text: string) => number} [count] count_tokens by this function instead of a tokenizer.
 * @property {boolean} [noCountTokens] The API has no count_tokens (see startStandIn).
 * @property {boolean} [refuseSystem] The API refuses role:"system" turns: the engine's fallback mode
 *   (docs/ENGINE.md §7.5).
 * @property {boolean} [keepHome] Keep the engine's HOME and transcripts until removeTempDirs().
 * @property {number} [timeoutMs]
 * @property {any} [settings] See RunOptions.
 * @property {string[]} [args] See RunOptions.
 * @property {string} [allowedTools] See RunOptions.
 * @property {Record<string, string>} [extraEnv] See RunOptions.
 * @property {number} [thinkMs] The model's time to answer each turn (see startStandIn).
 * @property {boolean} [usage] The stand-in reports each request's input tokens as the API does (see startStandIn).
 * @property {string} [home] See RunOptions: a HOME kept across runs, for a session resumed with `--resume`.
 * @property {string} [prompt] The user's prompt (`-p`), for example a slash command.
 * @property {(action: string) => boolean} [classify] Plays the auto-mode classifier (see startStandIn).
 * @typedef {EngineOptions & { targets: import('./reader.mjs').Target[], maxTurns?: number }} SessionOptions
 * @typedef {Awaited<ReturnType<typeof readSession>>} Session
 * @typedef {import('./standin.mjs').Reply
 *   | ((obs: import('./standin.mjs').Observation) => import('./standin.mjs').Reply)} ScriptStep
 *   One assistant message: fixed, or decided from what the model sees at that turn.
 * @typedef {EngineOptions & { script: ScriptStep[], agents?: Record<string, ScriptStep[]> }} ScriptOptions
 *   agents: the script of each subagent the model starts, by the `prompt` of its Agent call.
 * @typedef {Awaited<ReturnType<typeof scriptSession>>} ScriptedSession
 */

/**
 * Runs the engine once with the model played by `policy`.
 * @param {EngineOptions} o @param {import('./standin.mjs').Policy} policy
 */
async function drive(o, policy) {
  const tok = tokenizer({ name: o.tokenizerName, scale: o.scale });
  const count = o.count ?? tok.count;
  const standIn = await startStandIn({
    policy, count, refuseSystem: o.refuseSystem, thinkMs: o.thinkMs, classify: o.classify, usage: o.usage,
    noCountTokens: o.noCountTokens,
  });
  try {
    const run = await runEngine({
      baseUrl: standIn.url, cwd: o.cwd, hooks: o.hooks, cap: o.cap, timeoutMs: o.timeoutMs, keepHome: o.keepHome,
      settings: o.settings, args: o.args, allowedTools: o.allowedTools, extraEnv: o.extraEnv, home: o.home,
      prompt: o.prompt,
    });
    /** @type {Map<string, any>} what the engine ran, by tool_use_id (stream-json's tool_use_result) */
    const ran = new Map();
    for (const e of run.events) {
      if (e.type !== 'user' || !Array.isArray(e.message?.content)) continue;
      for (const b of e.message.content) if (b.type === 'tool_result') ran.set(b.tool_use_id, e.tool_use_result);
    }
    const result = run.events.find((e) => e.type === 'result');
    /** @type {string | undefined} */
    const sessionId = result?.session_id;
    return {
      sessionId,
      /** The session's transcript, where the engine wrote it; gone after the run unless its HOME is kept. */
      transcript: sessionId ? transcriptPath(run.projects, sessionId) : undefined,
      counts: standIn.counts,
      observations: standIn.observations,
      /** Each subagent turn as the subagent saw it, `agent` set to the prompt that started it. */
      agentObservations: standIn.agentObservations,
      /** The actions the auto-mode classifier was asked about. */
      classified: standIn.classified,
      /** The raw messages of the last main-loop request: the whole conversation as the model last saw it. */
      conversation: standIn.conversation(),
      /** The Read tool's input fields as this engine offers them (an older engine lacks allow_large). */
      readFields: standIn.readFields(),
      /** Requests the stand-in refused for holding a role:"system" message, and main-loop ones it answered with one. */
      systemRefusals: standIn.systemRefusals,
      systemAnswered: standIn.systemAnswered,
      ran,
      run,
      ok: run.code === 0 && result?.subtype === 'success',
      tokenizer: tok,
    };
  } finally {
    await standIn.close();
  }
}

/** <projects>/<the project's dir>/<sessionId>.jsonl, looked up rather than derived from the engine's dir naming.
 * @param {string} projects @param {string} sessionId */
function transcriptPath(projects, sessionId) {
  if (!existsSync(projects)) return undefined;
  const dir = readdirSync(projects).find((d) => existsSync(join(projects, d, `${sessionId}.jsonl`)));
  return dir === undefined ? undefined : join(projects, dir, `${sessionId}.jsonl`);
}

/** The reader pages through `targets`, following notes. @param {SessionOptions} o */
export async function readSession(o) {
  const r = reader(o.targets, { maxTurns: o.maxTurns });
  const d = await drive(o, r.policy);
  const steps = r.cursors.flatMap((c) => c.steps);
  return {
    ...d,
    cursors: r.cursors,
    /** @param {string} path */
    cursor: (path) => {
      const c = r.cursors.find((x) => x.path === path);
      if (!c) throw new Error(`no cursor for ${path}`);
      return c;
    },
    calls: steps.length,
    refusals: steps.filter((s) => s.isError).length,
  };
}

/**
 * The model makes exactly the scripted calls: step i is its message at turn i; after the last step it says
 * "Done." and the run ends. A subagent it starts plays its own script from `agents`, likewise. In a resumed
 * session (`--resume`), step 0 is the first message of this run.
 * @param {ScriptOptions} o
 */
export async function scriptSession(o) {
  /** The main loop's first turn in this run: 0, or the turns already in a resumed session.
   * @type {number | undefined} */
  let first;
  /** @type {import('./standin.mjs').Policy} */
  const policy = (obs) => {
    first ??= obs.agent === undefined ? obs.turn : undefined;
    const script = obs.agent === undefined ? o.script : (o.agents?.[obs.agent] ?? []);
    const step = script[obs.agent === undefined ? obs.turn - (first ?? 0) : obs.turn] ?? { text: 'Done.' };
    return typeof step === 'function' ? step(obs) : step;
  };
  return drive(o, policy);
}
