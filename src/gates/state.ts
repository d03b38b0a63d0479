// What the opt-in gates remember in the session state, and the pure rules that keep it small. Lives apart from
// src/state/session.ts so that none of it is loaded while no gate is on; StateStore still does every write.
import type { SessionState } from '../state/session.js';
import { allFinite, isFiniteNumber, isRecord, ownValue, setOwn } from '../state/record.js';

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

/** Bounds of the gates' memory (issue #8), and of its share of the 256 KiB session file. */
export const GATES_MAX_BYTES = 96 * 1024;
export const MAX_RANGES_PER_FILE = 64;
export const MAX_GATE_FILES = 500;
export const MAX_REJECTED = 500;
export const MAX_REREAD = 500;
export const MAX_SEEN = 500;
const MAX_DENIED_PER_FILE = 16;

export function emptyGates(): GateState {
  return { reads: {}, rejected: {}, reread: {}, seen: {} };
}

/** The gates' part of the session state, checked: the file is anyone's to damage. */
function gatesOf(state: SessionState): GateState {
  return isRecord(state.gates) ? normalizeGates(state.gates) : emptyGates();
}

/** The state with this gates' part, brought under GATES_MAX_BYTES: the least recently used entries go first. */
function put(state: SessionState, gates: GateState): SessionState {
  return { ...state, gates: withinBytes(gates, GATES_MAX_BYTES) as unknown as Record<string, unknown> };
}

/** The record of a file's Reads by an agent, if the file is unchanged since. */
export function readRecord(
  state: SessionState, agent: string, path: string, size: number, mtimeMs: number,
): ReadRecord | undefined {
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
  return put(state, { ...gates, reads: boundReads({ ...gates.reads, [agent]: byAgent }) });
}

/** A covered window denied once for this file, so the same read again runs. */
export function withDenied(state: SessionState, agent: string, path: string, window: string): SessionState {
  const gates = gatesOf(state);
  const byAgent = ownValue(gates.reads, agent);
  const r = byAgent ? ownValue(byAgent, path) : undefined;
  if (!byAgent || !r || r.denied.includes(window)) return state;
  const next = { ...byAgent };
  setOwn(next, path, { ...r, denied: [...r.denied, window].slice(-MAX_DENIED_PER_FILE) });
  return put(state, { ...gates, reads: { ...gates.reads, [agent]: next } });
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
  return put(state, { ...gates, reads, reread });
}

/** The file was read: its next Edit or Write may run. */
export function withoutReread(state: SessionState, path: string): SessionState {
  const gates = gatesOf(state);
  if (!Object.hasOwn(gates.reread, path)) return state;
  const reread = { ...gates.reread };
  delete reread[path];
  return put(state, { ...gates, reread });
}

export function withRejectedCall(state: SessionState, hash: string, at: number): SessionState {
  const gates = gatesOf(state);
  return put(state, { ...gates, rejected: keepNewestAt({ ...gates.rejected, [hash]: at }, MAX_REJECTED) });
}

export function withSeen(state: SessionState, toolUseIds: readonly string[], at: number): SessionState {
  const gates = gatesOf(state);
  const seen = { ...gates.seen };
  for (const id of toolUseIds) setOwn(seen, id, at);
  return put(state, { ...gates, seen: keepNewestAt(seen, MAX_SEEN) });
}

export function mustReread(state: SessionState, path: string): boolean {
  return ownValue(gatesOf(state).reread, path) !== undefined;
}

export function anyRejected(state: SessionState): boolean {
  return isRecord(state.gates) && isRecord(state.gates.rejected) && Object.keys(state.gates.rejected).length > 0;
}

export function wasRejected(state: SessionState, hash: string): boolean {
  return ownValue(gatesOf(state).rejected, hash) !== undefined;
}

export function wasSeen(state: SessionState, toolUseId: string): boolean {
  return ownValue(gatesOf(state).seen, toolUseId) !== undefined;
}

/** At most MAX_GATE_FILES files over all agents: the least recently read go first. */
function boundReads(reads: GateState['reads']): GateState['reads'] {
  const all = Object.entries(reads)
    .flatMap(([agent, files]) => Object.entries(files).map(([path, r]) => ({ agent, path, r })));
  if (all.length <= MAX_GATE_FILES) return reads;
  all.sort((a, b) => b.r.at - a.r.at);
  const out: GateState['reads'] = {};
  for (const { agent, path, r } of all.slice(0, MAX_GATE_FILES)) {
    if (!Object.hasOwn(out, agent)) setOwn(out, agent, {});
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


/** Drops the least recently used entries until the JSON fits: whole read records first, then the oldest
 * rejections, files to re-read and seen ids. */
export function withinBytes(gates: GateState, maxBytes: number): GateState {
  let size = Buffer.byteLength(JSON.stringify(gates));
  if (size <= maxBytes) return gates;
  const next: GateState = {
    reads: {}, rejected: { ...gates.rejected }, reread: { ...gates.reread }, seen: { ...gates.seen },
  };
  for (const [agent, files] of Object.entries(gates.reads)) setOwn(next.reads, agent, { ...files });
  const entries = [
    ...Object.entries(gates.reads).flatMap(([agent, files]) => Object.entries(files).map(([path, r]) => ({
      at: r.at, bytes: entryBytes(path, r), drop: () => { delete next.reads[agent]![path]; },
    }))),
    ...(['rejected', 'reread', 'seen'] as const).flatMap((kind) => Object.entries(gates[kind]).map(([k, at]) => ({
      at: at + 1e15, bytes: entryBytes(k, at), drop: () => { delete next[kind][k]; }, // after every read record
    }))),
  ].sort((a, b) => a.at - b.at);
  for (const e of entries) {
    if (size <= maxBytes) break;
    e.drop();
    size -= e.bytes;
  }
  return next;
}

function entryBytes(key: string, value: unknown): number {
  return Buffer.byteLength(JSON.stringify(key)) + Buffer.byteLength(JSON.stringify(value)) + 2;
}

export function normalizeGates(raw: Record<string, unknown>): GateState {
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
        setOwn(kept, path, {
          mtimeMs: r.mtimeMs as number, size: r.size as number, totalLines: r.totalLines as number, ranges, denied,
          at: r.at as number,
        });
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
    gates[kind] = keepNewestAt(kept, MAX_SEEN);
  }
  return gates;
}
