// PreToolUse on Read: lower `limit` to the largest prefix of the window that the engine will not refuse.
import type { Stats } from 'node:fs';
import { neverCountedChars, resolveCap, WHOLE_FILE_MAX_BYTES } from '../estimate/cap.js';
import { learnedRatio, withPlan, type Plan } from '../state/session.js';
import { regularFile, type HookContext } from './context.js';
import type { PreToolUse, ReadInput } from './input.js';
import { budgetFor, fitWindow } from './measure.js';
import { clampedNote } from './note.js';
import { classifyRead, clampedInput } from './request.js';

export interface PreDecision {
  updatedInput: Record<string, unknown>;
  /** Only when the plan could not be recorded: then `post` cannot explain the clamp, so `pre` does. */
  additionalContext?: string;
}

/** Why a Read is left as the model asked. */
export type PassReason =
  | 'not-a-window' // PDFs, allow_large
  | 'engine-pages-it' // no limit, under 256 KiB: the engine pages it itself
  | 'small-file' // no window of the file is ever counted
  | 'start-beyond-end'
  | 'timed-out'
  | 'fits'
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
  };

/** The smallest cap sessions are known to run at (a server flag); below this size no window is at risk. */
const SMALLEST_KNOWN_CAP = 10_000;

export function handlePre(event: PreToolUse, ctx: HookContext): PreDecision | { pass: PassReason } {
  const input = event.tool_input;
  if (classifyRead(input).kind === 'pass') return { pass: 'not-a-window' };
  const file = fileAtRisk(input.file_path, event.cwd, ctx.env);
  if (!file) return { pass: 'small-file' };

  const state = ctx.store.read(event.session_id);
  const cap = resolveCap(ctx.env, state.cap).cap;
  const ratio = learnedRatio(state, file.path, file.stat.size, file.stat.mtimeMs);
  const plan = planWindow(input, file, cap, ratio, ctx.deadline);
  if (plan.kind === 'pass') return { pass: plan.reason };

  const record: Plan = {
    file: file.path, size: file.stat.size, mtimeMs: file.stat.mtimeMs, askedFirst: plan.first, sentFirst: plan.first,
    sentLines: plan.lines, estimate: Math.round(plan.safeTokens), cap, at: ctx.now,
  };
  if (plan.askedLines !== undefined) record.askedLines = plan.askedLines;
  const recorded = ctx.store.update(event.session_id, (s) => withPlan(s, event.tool_use_id, record));
  if (recorded) return { updatedInput: plan.updatedInput };
  return { updatedInput: plan.updatedInput, additionalContext: clampedNote(input.file_path, record) };
}

/** The regular file a Read names, unless it is too small for any window of it to be counted: every UTF-16
 * unit takes at least one byte, so a file no larger than the never-counted floor at the smallest cap sessions
 * run at is never refused on tokens (and a read with no limit of it is under 256 KiB too). */
function fileAtRisk(filePath: string, cwd: unknown, env: NodeJS.ProcessEnv): { path: string; stat: Stats } | undefined {
  const file = regularFile(filePath, cwd);
  if (!file) return undefined;
  const floor = neverCountedChars(Math.min(resolveCap(env).cap, SMALLEST_KNOWN_CAP), file.path);
  return file.stat.size > floor ? file : undefined;
}

/** The cheapest answer first, from the raw hook input before any schema is loaded: true when `pre` would
 * certainly say nothing because the file is not one a window of could be refused. */
export function tooSmallToMatter(json: unknown, env: NodeJS.ProcessEnv): boolean {
  const event = json as { cwd?: unknown; tool_input?: { file_path?: unknown } } | null;
  const filePath = typeof event === 'object' && event !== null && typeof event.tool_input === 'object' && event.tool_input !== null
    ? event.tool_input.file_path : undefined;
  return typeof filePath === 'string' && !fileAtRisk(filePath, event!.cwd, env);
}

/** What `pre` does with a Read of a regular file under a cap (and the file's learned density, if any).
 * Shared with the `estimate` dry run, so the two cannot drift. */
export function planWindow(
  input: ReadInput,
  file: { path: string; stat: Pick<Stats, 'size'> },
  cap: number,
  ratio: number | undefined,
  deadline: number,
): WindowPlan {
  const request = classifyRead(input);
  if (request.kind === 'pass') return { kind: 'pass', reason: 'not-a-window' };
  const overSizeCap = file.stat.size > WHOLE_FILE_MAX_BYTES;
  if (request.kind === 'whole' && !overSizeCap) return { kind: 'pass', reason: 'engine-pages-it' };
  if (file.stat.size <= neverCountedChars(cap, file.path)) return { kind: 'pass', reason: 'small-file' };

  const first = request.kind === 'whole' ? 1 : request.first;
  const askedLines = request.kind === 'window' ? request.lines : undefined;
  const fit = fitWindow(file.path, first, budgetFor(file.path, cap, ratio, askedLines ?? Infinity), deadline);
  if (fit.scan.timedOut) return { kind: 'pass', reason: 'timed-out' };
  if (fit.scan.startBeyondEnd) return { kind: 'pass', reason: 'start-beyond-end' };
  // A read with no limit of a file over 256 KiB is refused on size however few tokens it holds.
  const needsLimit = askedLines === undefined && overSizeCap;
  if (fit.whole && !needsLimit) return { kind: 'pass', reason: 'fits' };
  if (fit.lines === 0) return { kind: 'pass', reason: 'first-line-over-cap' };
  return {
    kind: 'clamp', first, askedLines, lines: fit.lines, safeTokens: fit.safeTokens, chars: fit.chars,
    updatedInput: clampedInput(input, first, fit.lines),
  };
}
