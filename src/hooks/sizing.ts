// How dense a file's windows are taken to be, and what is kept of each count for later sessions: the density this
// session's counts or an earlier session's taught, a changed file's last density, or the model's prior.

import { readFileSync } from 'node:fs';
import { fileWeights, partShares } from '../estimate/file-weights.js';
import {
  CALM_STEPS,
  FOLLOW_SAFETY,
  LEARNED_SAFETY,
  SAME_TEXT_SAFETY,
  STEADY_STEPS,
  VERSION_SAFETY,
} from '../estimate/weights.js';
import { contentDigest, DIGEST_MAX_BYTES, lineSketch } from '../state/digest.js';
import {
  countsByLengthOf,
  digitSplitTold,
  observationsOf,
  rememberedFile,
  rememberedVersion,
  spanDensity,
  spanParts,
  withFile,
  withModelCountsByLength,
  withObservation,
  withOverCap,
  withSpan,
  type Memory,
  type Observation,
  type RememberedFile,
} from '../state/memory.js';
import { modelPrior, type ModelPrior } from '../state/model.js';
import { learnedFor, learnedForVersion, withModel, type Learned, type SessionState } from '../state/session.js';
import type { HookContext } from './context.js';
import { resultCharsCap } from './engine-version.js';
import {
  budgetFor,
  fitWindow,
  LENGTH_SIZING,
  measureWindow,
  priorSizing,
  type Sizing,
} from './measure.js';
import { modelCall } from './transcript.js';

/** Whether the engine counts this session's windows by length: its last count this session was, or, before any
 * count this session, the model's last count in an earlier one (a gateway without count_tokens stays so). */
export function countsByLength(state: SessionState, memory: Memory, now: number): boolean {
  return state.countsByLength ?? countsByLengthOf(memory, state.model ?? memory.lastModel, now);
}

/** The file's learned density when the engine taught one (this session or an earlier one); else the calibration,
 * raised where the model's own counts ran denser: with its full margin for the first window of the file, a narrower
 * one, and leave to gamble, for the windows after it. After a refusal nothing gambles, so a file is refused at most
 * once. A model's counts never lower the estimate: on the rounds benchmark, windows sized from the factors a
 * sparser model's counts taught were refused more often than they saved (a token group holds many kinds of text).
 *
 * A density the usage taught is the last window's, and its margin follows how far a window's text differs from that
 * window's (`safetyForChange`): a count of the engine's own (a refusal, a banner) keeps `LEARNED_SAFETY`.
 *
 * A learned density keeps its margin for every window but the last of a reading: the rest, when its point estimate
 * fits, is named whole. Clamped, it would leave a tail of a few lines for a round of its own (two rounds for sure);
 * named whole, it takes one, or three if refused, and it is refused less than half the time. */
export function sizingFor(
  learned:
    | Pick<
        Learned,
        'ratio' | 'noFloor' | 'refused' | 'charsPerToken' | 'shares' | 'countedShares' | 'steps' | 'shifts' | 'countedWindows'
      >
    | undefined,
  followOn = false,
  prior?: ModelPrior,
): Sizing {
  if (learned) {
    // Where the usage of a window of many lines taught the density, the file's own weights size the next window by
    // its mix of features; a refusal's count sizes its retry (a prefix of the refused window) by its own density.
    const counted = learned.shares ? learned.countedWindows : undefined;
    const weights = counted && fileWeights(counted, learned.ratio);
    return {
      ratio: learned.ratio,
      ...(weights ? { weights, fitted: counted.map((w) => partShares(w.slice(1))) } : {}),
      safety: LEARNED_SAFETY,
      noFloor: learned.noFloor === true,
      gamble: false,
      gambleOnRest: followOn && learned.refused !== true,
      ...(learned.refused !== true && learned.shares ? { stretch: true as const } : {}),
      ...(learned.charsPerToken ? { charsPerToken: learned.charsPerToken } : {}),
      ...(learned.shares ? { similar: learned.shares } : {}),
      ...(prior ? { priorWeights: prior.sizingWeights } : {}),
      ...((learned.shares ?? learned.countedShares) ? { counted: learned.shares ?? learned.countedShares } : {}),
      ...(learned.shares && learned.steps && learned.steps.length >= CALM_STEPS
        ? { calm: Math.max(...learned.steps) }
        : {}),
      ...(learned.shares && learned.shifts && learned.shifts.length >= STEADY_STEPS
        ? { steady: Math.max(...learned.shifts) }
        : {}),
    };
  }
  const base = priorSizing(prior?.sizingWeights);
  return followOn ? { ...base, safety: FOLLOW_SAFETY, gamble: true, gambleOnRest: true } : base;
}

/** How a file's windows are sized from what the session and earlier sessions know: by length where the engine counts
 * so; else by the density the transcript has just told (`told`, a window following another), or the file's learned
 * one, else the prior of the session's model (or of the last model seen, before the session names its own). */
