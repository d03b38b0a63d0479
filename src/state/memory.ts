// What the pager remembers across sessions on this machine, and the pure rules that keep it small: each file's
// density the engine taught (valid while the file's size and mtime hold), and, per model, how the engine's
// counts compared with the estimate, so that a new session starts from what this user's model really counts.
import { ESTIMATE_VERSION } from '../estimate/weights.js';
import { SKETCH_SIZE, sketchResemblance } from './digest.js';
import { isLearned, type Learned } from './session.js';
import { allFinite, isFiniteNumber, isModelName, isRecord, ownValue, setOwn } from './record.js';

/** One engine count set beside the estimate: `point` is the estimate's share of each token group
 * (estimate/groups.ts), `digits` and `digitRuns` the digits and runs of digits of the text counted (both absent in
 * memory files written before they were kept), `tokens` the engine's count of the same text. */
export interface Observation {
  point: number[];
  digits?: number;
  digitRuns?: number;
  tokens: number;
  at: number;
}

export interface ModelMemory {
  observations: Observation[];
  /** When the engine last counted this model's windows by their length (state/session.ts, `countsByLength`): behind
   * a gateway without count_tokens, where that is every count the engine makes. */
  countsByLength?: number;
  /** What the line numbers of a Read's result cost this model, where it is less than the rule the usage is read by
   * (hooks/line-numbers.ts, `lineNumberCost`): a share of that rule, and when a retry last told it. */
  lineNumbers?: { cost: number; at: number };
  /** What the line numbers of a Read's result cost this model beyond that rule on each line that starts with a
   * space or a tab (hooks/line-numbers.ts, `indentationCost`): tokens a line, and when a retry last told it. */
  indentation?: { extra: number; at: number };
  /** How far this model's line numbers cost beyond the rule toward a token for each digit and one for the tab
   * (hooks/line-numbers.ts, `digitSplitCost`): 0 the rule, 1 every digit apart; and when a retry last told it. A 0
   * is a retry's proof that they cost the rule (`refutesDigitSplit`), which outweighs what the model's counts of data
   * seem to say (state/model.ts, `splitsDigits`). */
  digits?: { split: number; at: number };
}

/** A file's density as later sessions find it. */
export interface RememberedFile extends Learned {
  /** Its content's digest (state/digest.ts), where it is at most `DIGEST_MAX_BYTES`: an unchanged copy at another path
   * (a clone, a worktree, another project's node_modules), or the file rewritten unchanged, finds the density too. */
  digest?: string;
  /** Its lines' sketch (state/digest.ts, `lineSketch`), kept with the digest: a later version of the file at this path
   * (edited, or grown) that shares most of its lines is sized by this density; another text there is not. */
  sketch?: number[];
  /** The model whose counts taught it, where the transcript named one: another model's tokenizer counts the same text
   * otherwise (up to a third more), and its first window would be sized by the wrong density. */
  model?: string;
  /** The density of each window of it that a count taught, `[first, last, ratio]` (at most `MEMORY_MAX_SPANS`; a
   * newer one in place of what it overlaps): a later reading sizes each window by its own text, not by the window
   * before it. */
  spans?: number[][];
  /** Lines each over a cap, `[first, last, cap]`: the engine counted the line alone over `cap`, or a count of the
   * file judged it so and the reading passed it over for good (at most `MEMORY_MAX_OVER_CAP`). A later reading passes
   * them over as well, where it would name them again and have them refused (lines of xlsx's full bundle, refused in
   * each session). */
  overCap?: number[][];
}

export interface Memory {
  /** The estimate's version the files' densities were counted against (`ESTIMATE_VERSION`). */
  estimate: number;
  files: Record<string, RememberedFile>;
  models: Record<string, ModelMemory>;
  /** The model of the newest session that taught something: the best guess for a session not yet seen. */
  lastModel?: string;
}

