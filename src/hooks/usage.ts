// Learning a file's density from what the transcript records after the hooks ran: the usage (docs/ENGINE.md 9.7;
// `post` keeps each window that came back whole, the file's next hook, `pre` or `post`, reads what that window's
// result added to the model's next request), and a partial page's banner (the engine's count of the whole file).
import { withFile } from '../state/memory.js';
import {
  learnedFor,
  readingOf,
  seenOf,
  withLearned,
  withModel,
  withReading,
  withSeen,
  type Learned,
  type Reading,
  type SessionState,
} from '../state/session.js';
import type { HookContext } from './context.js';
import { measureWindow, remember, usageRatio } from './measure.js';
import { bannerCount, resultTokens } from './transcript.js';

/** What the learning steps read of a hook's event. */
type TranscriptEvent = { session_id: string; transcript_path?: string | undefined; tool_use_id: string };

/** What the transcript has told about a file since its last hook, which neither `post` of that hook's Read nor
 * anything before could read: the engine's count of the whole file from a partial page's banner, else the model's
 * count of the last window that came back (its usage). `bannerPending` names a partial page whose banner is not
 * written yet (the engine writes records asynchronously): the file's density is then unknown. */
export function learnFromTranscript(
  event: TranscriptEvent,
  path: string,
  size: number,
  mtimeMs: number,
  state: SessionState,
  ctx: HookContext,
): { learned: Learned | undefined; bannerPending: string | undefined } {
  const reading = readingOf(state, path, size, mtimeMs);
  const fromBanner = reading?.partialOf !== undefined ? learnFromBanner(event, path, reading, ctx) : undefined;
  return {
    learned: fromBanner ?? learnFromUsage(event, path, size, mtimeMs, state, ctx),
    bannerPending: fromBanner ? undefined : reading?.partialOf,
  };
}

/** The density of a file whose last window came back whole and whose density no count has taught: from the tokens
 * the model's next request added for that window (the transcript's usage), learned for this session and later
 * ones. Tried by each hook of the file until the file's next window replaces the one kept. */
function learnFromUsage(
  event: TranscriptEvent,
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

/** The engine's count of the whole file, from the banner of its partial page, once it is in the transcript: learned
 * like a refusal's count (this session and later ones), once. */
function learnFromBanner(
  event: Omit<TranscriptEvent, 'tool_use_id'>,
  path: string,
  reading: Reading,
  ctx: HookContext,
): Learned | undefined {
  const count = bannerCount(event.transcript_path, reading.partialOf!);
  // Not there yet: kept for the file's next hook, until the next note replaces the reading.
  if (!count) return undefined;
  const whole = measureWindow(path, 1, Infinity, ctx.deadline);
  const { partialOf: _seen, ...rest } = reading;
  if (whole.scan.timedOut || whole.pointTokens <= 0) return undefined;
  const learned: Learned = {
    size: reading.size,
    mtimeMs: reading.mtimeMs,
    ratio: count.tokens / whole.pointTokens,
    at: ctx.now,
  };
  ctx.store.update(event.session_id, (s) =>
    withReading(withModel(withLearned(s, path, learned, count.cap), count.model), path, rest),
  );
  remember(ctx, path, learned, count.model, { point: whole.groups, tokens: count.tokens, at: ctx.now });
  return learned;
}
