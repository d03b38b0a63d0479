// PreToolUse on Read: lower `limit` to the largest prefix of the window that the engine will not refuse.
import type { Stats } from 'node:fs';
import { ENGINE_PAGE_FILL, lengthDivisor, neverCountedChars, resolveCap, WHOLE_FILE_MAX_BYTES } from '../estimate/cap.js';
import {
  learnedFor,
  readingContinued,
  readingOf,
  withCountsByLength,
  withEngine,
  withPlan,
  withWholeReadsRefused,
  type Plan,
  type SessionState,
} from '../state/session.js';
import { startsWithUtf16leMark, type HookContext } from './context.js';
import { engineRefusesWholeReads, engineVersionOf } from './engine-version.js';
import { fileAtRisk } from './small.js';
import type { PreToolUse, ReadInput } from './input.js';
import {
  fitsAtPoint,
  fitWindow,
  fitWithRest,
  lineCounts,
  mayGamble,
  measureWindow,
  namedIfItMayFit,
  readAsEngine,
  shortRunBefore,
  SPARSEST_REACH,
  type Sizing,
} from './measure.js';
import { asCalledBy, rememberedSpans, sizingByMap, sizingFrom } from './sizing.js';
import { clampedNote } from './note.js';
import { askedLines, classifyRead, clampedInput, firstLine, wholeInput, type LinesRequest } from './request.js';
import { awaitModelCall, transcriptEngineVersion, transcriptSize } from './transcript.js';
import { learnFromTranscript } from './usage.js';

export interface PreDecision {
  updatedInput: Record<string, unknown>;
  /** Only when the plan could not be recorded: then `post` cannot explain the clamp, so `pre` does. */
  additionalContext?: string;
}

/** Why a Read is left as the model asked. */
export type PassReason =
  | 'not-a-window' // images, PDFs, notebooks, allow_large
  | 'engine-pages-it' // no limit, under 256 KiB: the engine's partial page (not when that page would be short, or
  // with READ_CEILING_PAGER_WHOLE_READS=window)
  | 'may-fit-whole' // no limit, under 256 KiB, estimated near the cap: the engine returns it whole or pages it
  | 'small-file' // no window of the file is ever counted
  | 'start-beyond-end'
  | 'timed-out'
  | 'fits'
  | 'worth-the-risk' // a later window (with a learned density: the last of its reading) whose point estimate fits
  | 'named-gamble' // a window a note of ours named: a short run of lines and a line that may fit (shortRunBefore)
  | 'first-line-over-cap'; // no window helps; post explains the engine's refusal

export type WindowPlan =
  | { kind: 'pass'; reason: PassReason }
  | {
      kind: 'clamp';
      first: number;
      /** The model's line count; undefined for a read to the end of the file. */
      askedLines: number | undefined;
      lines: number;
      safeTokens: number;
      chars: number;
      updatedInput: Record<string, unknown>;
      /** A read with no limit sent as a window that holds more than the engine's partial page would. */
      enginePage?: number;
      /** The window ended where its numbered result would pass what the engine shows whole, before the cap. */
      resultBound?: true;
    }
  /** A window that asks for all of a file under 256 KiB, sent with no limit: never refused, only paged. */
  | {
      kind: 'read-whole';
      askedLines: number;
      tokens: number;
      updatedInput: Record<string, unknown>;
      /** Not all of the file: a window whose first line alone is over the cap. */
      lineOverCap?: true;
    };

/** Why `pre` left a Read alone, for the trace: a plan's reason, or a window a note of ours named. */
export type PreSilence = PassReason | 'named-continuation';

