// Where the pager's state lives, what a session's file is called, and how a state file is read safely: apart from
// the store, because the small bundle (dist/cli.cjs) reads a session's cap before it loads anything else.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

export const STATE_DIR_ENV = 'READ_CEILING_PAGER_STATE_DIR';
export const SESSION_FILE_MAX_BYTES = 256 * 1024;

/** Windows has no owner uid or permission bits in a stat (Node reports 0o666 for every file), no O_NOFOLLOW
 * and no O_NONBLOCK, and refuses to replace or recreate a file another process still has open. */
export const WINDOWS = process.platform === 'win32';
/** Never through a link, and never waiting on a FIFO someone put in place of a state file. */
export const NOFOLLOW_READ = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export function ownedByMe(uid: number): boolean {
  return typeof process.getuid !== 'function' || uid === process.getuid();
}

/** The directory must be ours: a real directory (not a link), owned by this user, writable by no one else.
 * On Windows only the first can be seen (ownership and access live in ACLs, which Node does not read). */
export function isPrivateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && (WINDOWS || (ownedByMe(st.uid) && (st.mode & 0o022) === 0));
  } catch {
    return false;
  }
}

/** The text of a state file we wrote: a regular file (never through a link), ours, at most `maxBytes`. Undefined
 * for anything else: missing, a link, a FIFO, someone else's, oversized or unreadable. */
export function readOwnFile(file: string, maxBytes: number): string | undefined {
  return readOwnBytes(file, maxBytes)?.toString('utf8');
}

/** The bytes of a file we wrote, as `readOwnFile` reads it; with `othersMayWrite` false, also undefined where the
 * file's mode lets its group or anyone write it (for a file whose bytes are run: state/code-cache.ts). */
export function readOwnBytes(file: string, maxBytes: number, othersMayWrite = true): Buffer | undefined {
  try {
    if (WINDOWS && lstatSync(file).isSymbolicLink()) return undefined; // no O_NOFOLLOW there
    const fd = openSync(file, NOFOLLOW_READ);
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || !ownedByMe(st.uid) || st.size > maxBytes) return undefined;
      if (!othersMayWrite && (st.mode & 0o022) !== 0) return undefined;
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Where state lives: the override, the plugin's data directory, `$XDG_STATE_HOME` when set, else the
 * platform's place for per-user application state: `%LOCALAPPDATA%` on Windows, `~/Library/Application Support`
 * on macOS, `~/.local/state` elsewhere. Relative values are ignored (XDG says so), so state never lands in
 * whatever directory the hook runs in. */
export function stateDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const path = platform === 'win32' ? win32 : posix;
  const abs = (v: string | undefined) => (v && path.isAbsolute(v) ? v : undefined);
  const override = abs(env[STATE_DIR_ENV]);
  if (override) return override;
  const pluginData = abs(env.CLAUDE_PLUGIN_DATA);
  if (pluginData) return path.join(pluginData, 'state');
  const xdg = abs(env.XDG_STATE_HOME);
  if (xdg) return path.join(xdg, 'read-ceiling-pager');
  if (platform === 'win32') {
    const home = abs(env.USERPROFILE) ?? homedir();
    return path.join(abs(env.LOCALAPPDATA) ?? path.join(home, 'AppData', 'Local'), 'read-ceiling-pager');
  }
  const home = abs(env.HOME) ?? homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'read-ceiling-pager');
  return path.join(home, '.local', 'state', 'read-ceiling-pager');
}

/** A session id becomes a file name only when it is plainly safe: no separators, no dots, bounded. */
export function isSafeSessionId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(id);
}

/** The session's state file in `dir`, or undefined for an id that cannot safely name one. */
export function sessionFileIn(dir: string, sessionId: unknown): string | undefined {
  return typeof sessionId === 'string' && isSafeSessionId(sessionId) ? join(dir, `${sessionId}.json`) : undefined;
}
