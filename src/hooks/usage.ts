// Learning a file's density from what the transcript records after the hooks ran: the usage (docs/ENGINE.md 9.7;
// `post` keeps each window that came back whole, the file's next hook, `pre` or `post`, reads what that window's
// result added to the model's next request), and a partial page's banner (the engine's count of the whole file).
import { countedByLength, neverCountedChars, resolveCap } from '../estimate/cap.js';
import { estimateTokens } from '../estimate/density.js';
import { predictedDensity, withCountedWindow } from '../estimate/file-weights.js';
import { shareDistance } from '../estimate/groups.js';
import { CALM_STEPS, CHANGED_TEXT_DISTANCE, SAME_TEXT_DISTANCE, STEADY_STEPS } from '../estimate/weights.js';
import {
  digitSplitTold,
  indentationCostOf,
  lineNumberCostOf,
  observationsOf,
  withDigitSplitCost,
  withFile,
  withIndentationCost,
  withLineNumberCost,
  withSpan,
} from '../state/memory.js';
import {
  learnedFor,
  learnsFromUsage,
  readingOf,
  seenOf,
  takenFromFewLines,
  withCountsByLength,
  withLearned,
  withModel,
  withReading,
  withSeen,
  type Learned,
  type Reading,
  type SessionState,
} from '../state/session.js';
import { splitsDigits } from '../state/model.js';
import type { HookContext } from './context.js';
import { numbersWithArrow } from './engine-version.js';
import {
  digitSplitCost,
  digitSplitKept,
  indentationCost,
  indentationKept,
  lineNumberCost,
  ratioOfUsage,
  refutesDigitSplit,
} from './line-numbers.js';
import { measureWindow, roundedShares, usageRatio } from './measure.js';
import { remember, toRemember } from './sizing.js';
import { awaitModelCall, bannerCount, modelCall, resultTokens, transcriptSize, type BannerCount } from './transcript.js';

/** What the learning steps read of a hook's event. */
type TranscriptEvent = { session_id: string; transcript_path?: string | undefined; tool_use_id: string };

/** What the transcript has told about a file since its last hook, which neither `post` of that hook's Read nor
 * anything before could read: the engine's count of the whole file from a partial page's banner, else the model's
 * count of the last window that came back (its usage). `bannerPending` names a partial page whose banner is not
 * written yet (the engine writes records asynchronously): the file's density is then unknown. With `waitForCall`
 * (`pre`), when nothing could be learned though something was to be, it tries again once the record of the reply
 * that made this very call is in the transcript (it holds the usage of the last window's result): at once when it
 * came while the transcript was read, else after waiting up to `CALL_RECORD_WAIT_MS` (transcript.ts) for it. */
export function learnFromTranscript(
  event: TranscriptEvent,
  path: string,
  size: number,
  mtimeMs: number,
  state: SessionState,
  ctx: HookContext,
  waitForCall = false,
): { learned: Learned | undefined; bannerPending: string | undefined; countsByLength?: boolean } {
  const reading = readingOf(state, path, size, mtimeMs);
  const learn = () => {
    const fromBanner = reading?.partialOf !== undefined ? learnFromBanner(event, path, reading, ctx) : undefined;
    return {
      learned: fromBanner?.learned ?? learnFromUsage(event, path, size, mtimeMs, state, ctx),
      bannerPending: fromBanner ? undefined : reading?.partialOf,
      ...(fromBanner ? { countsByLength: fromBanner.byLength } : {}),
    };
  };
  const readAt = waitForCall ? transcriptSize(event.transcript_path) : undefined;
  const told = learn();
  // The call whose result was to be learned from: a partial page's, or the last window's (not one kept only as a span
  // of the file's text: that is for a later reading, and not worth a wait).
  const teaches = learnsFromUsage(learnedFor(state, path, size, mtimeMs));
  const earlier = reading?.partialOf ?? (teaches ? seenOf(state, path, size, mtimeMs)?.id : undefined);
  if (!waitForCall || told.learned || earlier === undefined) return told;
  return awaitCallRecord(event.transcript_path, event.tool_use_id, earlier, readAt) ? learn() : told;
}

