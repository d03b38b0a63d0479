// PostToolUse and PostToolUseFailure on Read: say what came back short and where reading goes on, with a
// continuation sized to fit; after a refusal, learn the file's density from the engine's own count and name a
// window that fits. A reading the pager leads goes on across Reads: following a note gets the next note.
import type { Budget } from '../estimate/fit.js';
import { countedByLength, ENGINE_PAGE_FILL, resolveCap, WHOLE_FILE_MAX_BYTES, neverCountedChars } from '../estimate/cap.js';
import { withCountedWindow } from '../estimate/file-weights.js';
import { linesOverCap } from '../state/memory.js';
import { ownValue } from '../state/record.js';
import {
  learnedFor,
  learnsFromUsage,
  passedOverAfter,
  readingContinued,
  withCountsByLength,
  withLearned,
  withModel,
  withoutPlan,
  withReading,
  withSeen,
  withWholeReadsRefused,
  type Plan,
  type Reading,
  type SessionState,
} from '../state/session.js';
import { regularFile, resolvedPath, type HookContext } from './context.js';
import { engineRefusesWholeReads } from './engine-version.js';
import { ReadInput, type PostEvent, type PostToolUse, type PostToolUseFailure } from './input.js';
import {
  budgetFor,
  continuation,
  cutLastLine,
  endsWithNewline,
  fitWindow,
  fitsAtPoint,
  HOPEFUL_SIZING,
  LENGTH_SIZING,
  measureWindow,
  namedAlone,
  namedWindow,
  notebookCells,
  passOverBudget,
  readAsEngine,
  revisitPassedOver,
  roundedShares,
  skipOversize,
  type Measured,
  type Sizing,
} from './measure.js';
import {
  asCalledBy,
  countsByLength,
  knownDensity,
  remember,
  rememberedSpans,
  rememberOverCap,
  sizingByMap,
  sizingFor,
  sizingFrom,
} from './sizing.js';
import {
  notebookNote,
  refusalNote,
  shortWindowNote,
  type NextWindow,
  type OversizeLines,
  type RefusalAdvice,
  type ShortBecause,
} from './note.js';
import { parseRefusal, type Refusal } from './refusal.js';
import { askedLines, classifyRead, firstLine, notLines, type LinesRequest, type ReadRequest } from './request.js';
import { modelCall, modelInput, otherReadsIn, usageToCome } from './transcript.js';
import { learnFromTranscript } from './usage.js';

/** Why `post` says nothing, for the trace. */
export type NoNoteReason =
  | 'nothing-returned'
  | 'whole-file-read' // no limit, not clamped by us: the result is complete
  | 'returned-all-asked'
  | 'reached-end-of-file' // the model's own window reached the end: nothing is left to name
  | 'not-a-cap-refusal' // an error that is none of the engine's cap refusals
  | 'not-a-window' // PDFs, allow_large
  | 'not-a-regular-file'
  | 'refused-window-unmeasured' // timed out, or nothing to measure
  | 'timed-out-or-past-end'
  | 'nothing-to-advise';
export interface Silent {
  silent: NoNoteReason;
}
const silent = (reason: NoNoteReason): Silent => ({ silent: reason });
/** A window's last line where it runs to the end of the file. */
const MAX_LINE = Number.MAX_SAFE_INTEGER;

export function handlePost(event: PostEvent, ctx: HookContext): string | Silent {
  const state = ctx.store.read(event.session_id);
  readAsEngine(ctx.env, state.engine);
  const stored = ownValue(state.plans, event.tool_use_id);
  if (stored) ctx.store.update(event.session_id, (s) => withoutPlan(s, event.tool_use_id));
  // A plan explains only the Read it was made for.
  const plan = stored && stored.file === resolvedPath(event.tool_input.file_path, event.cwd) ? stored : undefined;
  return event.hook_event_name === 'PostToolUse'
    ? afterSuccess(event, plan, state, ctx)
    : afterRefusal(event, plan, state, ctx);
}

type FileAtHand = NonNullable<ReturnType<typeof regularFile>>;

/** The reading a Read belongs to: the model's own window, or the one an earlier note of ours continued. */
interface Asked {
  first: number;
  /** undefined: to the end of the file. */
  last: number | undefined;
  because: ShortBecause;
}

