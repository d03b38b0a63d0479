// The per-session state file: the only code that touches the state directory.
// Parallel Reads run their hooks in parallel, so every change is a read-modify-write under an exclusive lock
// file, published by an atomic rename: readers never see a torn file, writers never lose each other's entries.
// Every path it touches passes one check (a private directory of ours, a plain session id, no symlink
// followed), and every failure means "no state": the hook goes on without it.
import {
  closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync,
  unlinkSync, writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { emptyMemory, MEMORY_FILE_MAX_BYTES, normalizeMemory, serializeMemory, type Memory } from './memory.js';
import { emptyState, normalizeState, serializeWithin, type SessionState } from './session.js';
import { GROUP_COUNT } from '../estimate/groups.js';
import { isPrivateDir, NOFOLLOW_READ, readOwnFile, sessionFileIn, SESSION_FILE_MAX_BYTES, WINDOWS } from './dir.js';

export { isSafeSessionId, SESSION_FILE_MAX_BYTES, STATE_DIR_ENV, stateDir } from './dir.js';

/** A lock whose owner is gone, or that no live hook could still hold, is broken by the next hook. */
const LOCK_STALE_MS = 3_000;
const LOCK_ABANDONED_MS = 30_000;
/** A temp file or lock lives for milliseconds; one this old belongs to a killed hook. */
const TEMP_STALE_MS = 60_000;
const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** Bounds the whole directory: the newest sessions are kept, each file at most SESSION_FILE_MAX_BYTES. */
export const MAX_SESSIONS = 512;
/** What outlives a session (memory.ts): one file beside the sessions, never pruned as one of them. */
export const MEMORY_FILE = 'memory.v1.json'; // a dot: no session id can name it

interface Kind<T> {
  maxBytes: number;
  empty: () => T;
  normalize: (raw: unknown) => T;
  /** The text to write, or undefined when it cannot be brought under maxBytes. */
  serialize: (value: T, maxBytes: number) => string | undefined;
}

const SESSION: Kind<SessionState> = {
  maxBytes: SESSION_FILE_MAX_BYTES, empty: emptyState, normalize: normalizeState, serialize: serializeWithin,
};
const MEMORY: Kind<Memory> = {
  maxBytes: MEMORY_FILE_MAX_BYTES,
  empty: emptyMemory,
  normalize: (raw) => normalizeMemory(raw, GROUP_COUNT),
  serialize: serializeMemory,
};

const EXCLUSIVE_CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

export class StateStore {
  /** `deadline`: the instant past which waiting for the lock gives up and the hook goes on without state. */
  constructor(private readonly dir: string, private readonly deadline: number) {}

  /** The session's state, or an empty one when there is none or it cannot be trusted. */
  read(sessionId: string): SessionState {
    const file = this.sessionFile(sessionId);
    return file ? this.readKind(file, SESSION) : emptyState();
  }

  /** Applies `change` to the session's state under the lock. Returns false when the state could not be
   * written (the caller goes on without it). */
  update(sessionId: string, change: (state: SessionState) => SessionState): boolean {
    const file = this.sessionFile(sessionId);
    return file ? this.updateKind(file, SESSION, change) : false;
  }

  /** What earlier sessions taught, or an empty memory. */
  readMemory(): Memory {
    return this.readKind(join(this.dir, MEMORY_FILE), MEMORY);
  }

  updateMemory(change: (memory: Memory) => Memory): boolean {
    return this.updateKind(join(this.dir, MEMORY_FILE), MEMORY, change);
  }

  private readKind<T>(file: string, kind: Kind<T>): T {
    return this.isPrivateDir() ? load(file, kind) : kind.empty();
  }

  private updateKind<T>(file: string, kind: Kind<T>, change: (value: T) => T): boolean {
    if (!this.ensureDir()) return false;
    const lock = `${file}.lock`;
    const token = this.acquire(lock);
    if (!token) return false;
    try {
      const isNew = !exists(file);
      const text = kind.serialize(change(load(file, kind)), kind.maxBytes);
      if (text === undefined) return false;
      writeAtomically(file, text, this.deadline);
      if (isNew) this.prune();
      return true;
    } catch {
      return false;
    } finally {
      release(lock, token);
    }
  }

  private sessionFile(sessionId: string): string | undefined {
    return sessionFileIn(this.dir, sessionId);
  }

  private isPrivateDir(): boolean {
    return isPrivateDir(this.dir);
  }

  private ensureDir(): boolean {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch {
      return false;
    }
    return this.isPrivateDir();
  }

  /** Takes the lock, or returns undefined at the deadline. The lock holds its owner's pid. */
  private acquire(lock: string): string | undefined {
    const token = `${process.pid} ${Math.random().toString(36).slice(2)}`;
    // A Windows refusal that lasts is a real one (a read-only directory): not worth the whole lock deadline.
    const busyUntil = Date.now() + BUSY_RETRY_MS;
    let attempt = 0;
    for (;;) {
      try {
        const fd = openSync(lock, EXCLUSIVE_CREATE, 0o600);
        try { writeSync(fd, token); } finally { closeSync(fd); }
        return token;
      } catch (err) {
        // On Windows a lock a peer has just unlinked but still holds open refuses to be created anew.
        if (!((err as NodeJS.ErrnoException).code === 'EEXIST' || (isBusy(err) && Date.now() < busyUntil))) return undefined;
      }
      // Checked before breaking a lock too: peers that keep breaking one another's locks must still give up.
      if (Date.now() > this.deadline) return undefined;
      const seen = readSmall(lock);
      // Break it only if it is still the lock judged stale: a peer may have broken it and taken a new one.
      if (isStale(lock, seen) && readSmall(lock) === seen) {
        try { unlinkSync(lock); } catch { /* a peer broke it first */ }
        // On Windows the name stays until every peer that has the lock open closes it: retrying at once would
        // keep it open forever among the peers all breaking it.
        if (WINDOWS) sleep(Math.min(2 * 1.5 ** attempt++, 25) * (0.5 + Math.random()));
        continue;
      }
      // Back off with jitter: dozens of parallel Reads must not wake each other in lockstep.
      sleep(Math.min(2 * 1.5 ** attempt++, 25) * (0.5 + Math.random()));
    }
  }

  /** Sessions older than a week go, and beyond MAX_SESSIONS the oldest; so do leftovers of killed hooks. */
  private prune(): void {
    const now = Date.now();
    const sessions: { path: string; mtimeMs: number }[] = [];
    for (const name of readdirSync(this.dir)) {
      const kind = /\.(json|lock|tmp)$/.exec(name)?.[1];
      if (!kind || name === MEMORY_FILE) continue;
      const path = join(this.dir, name);
      try {
        const st = lstatSync(path);
        const age = now - st.mtimeMs;
        if (kind === 'json' && st.isFile() && age <= SESSION_MAX_AGE_MS) sessions.push({ path, mtimeMs: st.mtimeMs });
        else if (kind === 'json' || age > TEMP_STALE_MS) unlinkSync(path);
      } catch { /* a peer removed it */ }
    }
    if (sessions.length <= MAX_SESSIONS) return;
    sessions.sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const s of sessions.slice(MAX_SESSIONS)) {
      try { unlinkSync(s.path); } catch { /* a peer removed it */ }
    }
  }
}