/** True once the transcript holds the model's call `toolUseId` and has grown since it was `readAt` bytes long (the
 * record may have come since it was read: on the real engine it often comes within those few milliseconds), waited
 * for up to `CALL_RECORD_WAIT_MS`. False at once when it held that call and has not grown (reading it again would
 * tell nothing new), or does not hold the `earlier` call either (a transcript that is elsewhere, or not written,
 * never will). */
export function awaitCallRecord(transcriptPath: unknown, toolUseId: string, earlier: string, readAt?: number): boolean {
  if (typeof transcriptPath !== 'string') return false;
  if (modelCall(transcriptPath, toolUseId) !== undefined) return transcriptSize(transcriptPath) !== readAt;
  if (modelCall(transcriptPath, earlier) === undefined) return false;
  return awaitModelCall(transcriptPath, toolUseId) !== undefined;
}

/** The density of a file whose last window came back whole, where no count of the engine's own is kept instead
 * (`learnsFromUsage`; else the window's density is only kept as a span, for a later reading): from the tokens the
 * model's next request added for that window (the transcript's usage). Each window's usage teaches it anew for this
 * session (the next window is most like the last one); the first one, before any count of the engine's own, is
 * also kept for later sessions, whose first window of the file starts where that one did, most often. Tried by each
 * hook of the file until the file's next window replaces the one kept. */
function learnFromUsage(
  event: TranscriptEvent,
  path: string,
  size: number,
  mtimeMs: number,
  state: SessionState,
  ctx: HookContext,
): Learned | undefined {
  const seen = seenOf(state, path, size, mtimeMs);
  const before = learnedFor(state, path, size, mtimeMs);
  if (!seen || seen.id === event.tool_use_id) return undefined;
  const result = resultTokens(event.transcript_path, seen.id);
  // Not in the transcript (yet: on a loaded machine the engine may write the next reply's record after this hook
  // starts): kept for the next hook of the file, until the file's next window replaces it.
  if (!result) return undefined;
  const model = result.model ?? state.model;
  const tokens = result.tokens - otherNotesTokens(result.otherNotes);
  const read = numbersWithArrow(state.engine)
    ? usageRatio(path, seen, tokens, ctx.deadline, 1, 0, 0, true)
    : usageWithLineNumbers(path, seen, tokens, before, model, ctx);
  const cap = resolveCap(ctx.env, state.cap).cap;
  const usage = read && { ...read, ratio: boundedByCap(read.ratio, read.point, read.chars, cap, path) };
  const span: [number, number, number] | undefined = usage && [seen.first, seen.first + seen.lines - 1, usage.ratio];
  // A density the engine counted (a banner's, a refusal's of few long lines) stays: the window is only kept as a span
  // of the file's text, for a later reading.
  if (!learnsFromUsage(before)) {
    ctx.store.update(event.session_id, (s) => withSeen(s, path, undefined));
    if (span) ctx.store.updateMemory((m) => withSpan(m, { path, size, mtimeMs }, span));
    return undefined;
  }
  // A window that is no sample of its text (a few long lines of minified code, each a module of its own) says little
  // of the next one's: its density is kept like a count's, with the plain margin, and the next such window moves it
  // halfway to its own (`halfwayTo`); a window of many lines after it teaches the file anew (`takenFromFewLines`).
  const shares = usage?.sample ? usage.shares : undefined;
  const steps = usage && densitySteps(before, usage.ratio, shares);
  // Where the file's own weights sized this window, the step is how far their prediction was off.
  const fitted = usage && before?.shares && before.countedWindows
    ? predictedDensity(before.countedWindows, before.ratio, usage.parts)
    : undefined;
  const shifts = usage && densityShifts(before, usage.ratio, shares, fitted);
  // After a refusal, only a window that is a sample of its text replaces its count: the refused window's text is most
  // like the window that follows it, and a few long lines of changing text tell less than the engine's own count.
  const keptUnlessSample = before?.refused === true || takenFromFewLines(before);
  const teaches = usage !== undefined && (shares !== undefined || !keptUnlessSample);
  const moved = !teaches && usage !== undefined && shares === undefined ? halfwayTo(before, usage, ctx.now) : undefined;
  const countedWindows = usage && countedWindowsWith(before, usage, cap);
  const learned: Learned | undefined = moved ? { ...moved, ...(countedWindows ? { countedWindows } : {}) } : (teaches
    ? {
        size,
        mtimeMs,
        ratio: usage.ratio,
        ...(shares ? { shares } : { countedShares: usage.shares }),
        ...(steps ? { steps } : {}),
        ...(shifts ? { shifts } : {}),
        ...(countedWindows ? { countedWindows } : {}),
        // Once refused, a file is never sized to a gamble, and the refused window's characters per token bound
        // windows of text like it: learning from the usage alone, files of rows whose density wanders by a few
        // percent from window to window were refused twice (rounds benchmark).
        ...(before?.refused ? { refused: true } : {}),
        ...(before?.charsPerToken ? { charsPerToken: before.charsPerToken } : {}),
        at: ctx.now,
      }
    : undefined);
  ctx.store.update(event.session_id, (s) => {
    const without = withSeen(s, path, undefined);
    return learned ? withModel(withLearned(without, path, learned), result.model) : without;
  });
  // Kept for the file, not as the model's count: it runs over the text's own by the notes and line numbers that
  // joined it, and a model's prior raised by that much calls more long lines unreadable (rounds benchmark: more
  // refusals and calls under the old Claude tokenizer). With the plain margin: a later session's first window of
  // the file is never a gamble.
  // And each window's density for a later reading of the file: its windows are sized by their own text.
  const remembered = learned && !before ? toRemember(path, withoutLocal(learned), model) : undefined;
  if (remembered || span) {
    ctx.store.updateMemory((m) => {
      const withIt = remembered ? withFile(m, path, remembered) : m;
      return span ? withSpan(withIt, { path, size, mtimeMs }, span) : withIt;
    });
  }
  return learned;
}