function afterSuccess(
  event: PostToolUse,
  plan: Plan | undefined,
  state: SessionState,
  ctx: HookContext,
): string | Silent {
  const input = event.tool_input;
  const out = event.tool_response.file;
  if (out.numLines === 0) return silent('nothing-returned');
  // The common case first, before any file is touched: a read with no limit that we did not clamp came back whole.
  if (!plan && !out.truncatedByTokenCap && input.limit === undefined) return silent('whole-file-read');
  const file = regularFile(input.file_path, event.cwd);
  const returnedFirst = Math.max(1, out.startLine); // offset 0 labels line 1 as 0
  let kept = false;
  // A partial page of this file whose banner is not written yet (the engine writes records late under load).
  let bannerPending: string | undefined;
  if (file && input.limit !== undefined) {
    // What `pre` could not learn yet (a reply's record or a banner that came late): now, and this note's
    // continuation is sized by it.
    const told = learnFromTranscript(event, file.path, file.stat.size, file.stat.mtimeMs, state, ctx);
    bannerPending = told.bannerPending;
    if (told.learned) state = withLearned(state, file.path, told.learned);
    if (told.countsByLength !== undefined) state = withCountsByLength(state, told.countsByLength);
    kept = keepSeen(event, file, returnedFirst, state, ctx);
  }
  const returnedLast = returnedFirst + out.numLines - 1;
  // The engine's character excerpt of a file whose lines are too long to page shows only a part of its last line.
  const cut = file && out.truncatedByTokenCap && out.content !== undefined
    ? cutLastLine(file.path, returnedFirst, out.numLines, out.content.length, ctx.deadline)
    : undefined;
  /** The last line shown whole. */
  const shownLast = cut ? cut.line - 1 : returnedLast;
  // The engine counts the empty line after a final newline; nobody needs a window for it.
  const lastLine = file && endsWithNewline(file.path, file.stat.size) ? out.totalLines - 1 : out.totalLines;

  // The reading of ours this Read may go on with: the lines it passed over before any count of the file are judged
  // again once one is known, and named out of order (`resume`: where the reading goes on after such a line).
  const ofReading = file && input.limit !== undefined
    ? readingContinued(state, file.path, file.stat.size, file.stat.mtimeMs, returnedFirst, input.limit)
    : undefined;
  // A window of the model's own that reached the end of the file: nothing is left to name.
  if (!plan && !out.truncatedByTokenCap && returnedLast >= lastLine && !ofReading?.passedOver && !ofReading?.resume)
    return silent('reached-end-of-file');
  const asked = askedFor(event, plan, state, file, returnedFirst);
  if (!asked) return silent('whole-file-read');
  const continued = asked.because === 'continuing' ? ofReading : undefined;
  const passedOver = continued?.passedOver ?? [];
  const resume = continued?.resume;
  const end = asked.last === undefined ? lastLine : Math.min(asked.last, lastLine);
  /** The first line of the reading not shown yet. */
  const from = resume ?? shownLast + 1;
  // A reading of ours is done; the file stays known as read, so its next window is not a first one.
  const done = (): Silent => {
    if (file && asked.because !== 'shortened')
      ctx.store.update(event.session_id, (s) => withReading(s, file.path, readingFor(file, asked, undefined, ctx.now)));
    return silent('returned-all-asked');
  };
  if (from > end && !passedOver.length && resume === undefined) return done();

  const cap = plan?.cap ?? resolveCap(ctx.env, state.cap).cap;
  // Read once for every sizing below: it is up to 256 KiB of JSON.
  const memory = file ? ctx.store.readMemory() : undefined;
  const called = memory ? asCalledBy(state, event.transcript_path, event.tool_use_id) : state;
  // Where the engine counts by length, every window is sized exactly: no page's length or usage to learn from.
  const byLength = memory !== undefined && countsByLength(called, memory, ctx.now);
  const sizing = !file || !memory
    ? undefined
    : ((asked.because === 'partial-page' && !byLength
        ? fromPartialPage(state, file, out, cap, ctx.deadline, cut ? out.content?.length : undefined)
        : undefined) ?? sizingFrom(called, memory, fileKey(file), bannerPending === undefined, ctx.now));
  // Lines passed over before any count of the file, judged by the count known now: the first that may fit is named.
  const again = file && sizing && !sizing.unknownDensity && passedOver.length
    ? revisitPassedOver(file.path, passedOver, cap, sizing, ctx.deadline)
    : undefined;
  const revisit = again?.revisit;
  if (from > end && resume === undefined && !revisit) return done();
  // Where an earlier reading counted the lines that come next, they are sized by what it counted, as `pre` sizes them.
  const spans = file && memory && !learnedFor(state, file.path, file.stat.size, file.stat.mtimeMs)?.refused
    ? rememberedSpans(memory, fileKey(file), called.model ?? memory.lastModel)
    : undefined;
  const ahead = file && sizing && spans && from <= end
    ? (sizingByMap(file.path, from, sizing, spans, cap, end - from + 1, ctx.deadline) ?? sizing)
    : sizing;
  const next = file && ahead ? continuation(file.path, from, end, cap, ahead, ctx.deadline) : undefined;
  // Lines passed over for good, by a count of the file: a later reading passes them over too, without a Read.
  if (file && next?.oversize && sizing && !sizing.unknownDensity && !byLength)
    keepOverCap(ctx, fileKey(file), next.oversize, cap, ahead?.overCap);
  const fitted = next?.window ?? (next || from > end ? undefined : { first: from, lines: end - from + 1 });
  const after = fitted && namedWindow(fitted, lastLine, out.totalLines, asked.last);
  const stillPassedOver = passedOverAfter(again ? again.left : passedOver, next?.oversize, !!sizing?.unknownDensity);
  // A reader reading on past the requested window may go up to the first line another Read of the same message
  // asked for (parallel windows of one file are read once), or to the file's last.
  let readOnLimit: number | undefined;
  const readOnTo = () => (readOnLimit ??= end < lastLine ? readingOnLimit(event, input.file_path, end, lastLine) : end);
  // The rest of the window fits with room to spare, and the file goes on: a reader reading on may take more.
  const readingOn = file && sizing && after && !revisit && next?.window && end < lastLine &&
    after.first + after.lines - 1 >= end && readOnTo() > end
    ? readOn(file.path, after, readOnTo(), lastLine, out.totalLines, cap, sizing, ctx.deadline)
    : undefined;
  // The next hook of the file learns its density from this window's usage, before the window named here runs:
  // so it is named as wide as the file could fit, and `pre` trims it to what fits by then (or by the estimate).
  const hopeful =
    file &&
    after &&
    !revisit &&
    kept &&
    !byLength &&
    memory &&
    learnsFromUsage(knownDensity(called, memory, fileKey(file), called.model ?? memory.lastModel)) &&
    usageToCome(event.transcript_path, event.tool_use_id)
      ? readOn(file.path, readingOn ?? after, readOnTo(), lastLine, out.totalLines, cap, HOPEFUL_SIZING, ctx.deadline)
      : undefined;
  if (file && (after || revisit || resume !== undefined)) {
    const named = revisit?.window ?? hopeful ?? readingOn ?? after;
    const reading: Reading = {
      ...readingFor(file, asked, named, ctx.now),
      ...(stillPassedOver.length ? { passedOver: stillPassedOver } : {}),
      // Where the reading goes on after the line named out of order: past what this note passed over.
      ...(revisit ? { resume: after?.first ?? end + 1 } : {}),
      ...(asked.because === 'partial-page'
        ? { partialOf: event.tool_use_id }
        : bannerPending !== undefined
          ? { partialOf: bannerPending }
          : {}),
      ...(hopeful ? { hopeful: true as const } : {}),
    };
    ctx.store.update(event.session_id, (s) => withReading(s, file.path, reading));
  }
  const bannerPage = out.numLines;
  const bannerOver =
    asked.because === 'partial-page' && !cut && after && after.lines < Math.min(bannerPage, end - after.first + 1)
      ? bannerPage
      : undefined;
  return shortWindowNote({
    path: input.file_path,
    ...(plan?.enginePage !== undefined ? { enginePage: plan.enginePage } : {}),
    ...(asked.because === 'whole-refused' && engineRefusesWholeReads(state.engine) ? { engine: state.engine } : {}),
    ...(plan?.resultBound ? { resultBound: true } : {}),
    // A window of the whole file that `pre` sent without limit, and the engine paged.
    ...(asked.because === 'partial-page' && plan?.askedLines !== undefined && input.limit === undefined
      ? { sentWhole: plan.askedFirst + plan.askedLines - 1, ...(plan.lineOverCap ? { lineOverCap: true } : {}) }
      : {}),
    totalLines: out.totalLines,
    returnedFirst,
    returnedLast: shownLast,
    ...(cut ? { cut } : {}),
    askedFirst: asked.first,
    askedLast: asked.last === undefined ? undefined : end,
    because: asked.because,
    cap,
    oversize: next?.oversize,
    next: after,
    end,
    ...(end >= lastLine ? { endsFile: true } : {}),
    bannerOver,
    readingOn,
    hopeful,
    ...(revisit ? { revisit } : {}),
  });
}

