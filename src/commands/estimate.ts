// `estimate`: a dry run of `pre` on one Read window, for people and for debugging. It calls the hook path's own
// functions (classifyRead, budgetFor, fitWindow, clampedInput, the note text) so it cannot drift from `pre`.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { neverCountedChars, resolveCap, WHOLE_FILE_MAX_BYTES, type CapSource } from '../estimate/cap.js';
import { PRIOR_SAFETY } from '../estimate/weights.js';
import {
  continuation,
  endsWithNewline,
  lineCounts,
  measureWindow,
  namedWindow,
  PRIOR_SIZING,
} from '../hooks/measure.js';
import { shortWindowNote } from '../hooks/note.js';
import { planWindow, WHOLE_READS_ENV, wholeReads, type PassReason } from '../hooks/pre.js';
import { askedLines, classifyRead, firstLine } from '../hooks/request.js';

/** A dry run may take longer than the hook's 2 s; past this it reports what it has. */
const DRY_RUN_DEADLINE_MS = 20_000;
/** Measuring the whole requested window is only for the report: a window to the end of a huge file stops here. */
const MEASURE_DEADLINE_MS = 3_000;
/** Counting a file's lines for the note's "has N lines" is skipped above this size. */
const MAX_LINE_COUNT_BYTES = 256 * 1024 * 1024;

interface Options {
  offset?: number;
  limit?: number;
  cap?: number;
  json?: boolean;
}

export interface EstimateReport {
  file: string;
  size: number;
  window: { first: number; lines: number | null };
  cap: { cap: number; from: CapSource['from'] | 'option' };
  /** Windows of at most this many characters are never counted by the engine. */
  neverCountedChars: number;
  /** The whole requested window: estimated engine tokens (prior safety included) and characters. */
  estimate: { tokens: number; pointTokens: number; chars: number; complete: boolean };
  clamp: { limit: number; first: number; last: number; tokens: number; chars: number } | null;
  /** Why `pre` would leave the Read alone, when it would. */
  reason: string | null;
  updatedInput: Record<string, unknown> | null;
  note: string | null;
}

export function registerEstimate(program: Command): void {
  program
    .command('estimate')
    .description(
      "dry run of the pre hook: the window's estimated tokens against the cap, whether pre would clamp it, to which limit, and the note that would follow",
    )
    .argument('<file>', 'the file a Read would name')
    .option('--offset <n>', "the Read's offset (first line, 1-based; 0 means 1)", nonNegativeInt)
    .option('--limit <m>', "the Read's limit (lines); omitted: to the end of the file", positiveInt)
    .option('--cap <c>', 'the token cap (default: $CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS, else 25000)', positiveInt)
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  read-ceiling-pager estimate src/big.ts --offset 1 --limit 3000\n  read-ceiling-pager estimate data.json --limit 500 --cap 10000 --json',
    )
    .action((file: string, opts: Options) => {
      const report = estimateRead(resolve(file), opts, process.env);
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : render(report));
    });
}

/** What `pre` would do with a Read of `path`, in full. Throws a plain Error for a path that is not a file. */
export function estimateRead(path: string, opts: Options, env: NodeJS.ProcessEnv): EstimateReport {
  const stat = statOrThrow(path);
  const input: { file_path: string; offset?: number; limit?: number } = { file_path: path };
  if (opts.offset !== undefined) input.offset = opts.offset;
  if (opts.limit !== undefined) input.limit = opts.limit;
  const request = classifyRead(input);
  const cap: EstimateReport['cap'] = opts.cap !== undefined ? { cap: opts.cap, from: 'option' } : resolveCap(env);
  const first = request.kind === 'pass' ? 1 : firstLine(request);
  const asked = request.kind === 'pass' ? undefined : askedLines(request);
  const deadline = Date.now() + DRY_RUN_DEADLINE_MS;
  const charFloor = neverCountedChars(cap.cap, path);

  const whole = measureWindow(
    path,
    first,
    asked ?? Infinity,
    Math.min(deadline, Date.now() + MEASURE_DEADLINE_MS),
  );
  const report: EstimateReport = {
    file: path,
    size: stat.size,
    window: { first, lines: asked ?? null },
    cap,
    neverCountedChars: charFloor,
    estimate: {
      tokens: Math.round(whole.pointTokens * PRIOR_SAFETY),
      pointTokens: Math.round(whole.pointTokens),
      chars: whole.chars,
      complete: !whole.scan.timedOut,
    },
    clamp: null,
    reason: null,
    updatedInput: null,
    note: null,
  };
  const plan = planWindow(input, { path, stat }, cap.cap, PRIOR_SIZING, deadline, wholeReads(env));
  if (plan.kind === 'pass')
    return { ...report, reason: passReason(plan.reason, { cap: cap.cap, charFloor, first, whole }) };
  if (plan.kind === 'read-whole')
    return {
      ...report,
      reason: plan.lineOverCap
        ? 'line 1 alone is over the cap, so the engine refuses any window holding it: sent with no limit, the ' +
          'engine answers with an excerpt of the line, and never refuses it'
        : 'the window asks for all of a file under 256 KiB that may fit: sent with no limit, the engine returns it ' +
          'whole or pages it, and never refuses it',
      updatedInput: plan.updatedInput,
    };

  const last = first + plan.lines - 1;
  const totalLines = stat.size <= MAX_LINE_COUNT_BYTES ? lineCounts(path).lines : undefined;
  const clamp = { limit: plan.lines, first, last, tokens: Math.round(plan.safeTokens), chars: plan.chars };
  if (totalLines === undefined) return { ...report, clamp, updatedInput: plan.updatedInput };
  // The note `post` would add, sized exactly as `post` sizes it.
  const lastLine = endsWithNewline(path, stat.size) ? totalLines - 1 : totalLines;
  const askedLast = asked === undefined ? undefined : Math.min(first + asked - 1, lastLine);
  const end = askedLast ?? lastLine;
  const next = last < end ? continuation(path, last + 1, end, cap.cap, PRIOR_SIZING, deadline) : undefined;
  const because =
    request.kind !== 'whole'
      ? 'clamped'
      : stat.size > WHOLE_FILE_MAX_BYTES
        ? 'over-size'
        : plan.enginePage !== undefined
          ? 'short-page'
          : 'edit-guard';
  return {
    ...report,
    clamp,
    updatedInput: plan.updatedInput,
    note: shortWindowNote({
      path,
      totalLines,
      returnedFirst: first,
      returnedLast: last,
      askedFirst: first,
      askedLast,
      because,
      cap: cap.cap,
      oversize: next?.oversize,
      next:
        next?.window &&
        namedWindow(next.window, lastLine, totalLines, asked === undefined ? undefined : first + asked - 1),
      end,
      ...(plan.enginePage !== undefined ? { enginePage: plan.enginePage } : {}),
    }),
  };
}