export const MEMORY_MAX_FILES = 512;
export const MEMORY_MAX_MODELS = 16;
export const MEMORY_MAX_OBSERVATIONS = 32;
/** What is not confirmed again within this time is forgotten: files change, and so do the models behind a name. */
export const MEMORY_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
export const MEMORY_FILE_MAX_BYTES = 256 * 1024;
export const MEMORY_MAX_SPANS = 48;
export const MEMORY_MAX_OVER_CAP = 16;
/** The most tokens a line's number may cost beyond the rule on an indented line, as kept: the old Claude tokenizer,
 * the costliest measured, takes up to 2 (docs/ROUNDS.md). */
export const MAX_INDENTATION_COST = 2;

export function emptyMemory(): Memory {
  return { estimate: ESTIMATE_VERSION, files: {}, models: {} };
}

/** The learned density of an unchanged file, from an earlier session of `model` (or of a model not named): kept for
 * this path with the same size and mtime, else for the same content anywhere. `digestOf` gives the file's digest; it
 * is asked only where some file of the same size was kept with one, so most Reads never hash. Pure but for that. */
export function rememberedFile(
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  model: string | undefined,
  digestOf: () => string | undefined,
): RememberedFile | undefined {
  const sameModel = (l: RememberedFile) => l.model === undefined || model === undefined || l.model === model;
  const here = ownValue(memory.files, file.path);
  if (here && here.size === file.size && here.mtimeMs === file.mtimeMs && sameModel(here)) return here;
  const alike = Object.values(memory.files).filter(
    (l) => l.size === file.size && l.digest !== undefined && sameModel(l),
  );
  if (alike.length === 0) return undefined;
  const digest = digestOf();
  if (digest === undefined) return undefined;
  return alike.filter((l) => l.digest === digest).sort((a, b) => b.at - a.at)[0];
}

/** The entry kept for an earlier version of the file at its path (another size or mtime) when most of its lines are
 * still there (`sketchOf`: the file's sketch now, asked only then): an edit, or text added. Another text written at
 * the same path (a scratch file rewritten by another command) is not taken for it: on the rounds benchmark, windows
 * sized by another file's density, even with the prior's margin, were refused more often than by the prior (6-11
 * refusals a row against 4-8). Pure but for `sketchOf`. */
export function rememberedVersion(
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  sketchOf: () => number[] | undefined,
): RememberedFile | undefined {
  const here = ownValue(memory.files, file.path);
  if (!here?.sketch || (here.size === file.size && here.mtimeMs === file.mtimeMs)) return undefined;
  const now = sketchOf();
  return now && sketchResemblance(here.sketch, now) >= SAME_FILE_RESEMBLANCE ? here : undefined;
}

/** The least share of lines in common (estimated from two sketches) for a file to be taken for a version of another:
 * a tenth of a file's lines removed keeps 0.75-1 of its sketch; two locales of one JSON catalogue share 0.125. */
export const SAME_FILE_RESEMBLANCE = 0.5;

export function withFile(memory: Memory, path: string, learned: RememberedFile): Memory {
  // A new entry keeps the spans and the lines over the cap of the same content kept before, here (by size and mtime)
  // or elsewhere (by digest): its reading goes on from them.
  const here = ownValue(memory.files, path);
  const sameHere = here?.size === learned.size && here.mtimeMs === learned.mtimeMs && here.model === learned.model;
  const alike = learned.spans || learned.overCap
    ? undefined
    : sameHere && (here?.spans || here?.overCap)
      ? here
      : Object.values(memory.files).find(
          (l) =>
            (l.spans || l.overCap) &&
            learned.digest &&
            l.digest === learned.digest &&
            l.size === learned.size &&
            l.model === learned.model,
        );
  const entry = {
    ...learned,
    ...(alike?.spans ? { spans: alike.spans } : {}),
    ...(alike?.overCap ? { overCap: alike.overCap } : {}),
  };
  const files = { ...memory.files, [path]: entry };
  return { ...memory, files: newest(files, MEMORY_MAX_FILES, learned.at - MEMORY_MAX_AGE_MS) };
}

export function withObservation(memory: Memory, model: string, obs: Observation): Memory {
  if (!isModelName(model)) return memory;
  const was = ownValue(memory.models, model);
  const observations = [...(was?.observations ?? []), obs]
    .filter((o) => o.at >= obs.at - MEMORY_MAX_AGE_MS)
    .slice(-MEMORY_MAX_OBSERVATIONS);
  return withModelMemory(memory, model, { ...was, observations });
}