/** Keeps `lines`, over `cap` each, for later readings of the file, unless the memory has them already (`known`).
 * Only lines over the cap by their tokens: an engine that shows a long result only as a preview passes over a line
 * for its length too (hooks/engine-version.ts), which a later engine may read. */
function keepOverCap(
  ctx: HookContext,
  file: { path: string; size: number; mtimeMs: number },
  lines: OversizeLines,
  cap: number,
  known: readonly number[][] | undefined,
): void {
  if (lines.tokens === undefined || lines.tokens <= cap) return;
  if (linesOverCap(known, cap).some(([a, b]) => a <= lines.first && lines.last <= b)) return;
  rememberOverCap(ctx, file, lines, cap);
}

/** The smallest window worth learning a density from by the usage: the reminders and notes that join a result in
 * the next request then add at most a few percent. In characters, as a share of the cap. */
const SEEN_MIN_CHARS_PER_CAP_TOKEN = 0.5;

/** Keeps this window, which came back whole, for the next hook of the file to learn its density from the usage
 * of the request that carries the result (usage.ts), while that teaches it (`learnsFromUsage`; else the usage is
 * only kept as a span of the file's text, for a later reading). True when kept. */
function keepSeen(event: PostToolUse, file: FileAtHand, first: number, state: SessionState, ctx: HookContext): boolean {
  const out = event.tool_response.file;
  const cap = resolveCap(ctx.env, state.cap).cap;
  const chars = typeof out.content === 'string' ? out.content.length : 0;
  if (chars < cap * SEEN_MIN_CHARS_PER_CAP_TOKEN) return false;
  const seen = {
    size: file.stat.size,
    mtimeMs: file.stat.mtimeMs,
    id: event.tool_use_id,
    first,
    lines: out.numLines,
    at: ctx.now,
  };
  return ctx.store.update(event.session_id, (s) => withSeen(s, file.path, seen));
}

