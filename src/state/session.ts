// What one session remembers, and the pure rules that keep it small.
import { COUNTED_WINDOWS, PART_COUNT } from '../estimate/file-weights.js';
import { GROUP_COUNT } from '../estimate/groups.js';
import { CALM_STEPS, STEADY_STEPS } from '../estimate/weights.js';
import { allFinite, isFiniteNumber, isModelName, isRecord, ownValue, setOwn } from './record.js';

/** What `pre` did to one Read, for `post` to explain. Keyed by tool_use_id. */
export interface Plan {
  file: string;
  size: number;
  mtimeMs: number;
  /** The model's window: first line (1-based) and line count (absent: to the end of the file). */
  askedFirst: number;
  askedLines?: number;
  /** The window sent to the engine. */
  sentFirst: number;
  sentLines: number;
  /** Safe token estimate of the window sent, and the cap it was fitted under. */
  estimate: number;
  cap: number;
  /** A read with no limit ran as a window because the engine's partial page would have held only about this many
   * lines (its count of the whole file is swollen by lines denser than the rest, or an earlier reading counted the
   * first lines, so that a window holds more). */
  enginePage?: number;
  /** A window from line 1, whose first line alone is over the cap, sent without limit: the engine shows an excerpt of
   * that line where it would refuse the window. */
  lineOverCap?: true;
  /** The window ended where its numbered result would pass what this engine shows whole (hooks/engine-version.ts),
   * before the cap. */
  resultBound?: true;
  at: number;
}

/** What the engine taught about a file, valid while its size and mtime hold. */
export interface Learned {
  size: number;
  mtimeMs: number;
  /** Engine tokens per estimated token: from the engine's count of a refused window or of the whole file (a partial
   * page's banner), or from the model's count of a window that came back (the usage). */
  ratio: number;
  /** The engine refused a window short enough that its skip rule should never have counted it: the rule does not
   * hold for this file (another engine build, another tokenizer path), so no window of it is trusted on length. */
  noFloor?: boolean;
  /** A refusal taught it: the file has cost a round already, so no window of it is sized to a gamble again. */
  refused?: boolean;
  /** The refused window's characters per engine token. */
  charsPerToken?: number;
  /** Taught by the usage of a window: that window's shares of the estimate by token group (GROUP_COUNT numbers). The
   * next window's usage teaches the file again (after a refusal too: `learnsFromUsage`). */
  shares?: number[];
  /** Where `shares` is not kept (a refusal's count, the usage of a window that is no sample of its text): the shares
   * of the text the density was counted on. A long line of other text is not passed over by this density alone
   * (measure.ts, `skipOversize`). */
  countedShares?: number[];
  /** Taught by a refusal: the refused window. The usage of the window after it, from the same line and within it,
   * tells what the model's line numbers cost (hooks/usage.ts). */
  countedWindow?: { first: number; lines: number };
  /** Taught by the usage of windows of text alike, one after another: the density's last steps from one window to
   * the next (|ln| of their ratio), newest last, at most `CALM_STEPS` (weights.ts): a file that held still gets a
   * narrower margin. */
  steps?: number[];
  /** The same over windows of any text, at most `STEADY_STEPS` (weights.ts): a file whose density held steady while
   * its text changed gets a narrower margin for changed text. */
  shifts?: number[];
  /** The file's windows counted this session (a usage, a refusal, a banner), each its tokens and its estimate by part,
   * newest last, at most `COUNTED_WINDOWS`: the file's own weights are fitted to them (estimate/file-weights.ts). */
  countedWindows?: number[][];
  at: number;
}

/** A reading the pager is leading: the window the model asked for, and the continuation the last note named.
 * When the model follows that note, the next note goes on with the same reading. Keyed by file. */