/** Whether the engine counted the model's windows by length (`at`: when it did), or by a tokenizer. */
export function withModelCountsByLength(memory: Memory, model: string, byLength: boolean, at: number): Memory {
  if (!isModelName(model)) return memory;
  const was = ownValue(memory.models, model);
  if (!byLength && was?.countsByLength === undefined) return memory;
  const { countsByLength: _was, ...rest } = was ?? { observations: [] };
  return withModelMemory(memory, model, byLength ? { ...rest, countsByLength: at } : rest);
}

/** Whether the engine counted this model's windows by length within the age limit at `now`. */
export function countsByLengthOf(memory: Memory, model: string | undefined, now: number): boolean {
  const at = model === undefined ? undefined : ownValue(memory.models, model)?.countsByLength;
  return at !== undefined && at >= now - MEMORY_MAX_AGE_MS;
}

/** The cost of the model's line numbers as a retry told it (`cost` 1: as the rule says, and nothing is kept). */
export function withLineNumberCost(memory: Memory, model: string, cost: number, at: number): Memory {
  return withTold(memory, model, 'lineNumbers', cost < 1 ? { cost, at } : undefined);
}

/** The share of the rule that the model's line numbers cost, as last told within the age limit at `now`; 1 when
 * none was, or the rule held. */
export function lineNumberCostOf(memory: Memory, model: string | undefined, now: number): number {
  return toldOf(memory, model, 'lineNumbers', now)?.cost ?? 1;
}

/** The extra cost of the model's line numbers on an indented line as a retry told it (`extra` 0: none, and nothing
 * is kept). */
export function withIndentationCost(memory: Memory, model: string, extra: number, at: number): Memory {
  return withTold(memory, model, 'indentation', extra > 0 ? { extra, at } : undefined);
}

/** The tokens the model's line numbers cost beyond the rule on an indented line, as last told within the age limit
 * at `now`; 0 when none was. */
export function indentationCostOf(memory: Memory, model: string | undefined, now: number): number {
  return toldOf(memory, model, 'indentation', now)?.extra ?? 0;
}

/** How far the model's line numbers cost toward a token a digit as a retry told it: 0, that a retry proved they cost
 * the rule (hooks/line-numbers.ts, `refutesDigitSplit`); undefined, nothing is kept. */
export function withDigitSplitCost(memory: Memory, model: string, split: number | undefined, at: number): Memory {
  return withTold(memory, model, 'digits', split === undefined ? undefined : { split, at });
}

/** How far the model's line numbers cost toward a token a digit, as last told within the age limit at `now`; 0 when
 * none was. */
export function digitSplitCostOf(memory: Memory, model: string | undefined, now: number): number {
  return digitSplitTold(memory, model, now) ?? 0;
}

/** The same, undefined when no retry told it within the age limit: then the model's counts may tell it instead. */
export function digitSplitTold(memory: Memory, model: string | undefined, now: number): number | undefined {
  return toldOf(memory, model, 'digits', now)?.split;
}

/** What a retry tells of a model's line numbers, each kept with when it was last told. */
type Told = 'lineNumbers' | 'indentation' | 'digits';

/** The memory with what a retry told of the model under `key`, or without it where the retry told the rule
 * (`told` undefined). */
function withTold<K extends Told>(memory: Memory, model: string, key: K, told: ModelMemory[K] | undefined): Memory {
  if (!isModelName(model)) return memory;
  const was = ownValue(memory.models, model);
  if (told === undefined && was?.[key] === undefined) return memory;
  const entry: ModelMemory = { ...(was ?? { observations: [] }) };
  if (told === undefined) delete entry[key];
  else entry[key] = told;
  return withModelMemory(memory, model, entry);
}

/** What a retry last told of the model under `key`, within the age limit at `now`. */
function toldOf<K extends Told>(
  memory: Memory,
  model: string | undefined,
  key: K,
  now: number,
): ModelMemory[K] | undefined {
  const told = model === undefined ? undefined : ownValue(memory.models, model)?.[key];
  return told && told.at >= now - MEMORY_MAX_AGE_MS ? told : undefined;
}