/** The last line a window reading on past `end` may reach: the file's last, or the line before the first that
 * another Read of the same file starts at, in the model's message or before it: those lines are another reading's
 * (parallel windows of one file), or were read already. */
function readingOnLimit(event: PostToolUse, filePath: string, end: number, lastLine: number): number {
  let limit = lastLine;
  for (const other of otherReadsIn(event.transcript_path, event.tool_use_id)) {
    const read = ReadInput.safeParse(other);
    if (!read.success || read.data.file_path !== filePath) continue;
    const request = classifyRead(read.data);
    if (request.kind === 'pass') continue;
    const first = firstLine(request);
    if (first > end) limit = Math.min(limit, first - 1);
  }
  return limit;
}

/** The longest window from the rest's first line that fits (sized this way), past the end of the requested window
 * and up to `to`; undefined when it is no longer than the rest. */
function readOn(
  path: string,
  rest: NextWindow,
  to: number,
  lastLine: number,
  totalLines: number,
  cap: number,
  sizing: Sizing,
  deadline: number,
): NextWindow | undefined {
  const fit = fitWindow(path, rest.first, budgetFor(path, cap, sizing, to - rest.first + 1), deadline);
  if (fit.scan.timedOut || fit.lines <= rest.lines) return undefined;
  const window = { first: rest.first, lines: Math.min(fit.lines, to - rest.first + 1) };
  return to < lastLine ? window : namedWindow(window, lastLine, totalLines, undefined);
}

/** The engine sized its partial page from its count of the whole file: about `lines × cap / tokens × 0.85` lines
 * (fewer, if its page then estimated over the cap), or, where no line page fits, an excerpt of about
 * `cap × chars / tokens × 0.85` characters. So the page's length gives that count, or a little more, before the
 * banner that holds it reaches the transcript. Undefined when the file's density is known already. `excerpt`: the
 * characters of the engine's excerpt, when the page is one. */
function fromPartialPage(
  state: SessionState,
  file: FileAtHand,
  out: PostToolUse['tool_response']['file'],
  cap: number,
  deadline: number,
  excerpt?: number,
): Sizing | undefined {
  if (learnedFor(state, file.path, file.stat.size, file.stat.mtimeMs)) return undefined;
  if (excerpt === undefined ? out.numLines < 2 : excerpt <= 0) return undefined;
  const whole = measureWindow(file.path, 1, Infinity, deadline);
  if (whole.scan.timedOut || whole.pointTokens <= 0) return undefined;
  const tokens = excerpt === undefined
    ? (out.totalLines * cap * ENGINE_PAGE_FILL) / out.numLines
    : (whole.chars * cap * ENGINE_PAGE_FILL) / excerpt;
  return sizingFor({ ratio: tokens / whole.pointTokens }, true);
}

/** The reading of the window the model asked for (`last` undefined: to the end of the file), going on with `next`
 * (none: the reading is done). */
