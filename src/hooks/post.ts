// PostToolUse and PostToolUseFailure on Read: say what came back short and where reading goes on;
// after a refusal, learn the file's density from the engine's own count and name a window that fits.
import { closeSync, openSync, readSync, constants } from 'node:fs';
import { resolveCap } from '../estimate/cap.js';
import { ownValue } from '../state/record.js';
import { learnedRatio, withLearned, withoutPlan, type Plan, type SessionState } from '../state/session.js';
import { regularFile, resolvedPath, type HookContext } from './context.js';
import { ReadInput, type PostEvent, type PostToolUse, type PostToolUseFailure } from './input.js';
import { budgetFor, fitWindow, measureWindow, skipOversize, type Measured } from './measure.js';
import { refusalNote, shortWindowNote, type NextWindow, type RefusalAdvice } from './note.js';
import { parseRefusal } from './refusal.js';
import { classifyRead } from './request.js';
import { modelInput } from './transcript.js';

/** Why `post` says nothing, for the trace. */
export type NoNoteReason =
  | 'engine-page-or-empty' // the engine's own PARTIAL page (it carries its banner), or no lines returned
  | 'whole-file-read' // no limit, not clamped by us: the result is complete
  | 'reached-end-of-file'
  | 'returned-all-asked'
  | 'not-a-cap-refusal' // an error that is none of the engine's cap refusals
  | 'not-a-window' // PDFs, allow_large
  | 'not-a-regular-file'
  | 'refused-window-unmeasured' // timed out, or nothing to measure
  | 'timed-out-or-past-end'
  | 'nothing-to-advise';
export interface Silent { silent: NoNoteReason }
const silent = (reason: NoNoteReason): Silent => ({ silent: reason });

export function handlePost(event: PostEvent, ctx: HookContext): string | Silent {
  const state = ctx.store.read(event.session_id);
  const stored = ownValue(state.plans, event.tool_use_id);
  if (stored) ctx.store.update(event.session_id, (s) => withoutPlan(s, event.tool_use_id));
  // A plan explains only the Read it was made for.
  const plan = stored && stored.file === resolvedPath(event.tool_input.file_path, event.cwd) ? stored : undefined;
  return event.hook_event_name === 'PostToolUse'
    ? afterSuccess(event, plan, state, ctx)
    : afterRefusal(event, state, ctx);
}

function afterSuccess(event: PostToolUse, plan: Plan | undefined, state: SessionState, ctx: HookContext): string | Silent {
  const input = event.tool_input;
  const out = event.tool_response.file;
  // A PARTIAL page carries the engine's own banner; a read with no limit that we did not clamp is complete.
  if (out.truncatedByTokenCap || out.numLines === 0) return silent('engine-page-or-empty');
  if (input.limit === undefined && !plan) return silent('whole-file-read');

  const returnedFirst = Math.max(1, out.startLine); // offset 0 labels line 1 as 0
  const returnedLast = returnedFirst + out.numLines - 1;
  const file = regularFile(input.file_path, event.cwd);
  // The engine counts the empty line after a final newline; nobody needs a window for it.
  const lastLine = file && endsWithNewline(file.path, file.stat.size) ? out.totalLines - 1 : out.totalLines;
  if (returnedLast >= lastLine) return silent('reached-end-of-file');

  const asked = plan ? { first: plan.askedFirst, lines: plan.askedLines } : askedByModel(event, returnedFirst);
  const askedLast = asked.lines === undefined ? undefined : Math.min(asked.first + asked.lines - 1, lastLine);
  const end = askedLast ?? lastLine;
  if (returnedLast >= end) return silent('returned-all-asked');

  const cap = plan?.cap ?? resolveCap(ctx.env, state.cap).cap;
  const ratio = file ? learnedRatio(state, file.path, file.stat.size, file.stat.mtimeMs) : undefined;
  const past = file ? skipOversize(file.path, returnedLast + 1, end, budgetFor(file.path, cap, ratio, 1), ctx.deadline) : undefined;
  // An explicit window goes on to its own end; a read to the end of the file, a page of the same size.
  const next = nextWindow(past?.nextFitting ?? returnedLast + 1, end, askedLast !== undefined ? undefined : out.numLines);
  return shortWindowNote({
    path: input.file_path,
    totalLines: out.totalLines,
    returnedFirst,
    returnedLast,
    askedLast,
    clampedUnderCap: plan ? plan.cap : undefined,
    wasWholeFileRead: asked.lines === undefined && asked.first === 1,
    oversize: past?.oversize,
    next,
  });
}

/** The window the model asked for, from its own tool_use in the transcript: the input that ran may have
 * been shortened by another hook. Falls back to the input that ran. */