function withModelMemory(memory: Memory, model: string, entry: ModelMemory): Memory {
  const models = { ...memory.models, [model]: entry };
  const kept = Object.entries(models)
    .sort((a, b) => newestAt(b[1]) - newestAt(a[1]))
    .slice(0, MEMORY_MAX_MODELS);
  return { ...memory, models: Object.fromEntries(kept), lastModel: model };
}

/** The observations of a model, newest last, none older than the age limit at `now`. */
export function observationsOf(memory: Memory, model: string | undefined, now: number): Observation[] {
  const m = model === undefined ? undefined : ownValue(memory.models, model);
  return m ? m.observations.filter((o) => o.at >= now - MEMORY_MAX_AGE_MS) : [];
}

/** The memory with the density of one more window of the file kept at `path` (when it is that unchanged file): the
 * spans it overlaps keep only their lines outside it, so that a reading that goes on past this window still finds
 * what an earlier one counted there. */
export function withSpan(
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  span: [number, number, number],
): Memory {
  return withUnchangedFile(memory, file, (here) => {
    const [first, last] = span;
    const kept = (here.spans ?? []).flatMap(([f, l, ratio]) => {
      if (l! < first || f! > last) return [[f!, l!, ratio!]];
      return [
        ...(f! < first ? [[f!, first - 1, ratio!]] : []),
        ...(l! > last ? [[last + 1, l!, ratio!]] : []),
      ];
    });
    const spans = [...kept, [first, last, Math.round(span[2] * 10_000) / 10_000]].sort((a, b) => a[0]! - b[0]!);
    return { ...here, spans: fewestSpans(spans) };
  });
}

/** The memory with lines `[first, last]` of the file kept at `path` (when it is that unchanged file) known over `cap`
 * each: joined to the ranges over the same cap that they touch. */
export function withOverCap(
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  range: [number, number, number],
): Memory {
  return withUnchangedFile(memory, file, (here) => {
    let [first, last] = range;
    const cap = range[2];
    const kept: number[][] = [];
    for (const [f, l, c] of here.overCap ?? []) {
      if (c === cap && l! + 1 >= first && f! <= last + 1) {
        first = Math.min(first, f!);
        last = Math.max(last, l!);
      } else {
        kept.push([f!, l!, c!]);
      }
    }
    const overCap = [...kept, [first, last, cap]].sort((a, b) => a[0]! - b[0]! || a[2]! - b[2]!);
    return { ...here, overCap: overCap.slice(0, MEMORY_MAX_OVER_CAP) };
  });
}

/** The memory with the entry of the file kept at `path` replaced by `update` of it, when it is that unchanged file;
 * else the memory as it was. */
function withUnchangedFile(
  memory: Memory,
  file: { path: string; size: number; mtimeMs: number },
  update: (here: RememberedFile) => RememberedFile,
): Memory {
  const here = ownValue(memory.files, file.path);
  if (!here || here.size !== file.size || here.mtimeMs !== file.mtimeMs) return memory;
  return { ...memory, files: { ...memory.files, [file.path]: update(here) } };
}

/** The ranges of `overCap` (`RememberedFile.overCap`) over a cap of `cap`: a line over a cap is over every lower one.
 * `[first, last]` each. Pure. */
export function linesOverCap(overCap: readonly number[][] | undefined, cap: number): Array<[number, number]> {
  return (overCap ?? []).filter(([, , c]) => c! >= cap).map(([f, l]): [number, number] => [f!, l!]);
}

/** At most `MEMORY_MAX_SPANS` spans: the two shortest neighbours merged into one, with the denser ratio (a window over
 * either stays within the cap), until they are that few; where no two touch, the shortest dropped. Pure. */