function readingFor(
  file: FileAtHand,
  asked: { first: number; last: number | undefined },
  next: NextWindow | undefined,
  now: number,
): Reading {
  return {
    size: file.stat.size,
    mtimeMs: file.stat.mtimeMs,
    askedFirst: asked.first,
    askedLast: asked.last ?? 0,
    whole: asked.last === undefined && asked.first === 1,
    nextFirst: next?.first ?? 0,
    nextLines: next?.lines ?? 0,
    at: now,
  };
}

/** Which reading this Read belongs to, or undefined when it was complete as asked. */
function askedFor(
  event: PostToolUse,
  plan: Plan | undefined,
  state: SessionState,
  file: FileAtHand | undefined,
  returnedFirst: number,
): Asked | undefined {
  const input = event.tool_input;
  const out = event.tool_response.file;
  let asked: Asked;
  if (out.truncatedByTokenCap) {
    // A window from a first line over the cap, sent without limit, is still the model's window.
    const last = plan?.lineOverCap && plan.askedLines !== undefined ? plan.askedLines : undefined;
    asked = { first: 1, last, because: 'partial-page' };
  } else if (plan) {
    const last = plan.askedLines === undefined ? undefined : plan.askedFirst + plan.askedLines - 1;
    const wholeRead = plan.askedLines === undefined && plan.askedFirst === 1;
    asked = {
      first: plan.askedFirst,
      last,
      because: !wholeRead
        ? 'clamped'
        : plan.size > WHOLE_FILE_MAX_BYTES
          ? 'over-size'
          : plan.enginePage !== undefined
            ? 'short-page'
            : state.refusesWholeReads
              ? 'whole-refused'
              : 'edit-guard',
    };
  } else if (input.limit !== undefined) {
    asked = askedByModel(event, returnedFirst);
  } else {
    return undefined;
  }
  // Following a note of ours continues the reading that note was part of.
  if (file && asked.last !== undefined) {
    const reading = readingContinued(
      state,
      file.path,
      file.stat.size,
      file.stat.mtimeMs,
      asked.first,
      asked.last - asked.first + 1,
    );
    // A named window that reads on past the reading's end, clamped by `pre` since, is wanted to its own end.
    if (reading)
      return {
        first: reading.askedFirst,
        last: reading.askedLast === 0 ? undefined : Math.max(reading.askedLast, asked.last),
        because: 'continuing',
      };
  }
  return asked;
}

/** The window the model asked for, from its own tool_use in the transcript: the input that ran may have
 * been shortened by another hook. Falls back to the input that ran. */
function askedByModel(event: PostToolUse, returnedFirst: number): Asked {
  const ran: Asked = {
    first: returnedFirst,
    last: returnedFirst + (event.tool_input.limit ?? 1) - 1,
    because: 'shortened',
  };
  const model = ReadInput.safeParse(modelInput(event.transcript_path, event.tool_use_id));
  if (!model.success || model.data.file_path !== event.tool_input.file_path) return ran;
  const request = classifyRead(model.data);
  if (
    request.kind === 'window' &&
    request.first === returnedFirst &&
    request.lines > (event.tool_input.limit ?? Infinity)
  ) {
    return { first: request.first, last: request.first + request.lines - 1, because: 'shortened' };
  }
  return ran;
}

/** How this file's windows are sized (`followOn`: for a window after the first). */
function sizingOf(
  state: SessionState,
  ctx: HookContext,
  file: FileAtHand,
  followOn: boolean,
  event: { transcript_path?: string | undefined; tool_use_id: string },
): Sizing {
  const called = asCalledBy(state, event.transcript_path, event.tool_use_id);
  return sizingFrom(called, ctx.store.readMemory(), fileKey(file), followOn, ctx.now);
}

/** A notebook over the cap: the engine counts all of its cells whatever the window, and says to use offset and
 * limit, which change nothing for a notebook. Nothing is learned: its count is of cells, not of the file's lines. */
function notebookRefused(event: PostToolUseFailure, refusal: Extract<Refusal, { kind: 'tokens' }>): string | Silent {
  const file = regularFile(event.tool_input.file_path, event.cwd);
  if (!file) return silent('not-a-regular-file');
  const cells = notebookCells(file.path, file.stat.size);
  return notebookNote({ path: event.tool_input.file_path, tokens: refusal.tokens, cap: refusal.cap, cells });
}

/** A token refusal of this Read says the engine refuses what later engines page (docs/ENGINE.md 2.6): a Read with no
 * limit, from line 1, of a file under 256 KiB. Pure. */
export function refusesWholeRead(request: ReadRequest, size: number): boolean {
  return request.kind === 'whole' && size <= WHOLE_FILE_MAX_BYTES;
}

