// The only module that knows the hook wire format: stdin JSON in, at most one JSON object out, exit 0.
// Everything that goes wrong in here fails open: no output, and the Read runs as the model asked.
import { readSync } from 'node:fs';
import { StateStore, stateDir } from '../state/store.js';
import type { HookContext } from './context.js';
import { PostEvent, PreToolUse } from './input.js';
import { handlePost } from './post.js';
import { handlePre } from './pre.js';

/** Past this the hook stops reading the file and passes the Read through. Generous on purpose: on a busy
 * machine dozens of parallel hooks share two cores, and the settings give each hook 10 s. */
export const SCAN_DEADLINE_MS = 7_000;
/** Waiting for the session lock gives up here; a hook that cannot record its plan explains its clamp itself. */
export const LOCK_DEADLINE_MS = 8_500;
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

export type HookName = 'pre' | 'post';

export function runHook(name: HookName): void {
  const started = Date.now();
  let output: object | undefined;
  try {
    const raw = readStdin();
    if (raw !== undefined) output = respond(name, JSON.parse(raw), contextFor(started));
  } catch {
    output = undefined;
  }
  if (output) process.stdout.write(`${JSON.stringify(output)}\n`);
  process.exitCode = 0;
}

/** The decision for one parsed hook input, as the JSON the engine expects (or undefined: say nothing). */
export function respond(name: HookName, json: unknown, ctx: HookContext): object | undefined {
  if (name === 'pre') {
    const event = PreToolUse.safeParse(json);
    if (!event.success) return undefined;
    const decision = handlePre(event.data, ctx);
    if (!decision) return undefined;
    // Never a permissionDecision: the pager rewrites the window, it grants nothing.
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', ...decision } };
  }
  const event = PostEvent.safeParse(json);
  if (!event.success) return undefined;
  const note = handlePost(event.data, ctx);
  if (!note) return undefined;
  return { hookSpecificOutput: { hookEventName: event.data.hook_event_name, additionalContext: note } };
}

export function contextFor(started: number, env: NodeJS.ProcessEnv = process.env): HookContext {
  return {
    env,
    now: started,
    deadline: started + SCAN_DEADLINE_MS,
    store: new StateStore(stateDir(env), started + LOCK_DEADLINE_MS),
  };
}

/** All of stdin, or undefined when it is too large to be a hook input. */
function readStdin(): string | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(256 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') { waitBriefly(); continue; }
      if (code === 'EOF') break;
      throw err;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_STDIN_BYTES) return undefined;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function waitBriefly(): void {
  Atomics.wait(sleeper, 0, 0, 2);
}