function fewestSpans(spans: number[][]): number[][] {
  const out = spans.map((s) => [...s]);
  while (out.length > MEMORY_MAX_SPANS) {
    let best = -1;
    for (let i = 0; i + 1 < out.length; i++) {
      if (out[i]![1]! + 1 !== out[i + 1]![0]!) continue;
      const lines = out[i + 1]![1]! - out[i]![0]!;
      if (best < 0 || lines < out[best + 1]![1]! - out[best]![0]!) best = i;
    }
    if (best < 0) {
      const shortest = out.reduce((k, s, i) => (s[1]! - s[0]! < out[k]![1]! - out[k]![0]! ? i : k), 0);
      out.splice(shortest, 1);
      continue;
    }
    const [a, b] = [out[best]!, out[best + 1]!];
    out.splice(best, 2, [a[0]!, b[1]!, Math.max(a[2]!, b[2]!)]);
  }
  return out;
}

/** The largest density of the spans over lines `first` to `last`, when they cover every one of those lines. Pure. */
export function spanDensity(spans: readonly number[][], first: number, last: number): number | undefined {
  const ratios = spanParts(spans, first, last).map(([, , ratio]) => ratio!);
  return ratios.some(Number.isNaN) ? undefined : Math.max(...ratios);
}

/** Lines `first`..`last` in parts, as [first, last, ratio]: each part a remembered span covers at its ratio, each
 * part none covers (a gap, or past the last span) at `NaN`. In order. Pure. */
export function spanParts(spans: readonly number[][], first: number, last: number): number[][] {
  const parts: number[][] = [];
  let next = first;
  for (const [f, l, ratio] of spans) {
    if (l! < next) continue;
    if (f! > last) break;
    if (f! > next) parts.push([next, f! - 1, NaN]);
    parts.push([Math.max(f!, next), Math.min(l!, last), ratio!]);
    next = l! + 1;
    if (next > last) return parts;
  }
  parts.push([next, last, NaN]);
  return parts;
}

/** The memory as the JSON text written, within `maxBytes`: where it would pass that (long paths, every field kept),
 * the least recently confirmed files go first, a tenth at a time, then the least recent models. Without this, one
 * write over the limit was refused, and so was every later one: the memory stopped learning. */
export function serializeMemory(memory: Memory, maxBytes: number): string | undefined {
  let m = memory;
  for (;;) {
    const text = JSON.stringify(m);
    if (Buffer.byteLength(text) <= maxBytes) return text;
    const files = Object.entries(m.files).sort((a, b) => b[1].at - a[1].at);
    if (files.length > 0) {
      m = { ...m, files: Object.fromEntries(files.slice(0, Math.floor(files.length * 0.9))) };
      continue;
    }
    const models = Object.entries(m.models).sort((a, b) => newestAt(b[1]) - newestAt(a[1]));
    if (models.length === 0) return undefined;
    m = { ...m, models: Object.fromEntries(models.slice(0, -1)) };
  }
}

function isSketch(s: unknown): s is number[] {
  return (
    Array.isArray(s) &&
    s.length > 0 &&
    s.length <= SKETCH_SIZE &&
    s.every((h) => Number.isInteger(h) && h >= 0 && h <= 0xffffffff)
  );
}