export interface Reading {
  size: number;
  mtimeMs: number;
  /** The model's own window: first line, and last line (0: to the end of the file). */
  askedFirst: number;
  askedLast: number;
  /** The model asked with no limit at all. */
  whole: boolean;
  /** The window the last note named (0 lines: the reading is done). */
  nextFirst: number;
  nextLines: number;
  /** The tool_use_id of the engine's partial page of this file, whose banner holds the engine's count of the whole
   * file: the transcript has it by the next hook, not yet when `post` runs. */
  partialOf?: string;
  /** The named window was sized before the file's density was known, wider than the estimate's margin allows,
   * for `pre` to trim when it runs: by then the usage of the window before it tells the density. */
  hopeful?: true;
  /** Lines a note passed over before any count of the file, each range as [first, last]: judged over the cap only by
   * the reach of the sparsest tokenizer, they are judged again once a count of the file is known, and a later note
   * names those that may fit (`revisitPassedOver`, measure.ts). */
  passedOver?: Array<[number, number]>;
  /** The named window is such a line, out of order: the line the reading goes on from after it. */
  resume?: number;
  at: number;
}

/** The most ranges of passed-over lines a reading keeps: the oldest go first. */
export const MAX_PASSED_OVER = 8;

/** The ranges of passed-over lines a reading keeps after a note: those still to judge (`left`), and the lines this
 * note passed over (`passed`) when it did so before any count of the file (`beforeAnyCount`); past a count, a line
 * is passed over by it, and for good. Pure. */
export function passedOverAfter(
  left: ReadonlyArray<readonly [number, number]>,
  passed: { first: number; last: number } | undefined,
  beforeAnyCount: boolean,
): Array<[number, number]> {
  const kept = left.map(([a, b]): [number, number] => [a, b]);
  if (passed && beforeAnyCount) kept.push([passed.first, passed.last]);
  return kept.slice(-MAX_PASSED_OVER);
}

/** The last explicit window of a file that came back whole, for the next hook to learn the file's density from the
 * tokens the model's next API request added (docs/ENGINE.md: the usage the transcript records). Keyed by file. */
export interface Seen {
  size: number;
  mtimeMs: number;
  /** The Read's tool_use_id, and the lines it returned. */
  id: string;
  first: number;
  lines: number;
  at: number;
}

export interface SessionState {
  plans: Record<string, Plan>;
  files: Record<string, Learned>;
  readings: Record<string, Reading>;
  seen?: Record<string, Seen>;
  /** A cap the engine reported in a refusal this session. */
  cap?: number;
  /** The model of this session, as its transcript names it: whose counts the engine checks against the cap. */
  model?: string;
  /** Whether the engine's last count this session (a refusal's, a banner's) was its estimate by length
   * (estimate/cap.ts, `countedByLength`): true where count_tokens fails. Absent before any count. */
  countsByLength?: boolean;
  /** The engine refused a Read with no limit of a file under 256 KiB by its count, where engines from 2.1.145 on page
   * it (docs/ENGINE.md 2.6): such reads are sent as windows for the rest of the session. */
  refusesWholeReads?: true;
  /** The engine's version, as the transcript named it, or the hooks' environment for an engine that refuses whole reads
   * (hooks/engine-version.ts: what an older engine does differently follows from it). */
  engine?: string;
  /** What the opt-in gates remember (src/gates/state.ts owns its shape and bounds); absent with no gate on. */
  gates?: Record<string, unknown>;
}

export const MAX_PLANS = 256;
export const MAX_FILES = 256;
export const PLAN_MAX_AGE_MS = 30 * 60 * 1000;

export function emptyState(): SessionState {
  return { plans: {}, files: {}, readings: {} };
}

export function withPlan(state: SessionState, toolUseId: string, plan: Plan): SessionState {
  const plans = keepNewest({ ...state.plans, [toolUseId]: plan }, MAX_PLANS, plan.at - PLAN_MAX_AGE_MS);
  return { ...state, plans };
}

export function withoutPlan(state: SessionState, toolUseId: string): SessionState {
  if (ownValue(state.plans, toolUseId) === undefined) return state;
  const plans = { ...state.plans };
  delete plans[toolUseId];
  return { ...state, plans };
}

export function withLearned(state: SessionState, path: string, learned: Learned, cap?: number): SessionState {
  const files = keepNewest({ ...state.files, [path]: learned }, MAX_FILES, -Infinity);
  return cap === undefined ? { ...state, files } : { ...state, files, cap };
}

/** What was learned about a file, if the file is unchanged since. */
export function learnedFor(state: SessionState, path: string, size: number, mtimeMs: number): Learned | undefined {
  const l = ownValue(state.files, path);
  return l && l.size === size && l.mtimeMs === mtimeMs ? l : undefined;
}