function askedByModel(event: PostToolUse, returnedFirst: number): { first: number; lines: number | undefined } {
  const ran = { first: returnedFirst, lines: event.tool_input.limit };
  const model = ReadInput.safeParse(modelInput(event.transcript_path, event.tool_use_id));
  if (!model.success || model.data.file_path !== event.tool_input.file_path) return ran;
  const request = classifyRead(model.data);
  if (request.kind === 'window' && request.first === returnedFirst && request.lines > (ran.lines ?? Infinity)) {
    return { first: request.first, lines: request.lines };
  }
  return ran;
}

/** From `first` to `end`, or a page of `pageLines` when the model asked for everything to the end. */
function nextWindow(first: number, end: number, pageLines: number | undefined): NextWindow | undefined {
  if (first > end) return undefined;
  const rest = end - first + 1;
  return { first, lines: pageLines === undefined ? rest : Math.min(pageLines, rest) };
}

function afterRefusal(event: PostToolUseFailure, state: SessionState, ctx: HookContext): string | Silent {
  const refusal = parseRefusal(event.error);
  if (!refusal) return silent('not-a-cap-refusal');
  const input = event.tool_input;
  const request = classifyRead(input);
  if (request.kind === 'pass') return silent('not-a-window'); // allow_large and PDFs are counted differently
  const file = regularFile(input.file_path, event.cwd);
  if (!file) return silent('not-a-regular-file');
  const { size, mtimeMs } = file.stat;
  const first = request.kind === 'whole' ? 1 : request.first;
  const maxLines = request.kind === 'window' ? request.lines : Infinity;
  const endsNl = endsWithNewline(file.path, size);

  let cap: number;
  let ratio = learnedRatio(state, file.path, size, mtimeMs);
  let charsPerToken: number | undefined;
  let refusedLast: number | undefined;
  if (refusal.kind === 'tokens') {
    // The engine's count of this very window tells the file's density better than any prior.
    const refused = measureWindow(file.path, first, maxLines, ctx.deadline);
    if (refused.scan.timedOut || refused.lines === 0 || refused.pointTokens <= 0) return silent('refused-window-unmeasured');
    cap = refusal.cap;
    ratio = refusal.tokens / refused.pointTokens;
    charsPerToken = refused.chars / refusal.tokens;
    refusedLast = first + wantedLines(refused, endsNl) - 1;
    const learned = { size, mtimeMs, ratio, at: ctx.now };
    ctx.store.update(event.session_id, (s) => withLearned(s, file.path, learned, refusal.cap));
  } else {
    // A size or range refusal says nothing about where the window ends; it is named by its first line.
    cap = resolveCap(ctx.env, state.cap).cap;
  }

  const budget = budgetFor(file.path, cap, ratio, maxLines);
  const fit = fitWindow(file.path, first, budget, ctx.deadline);
  if (fit.scan.timedOut || fit.scan.startBeyondEnd) return silent('timed-out-or-past-end');
  const advice: RefusalAdvice = {
    path: input.file_path,
    refusedFirst: first,
    refusedLast,
    engine: refusal.kind === 'tokens' ? { tokens: refusal.tokens, cap: refusal.cap }
      : refusal.kind === 'size' ? { size: refusal.size, max: refusal.max } : { rangeMax: refusal.max },
    charsPerToken,
    cap,
    fits: fit.lines > 0 ? { first, lines: wantedLines(fit, endsNl) } : undefined,
    after: undefined,
  };
  if (fit.lines === 0) {
    const last = refusedLast ?? Number.MAX_SAFE_INTEGER;
    const past = skipOversize(file.path, first, last, budget, ctx.deadline);
    if (!past?.oversize) return silent('nothing-to-advise');
    advice.oversize = past.oversize;
    if (past.nextFitting <= last) {
      const after = fitWindow(file.path, past.nextFitting, { ...budget, maxLines: last - past.nextFitting + 1 }, ctx.deadline);
      if (!after.scan.timedOut && !after.scan.startBeyondEnd && after.lines > 0) {
        advice.after = { first: past.nextFitting, lines: wantedLines(after, endsNl) };
      }
    }
  }
  return refusalNote(advice);
}

/** The lines of a measured window that anyone needs: not the empty line the engine counts after a final newline. */
function wantedLines(m: Measured, endsNl: boolean): number {
  return m.scan.eof && m.whole && endsNl && m.lines > 1 ? m.lines - 1 : m.lines;
}

function endsWithNewline(path: string, size: number): boolean {
  if (size === 0) return false;
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const b = Buffer.alloc(1);
      return readSync(fd, b, 0, 1, size - 1) === 1 && b[0] === 10;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