function fileKey(file: FileAtHand): { path: string; size: number; mtimeMs: number } {
  return { path: file.path, size: file.stat.size, mtimeMs: file.stat.mtimeMs };
}

/** The refused Read: what it asked for, of which file, from which line, and whether the file ends with a newline;
 * `modelLast`: the last line of the model's own window where `pre` clamped it (the end of the file: no limit). */
interface RefusedRead {
  request: LinesRequest;
  file: FileAtHand;
  first: number;
  endsNl: boolean;
  modelLast?: number;
}

/** What a refusal leaves the advice to size by: the cap, the file's sizing, and for a token refusal what its count
 * taught (the refused window's characters per token, its last line, whether it reached the end of the file). */
interface RefusalCount {
  cap: number;
  sizing: Sizing;
  charsPerToken?: number;
  refusedLast?: number;
  refusedToEnd: boolean;
}

/** The engine's count of this very window tells the file's density better than any prior: kept in the session, and
 * in the memory for later sessions. Undefined when the refused window cannot be measured (timed out, nothing in it).
 * A size or range refusal says nothing about where the window ends; it is named by its first line. */
function learnFromRefusal(
  event: PostToolUseFailure,
  refusal: Refusal,
  read: RefusedRead,
  state: SessionState,
  ctx: HookContext,
): RefusalCount | undefined {
  const { request, file, first, endsNl } = read;
  const sizing = sizingOf(state, ctx, file, false, event);
  if (refusal.kind !== 'tokens') return { cap: resolveCap(ctx.env, state.cap).cap, sizing, refusedToEnd: false };
  const { size, mtimeMs } = file.stat;
  const refused = measureWindow(file.path, first, askedLines(request) ?? Infinity, ctx.deadline);
  if (refused.scan.timedOut || refused.lines === 0 || refused.pointTokens <= 0) return undefined;
  // A window its skip rule should never have counted was counted: that rule does not hold for this file.
  const noFloor = sizing.noFloor || refused.chars <= neverCountedChars(refusal.cap, file.path);
  const before = learnedFor(state, file.path, size, mtimeMs);
  const countedWindows = withCountedWindow(before?.countedWindows, refusal.tokens, refused.parts ?? []);
  const learned = {
    size,
    mtimeMs,
    ...(countedWindows ? { countedWindows } : {}),
    ratio: refusal.tokens / refused.pointTokens,
    refused: true,
    charsPerToken: refused.chars / refusal.tokens,
    countedShares: roundedShares(refused.groups),
    countedWindow: { first, lines: refused.lines },
    at: ctx.now,
    ...(noFloor ? { noFloor } : {}),
  };
  // The engine's own estimate by length, not a tokenizer's count: it counts every window so (count_tokens fails).
  const byLength = countedByLength(refusal.tokens, refused.chars, file.path);
  const model = modelCall(event.transcript_path, event.tool_use_id)?.model;
  const wholeRefused = refusesWholeRead(request, size);
  ctx.store.update(event.session_id, (s) => {
    const taught = withCountsByLength(withModel(withLearned(s, file.path, learned, refusal.cap), model), byLength);
    return wholeRefused ? withWholeReadsRefused(taught) : taught;
  });
  const { groups: point, digits, digitRuns } = refused;
  const obs = { point, digits, digitRuns, tokens: refusal.tokens, at: ctx.now };
  remember(ctx, file.path, learned, model, obs, byLength, [first, first + refused.lines - 1, learned.ratio]);
  const { overCap } = sizing;
  return {
    cap: refusal.cap,
    sizing: { ...(byLength ? LENGTH_SIZING : sizingFor(learned)), ...(overCap ? { overCap } : {}) },
    charsPerToken: learned.charsPerToken,
    refusedLast: first + wantedLines(refused, endsNl) - 1,
    refusedToEnd: refused.scan.eof && refused.whole,
  };
}

/** The note after a refused Read: what the engine's count taught, and a window that fits, or the way past the lines
 * over the cap that no window holds. */