/** The density `before`, taught by windows that are no sample of their text (`takenFromFewLines`), moved halfway to
 * the usage of another such window, and its shares by token group alike. Such a window says little of the next one's
 * density (minified code of one module a line: moment's locales.min.js, each line a locale of its own script), so it
 * does not replace the density kept; but kept as it was, the first such window's density sized every later one,
 * however far the modules after it strayed (rounds benchmark: under the old Claude tokenizer a window sized by it was
 * refused by 22 tokens). Pooled evenly over all such windows, it lagged the modules near the next one, which are most
 * like it (at a cap of 10,000 a window was refused that way). Pure. */
export function halfwayTo(
  before: Learned | undefined,
  usage: { ratio: number; shares: number[] },
  now: number,
): Learned | undefined {
  if (!before?.countedShares || !takenFromFewLines(before)) return undefined;
  const countedShares = before.countedShares.map((s, g) => Math.round(((s + (usage.shares[g] ?? 0)) / 2) * 1e4) / 1e4);
  return { ...before, ratio: (before.ratio + usage.ratio) / 2, countedShares, at: now };
}

/** What of a file's learned density is this session's alone: the shares and steps of its last window, and the
 * windows its own weights are fitted to. */
function withoutLocal(learned: Learned): Learned {
  const { shares: _local, steps: _alsoLocal, shifts: _localToo, countedWindows: _fitted, ...kept } = learned;
  return kept;
}

/** The least count of a window, as a share of the cap, for it to join the windows a file's own weights are fitted to
 * (estimate/file-weights.ts): what its usage reads beyond its text (the notes that joined it, an error in what its
 * line numbers cost) is a larger share of a short window, such as the last of a reading. */
export const COUNTED_LEAST_SHARE = 0.2;

