// Learning a file's density from the usage the transcript records (docs/ENGINE.md 9.7): `post` keeps each window
// that came back whole; the file's next hook, `pre` or `post`, reads what that window's result added to the model's
// next request.
import { withFile } from '../state/memory.js';
import {
  learnedFor,
  seenOf,
  withLearned,
  withModel,
  withSeen,
  type Learned,
  type SessionState,
} from '../state/session.js';
import type { HookContext } from './context.js';
import { usageRatio } from './measure.js';
import { resultTokens } from './transcript.js';

/** The density of a file whose last window came back whole and whose density no count has taught: from the tokens
 * the model's next request added for that window (the transcript's usage), learned for this session and later
 * ones. Tried by each hook of the file until the file's next window replaces the one kept. */
export function learnFromUsage(
  event: { session_id: string; transcript_path?: string | undefined; tool_use_id: string },
  path: string,
  size: number,
  mtimeMs: number,
  state: SessionState,
  ctx: HookContext,
): Learned | undefined {
  const seen = seenOf(state, path, size, mtimeMs);
  if (!seen || seen.id === event.tool_use_id || learnedFor(state, path, size, mtimeMs)) return undefined;
  const result = resultTokens(event.transcript_path, seen.id);
  // Not in the transcript (yet: on a loaded machine the engine may write the next reply's record after this hook
  // starts): kept for the next hook of the file, until the file's next window replaces it.
  if (!result) return undefined;
  const ratio = usageRatio(path, seen, result.tokens, ctx.deadline);
  const learned: Learned | undefined = ratio === undefined ? undefined : { size, mtimeMs, ratio, at: ctx.now };
  ctx.store.update(event.session_id, (s) => {
    const without = withSeen(s, path, undefined);
    return learned ? withModel(withLearned(without, path, learned), result.model) : without;
  });
  // Kept for the file, not as the model's count: it runs over the text's own by the notes and line numbers that
  // joined it, and a model's prior raised by that much calls more long lines unreadable (rounds benchmark: more
  // refusals and calls under the old Claude tokenizer).
  if (learned) ctx.store.updateMemory((m) => withFile(m, path, learned));
  return learned;
}