function afterRefusal(
  event: PostToolUseFailure,
  plan: Plan | undefined,
  state: SessionState,
  ctx: HookContext,
): string | Silent {
  const refusal = parseRefusal(event.error);
  if (!refusal) return silent('not-a-cap-refusal');
  const input = event.tool_input;
  if (refusal.kind === 'tokens' && notLines(input.file_path) === 'notebook') return notebookRefused(event, refusal);
  const request = classifyRead(input);
  if (request.kind === 'pass') return silent('not-a-window'); // PDFs, images, notebooks, allow_large
  const file = regularFile(input.file_path, event.cwd);
  if (!file) return silent('not-a-regular-file');
  const { size, mtimeMs } = file.stat;
  const first = firstLine(request);
  const maxLines = askedLines(request) ?? Infinity;
  const endsNl = endsWithNewline(file.path, size);

  const modelLast = plan && (plan.askedLines === undefined ? MAX_LINE : plan.askedFirst + plan.askedLines - 1);
  const read: RefusedRead = { request, file, first, endsNl, ...(modelLast ? { modelLast } : {}) };
  const counted = learnFromRefusal(event, refusal, read, state, ctx);
  if (!counted) return silent('refused-window-unmeasured');
  const { cap, sizing, charsPerToken, refusedLast } = counted;
  const budget = budgetFor(file.path, cap, sizing, maxLines);
  const fit = fitWindow(file.path, first, budget, ctx.deadline);
  if (fit.scan.timedOut || fit.scan.startBeyondEnd) return silent('timed-out-or-past-end');
  // Never advise the window that was just refused, nor a longer one.
  let fitsLines = fit.lines > 0 ? wantedLines(fit, endsNl) : 0;
  if (refusedLast !== undefined) fitsLines = Math.min(fitsLines, refusedLast - first);
  // The refused window's first line may fit alone by the engine's count, which the margin hides: a line named as a
  // gamble with the few short lines after it (`continuation`) is refused for those lines' tokens now and then. It is
  // named alone then, not passed over: a line passed over is never read.
  if (fitsLines === 0 && refusedLast !== undefined && refusedLast > first) {
    if (fitsAtPoint(file.path, first, 1, cap, sizing, ctx.deadline).fits) fitsLines = 1;
  }
  const advice: RefusalAdvice = {
    path: input.file_path,
    refusedFirst: first,
    refusedLast,
    engine:
      refusal.kind === 'tokens'
        ? { tokens: refusal.tokens, cap: refusal.cap }
        : refusal.kind === 'size'
          ? { size: refusal.size, max: refusal.max }
          : { rangeMax: refusal.max },
    charsPerToken,
    cap,
    fits: fitsLines > 0 ? { first, lines: fitsLines } : undefined,
    after: undefined,
  };
  if (fitsLines === 0 && !advisePastOversize(advice, event, read, counted, budget, state, ctx)) {
    return silent('nothing-to-advise');
  }
  // A window that reaches the file's last line is named as every note names one (`namedWindow`): asking past that
  // line, so that a reader who pages on until a Read comes back short stops there (no note tells it the end).
  // Only the window's own lines and the two after it are read for that (a refused Read of a 1 GiB file is no reason
  // to count its lines).
  const toEnd = advice.after && measureWindow(file.path, advice.after.first, advice.after.lines + 2, ctx.deadline);
  if (advice.after && toEnd && !toEnd.scan.timedOut && toEnd.scan.eof && toEnd.whole) {
    const totalLines = advice.after.first + toEnd.lines - 1;
    const reading =
      request.kind === 'window' ? readingContinued(state, file.path, size, mtimeMs, first, request.lines) : undefined;
    const modelLast = Number.isFinite(maxLines) ? first + maxLines - 1 : undefined;
    const askedLast = reading ? reading.askedLast || undefined : modelLast;
    const window = namedWindow(advice.after, endsNl ? totalLines - 1 : totalLines, totalLines, askedLast);
    if (window.lines > advice.after.lines) advice.afterLimit = window.lines;
  }
  // A refused continuation of ours stays part of its reading, and a refused window of the model's own (or the window
  // `pre` made of its Read) starts one where the advice stops short of it: following the advice gets the next note,
  // which names the rest, sized by the refusal's count, where the model would page on by the advice's size.
  const named = advice.fits ?? (advice.after && { ...advice.after, lines: advice.afterLimit ?? advice.after.lines });
  const continued =
    named && request.kind === 'window'
      ? readingContinued(state, file.path, size, mtimeMs, first, request.lines)
      : undefined;
  const asked = plan ? { first: plan.askedFirst, lines: plan.askedLines } : { first, lines: askedLines(request) };
  const reading = continued ?? (named && readingOfRefused(file, asked, named, ctx.now));
  if (reading && named) {
    // Named from where the reading was before a line named out of order, the window is no longer out of order.
    const { resume, ...rest } = reading;
    const inOrder = resume === undefined || named.first >= resume;
    ctx.store.update(event.session_id, (s) =>
      withReading(s, file.path, {
        ...(inOrder ? rest : reading),
        nextFirst: named.first,
        nextLines: named.lines,
        at: ctx.now,
      }),
    );
  }
  return refusalNote(advice);
}