/** Accepts only well-formed entries from a file anyone could have damaged. */
export function normalizeMemory(raw: unknown, groups: number): Memory {
  const memory = emptyMemory();
  if (!isRecord(raw)) return memory;
  // A file's density is its count over an estimate: one counted against another version of the estimate (a memory
  // written before the version was kept is of version 1) would size its windows wrong, so the files are forgotten.
  // What the models' counts taught stays: it only ever raises the estimate, and it ages out.
  if (isRecord(raw.files) && raw.estimate === ESTIMATE_VERSION) {
    for (const [path, l] of Object.entries(raw.files)) {
      if (!isLearned(l)) continue;
      const { digest, sketch, model, spans, overCap, ...learned } = l as RememberedFile;
      setOwn(memory.files, path, {
        ...learned,
        ...(typeof digest === 'string' && /^[0-9a-f]{16}$/.test(digest) ? { digest } : {}),
        ...(isSketch(sketch) ? { sketch } : {}),
        ...(isModelName(model) ? { model } : {}),
        ...(isSpans(spans) ? { spans } : {}),
        ...(isOverCap(overCap) ? { overCap } : {}),
      });
    }
  }
  if (isRecord(raw.models)) {
    for (const [name, m] of Object.entries(raw.models)) {
      if (!isModelName(name) || !isRecord(m) || !Array.isArray(m.observations)) continue;
      const observations = m.observations
        .filter(
          (o: unknown): o is Observation =>
            isRecord(o) &&
            allFinite(o, ['tokens', 'at']) &&
            (o.tokens as number) > 0 &&
            Array.isArray(o.point) &&
            o.point.length === groups &&
            o.point.every((p) => isFiniteNumber(p) && p >= 0),
        )
        .map(({ point, digits, digitRuns, tokens, at }) => ({
          point,
          ...(isCount(digits) && isCount(digitRuns) ? { digits, digitRuns } : {}),
          tokens,
          at,
        }))
        .slice(-MEMORY_MAX_OBSERVATIONS);
      const lineNumbers = toldValue(m.lineNumbers, 'cost', (cost) => cost > 0 && cost < 1);
      const indentation = toldValue(m.indentation, 'extra', (extra) => extra > 0 && extra <= MAX_INDENTATION_COST);
      const digits = toldValue(m.digits, 'split', (split) => split >= 0 && split <= 1);
      setOwn(memory.models, name, {
        observations,
        ...(isFiniteNumber(m.countsByLength) ? { countsByLength: m.countsByLength } : {}),
        ...(lineNumbers ? { lineNumbers } : {}),
        ...(indentation ? { indentation } : {}),
        ...(digits ? { digits } : {}),
      });
    }
  }
  if (isModelName(raw.lastModel)) memory.lastModel = raw.lastModel;
  return memory;
}

/** At most `MEMORY_MAX_SPANS` spans of lines, in order, apart, each with a density. */
function isSpans(v: unknown): v is number[][] {
  if (!Array.isArray(v) || v.length > MEMORY_MAX_SPANS) return false;
  let after = 0;
  for (const s of v) {
    if (!Array.isArray(s) || s.length !== 3 || !s.every(isFiniteNumber)) return false;
    const [first, last, ratio] = s as number[];
    if (!Number.isInteger(first) || !Number.isInteger(last) || first! <= after || last! < first! || !(ratio! > 0)) {
      return false;
    }
    after = last!;
  }
  return true;
}

/** At most `MEMORY_MAX_OVER_CAP` ranges of lines, each with the cap they are over. */
function isOverCap(v: unknown): v is number[][] {
  return (
    Array.isArray(v) &&
    v.length <= MEMORY_MAX_OVER_CAP &&
    v.every(
      (r) =>
        Array.isArray(r) &&
        r.length === 3 &&
        r.every((n) => Number.isInteger(n) && (n as number) > 0) &&
        (r[1] as number) >= (r[0] as number),
    )
  );
}

function isCount(n: unknown): n is number {
  return isFiniteNumber(n) && n >= 0;
}

function newest<T extends { at: number }>(
  entries: Record<string, T>,
  max: number,
  notBefore: number,
): Record<string, T> {
  return Object.fromEntries(
    Object.entries(entries)
      .filter(([, e]) => e.at >= notBefore)
      .sort((a, b) => b[1].at - a[1].at)
      .slice(0, max),
  );
}

/** `raw` as a memory file holds what a retry told (`{ [field]: value, at }`), where its value is one `valid` takes. */
function toldValue<F extends string>(
  raw: unknown,
  field: F,
  valid: (value: number) => boolean,
): (Record<F, number> & { at: number }) | undefined {
  if (!isRecord(raw) || !allFinite(raw, [field, 'at']) || !valid(raw[field] as number)) return undefined;
  return { [field]: raw[field] as number, at: raw.at as number } as Record<F, number> & { at: number };
}

function newestAt(m: ModelMemory): number {
  const told = Math.max(m.countsByLength ?? 0, m.lineNumbers?.at ?? 0, m.indentation?.at ?? 0, m.digits?.at ?? 0);
  return m.observations.reduce((a, o) => Math.max(a, o.at), told);
}