/** `pre`'s reason, in words. */
function passReason(
  reason: PassReason,
  c: { cap: number; charFloor: number; first: number; whole: { chars: number } },
): string {
  switch (reason) {
    case 'not-a-window':
      return 'an image, a PDF, a notebook, a PDF page range or allow_large: the engine does not read those as lines ' +
        'of text under the cap';
    case 'engine-pages-it':
      return `a Read with no limit of a file under 256 KiB: the engine pages it itself (${WHOLE_READS_ENV}=window makes it a window)`;
    case 'may-fit-whole':
      return 'a Read with no limit of a file under 256 KiB, estimated near the cap: the engine returns it whole, or pages it';
    case 'small-file':
      return `the file is at most ${c.charFloor} bytes, so no window of it is ever counted`;
    case 'start-beyond-end':
      return `the file has fewer than ${c.first} lines`;
    case 'timed-out':
      return 'the file took too long to read; pre passes the Read through';
    case 'fits':
      return c.whole.chars <= c.charFloor
        ? `the window is at most ${c.charFloor} characters, so the engine never counts it`
        : `the window fits under the ${c.cap}-token cap`;
    case 'worth-the-risk':
      return 'not the first window of the file, and its point estimate fits: one round if it runs, two if clamped';
    case 'named-gamble':
      return 'a window a note named: a few short lines and a line that may fit, as one gamble';
    case 'first-line-over-cap':
      return `line ${c.first} alone is over the cap: no window holding it fits, and post explains the refusal`;
  }
}

function render(r: EstimateReport): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const window =
    r.window.lines === null
      ? `lines ${n(r.window.first)}-end`
      : `lines ${n(r.window.first)}-${n(r.window.first + r.window.lines - 1)}`;
  const out = [
    `file      ${r.file} (${n(r.size)} bytes)`,
    `window    ${window}`,
    `estimate  ${r.estimate.complete ? '' : 'at least '}${n(r.estimate.tokens)} tokens (${n(r.estimate.pointTokens)} × ${PRIOR_SAFETY} safety), ${n(r.estimate.chars)} characters`,
    `cap       ${n(r.cap.cap)} tokens (${r.cap.from}); windows of at most ${n(r.neverCountedChars)} characters are never counted`,
  ];
  if (r.clamp) {
    out.push(
      `pre       clamps to limit ${r.clamp.limit}: lines ${n(r.clamp.first)}-${n(r.clamp.last)}, about ${n(r.clamp.tokens)} tokens, ${n(r.clamp.chars)} characters`,
    );
    out.push(`input     ${JSON.stringify(r.updatedInput)}`);
    if (r.note) out.push(`note      ${r.note}`);
  } else if (r.updatedInput) {
    out.push(`pre       reads the whole file: ${r.reason}`);
    out.push(`input     ${JSON.stringify(r.updatedInput)}`);
  } else {
    out.push(`pre       leaves the Read alone: ${r.reason}`);
  }
  return `${out.join('\n')}\n`;
}

function statOrThrow(path: string): { size: number } {
  let stat;
  try {
    stat = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${code ?? String(err)}`, { cause: err });
  }
  if (stat.isDirectory()) throw new Error(`${path} is a directory; a Read names a file`);
  if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
  return stat;
}

/** The engine's line count: newlines + 1 (the empty line after a final newline counts). */
function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('expected a whole number of 0 or more.');
  return Number.parseInt(value, 10);
}

function positiveInt(value: string): number {
  if (!/^\s*\d+\s*$/.test(value) || Number.parseInt(value, 10) === 0)
    throw new InvalidArgumentError('expected a whole number of 1 or more.');
  return Number.parseInt(value, 10);
}