export function sizingFrom(
  state: SessionState,
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  followOn: boolean,
  now: number,
  told?: Learned,
): Sizing {
  const resultChars = resultCharsCap(state.engine);
  const model = state.model ?? memory.lastModel;
  // Looked up once: its lines over the cap go with any sizing, and it is the file's density where this session
  // has none (`knownDensity`).
  const kept = rememberedFile(memory, file, model, () => fileDigest(file.path, file.size, file.mtimeMs));
  const within = (sizing: Sizing): Sizing => ({
    ...sizing,
    ...(resultChars === undefined ? {} : { resultChars }),
    ...(kept?.overCap ? { overCap: kept.overCap } : {}),
  });
  if (countsByLength(state, memory, now)) return within(LENGTH_SIZING);
  const digitsTold = digitSplitTold(memory, model, now);
  const prior = modelPrior(observationsOf(memory, model, now), digitsTold === undefined ? undefined : digitsTold > 0);
  if (told) return within(sizingFor(told, true, prior));
  const known = learnedFor(state, file.path, file.size, file.mtimeMs) ?? kept;
  if (known) return within(sizingFor(known, followOn, prior));
  const earlier = earlierDensity(state, memory, file, model);
  return within(earlier ? sizingForVersion(earlier, prior) : sizingFor(undefined, followOn, prior));
}

/** The density a count taught of an earlier version of the file (this path, another size or mtime: edited, or grown,
 * since), this session or an earlier one of `model`, where the memory's sketch of that version says that most of its
 * lines are still there. */
export function earlierDensity(
  state: SessionState,
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  model: string | undefined,
): Learned | undefined {
  const kept = rememberedVersion(memory, file, () => fileSketch(file.path, file.size, file.mtimeMs));
  if (!kept) return undefined;
  const sameModel = kept.model === undefined || model === undefined || kept.model === model;
  return learnedForVersion(state, file.path, file.size, file.mtimeMs) ?? (sameModel ? kept : undefined);
}

/** A window of a file that changed since a count taught its density: most of an edited or grown file is the text
 * that was counted, and it is sized by that density better than by the model's prior. Only by the density: where
 * the text counted is known (its shares), the margin follows how far the window's text is from it, as for a window
 * after it (the text an edit added or a new script falls back to the prior); else `VERSION_SAFETY`. What held for
 * that version alone does not carry: the narrower margins of a density that held still, a refused window's characters
 * per token. Pure. */
export function sizingForVersion(earlier: Learned, prior?: ModelPrior): Sizing {
  const { ratio, noFloor, refused, shares, countedShares } = earlier;
  const sizing = sizingFor({ ratio, noFloor, refused, ...(shares ? { shares } : { countedShares }) }, false, prior);
  return shares ? sizing : { ...sizing, safety: VERSION_SAFETY };
}

/** The session's state as one call sees it: with the model that made the call, as the transcript names it. The
 * session's own is the last model that taught it something, and a subagent may run another: the engine checks this
 * call against its own model's counts. Where the call's record is not written yet, the session's. */
export function asCalledBy(state: SessionState, transcriptPath: string | undefined, toolUseId: string): SessionState {
  return withModel(state, modelCall(transcriptPath, toolUseId)?.model);
}

/** The file's density as a count taught it, this session or an earlier one of `model` (of the same content at
 * another path too). */
export function knownDensity(
  state: SessionState,
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  model: string | undefined,
): Learned | undefined {
  return (
    learnedFor(state, file.path, file.size, file.mtimeMs) ??
    rememberedFile(memory, file, model, () => fileDigest(file.path, file.size, file.mtimeMs))
  );
}

/** The digest of the file's content (state/digest.ts), when it still has `size` bytes, at most `DIGEST_MAX_BYTES`.
 * Kept for the hook's run: `pre` looks a file up in the memory twice (its density, and its spans). */
export function fileDigest(path: string, size: number, mtimeMs: number): string | undefined {
  const content = fileContent(path, size, mtimeMs);
  if (content && content.digest === undefined) content.digest = contentDigest(content.bytes);
  return content?.digest;
}

/** The sketch of the file's lines (state/digest.ts, `lineSketch`), on the same terms as its digest. */
export function fileSketch(path: string, size: number, mtimeMs: number): number[] | undefined {
  const content = fileContent(path, size, mtimeMs);
  if (content && content.sketch === undefined) content.sketch = lineSketch(content.bytes);
  return content?.sketch;
}

/** The file's bytes, when it still has `size` of them, at most `DIGEST_MAX_BYTES`; read once in a hook's run. */
function fileContent(path: string, size: number, mtimeMs: number): FileContent | undefined {
  if (size > DIGEST_MAX_BYTES) return undefined;
  const last = lastContent;
  if (last?.path === path && last.size === size && last.mtimeMs === mtimeMs) return last.content;
  let content: FileContent | undefined;
  try {
    const bytes = readFileSync(path);
    content = bytes.length === size ? { bytes } : undefined;
  } catch {
    content = undefined;
  }
  lastContent = { path, size, mtimeMs, content };
  return content;
}

interface FileContent {
  bytes: Uint8Array;
  digest?: string;
  sketch?: number[];
}

let lastContent: { path: string; size: number; mtimeMs: number; content: FileContent | undefined } | undefined;