export function handlePre(event: PreToolUse, ctx: HookContext): PreDecision | { pass: PreSilence } {
  const input = event.tool_input;
  const request = classifyRead(input);
  if (request.kind === 'pass') return { pass: 'not-a-window' };
  // Asked only of an image named without an extension, where the engine names no version to its hooks.
  const transcriptEngine = () => {
    const session = ctx.store.read(event.session_id);
    const firstCall = Object.keys(session.plans).length === 0;
    return session.engine ?? versionOnceWritten(event.transcript_path, event.tool_use_id, firstCall, () => true);
  };
  const file = fileAtRisk(input.file_path, event.cwd, ctx.env, undefined, transcriptEngine);
  if (!file) return { pass: 'small-file' };

  const { size, mtimeMs } = file.stat;
  // The engine's version tells how it reads this file: whether it pages a read with no limit, how it decodes it.
  const stored = engineTold(
    asCalledBy(ctx.store.read(event.session_id), event.transcript_path, event.tool_use_id),
    event,
    ctx,
    () => (request.kind === 'whole' && size <= WHOLE_FILE_MAX_BYTES) || startsWithUtf16leMark(file.path),
  );
  readAsEngine(ctx.env, stored.engine);
  const cap = resolveCap(ctx.env, stored.cap).cap;
  const reading = readingOf(stored, file.path, size, mtimeMs);
  // What the transcript has told since the file's last hook: a partial page's banner, or the last window's usage.
  const told = learnFromTranscript(event, file.path, size, mtimeMs, stored, ctx, true);
  const { learned: fromUsage, bannerPending } = told;
  const state = told.countsByLength === undefined ? stored : withCountsByLength(stored, told.countsByLength);
  // The window a note of ours named runs as named: it was sized to fit when the note was written, unless the
  // engine or the usage has told the file's density since, or it was named wider, for this hook to trim.
  const named =
    request.kind === 'window'
      ? readingContinued(state, file.path, size, mtimeMs, request.first, request.lines)
      : undefined;
  if (!fromUsage && named && !named.hopeful) return { pass: 'named-continuation' };
  // While a partial page's banner is not written yet, the file's density is unknown: sized as a first window.
  const followOn = reading !== undefined && bannerPending === undefined;
  const key = { path: file.path, size, mtimeMs };
  const memory = ctx.store.readMemory();
  const sizing = byEarlierReading(
    request,
    file.path,
    sizingFrom(state, memory, key, followOn, ctx.now, fromUsage),
    // After a refusal this session, its count of the refused window sizes the retry, with the margin kept for that.
    learnedFor(state, file.path, size, mtimeMs)?.refused
      ? undefined
      : rememberedSpans(memory, key, state.model ?? memory.lastModel),
    cap,
    ctx.deadline,
  );
  const readingLast = named && named.askedLast > 0 ? named.askedLast : undefined;
  const whole = wholeReads(ctx.env, state);
  const plan = planWindow(input, file, cap, sizing, ctx.deadline, whole, readingLast, !!named);
  if (plan.kind === 'pass') return { pass: plan.reason };
  if (plan.kind === 'read-whole') {
    // Recorded so that `post` knows the Read as one of ours; unrecorded, the engine's page needs no note of ours.
    const whole: Plan = {
      file: file.path,
      size,
      mtimeMs,
      askedFirst: 1,
      askedLines: plan.askedLines,
      sentFirst: 1,
      sentLines: plan.askedLines,
      estimate: Math.round(plan.tokens),
      cap,
      ...(plan.lineOverCap ? { lineOverCap: true as const } : {}),
      at: ctx.now,
    };
    ctx.store.update(event.session_id, (s) => withPlan(s, event.tool_use_id, whole));
    return { updatedInput: plan.updatedInput };
  }

  const record: Plan = {
    file: file.path,
    size: file.stat.size,
    mtimeMs: file.stat.mtimeMs,
    askedFirst: plan.first,
    sentFirst: plan.first,
    sentLines: plan.lines,
    estimate: Math.round(plan.safeTokens),
    cap,
    at: ctx.now,
  };
  if (plan.askedLines !== undefined) record.askedLines = plan.askedLines;
  if (plan.enginePage !== undefined) record.enginePage = plan.enginePage;
  if (plan.resultBound) record.resultBound = true;
  const recorded = ctx.store.update(event.session_id, (s) => withPlan(s, event.tool_use_id, record));
  if (recorded) return { updatedInput: plan.updatedInput };
  return { updatedInput: plan.updatedInput, additionalContext: clampedNote(input.file_path, record) };
}

/** What becomes of a Read with no limit of a file under 256 KiB that is over the cap. `engine` (the default): the
 * engine's own partial page, whose banner holds the engine's count of the whole file, so every later window of the
 * file is sized from it. `window`: an explicit window that fits, which counts as having read the file for Write
 * (and for Edit on the models whose guard checks it), where the partial page does not; it costs rounds where the
 * estimate is wide of the model's count, since nothing then tells the pager the true count. `refused`: a window
 * too, for an engine that refuses such a read (before 2.1.145); a whole read that fits only by the point estimate is
 * then a gamble, and is clamped as a first window is. */
export type WholeReads = 'window' | 'engine' | 'refused';
export const WHOLE_READS_ENV = 'READ_CEILING_PAGER_WHOLE_READS';

/** `refused` once the session's engine refused a Read with no limit that it could have paged, or its version says it
 * would (engines before 2.1.145): another such read would be refused too, so it is sent as a window. `window` by the
 * user's choice. Pure. */