/** The file's counted windows once a window's usage told its count (`ratio` times its estimate `point`): with it,
 * where it counts `COUNTED_LEAST_SHARE` of the cap or more. Pure. */
export function countedWindowsWith(
  before: Pick<Learned, 'countedWindows'> | undefined,
  usage: { ratio: number; point: number; parts: readonly number[] },
  cap: number,
): number[][] | undefined {
  const tokens = usage.ratio * usage.point;
  if (tokens < COUNTED_LEAST_SHARE * cap) return before?.countedWindows;
  return withCountedWindow(before?.countedWindows, tokens, usage.parts);
}

/** How far over the cap the usage of a window the engine counted and returned may read its text. The engine refuses
 * every window it counts over the cap, so what the usage reads beyond that is not the window's text: line numbers
 * that cost the model more than the rule takes off (a token a digit under Mistral's tokenizer: up to 40% of a window
 * of code), or notes. A few percent over is left alone: our own note and the engine's framing, with which the
 * margins were measured. */
export const ACCEPTED_SLACK = 1.05;

/** A window's density read from its usage, bounded by the cap where the engine counted the window and returned it
 * (`chars` over the skip rule's floor; a window of exactly the floor is not counted, e2e/count-floor.test.ts): past
 * `ACCEPTED_SLACK` times the cap, the usage overstates its text. Pure. */
export function boundedByCap(ratio: number, point: number, chars: number, cap: number, path: string): number {
  if (chars <= neverCountedChars(cap, path) || point <= 0) return ratio;
  return Math.min(ratio, (cap * ACCEPTED_SLACK) / point);
}

/** The least tokens any model measured counts for the estimate of a note: the pager's own notes (English, a path
 * and numbers) count 0.80–0.88 times their estimate under o200k, cl100k and Llama 3, 0.82–0.89 under the old Claude
 * tokenizer, 0.86–0.95 under r50k, 0.98–1.07 under Claude-dense and 1.0–1.2 under Mistral. */
const NOTE_LEAST_RATIO = 0.75;

/** The tokens other hooks' notes that joined a result add to the next request, at the least any model counts them:
 * left in the usage, they are read as the window's own text, and each window the usage sizes is short by them (a
 * hook that adds 6,000 characters to every Read took 6% off each window; test/cli/usage.test.ts). Our own notes stay
 * in: the margins were measured with them in (taken out too, the rounds benchmark at caps of 25,000 and 10,000 had 31
 * refusals more and 7 calls fewer in 11,230). Pure. */
export function otherNotesTokens(notes: readonly string[]): number {
  return notes.reduce((sum, text) => sum + NOTE_LEAST_RATIO * estimateTokens(text), 0);
}

/** `usageRatio`, with the line numbers at what they cost the model. The window after a refused one, from its line,
 * within it and of text alike, tells that cost (`lineNumberCost`, `digitSplitCost`, `indentationCost`), and the
 * model's memory keeps it for its later windows and files where it differs from the rule. An engine that numbers
 * lines with an arrow (before 2.1.86) is read by the bare rule, and tells nothing of them: what its numbers cost is
 * not what a later engine's cost, and the memory outlives the engine. */