/** What was learned about an earlier version of a file: the same path with another size or mtime (edited since). */
export function learnedForVersion(
  state: SessionState,
  path: string,
  size: number,
  mtimeMs: number,
): Learned | undefined {
  const l = ownValue(state.files, path);
  return l && (l.size !== size || l.mtimeMs !== mtimeMs) ? l : undefined;
}

/** Whether a window's usage teaches again the density `known`: yes when none is known, when `known` came from a
 * usage (of a window of many lines, which holds its shares, or of a few long ones: `takenFromFewLines`), or from a
 * refusal: the refused window's text is often not the next one's, and its characters per token still bound the
 * windows after it. A partial page's banner (the whole file's count) and a refusal of a window the skip rule should
 * never have counted are kept. */
export function learnsFromUsage(known: Learned | undefined): boolean {
  if (known === undefined || known.shares !== undefined) return true;
  if (known.refused === true) return known.noFloor !== true;
  return takenFromFewLines(known);
}

/** Taught by the usage of a window that was no sample of its text (a few long lines, hooks/usage.ts): a later
 * window of many lines teaches the file anew, another window of a few long lines does not. Kept for the rest of the
 * reading, such a window sized every window of the text after it (three.module.js at a cap of 10,000: 28 windows of
 * JavaScript, each about 86% full, by the count of a few long lines of GLSL in strings). */
export function takenFromFewLines(known: Learned | undefined): boolean {
  return known?.countedShares !== undefined && known.refused !== true && known.shares === undefined;
}

export function withModel(state: SessionState, model: string | undefined): SessionState {
  return model === undefined || !isModelName(model) || state.model === model ? state : { ...state, model };
}

/** The session's engine refuses a Read with no limit of a file under 256 KiB over the cap: it refused one, or its
 * version (`withEngine`) says it would. */
export function withWholeReadsRefused(state: SessionState): SessionState {
  return state.refusesWholeReads ? state : { ...state, refusesWholeReads: true };
}

/** The session's engine, by its version. */
export function withEngine(state: SessionState, engine: string): SessionState {
  return state.engine === engine ? state : { ...state, engine };
}

/** The session as the engine's last count showed it: counting by length, or by a tokenizer. */
export function withCountsByLength(state: SessionState, byLength: boolean): SessionState {
  return state.countsByLength === byLength ? state : { ...state, countsByLength: byLength };
}

export function withReading(state: SessionState, path: string, reading: Reading): SessionState {
  return {
    ...state,
    readings: keepNewest({ ...state.readings, [path]: reading }, MAX_FILES, reading.at - PLAN_MAX_AGE_MS),
  };
}

export function withSeen(state: SessionState, path: string, seen: Seen | undefined): SessionState {
  const all = { ...state.seen };
  if (seen) all[path] = seen;
  else delete all[path];
  return { ...state, seen: keepNewest(all, MAX_FILES, (seen?.at ?? 0) - PLAN_MAX_AGE_MS) };
}

/** The last window of this unchanged file that came back whole, if the usage of its result is still to learn. */
export function seenOf(state: SessionState, path: string, size: number, mtimeMs: number): Seen | undefined {
  const s = state.seen === undefined ? undefined : ownValue(state.seen, path);
  return s && s.size === size && s.mtimeMs === mtimeMs ? s : undefined;
}

export function withoutReading(state: SessionState, path: string): SessionState {
  if (ownValue(state.readings, path) === undefined) return state;
  const readings = { ...state.readings };
  delete readings[path];
  return { ...state, readings };
}

/** The file's reading this session, if the file is unchanged since: a window of it was read before. */
export function readingOf(state: SessionState, path: string, size: number, mtimeMs: number): Reading | undefined {
  const r = ownValue(state.readings, path);
  return r && r.size === size && r.mtimeMs === mtimeMs ? r : undefined;
}

/** The reading a Read continues: the note's named window of this unchanged file, from its first line and no
 * longer than named. */
export function readingContinued(
  state: SessionState,
  path: string,
  size: number,
  mtimeMs: number,
  first: number,
  lines: number,
): Reading | undefined {
  const r = readingOf(state, path, size, mtimeMs);
  return r && r.nextLines > 0 && r.nextFirst === first && lines <= r.nextLines ? r : undefined;
}