/** A file we wrote: a regular file (never through a link), ours, not oversized; anything else reads as empty
 * and is replaced by the next write. */
function load<T>(file: string, kind: Kind<T>): T {
  const text = readOwnFile(file, kind.maxBytes);
  if (text === undefined) return kind.empty();
  try {
    return kind.normalize(JSON.parse(text));
  } catch {
    return kind.empty(); // corrupt or hostile: start over rather than fail the Read
  }
}

/** Whether a lock may be broken: its owner has exited, or it is older than any hook lives. */
function isStale(lock: string, text: string | undefined): boolean {
  let age: number;
  try {
    age = Date.now() - lstatSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile: just try again
  }
  if (age > LOCK_ABANDONED_MS) return true;
  const owner = lockOwner(text);
  // Unknown owner (still being written, or not ours to read): only age tells.
  if (owner === undefined) return age > LOCK_STALE_MS;
  return owner === process.pid || !isAlive(owner); // our own pid in a lock we do not hold: a dead namesake
}

function lockOwner(text: string | undefined): number | undefined {
  const pid = text === undefined ? NaN : Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: a check, nothing is sent
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the lock only while it is still ours: a peer may have judged ours stale and taken it. */
function release(lock: string, token: string): void {
  if (readSmall(lock) !== token) return;
  try { retryWhileBusy(() => unlinkSync(lock), Date.now() + BUSY_RETRY_MS); } catch { /* already gone */ }
}

function readSmall(path: string): string | undefined {
  try {
    const fd = openSync(path, NOFOLLOW_READ);
    try {
      const buf = Buffer.alloc(64);
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function writeAtomically(file: string, text: string, deadline: number): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(tmp, EXCLUSIVE_CREATE, 0o600);
  try {
    try {
      // writeSync may write less than asked (a full disk): a short file must never be published.
      const data = Buffer.from(text, 'utf8');
      for (let off = 0; off < data.length;) {
        const n = writeSync(fd, data, off, data.length - off);
        if (n <= 0) throw new Error('short write');
        off += n;
      }
    } finally {
      closeSync(fd);
    }
    retryWhileBusy(() => renameSync(tmp, file), Math.min(deadline, Date.now() + BUSY_RETRY_MS));
  } catch (err) {
    try { unlinkSync(tmp); } catch { /* nothing to clean */ }
    throw err;
  }
}

/** Windows: how long a rename or unlink waits for a peer that is reading the file to close it. */
const BUSY_RETRY_MS = 2_000;

/** Windows' answer while another process has the file open: EPERM, EBUSY or EACCES. Elsewhere these mean a
 * real permission problem, which waiting does not fix. */
function isBusy(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return WINDOWS && (code === 'EPERM' || code === 'EBUSY' || code === 'EACCES');
}

function retryWhileBusy(op: () => void, deadline: number): void {
  for (let attempt = 0; ; attempt++) {
    try {
      op();
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() > deadline) throw err;
      sleep(Math.min(1 + attempt, 10) * (0.5 + Math.random()));
    }
  }
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