/** Where not even the refused window's first line fits: the lines over the cap from it are named (and kept in the
 * memory), with the way past them, the window after them or the file's end, on `advice`. False when no line of the
 * window is over the cap, so there is nothing to advise. */
function advisePastOversize(
  advice: RefusalAdvice,
  event: PostToolUseFailure,
  read: RefusedRead,
  counted: RefusalCount,
  budget: Budget,
  state: SessionState,
  ctx: HookContext,
): boolean {
  const { request, file, first, endsNl, modelLast } = read;
  const { size, mtimeMs } = file.stat;
  const { cap, sizing, refusedLast, refusedToEnd } = counted;
  // A refused window that a note of ours named (a line named alone that the model counted over the cap) is part of
  // its reading: the way on is past it, to the end of what the model asked for, not to the end of that window.
  const ofReading =
    request.kind === 'window' ? readingContinued(state, file.path, size, mtimeMs, first, request.lines) : undefined;
  const readingLast = ofReading ? ofReading.askedLast || MAX_LINE : undefined;
  // A line named out of order (passed over before any count, `resume`): the lines after it were read. Where `pre`
  // clamped the model's window, the way on runs to the end of the model's window, not of the one that ran.
  const last = ofReading?.resume !== undefined
    ? (refusedLast ?? first)
    : Math.max(refusedLast ?? MAX_LINE, readingLast ?? 0, modelLast ?? 0);
  const shares = sizing.counted && { shares: sizing.counted, last: refusedLast ?? 0 };
  const over = linesOverCap(sizing.overCap, cap);
  const past = skipOversize(file.path, first, last, passOverBudget(budget, sizing), ctx.deadline, shares, over);
  if (!past?.oversize) return false;
  advice.oversize = past.oversize;
  if (!sizing.unknownDensity) keepOverCap(ctx, fileKey(file), past.oversize, cap, sizing.overCap);
  if (ofReading?.resume !== undefined && past.nextFitting > last) {
    // The reading goes on where it was before that line, unless that is past the end of the file, or only the
    // empty line the engine counts after a final newline.
    const beyond = measureWindow(file.path, ofReading.resume, 1, ctx.deadline);
    const ended = beyond.scan.startBeyondEnd || (beyond.scan.eof && beyond.chars === 0);
    const on = ended
      ? undefined
      : continuation(file.path, ofReading.resume, readingLast ?? last, cap, sizing, ctx.deadline);
    if (on?.window) {
      advice.after = on.window;
    } else {
      advice.fileEnds = ended;
      const { resume: _done, ...reading } = ofReading;
      ctx.store.update(event.session_id, (s) =>
        withReading(s, file.path, { ...reading, nextFirst: 0, nextLines: 0, at: ctx.now }),
      );
    }
  } else if (past.nextFitting <= last) {
    const after = fitWindow(
      file.path,
      past.nextFitting,
      { ...budget, maxLines: last - past.nextFitting + 1 },
      ctx.deadline,
    );
    // Past the end, or only the empty line the engine counts after a final newline: the file has ended.
    const ended =
      after.scan.startBeyondEnd || (after.scan.eof && after.whole && after.lines === 1 && after.chars === 0);
    if (!after.scan.timedOut && ended) advice.fileEnds = true;
    else if (!after.scan.timedOut && after.lines > 0)
      advice.after = { first: past.nextFitting, lines: wantedLines(after, endsNl) };
    else if (!after.scan.timedOut && past.mayFit) {
      // A line that may fit alone though not with the margin, by the density or as text other than the refused one
      // (not a line past the most that `skipOversize` probes, which it did not judge): named as a continuation names
      // such a line.
      advice.after = namedAlone(file.path, past.nextFitting, last, cap, sizing, ctx.deadline);
    }
  } else if (refusedToEnd) {
    advice.fileEnds = true;
  }
  return true;
}

/** The reading a refused Read of the model's starts (`model`: its window, before `pre` clamped it; undefined lines: to
 * the end of the file), when the window the advice names stops short of it. */
function readingOfRefused(
  file: FileAtHand,
  model: { first: number; lines: number | undefined },
  named: NextWindow,
  now: number,
): Reading | undefined {
  const last = model.lines === undefined ? undefined : model.first + model.lines - 1;
  if (last !== undefined && named.first + named.lines - 1 >= last) return undefined;
  return readingFor(file, { first: model.first, last }, named, now);
}

/** The lines of a measured window that anyone needs: not the empty line the engine counts after a final newline. */
function wantedLines(m: Measured, endsNl: boolean): number {
  return m.scan.eof && m.whole && endsNl && m.lines > 1 ? m.lines - 1 : m.lines;
}
