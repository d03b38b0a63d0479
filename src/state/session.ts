// What one session remembers, and the pure rules that keep it small.

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
  at: number;
}

/** A file's measured density: engine tokens per estimated token, valid while size and mtime hold. */
export interface Learned {
  size: number;
  mtimeMs: number;
  ratio: number;
  at: number;
}

export interface SessionState {
  plans: Record<string, Plan>;
  files: Record<string, Learned>;
  /** A cap the engine reported in a refusal this session. */
  cap?: number;
  /** What the opt-in gates remember; absent until a gate records something. */
  gates?: GateState;
}

/** Lines one Read returned (1-based, inclusive), and the call whose result holds them. */
export interface ReadRange {
  first: number;
  last: number;
  toolUseId: string;
  at: number;
}

/** The Reads of one file by one agent, valid while the file's mtime and size hold. */
export interface ReadRecord {
  mtimeMs: number;
  size: number;
  totalLines: number;
  ranges: ReadRange[];
  /** Windows (`first-last`) already denied once as covered: the same read again runs. */
  denied: string[];
  at: number;
}

export interface GateState {
  /** Agent ('' for the main conversation, else the hook's agent_id) → resolved path → its Reads. */
  reads: Record<string, Record<string, ReadRecord>>;
  /** Hash of tool name + input of each call the user rejected → when it was seen. */
  rejected: Record<string, number>;
  /** Files whose Edit or Write the user rejected, to be read before the next edit → when. */
  reread: Record<string, number>;
  /** Rejections (tool_use_id) already taken into account, so an old one is never applied twice. */
  seen: Record<string, number>;
}

/** Bounds of the gates' memory (issue #8). */
export const MAX_RANGES_PER_FILE = 64;
export const MAX_GATE_FILES = 500;
export const MAX_REJECTED = 500;
export const MAX_REREAD = 500;
export const MAX_SEEN = 500;
const MAX_DENIED_PER_FILE = 16;

export function emptyGates(): GateState {
  return { reads: {}, rejected: {}, reread: {}, seen: {} };
}

function gatesOf(state: SessionState): GateState {
  return state.gates ?? emptyGates();
}

/** The record of a file's Reads by an agent, if the file is unchanged since. */
export function readRecord(state: SessionState, agent: string, path: string, size: number, mtimeMs: number): ReadRecord | undefined {
  const byAgent = ownValue(gatesOf(state).reads, agent);
  const r = byAgent ? ownValue(byAgent, path) : undefined;
  return r && r.size === size && r.mtimeMs === mtimeMs ? r : undefined;
}

/** One more Read of a file: appended to the file's record, or a new record when the file changed. */
export function withRead(
  state: SessionState, agent: string, path: string,
  file: { size: number; mtimeMs: number; totalLines: number }, range: ReadRange,
): SessionState {
  const gates = gatesOf(state);
  const byAgent = { ...(ownValue(gates.reads, agent) ?? {}) };
  const old = readRecord(state, agent, path, file.size, file.mtimeMs);
  const ranges = [...(old?.ranges ?? []), range].sort((a, b) => b.at - a.at).slice(0, MAX_RANGES_PER_FILE);
  setOwn(byAgent, path, { ...file, ranges, denied: old?.denied ?? [], at: range.at });
  return { ...state, gates: { ...gates, reads: boundReads({ ...gates.reads, [agent]: byAgent }) } };
}

/** A covered window denied once for this file, so the same read again runs. */
export function withDenied(state: SessionState, agent: string, path: string, window: string): SessionState {
  const gates = gatesOf(state);
  const byAgent = ownValue(gates.reads, agent);
  const r = byAgent ? ownValue(byAgent, path) : undefined;
  if (!byAgent || !r || r.denied.includes(window)) return state;
  const next = { ...byAgent };
  setOwn(next, path, { ...r, denied: [...r.denied, window].slice(-MAX_DENIED_PER_FILE) });
  return { ...state, gates: { ...gates, reads: { ...gates.reads, [agent]: next } } };
}

/** A rejected Edit or Write: every agent's record of the file goes (the model must look again), and the
 * file waits for a Read before the next edit. */
export function withRejectedEdit(state: SessionState, path: string, at: number): SessionState {
  const gates = gatesOf(state);
  const reads: GateState['reads'] = {};
  for (const [agent, files] of Object.entries(gates.reads)) {
    const kept = { ...files };
    delete kept[path];
    setOwn(reads, agent, kept);
  }
  const reread = keepNewestAt({ ...gates.reread, [path]: at }, MAX_REREAD);
  return { ...state, gates: { ...gates, reads, reread } };
}