function usageWithLineNumbers(
  path: string,
  seen: { first: number; lines: number },
  resultTokens: number,
  before: Learned | undefined,
  model: string | undefined,
  ctx: HookContext,
): ReturnType<typeof usageRatio> {
  const memory = ctx.store.readMemory();
  const known = lineNumberCostOf(memory, model, ctx.now);
  const toldBefore = digitSplitTold(memory, model, ctx.now);
  // Line numbers are numbers: a model whose counts tell that it splits them by the digit (state/model.ts) splits these,
  // unless a retry told otherwise.
  const knownDigits = toldBefore ?? (splitsDigits(observationsOf(memory, model, ctx.now)) ? 1 : 0);
  const knownIndent = indentationCostOf(memory, model, ctx.now);
  const usage = usageRatio(path, seen, resultTokens, ctx.deadline, known, knownIndent, knownDigits);
  const refused = before?.countedWindow;
  if (!usage || !refused || seen.first !== refused.first || seen.lines > refused.lines) return usage;
  // The retry's text must be like the refused window's, for the refusal's count to tell the retry's.
  if (!before.countedShares || shareDistance(before.countedShares, usage.shares) >= CHANGED_TEXT_DISTANCE) return usage;
  const textTokens = before.ratio * usage.point;
  const told = lineNumberCost(resultTokens, textTokens, usage.numbering);
  const cost = told ?? known;
  // Where the rule holds or costs more, the numbers may cost more on every line (by the digit), or on an indented one.
  const lines = { indented: usage.indented, all: seen.lines };
  const refuted = refutesDigitSplit(resultTokens, textTokens, usage);
  const toldDigits = refuted || cost < 1 ? 0 : digitSplitCost(resultTokens, textTokens, usage, lines);
  const digits = toldDigits ?? knownDigits;
  const keptDigits = digitSplitKept(toldBefore, toldDigits, refuted);
  const numbers = usage.numbering * cost + digits * (usage.split - usage.numbering);
  const dearer = cost < 1 ? 0 : indentationCost(resultTokens, textTokens, numbers, lines);
  // An indented line's cost told before the digits' was read against the rule: it held theirs.
  const indent = indentationKept(digits > 0 && knownDigits === 0 ? 0 : knownIndent, dearer);
  // A split or a proof told again is kept from now on (what a retry told ages out).
  const digitsTold = keptDigits !== toldBefore || refuted || (toldDigits ?? 0) > 0;
  if (cost === known && digits === knownDigits && indent === knownIndent && !digitsTold) return usage;
  if (model !== undefined) {
    ctx.store.updateMemory((m) => {
      const numbers = withLineNumberCost(m, model, cost, ctx.now);
      const numbered = digitsTold ? withDigitSplitCost(numbers, model, keptDigits, ctx.now) : numbers;
      return withIndentationCost(numbered, model, indent, ctx.now);
    });
  }
  const ratio = ratioOfUsage(resultTokens, usage.point, numbers, 1, indent * usage.indented);
  return ratio === undefined ? undefined : { ...usage, ratio };
}

/** The density's steps over text alike once a window of density `ratio` and shares `shares` follows the window that
 * taught `before`: the new step added when the two windows' text is alike; none when it is not, or when either
 * window holds no shares (a file whose text changed has not held still). Pure. */
export function densitySteps(
  before: Pick<Learned, 'ratio' | 'shares' | 'steps'> | undefined,
  ratio: number,
  shares: readonly number[] | undefined,
): number[] | undefined {
  if (!before?.shares || !shares || shareDistance(before.shares, shares) >= SAME_TEXT_DISTANCE) return undefined;
  return [...(before.steps ?? []), stepOf(before.ratio, ratio)].slice(-CALM_STEPS);
}

/** The density's steps over any text once a window of density `ratio` and shares `shares` follows the window that
 * taught `before`; none when either window holds no shares (no sample of its text: the file has not held steady).
 * `predicted`: the density the file's own weights predicted for the window (estimate/file-weights.ts), where they
 * sized it: the step is then from it, how far the prediction was off, not how far the density moved. Pure. */
export function densityShifts(
  before: Pick<Learned, 'ratio' | 'shares' | 'shifts'> | undefined,
  ratio: number,
  shares: readonly number[] | undefined,
  predicted?: number,
): number[] | undefined {
  if (!before?.shares || !shares) return undefined;
  return [...(before.shifts ?? []), stepOf(predicted ?? before.ratio, ratio)].slice(-STEADY_STEPS);
}

/** |ln| of one density over the one before, rounded: kept in the session file, where a few digits do. */
function stepOf(before: number, ratio: number): number {
  return Math.round(Math.abs(Math.log(ratio / before)) * 1e5) / 1e5;
}

/** The engine's count of the whole file, from the banner of its partial page, once it is in the transcript: learned
 * like a refusal's count (this session and later ones), once; and whether that count was the file's length's. */