function keepNewest<T extends { at: number }>(
  entries: Record<string, T>,
  max: number,
  notBefore: number,
): Record<string, T> {
  const kept = Object.entries(entries)
    .filter(([, e]) => e.at >= notBefore)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, max);
  return Object.fromEntries(kept);
}

/** The state as it will be written, or undefined when it cannot be brought under `maxBytes` (UTF-8) even
 * with every entry but the newest dropped. The oldest plans and learned files go first: a session file must
 * stay small enough that the next hook reads it back (and reading is bounded too). */
export function serializeWithin(state: SessionState, maxBytes: number): string | undefined {
  const text = serializePager(state, maxBytes);
  // The gates bound their own part; if the pager's cannot fit beside it, the gates' part goes.
  if (text !== undefined || state.gates === undefined) return text;
  const { gates: _gates, ...pager } = state;
  return serializePager(pager, maxBytes);
}

function serializePager(state: SessionState, maxBytes: number): string | undefined {
  let text = JSON.stringify(state);
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const entries = [
    ...Object.entries(state.plans).map(([k, v]) => ({ kind: 'plans' as const, k, at: v.at, bytes: entryBytes(k, v) })),
    ...Object.entries(state.files).map(([k, v]) => ({ kind: 'files' as const, k, at: v.at, bytes: entryBytes(k, v) })),
    ...Object.entries(state.readings).map(([k, v]) => ({
      kind: 'readings' as const,
      k,
      at: v.at,
      bytes: entryBytes(k, v),
    })),
    ...Object.entries(state.seen ?? {}).map(([k, v]) => ({ kind: 'seen' as const, k, at: v.at, bytes: entryBytes(k, v) })),
  ].sort((a, b) => a.at - b.at);
  let total = Buffer.byteLength(text);
  let drop = 0;
  while (total > maxBytes && drop < entries.length - 1) total -= entries[drop++]!.bytes;
  if (total > maxBytes) return undefined;
  const next = {
    ...state,
    plans: { ...state.plans },
    files: { ...state.files },
    readings: { ...state.readings },
    seen: { ...state.seen },
  };
  for (const e of entries.slice(0, drop)) delete next[e.kind][e.k];
  text = JSON.stringify(next);
  return Buffer.byteLength(text) <= maxBytes ? text : undefined;
}

/** Bytes an entry adds to the JSON: `"key":value` and a comma. */
function entryBytes(key: string, value: unknown): number {
  return Buffer.byteLength(JSON.stringify(key)) + Buffer.byteLength(JSON.stringify(value)) + 2;
}

/** A learned density read back from a file anyone could have damaged (a session's, or the memory's). */
export function isLearned(l: unknown): l is Learned {
  return (
    isRecord(l) &&
    allFinite(l, ['size', 'mtimeMs', 'ratio', 'at']) &&
    (l.ratio as number) > 0 &&
    (l.noFloor === undefined || typeof l.noFloor === 'boolean') &&
    (l.refused === undefined || typeof l.refused === 'boolean') &&
    (l.charsPerToken === undefined || (isFiniteNumber(l.charsPerToken) && l.charsPerToken > 0)) &&
    isSharesOrAbsent(l.shares) &&
    isSharesOrAbsent(l.countedShares) &&
    isWindowOrAbsent(l.countedWindow) &&
    stepsUpTo(l.steps, CALM_STEPS) &&
    stepsUpTo(l.shifts, STEADY_STEPS) &&
    isCountedWindowsOrAbsent(l.countedWindows)
  );
}

/** Absent, or at most `COUNTED_WINDOWS` windows, each a positive count and its estimate by part (none below 0). */
function isCountedWindowsOrAbsent(windows: unknown): boolean {
  return (
    windows === undefined ||
    (Array.isArray(windows) &&
      windows.length <= COUNTED_WINDOWS &&
      windows.every(
        (w) =>
          Array.isArray(w) &&
          w.length === PART_COUNT + 1 &&
          w.every((x) => isFiniteNumber(x) && x >= 0) &&
          (w[0] as number) > 0,
      ))
  );
}