export function wholeReads(env: NodeJS.ProcessEnv, state?: Pick<SessionState, 'refusesWholeReads'>): WholeReads {
  if (state?.refusesWholeReads) return 'refused';
  return env[WHOLE_READS_ENV] === 'window' ? 'window' : 'engine';
}

/** The session as the engine's version tells it: from the hooks' environment, else from the transcript's newest
 * records, until they name it. What an older engine does differently follows (hooks/engine-version.ts): it refuses a
 * Read with no limit of a file under 256 KiB over the cap, shows a long result only as a preview, or reads UTF-16LE as
 * UTF-8. Recorded where the transcript told it, or where the engine refuses such reads, so that the session's later
 * hooks and the notes know it without reading it again. `mustKnow`: this Read depends on the version (the transcript's
 * first record is then waited for). */
function engineTold(state: SessionState, event: PreToolUse, ctx: HookContext, mustKnow: () => boolean): SessionState {
  // The environment names the engine that runs this very hook, which a resumed session may have changed since the
  // transcript named one: it is read every time, the transcript only until it names one.
  const fromEnv = engineVersionOf(ctx.env);
  if (fromEnv === undefined && state.engine !== undefined) return state;
  const firstCall = Object.keys(state.plans).length === 0;
  const engine = fromEnv ?? versionOnceWritten(event.transcript_path, event.tool_use_id, firstCall, mustKnow);
  if (engine === undefined) return state;
  const refuses = engineRefusesWholeReads(engine);
  const told = (s: SessionState): SessionState =>
    refuses ? withWholeReadsRefused(withEngine(s, engine)) : withEngine(s, engine);
  const known = told(state);
  if (known !== state && (!fromEnv || refuses)) ctx.store.update(event.session_id, told);
  return known;
}

/** The sizing of a window an earlier reading of the file counted, by the densities it counted there (a read with no
 * limit of a file the engine pages too: its first window may hold more than the page); else `sizing`. */
function byEarlierReading(
  request: LinesRequest,
  path: string,
  sizing: Sizing,
  spans: readonly number[][] | undefined,
  cap: number,
  deadline: number,
): Sizing {
  if (!spans) return sizing;
  return sizingByMap(path, firstLine(request), sizing, spans, cap, askedLines(request) ?? Infinity, deadline) ?? sizing;
}

/** The version the transcript's records name. An engine that sets no AI_AGENT (2.1.100) writes the session's first
 * records after its first call's PreToolUse starts, as often as not: on the session's first call (`firstCall`), the
 * record of that call is waited for, up to `CALL_RECORD_WAIT_MS`, where the Read depends on the version (`mustKnow`:
 * a read with no limit, which one such engine refuses; a UTF-16LE file, which it reads as UTF-8) even where the
 * transcript is not there yet, for any other only where it is (the engine is writing it); once, where it never comes
 * (a transcript kept elsewhere). */
function versionOnceWritten(
  transcriptPath: unknown,
  toolUseId: string,
  firstCall: boolean,
  mustKnow: () => boolean,
): string | undefined {
  const now = transcriptEngineVersion(transcriptPath);
  if (now !== undefined || !firstCall || typeof transcriptPath !== 'string') return now;
  if (transcriptSize(transcriptPath) === undefined && !mustKnow()) return undefined;
  return awaitModelCall(transcriptPath, toolUseId) ? transcriptEngineVersion(transcriptPath) : undefined;
}

/** What `pre` does with a Read of a regular file under a cap, sized for this file. Shared with the `estimate`
 * dry run, so the two cannot drift. `readingLast`: the last line of the model's own window, when this Read
 * continues it as a note of ours named; `namedByNote`: this Read is a window a note of ours named. */