function learnFromBanner(
  event: TranscriptEvent,
  path: string,
  reading: Reading,
  ctx: HookContext,
): { learned: Learned; byLength: boolean } | undefined {
  const count = bannerCount(event.transcript_path, reading.partialOf!);
  // Not there yet: kept for the file's next hook, until the next note replaces the reading.
  if (!count) return undefined;
  const whole = measureWindow(path, 1, Infinity, ctx.deadline);
  const { partialOf: _seen, ...rest } = reading;
  if (whole.scan.timedOut || whole.pointTokens <= 0) return undefined;
  const counted = withCountedWindow(undefined, count.tokens, whole.parts ?? []);
  const learned: Learned = {
    size: reading.size,
    mtimeMs: reading.mtimeMs,
    ratio: count.tokens / whole.pointTokens,
    ...(counted ? { countedWindows: counted } : {}),
    at: ctx.now,
  };
  // The whole read's text ends with the file's final newline, as the engine counts it.
  const byLength = countedByLength(count.tokens, whole.chars, path);
  ctx.store.update(event.session_id, (s) =>
    withReading(
      withCountsByLength(withModel(withLearned(s, path, learned, count.cap), count.model), byLength),
      path,
      rest,
    ),
  );
  const { groups: point, digits, digitRuns } = whole;
  const obs = { point, digits, digitRuns, tokens: count.tokens, at: ctx.now };
  remember(ctx, path, learned, count.model, obs, byLength);
  if (count.page && !byLength) lineNumbersOfPage(event, path, reading.partialOf!, count, learned, whole, ctx);
  return { learned, byLength };
}

/** The page's usage, read through the banner's count of the whole file (the page is a prefix of it), tells what the
 * model's line numbers cost, as a retry's does through the refused window's count (`usageWithLineNumbers`): kept in
 * the model's memory. The page's own density is not learned from it (the banner's count sizes the file's windows),
 * only kept as a span of the file's text, for a later reading.
 * The usage is in the record of the reply that made this hook's call, which `pre` may start before (it is waited
 * for, as for any usage: `awaitModelCall`); the banner is read once, so this is the page's one chance. */
function lineNumbersOfPage(
  event: TranscriptEvent,
  path: string,
  pageId: string,
  count: BannerCount,
  learned: Learned,
  whole: ReturnType<typeof measureWindow>,
  ctx: HookContext,
): void {
  const page = count.page;
  if (page?.first !== 1) return;
  const transcript = event.transcript_path;
  const late = () => typeof transcript === 'string' && awaitModelCall(transcript, event.tool_use_id) !== undefined;
  const result = resultTokens(transcript, pageId) ?? (late() ? resultTokens(transcript, pageId) : undefined);
  if (!result) return;
  const counted: Learned = {
    ...learned,
    countedShares: roundedShares(whole.groups),
    countedWindow: { first: 1, lines: Number.MAX_SAFE_INTEGER },
  };
  // Our note after a partial page, and the banner (an attachment, or before 2.1.205 the head of the result), are long
  // beside a page's line numbers at a small cap: taken off at the least any model counts them, or a model that takes
  // the rule would seem to pay more on indented lines.
  const banner = result.ownNotes.includes(count.banner) ? [] : [count.banner];
  const notes = otherNotesTokens([...result.ownNotes, ...banner]);
  const tokens = result.tokens - otherNotesTokens(result.otherNotes) - notes;
  const usage = usageWithLineNumbers(path, page, tokens, counted, result.model ?? count.model, ctx);
  // The page's own density, as a span of the file's text for a later reading, with the notes that joined it in, as
  // every window's span has them (its first window is sized by it, and may then hold more than the page).
  if (usage) {
    const span: [number, number, number] = [1, page.lines, usage.ratio + notes / usage.point];
    ctx.store.updateMemory((m) => withSpan(m, { path, size: learned.size, mtimeMs: learned.mtimeMs }, span));
  }
}
