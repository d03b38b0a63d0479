// PreToolUse on Read: lower `limit` to the largest prefix of the window that the engine will not refuse.
import { neverCountedChars, resolveCap, WHOLE_FILE_MAX_BYTES } from '../estimate/cap.js';
import { learnedRatio, withPlan, type Plan } from '../state/session.js';
import { regularFile, type HookContext } from './context.js';
import type { PreToolUse } from './input.js';
import { budgetFor, fitWindow } from './measure.js';
import { clampedNote } from './note.js';
import { classifyRead, clampedInput } from './request.js';

export interface PreDecision {
  updatedInput: Record<string, unknown>;
  /** Only when the plan could not be recorded: then `post` cannot explain the clamp, so `pre` does. */
  additionalContext?: string;
}

/** The smallest cap sessions are known to run at (a server flag); below this size no window is at risk. */
const SMALLEST_KNOWN_CAP = 10_000;

export function handlePre(event: PreToolUse, ctx: HookContext): PreDecision | undefined {
  const input = event.tool_input;
  const request = classifyRead(input);
  if (request.kind === 'pass') return undefined;

  const file = regularFile(input.file_path, event.cwd);
  if (!file) return undefined;
  const { size, mtimeMs } = file.stat;
  const overSizeCap = size > WHOLE_FILE_MAX_BYTES;
  // The engine pages a whole-file read under 256 KiB itself.
  if (request.kind === 'whole' && !overSizeCap) return undefined;
  // Fast path: every UTF-16 unit takes at least one byte, so a file this small is never counted.
  const configured = resolveCap(ctx.env).cap;
  if (size <= neverCountedChars(Math.min(configured, SMALLEST_KNOWN_CAP), file.path)) return undefined;

  const state = ctx.store.read(event.session_id);
  const cap = resolveCap(ctx.env, state.cap).cap;
  const ratio = learnedRatio(state, file.path, size, mtimeMs);
  const first = request.kind === 'whole' ? 1 : request.first;
  const askedLines = request.kind === 'window' ? request.lines : undefined;
  const budget = budgetFor(file.path, cap, ratio, askedLines ?? Infinity);
  const fit = fitWindow(file.path, first, budget, ctx.deadline);

  if (fit.scan.timedOut || fit.scan.startBeyondEnd) return undefined;
  // A read with no limit of a file over 256 KiB is refused on size however few tokens it holds.
  const needsLimit = askedLines === undefined && overSizeCap;
  if (fit.whole && !needsLimit) return undefined;
  // Not even the first line fits: no window helps, and `post` explains the engine's refusal.
  if (fit.lines === 0) return undefined;

  const plan: Plan = {
    file: file.path, size, mtimeMs, askedFirst: first, sentFirst: first, sentLines: fit.lines,
    estimate: Math.round(fit.safeTokens), cap, at: ctx.now,
  };
  if (askedLines !== undefined) plan.askedLines = askedLines;
  const updatedInput = clampedInput(input, first, fit.lines);
  const recorded = ctx.store.update(event.session_id, (s) => withPlan(s, event.tool_use_id, plan));
  if (recorded) return { updatedInput };
  return { updatedInput, additionalContext: clampedNote(input.file_path, plan) };
}