/** The densities an earlier reading of the file counted, window by window (`RememberedFile.spans`): of this session's
 * model, for this unchanged file or the same content elsewhere. */
export function rememberedSpans(
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  model: string | undefined,
): readonly number[][] | undefined {
  return rememberedFile(memory, file, model, () => fileDigest(file.path, file.size, file.mtimeMs))?.spans;
}

/** A window from `first` of text an earlier reading counted, sized by the densities it counted over the window's
 * lines (each part at its span's, `partsDensity`; never less than the first line's), with the margin for the same
 * text: the usage of the window before it tells of other text. Lines no span covers (most often the last window of a
 * reading, whose usage no hook saw) count at `sizing`'s density with its margin (`LEARNED_SAFETY` for a learned
 * one), as the window after the one that taught it would: with the margin for changed text (before 2026-12-06), the
 * corpus, the held-out set and that set at a cap of 10,000, read whole again, took one call more under Claude-dense.
 * Undefined where no span covers `first`. */
export function sizingByMap(
  path: string,
  first: number,
  sizing: Sizing,
  spans: readonly number[][],
  cap: number,
  maxLines: number,
  deadline: number,
): Sizing | undefined {
  const at = spanDensity(spans, first, first);
  if (at === undefined || sizing.byLength) return undefined;
  const { weights: _w, fitted: _f, charsPerToken: _c, similar: _s, calm: _calm, steady: _steady, unknownDensity: _u,
    ...rest } = sizing;
  const uncovered = (sizing.ratio * sizing.safety) / SAME_TEXT_SAFETY;
  let mapped: Sizing = { ...rest, ratio: at, safety: SAME_TEXT_SAFETY, gamble: false, mappedFrom: sizing.ratio };
  for (;;) {
    const fit = fitWindow(path, first, budgetFor(path, cap, mapped, maxLines), deadline);
    if (fit.scan.timedOut || fit.lines === 0) return undefined;
    const density = partsDensity(path, spanParts(spans, first, first + fit.lines - 1), uncovered, deadline);
    if (density === undefined) return undefined;
    if (density <= mapped.ratio) return mapped;
    mapped = { ...mapped, ratio: density };
  }
}

/** The density of a window by its parts (`spanParts`): each part's estimate at its density (`uncovered` where no
 * span covers it), over the whole estimate. A window that holds the end of a dense span and the start of a sparse
 * one counts as much as its parts do. */
function partsDensity(path: string, parts: number[][], uncovered: number, deadline: number): number | undefined {
  const ratioOf = (r: number) => (Number.isNaN(r) ? uncovered : r);
  if (parts.length === 1) return ratioOf(parts[0]![2]!);
  let point = 0;
  let counted = 0;
  for (const [from, to, ratio] of parts) {
    const part = measureWindow(path, from!, to! - from! + 1, deadline);
    if (part.scan.timedOut) return undefined;
    point += part.pointTokens;
    counted += part.pointTokens * ratioOf(ratio!);
  }
  return point > 0 ? counted / point : ratioOf(parts[0]![2]!);
}

/** The file's density as the memory keeps it: with its content's digest and sketch, and the model that taught it. */
export function toRemember(path: string, learned: Learned, model: string | undefined): RememberedFile {
  const digest = fileDigest(path, learned.size, learned.mtimeMs);
  const sketch = digest ? fileSketch(path, learned.size, learned.mtimeMs) : undefined;
  // The windows its weights are fitted to are this session's: a later one starts from the density alone.
  const { countedWindows: _thisSession, ...kept } = learned;
  return {
    ...kept,
    ...(digest ? { digest } : {}),
    ...(sketch?.length ? { sketch } : {}),
    ...(model ? { model } : {}),
  };
}

/** What the engine counted, kept for later sessions: the file's density, and the count beside the estimate for the
 * model's prior; or, for a count by length (`byLength`), only that the model's windows are counted so. Such a count
 * says nothing of the file's density or the model's tokenizer, where a later session has count_tokens. */
export function remember(
  ctx: HookContext,
  path: string,
  learned: Learned,
  model: string | undefined,
  obs: Observation,
  byLength = false,
  span?: [number, number, number],
): void {
  const kept = byLength ? undefined : toRemember(path, learned, model);
  ctx.store.updateMemory((m) => {
    if (!kept) return model === undefined ? m : withModelCountsByLength(m, model, true, obs.at);
    const file = withFile(m, path, kept);
    const withIt = span ? withSpan(file, { path, size: learned.size, mtimeMs: learned.mtimeMs }, span) : file;
    if (model === undefined) return withIt;
    return withModelCountsByLength(withObservation(withIt, model, obs), model, false, obs.at);
  });
}

/** Lines found each over `cap` (counted so, or judged so by a count of the file), kept for later readings of it. */
export function rememberOverCap(
  ctx: HookContext,
  file: { path: string; size: number; mtimeMs: number },
  lines: { first: number; last: number },
  cap: number,
): void {
  ctx.store.updateMemory((m) => withOverCap(m, file, [lines.first, lines.last, cap]));
}
