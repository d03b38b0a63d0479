// The per-session state file: the only code that touches the state directory.
// Parallel Reads run their hooks in parallel, so every change is a read-modify-write under an exclusive lock
// file, published by an atomic rename: readers never see a torn file, writers never lose each other's entries.
import {
  closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync,
  statSync, unlinkSync, writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { emptyState, normalizeState, type SessionState } from './session.js';

export const STATE_DIR_ENV = 'READ_CEILING_PAGER_STATE_DIR';

const LOCK_STALE_MS = 3_000;
const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const SESSION_FILE_MAX_BYTES = 1024 * 1024;

/** Where state lives: the override, the plugin's data directory, or the XDG state directory. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env[STATE_DIR_ENV]) return env[STATE_DIR_ENV];
  if (env.CLAUDE_PLUGIN_DATA) return join(env.CLAUDE_PLUGIN_DATA, 'state');
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'read-ceiling-pager');
}

/** A session id becomes a file name only when it is plainly safe: no separators, no dots, bounded. */
export function isSafeSessionId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(id);
}

export class StateStore {
  /** `deadline`: the instant past which waiting for the lock gives up and the hook goes on without state. */
  constructor(private readonly dir: string, private readonly deadline: number) {}

  /** The session's state, or an empty one when there is none or it cannot be read. */
  read(sessionId: string): SessionState {
    const file = this.sessionFile(sessionId);
    if (!file) return emptyState();
    return this.load(file);
  }

  /** Applies `change` to the session's state under the lock. Returns false when the state could not be
   * written (the caller goes on without it). */
  update(sessionId: string, change: (state: SessionState) => SessionState): boolean {
    const file = this.sessionFile(sessionId);
    if (!file || !this.ensureDir()) return false;
    const lock = `${file}.lock`;
    if (!this.acquire(lock)) return false;
    try {
      const isNew = !exists(file);
      const next = change(this.load(file));
      writeAtomically(file, JSON.stringify(next));
      if (isNew) this.pruneOldSessions();
      return true;
    } catch {
      return false;
    } finally {
      try { unlinkSync(lock); } catch { /* already gone: a peer judged it stale */ }
    }
  }

  private sessionFile(sessionId: string): string | undefined {
    return isSafeSessionId(sessionId) ? join(this.dir, `${sessionId}.json`) : undefined;
  }

  private load(file: string): SessionState {
    try {
      const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const st = fstatSync(fd);
        if (!st.isFile() || st.size > SESSION_FILE_MAX_BYTES) return emptyState();
        return normalizeState(JSON.parse(readFileSync(fd, 'utf8')));
      } finally {
        closeSync(fd);
      }
    } catch {
      return emptyState(); // missing, corrupt or hostile: start over rather than fail the Read
    }
  }

  /** The directory must be ours: a real directory (not a link), owned by this user, private. */
  private ensureDir(): boolean {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const st = lstatSync(this.dir);
      if (!st.isDirectory()) return false;
      if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return false;
      return true;
    } catch {
      return false;
    }
  }

  private acquire(lock: string): boolean {
    let attempt = 0;
    for (;;) {
      try {
        closeSync(openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      }
      try {
        // A hook killed while holding the lock leaves it behind; a lock older than any hook lives is stale.
        if (Date.now() - lstatSync(lock).mtimeMs > LOCK_STALE_MS) unlinkSync(lock);
      } catch { /* released meanwhile */ }
      if (Date.now() > this.deadline) return false;
      // Back off with jitter: dozens of parallel Reads must not wake each other in lockstep.
      sleep(Math.min(2 * 1.5 ** attempt++, 25) * (0.5 + Math.random()));
    }
  }

  private pruneOldSessions(): void {
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      if (!/\.(json|lock|tmp)$/.test(name)) continue;
      const path = join(this.dir, name);
      try {
        if (now - statSync(path).mtimeMs > SESSION_MAX_AGE_MS) unlinkSync(path);
      } catch { /* a peer removed it */ }
    }
  }
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (err) {
    try { unlinkSync(tmp); } catch { /* nothing to clean */ }
    throw err;
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