export function planWindow(
  input: ReadInput,
  file: { path: string; stat: Pick<Stats, 'size'> },
  cap: number,
  sizing: Sizing,
  deadline: number,
  whole: WholeReads = 'engine',
  readingLast?: number,
  namedByNote = false,
): WindowPlan {
  const request = classifyRead(input);
  if (request.kind === 'pass') return { kind: 'pass', reason: 'not-a-window' };
  const overSizeCap = file.stat.size > WHOLE_FILE_MAX_BYTES;
  if (request.kind === 'whole' && !overSizeCap && whole === 'engine') {
    const over = windowOverEnginePage(file.path, file.stat.size, cap, sizing, deadline);
    if (!over) return { kind: 'pass', reason: 'engine-pages-it' };
    return { ...clampTo(input, 1, undefined, over), enginePage: over.enginePage };
  }
  if (file.stat.size <= neverCountedChars(cap, file.path) && !sizing.noFloor && numbersWhole(file.stat.size, sizing))
    return { kind: 'pass', reason: 'small-file' };

  const first = firstLine(request);
  const asked = askedLines(request);
  const fit = fitWithRest(file.path, first, asked, cap, sizing, deadline);
  if (fit.scan.timedOut) return { kind: 'pass', reason: 'timed-out' };
  // A read with no limit of a file over 256 KiB is refused on size however few tokens it holds, even from a
  // line past the end; with a limit, the engine answers that the file is shorter than the offset.
  const needsLimit = asked === undefined && overSizeCap;
  if (fit.scan.startBeyondEnd) {
    return needsLimit
      ? clampTo(input, first, asked, { lines: 1, safeTokens: 0, chars: 0 })
      : { kind: 'pass', reason: 'start-beyond-end' };
  }
  if (fit.whole && !needsLimit) return { kind: 'pass', reason: 'fits' };
  if (fit.lines === 0) {
    // No window from this line fits, and the engine would refuse this one. From line 1 of a file it pages, a Read
    // without limit is never refused: the engine shows an excerpt of the line (docs/ENGINE.md §4.4), in the same round.
    if (asked !== undefined && first === 1 && !overSizeCap && whole === 'engine') {
      const point = fitsAtPoint(file.path, first, asked, cap, sizing, deadline);
      const updatedInput = wholeInput(input);
      return { kind: 'read-whole', askedLines: asked, tokens: point.tokens, updatedInput, lineOverCap: true };
    }
    // Where the first line alone may fit without the margin, the window runs as a note would name it from that line
    // (the line, with the short lines after it): the window asked holds more, and the engine would refuse it for sure
    // (a model at 1.5 times Claude-dense, xlsx.full.min.js: lines 14-16, named for this hook to trim, were refused at
    // 74,564 tokens, where line 14 alone counts 23,910).
    if (asked !== undefined && asked > 1) {
      const named = namedIfItMayFit(file.path, first, first + asked - 1, cap, sizing, deadline);
      const shorter = named && named.lines < asked ? named.lines : undefined;
      const measured = shorter ? measureWindow(file.path, first, shorter, deadline) : undefined;
      if (shorter && measured && !measured.scan.timedOut) {
        const tokens = measured.pointTokens * sizing.ratio;
        return clampTo(input, first, asked, { lines: shorter, safeTokens: tokens, chars: measured.chars });
      }
    }
    return { kind: 'pass', reason: 'first-line-over-cap' };
  }
  // A window of all of a file under 256 KiB whose point estimate is within reach of the cap, where the margin does
  // not fit: clamped, it takes two rounds for sure; sent with no limit, the engine returns it whole, or pages it when
  // it counts over the cap (two rounds, and the page's banner tells the file's count), and never refuses it. So it is
  // no gamble, and it goes before one: run as asked, the same window would be refused where the engine could page it.
  // Where the engine counts by length, the count is known: only a window that fits is sent so. The reach is
  // SPARSEST_REACH: more would help only a model sparser than any measured.
  let overReach = false;
  if (asked !== undefined && first === 1 && !overSizeCap && whole === 'engine') {
    const reach = sizing.byLength ? 1 : SPARSEST_REACH;
    const all = fitsAtPoint(file.path, 1, asked, cap * reach, sizing, deadline);
    if (all.eof) return { kind: 'read-whole', askedLines: asked, tokens: all.tokens, updatedInput: wholeInput(input) };
    overReach = !all.fits; // then it does not fit at the cap either: no second scan for the gamble below
  }
  // Past the first window of a file, a window whose point estimate fits runs as asked: clamped, it would take two.
  // Once a count taught the density, only the last window of a reading does (the rest would be a tail of its own).
  if (asked !== undefined && !overReach && mayGamble(sizing, true)) {
    const point = fitsAtPoint(file.path, first, asked, cap, sizing, deadline);
    const rest = point.eof || (readingLast !== undefined && first + asked - 1 >= readingLast);
    if (point.fits && mayGamble(sizing, rest)) return { kind: 'pass', reason: 'worth-the-risk' };
  }
  // A whole read under 256 KiB is never refused (from 2.1.145 on), only paged: when its estimate without the margin
  // fits, the engine most likely returns all of it in one round.
  if (request.kind === 'whole' && !overSizeCap && whole !== 'refused') {
    const all = measureWindow(file.path, 1, Infinity, deadline);
    if (all.scan.timedOut) return { kind: 'pass', reason: 'timed-out' };
    if (all.pointTokens * sizing.ratio <= cap) return { kind: 'pass', reason: 'may-fit-whole' };
  }
  // A note of ours named a short run of lines with the line after it that may fit, as one gamble: clamped to the
  // run, that line would take a round of its own after it. The usage told since may have moved where the run ends.
  if (namedByNote && asked !== undefined) {
    const joined = shortRunBefore(file.path, first, fit.lines, first + asked - 1, cap, sizing, deadline);
    if (joined && joined.lines >= asked) return { kind: 'pass', reason: 'named-gamble' };
    if (joined) {
      const measured = measureWindow(file.path, first, joined.lines, deadline);
      if (!measured.scan.timedOut) {
        const tokens = measured.pointTokens * sizing.ratio;
        return clampTo(input, first, asked, { lines: joined.lines, safeTokens: tokens, chars: measured.chars });
      }
    }
  }
  return clampTo(input, first, asked, fit);
}

