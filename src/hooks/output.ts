// What a hook run may answer, as a tagged type, and the one function that turns an answer into the engine's
// hook JSON (docs/ENGINE.md §7). A new kind of answer is a compile error in `toWire` until it is written out.
import type { HookContext } from './context.js';
import type { NoNoteReason } from './post.js';
import type { PreSilence } from './pre.js';

/** The pager's hook commands: `pre` (PreToolUse on Read), `post` (both post events on Read), `gate` (PreToolUse
 * on the other tools an opt-in gate acts on). */
export const HOOK_NAMES = ['pre', 'post', 'gate'] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export function isHookName(name: unknown): name is HookName {
  return (HOOK_NAMES as readonly unknown[]).includes(name);
}

export type HookAnswer =
  /** `pre`: the Read runs with this input (only `limit` lowered, `offset` 0 → 1, or both dropped for a window from
   * line 1 that holds the whole file), and maybe a note of its own. */
  | { kind: 'rewrite'; updatedInput: Record<string, unknown>; context?: string }
  /** `post`: a note the model reads after the Read's result. */
  | { kind: 'note'; event: 'PostToolUse' | 'PostToolUseFailure'; context: string }
  /** An opt-in gate stops the call. The only blocking answer the project sends; never an "allow". */
  | { kind: 'deny'; reason: string };

/** The JSON the engine reads on stdout. `hookEventName` is required and must equal the event. */
export type WireOutput =
  | { hookSpecificOutput: { hookEventName: 'PreToolUse'; updatedInput: Record<string, unknown>; additionalContext?: string } }
  | { hookSpecificOutput: { hookEventName: 'PostToolUse' | 'PostToolUseFailure'; additionalContext: string } }
  | { hookSpecificOutput: { hookEventName: 'PreToolUse'; permissionDecision: 'deny'; permissionDecisionReason: string } };

export function toWire(answer: HookAnswer): WireOutput {
  switch (answer.kind) {
    case 'rewrite': {
      const out: { hookEventName: 'PreToolUse'; updatedInput: Record<string, unknown>; additionalContext?: string } = {
        hookEventName: 'PreToolUse', updatedInput: answer.updatedInput,
      };
      if (answer.context) out.additionalContext = answer.context;
      return { hookSpecificOutput: out };
    }
    case 'note':
      return { hookSpecificOutput: { hookEventName: answer.event, additionalContext: answer.context } };
    case 'deny':
      return {
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: answer.reason },
      };
    default:
      return unhandled(answer);
  }
}

function unhandled(answer: never): never {
  throw new Error(`unhandled hook answer ${JSON.stringify(answer)}`);
}

/** Why a hook run printed nothing: `pre`'s reasons to leave a Read alone, `post`'s reasons for no note, and the
 * wire layer's own. Only the trace (src/hooks/trace.ts) ever shows them. */
export type SilentReason =
  | PreSilence
  | NoNoteReason
  | 'no-input' // stdin empty, unreadable or too large to be a hook input
  | 'bad-json'
  | 'not-a-read-event' // the input is not the Read event this hook handles
  | 'small-or-not-a-file' // the cheap first test: no window of it can be refused (the trace tells which)
  | 'not-a-regular-file'
  | 'unsafe-rewrite' // the rewrite failed the last check (io.ts): never sent
  | 'no-gate-denied'
  | 'error'; // something threw: fail open

/** One hook run's outcome: an answer to print, or silence and why. */
export type HookResult = HookAnswer | { kind: 'silent'; reason: SilentReason; detail?: string };

export function silentResult(reason: SilentReason, detail?: string): HookResult {
  return detail === undefined ? { kind: 'silent', reason } : { kind: 'silent', reason, detail };
}

/** The pager's own decision for one parsed hook input (src/hooks/io.ts), passed to the gates so they can defer. */
export type Respond = (name: HookName, json: unknown, ctx: HookContext) => HookResult;