/** The file was read: its next Edit or Write may run. */
export function withoutReread(state: SessionState, path: string): SessionState {
  const gates = gatesOf(state);
  if (!Object.prototype.hasOwnProperty.call(gates.reread, path)) return state;
  const reread = { ...gates.reread };
  delete reread[path];
  return { ...state, gates: { ...gates, reread } };
}

export function withRejectedCall(state: SessionState, hash: string, at: number): SessionState {
  const gates = gatesOf(state);
  return { ...state, gates: { ...gates, rejected: keepNewestAt({ ...gates.rejected, [hash]: at }, MAX_REJECTED) } };
}

export function withSeen(state: SessionState, toolUseIds: readonly string[], at: number): SessionState {
  const gates = gatesOf(state);
  const seen = { ...gates.seen };
  for (const id of toolUseIds) setOwn(seen, id, at);
  return { ...state, gates: { ...gates, seen: keepNewestAt(seen, MAX_SEEN) } };
}

export function mustReread(state: SessionState, path: string): boolean {
  return ownValue(gatesOf(state).reread, path) !== undefined;
}

export function wasRejected(state: SessionState, hash: string): boolean {
  return ownValue(gatesOf(state).rejected, hash) !== undefined;
}

export function wasSeen(state: SessionState, toolUseId: string): boolean {
  return ownValue(gatesOf(state).seen, toolUseId) !== undefined;
}

/** At most MAX_GATE_FILES files over all agents: the least recently read go first. */
function boundReads(reads: GateState['reads']): GateState['reads'] {
  const all = Object.entries(reads).flatMap(([agent, files]) => Object.entries(files).map(([path, r]) => ({ agent, path, r })));
  if (all.length <= MAX_GATE_FILES) return reads;
  all.sort((a, b) => b.r.at - a.r.at);
  const out: GateState['reads'] = {};
  for (const { agent, path, r } of all.slice(0, MAX_GATE_FILES)) {
    if (!Object.prototype.hasOwnProperty.call(out, agent)) setOwn(out, agent, {});
    setOwn(out[agent]!, path, r);
  }
  return out;
}

function keepNewestAt(entries: Record<string, number>, max: number): Record<string, number> {
  const kept = Object.entries(entries).sort((a, b) => b[1] - a[1]).slice(0, max);
  const out: Record<string, number> = {};
  for (const [k, v] of kept) setOwn(out, k, v);
  return out;
}

function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export const MAX_PLANS = 256;
export const MAX_FILES = 256;
export const PLAN_MAX_AGE_MS = 30 * 60 * 1000;

export function emptyState(): SessionState {
  return { plans: {}, files: {} };
}

export function withPlan(state: SessionState, toolUseId: string, plan: Plan): SessionState {
  const plans = keepNewest({ ...state.plans, [toolUseId]: plan }, MAX_PLANS, plan.at - PLAN_MAX_AGE_MS);
  return { ...state, plans };
}

export function withoutPlan(state: SessionState, toolUseId: string): SessionState {
  if (!(toolUseId in state.plans)) return state;
  const plans = { ...state.plans };
  delete plans[toolUseId];
  return { ...state, plans };
}

export function withLearned(state: SessionState, path: string, learned: Learned, cap?: number): SessionState {
  const files = keepNewest({ ...state.files, [path]: learned }, MAX_FILES, -Infinity);
  return cap === undefined ? { ...state, files } : { ...state, files, cap };
}

/** The learned ratio for a file, if the file is unchanged since it was learned. */
export function learnedRatio(state: SessionState, path: string, size: number, mtimeMs: number): number | undefined {
  const l = Object.prototype.hasOwnProperty.call(state.files, path) ? state.files[path] : undefined;
  return l && l.size === size && l.mtimeMs === mtimeMs ? l.ratio : undefined;
}

function keepNewest<T extends { at: number }>(entries: Record<string, T>, max: number, notBefore: number): Record<string, T> {
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
  let text = JSON.stringify(state);
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const g = state.gates;
  type Entry = { drop: (s: SessionState) => void; at: number; bytes: number };
  const entries: Entry[] = [
    ...Object.entries(state.plans).map(([k, v]) => ({ drop: (s: SessionState) => { delete s.plans[k]; }, at: v.at, bytes: entryBytes(k, v) })),
    ...Object.entries(state.files).map(([k, v]) => ({ drop: (s: SessionState) => { delete s.files[k]; }, at: v.at, bytes: entryBytes(k, v) })),
    ...(g ? gateEntries(g) : []),
  ].sort((a, b) => a.at - b.at);
  let total = Buffer.byteLength(text);
  let drop = 0;
  while (total > maxBytes && drop < entries.length - 1) total -= entries[drop++]!.bytes;
  if (total > maxBytes) return undefined;
  const next: SessionState = { ...state, plans: { ...state.plans }, files: { ...state.files } };
  if (g) {
    const reads: GateState['reads'] = {};
    for (const [agent, files] of Object.entries(g.reads)) setOwn(reads, agent, { ...files });
    next.gates = { reads, rejected: { ...g.rejected }, reread: { ...g.reread }, seen: { ...g.seen } };
  }
  for (const e of entries.slice(0, drop)) e.drop(next);
  text = JSON.stringify(next);
  return Buffer.byteLength(text) <= maxBytes ? text : undefined;
}