/** Whether every window of a file of `size` bytes numbers within what the engine shows whole: each line takes at
 * least its newline, and its number 7 characters more (to line 999,999). Pure. */
function numbersWhole(size: number, sizing: Sizing): boolean {
  return sizing.resultChars === undefined || 8 * size + 7 <= sizing.resultChars;
}

/** How many times the engine's partial page a first window must hold to be sent instead of it. The page costs no
 * refusal, and its length and banner tell the whole file's count, which sizes every later window; the window is
 * sized by the estimate alone, which may call a line over the cap that the model's count would take. So the page
 * stays unless the window reads much further: on the rounds benchmark, at 1.5 or 2 the window lost more than it won
 * (a later window refused, a line left unread that the page's count would have named). */
const WINDOW_OVER_PAGE = 3;
/** About a first window's bytes per token of its cap (ASCII prose runs near 4). */
const HEAD_BYTES_PER_TOKEN = 4;

/** The first window that fits, when it holds far more lines than the engine's partial page would (undefined
 * otherwise, or when the file fits whole). The engine sizes that page by its count of the whole file (docs/ENGINE.md
 * 4.4), so a few lines much denser than the rest, a minified bundle's or a data URI's, shrink it for all the others:
 * a parser of 738 lines whose last one is 157 KB gets a page of 136 lines, where lines 1-736 fit in one window. */
function windowOverEnginePage(
  path: string,
  size: number,
  cap: number,
  sizing: Sizing,
  deadline: number,
): (ReturnType<typeof fitWindow> & { enginePage: number }) | undefined {
  // Unless the file's lines run much longer on average than those of its start (about a window's worth of bytes),
  // its page is not that short: the common case ends here, on a count of newlines, without any estimate. A window
  // sized by what an earlier reading counted over its own lines needs no banner after it, and is tried on any file.
  const { lines, headLines, headBytes } = lineCounts(path, cap * HEAD_BYTES_PER_TOKEN);
  if (headLines === 0) return undefined;
  const longLines = size / lines >= (WINDOW_OVER_PAGE / 2) * (headBytes / headLines);
  if (!longLines && sizing.mappedFrom === undefined) return undefined;
  const fit = fitWithRest(path, 1, undefined, cap, sizing, deadline);
  if (fit.scan.timedOut || fit.whole || fit.lines === 0) return undefined;
  const all = measureWindow(path, 1, Infinity, deadline);
  // The engine sizes its page by its count of the whole file: where a banner told it, the file's own density.
  const ratio = sizing.mappedFrom ?? sizing.ratio;
  const tokens = sizing.byLength ? Math.round(all.chars / lengthDivisor(path)) : all.pointTokens * ratio;
  if (all.scan.timedOut || tokens <= cap) return undefined;
  const enginePage = Math.max(1, Math.floor(((lines * cap) / tokens) * ENGINE_PAGE_FILL));
  // Where the engine counts by length, or an earlier reading counted these lines, its page tells nothing new, so any
  // window longer than the page wins.
  const atLeast = sizing.byLength || sizing.mappedFrom !== undefined ? enginePage + 1 : enginePage * WINDOW_OVER_PAGE;
  return fit.lines >= atLeast ? { ...fit, enginePage } : undefined;
}

function clampTo(
  input: ReadInput,
  first: number,
  askedLines: number | undefined,
  fit: { lines: number; safeTokens: number; chars: number; byResultChars?: boolean },
): Extract<WindowPlan, { kind: 'clamp' }> {
  return {
    kind: 'clamp',
    first,
    askedLines,
    lines: fit.lines,
    safeTokens: fit.safeTokens,
    chars: fit.chars,
    updatedInput: clampedInput(input, first, fit.lines),
    ...(fit.byResultChars ? { resultBound: true as const } : {}),
  };
}