/** Absent, or at most `MAX_PASSED_OVER` ranges of lines, each [first, last] from line 1 on. */
function isRangesOrAbsent(r: unknown): boolean {
  return (
    r === undefined ||
    (Array.isArray(r) &&
      r.length <= MAX_PASSED_OVER &&
      r.every(
        (x) =>
          Array.isArray(x) &&
          x.length === 2 &&
          Number.isInteger(x[0]) &&
          Number.isInteger(x[1]) &&
          (x[0] as number) >= 1 &&
          (x[1] as number) >= (x[0] as number),
      ))
  );
}

/** Absent, or a window of at least one line from line 1 on. */
function isWindowOrAbsent(w: unknown): boolean {
  return (
    w === undefined ||
    (isRecord(w) &&
      Number.isInteger(w.first) &&
      Number.isInteger(w.lines) &&
      (w.first as number) >= 1 &&
      (w.lines as number) >= 1)
  );
}

/** Absent, or one share of the estimate per token group. */
function isSharesOrAbsent(shares: unknown): boolean {
  return (
    shares === undefined ||
    (Array.isArray(shares) &&
      shares.length === GROUP_COUNT &&
      shares.every((x) => isFiniteNumber(x) && x >= 0 && x <= 1))
  );
}

/** Absent, or at most `most` finite steps of 0 or more. */
function stepsUpTo(steps: unknown, most: number): boolean {
  return (
    steps === undefined ||
    (Array.isArray(steps) && steps.length <= most && steps.every((x) => isFiniteNumber(x) && x >= 0))
  );
}

/** Accepts only well-formed entries from a file anyone could have damaged; the rest is dropped. */
export function normalizeState(raw: unknown): SessionState {
  const state = emptyState();
  if (!isRecord(raw)) return state;
  if (isRecord(raw.plans)) {
    for (const [id, p] of Object.entries(raw.plans)) {
      if (
        isRecord(p) &&
        typeof p.file === 'string' &&
        allFinite(p, ['size', 'mtimeMs', 'askedFirst', 'sentFirst', 'sentLines', 'estimate', 'cap', 'at']) &&
        (p.askedLines === undefined || isFiniteNumber(p.askedLines)) &&
        (p.enginePage === undefined || isFiniteNumber(p.enginePage)) &&
        (p.lineOverCap === undefined || p.lineOverCap === true) &&
        (p.resultBound === undefined || p.resultBound === true)
      ) {
        setOwn(state.plans, id, p as unknown as Plan);
      }
    }
  }
  if (isRecord(raw.files)) {
    for (const [path, l] of Object.entries(raw.files)) {
      if (isLearned(l)) setOwn(state.files, path, l);
    }
  }
  if (isRecord(raw.readings)) {
    for (const [path, r] of Object.entries(raw.readings)) {
      if (
        isRecord(r) &&
        allFinite(r, ['size', 'mtimeMs', 'askedFirst', 'askedLast', 'nextFirst', 'nextLines', 'at']) &&
        typeof r.whole === 'boolean' &&
        (r.partialOf === undefined || typeof r.partialOf === 'string') &&
        (r.hopeful === undefined || r.hopeful === true) &&
        isRangesOrAbsent(r.passedOver) &&
        (r.resume === undefined || (Number.isInteger(r.resume) && (r.resume as number) >= 1))
      ) {
        setOwn(state.readings, path, r as unknown as Reading);
      }
    }
  }
  if (isRecord(raw.seen)) {
    const seen: Record<string, Seen> = {};
    for (const [path, w] of Object.entries(raw.seen)) {
      if (isRecord(w) && typeof w.id === 'string' && allFinite(w, ['size', 'mtimeMs', 'first', 'lines', 'at'])) {
        setOwn(seen, path, w as unknown as Seen);
      }
    }
    state.seen = seen;
  }
  if (isFiniteNumber(raw.cap) && raw.cap > 0) state.cap = raw.cap;
  if (isModelName(raw.model)) state.model = raw.model;
  if (typeof raw.countsByLength === 'boolean') state.countsByLength = raw.countsByLength;
  if (raw.refusesWholeReads === true) state.refusesWholeReads = true;
  if (typeof raw.engine === 'string' && /^\d{1,4}\.\d{1,4}\.\d{1,6}$/.test(raw.engine)) state.engine = raw.engine;
  if (isRecord(raw.gates)) state.gates = raw.gates; // checked by the gates' own code, loaded only when one is on
  return state;
}