/** The gates' entries, each droppable on its own (a read record whole: its ranges share one validity). */
function gateEntries(g: GateState): { drop: (s: SessionState) => void; at: number; bytes: number }[] {
  const out: { drop: (s: SessionState) => void; at: number; bytes: number }[] = [];
  for (const [agent, files] of Object.entries(g.reads)) {
    for (const [path, r] of Object.entries(files)) {
      out.push({ drop: (s) => { delete s.gates!.reads[agent]![path]; }, at: r.at, bytes: entryBytes(path, r) });
    }
  }
  for (const kind of ['rejected', 'reread', 'seen'] as const) {
    for (const [k, at] of Object.entries(g[kind])) out.push({ drop: (s) => { delete s.gates![kind][k]; }, at, bytes: entryBytes(k, at) });
  }
  return out;
}

/** Bytes an entry adds to the JSON: `"key":value` and a comma. */
function entryBytes(key: string, value: unknown): number {
  return Buffer.byteLength(JSON.stringify(key)) + Buffer.byteLength(JSON.stringify(value)) + 2;
}

/** Accepts only well-formed entries from a file anyone could have damaged; the rest is dropped. */
export function normalizeState(raw: unknown): SessionState {
  const state = emptyState();
  if (!isRecord(raw)) return state;
  if (isRecord(raw.plans)) {
    for (const [id, p] of Object.entries(raw.plans)) {
      if (isRecord(p) && typeof p.file === 'string' && allFinite(p, ['size', 'mtimeMs', 'askedFirst', 'sentFirst', 'sentLines', 'estimate', 'cap', 'at'])
        && (p.askedLines === undefined || isFiniteNumber(p.askedLines))) {
        setOwn(state.plans, id, p as unknown as Plan);
      }
    }
  }
  if (isRecord(raw.files)) {
    for (const [path, l] of Object.entries(raw.files)) {
      if (isRecord(l) && allFinite(l, ['size', 'mtimeMs', 'ratio', 'at']) && (l.ratio as number) > 0) {
        setOwn(state.files, path, l as unknown as Learned);
      }
    }
  }
  if (isFiniteNumber(raw.cap) && raw.cap > 0) state.cap = raw.cap;
  if (isRecord(raw.gates)) state.gates = normalizeGates(raw.gates);
  return state;
}

function normalizeGates(raw: Record<string, unknown>): GateState {
  const gates = emptyGates();
  if (isRecord(raw.reads)) {
    for (const [agent, files] of Object.entries(raw.reads)) {
      if (!isRecord(files)) continue;
      const kept: Record<string, ReadRecord> = {};
      for (const [path, r] of Object.entries(files)) {
        if (!isRecord(r) || !allFinite(r, ['mtimeMs', 'size', 'totalLines', 'at']) || !Array.isArray(r.ranges) || !Array.isArray(r.denied)) continue;
        const ranges = r.ranges.filter((x): x is ReadRange => isRecord(x) && allFinite(x, ['first', 'last', 'at'])
          && typeof x.toolUseId === 'string' && (x.first as number) >= 1 && (x.last as number) >= (x.first as number))
          .slice(0, MAX_RANGES_PER_FILE);
        const denied = r.denied.filter((d): d is string => typeof d === 'string').slice(-MAX_DENIED_PER_FILE);
        setOwn(kept, path, { mtimeMs: r.mtimeMs as number, size: r.size as number, totalLines: r.totalLines as number, ranges, denied, at: r.at as number });
      }
      setOwn(gates.reads, agent, kept);
    }
    gates.reads = boundReads(gates.reads);
  }
  for (const kind of ['rejected', 'reread', 'seen'] as const) {
    const v = raw[kind];
    if (!isRecord(v)) continue;
    const kept: Record<string, number> = {};
    for (const [k, at] of Object.entries(v)) if (isFiniteNumber(at)) setOwn(kept, k, at);
    gates[kind] = keepNewestAt(kept, 500);
  }
  return gates;
}

/** Any id is a key, `__proto__` included (a tool_use_id is the engine's string): never a prototype change. */
function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function allFinite(o: Record<string, unknown>, keys: string[]): boolean {
  return keys.every((k) => isFiniteNumber(o[k]));
}
