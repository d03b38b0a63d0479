// What a hook run knows beyond its input: the environment, the clock, its deadline, the state store.
import { isAbsolute, resolve } from 'node:path';
import { closeSync, constants, openSync, readSync, statSync, type Stats } from 'node:fs';
import type { StateStore } from '../state/store.js';
import { IMAGE_SIGNATURE_BYTES, isImageSignature, mayBeImageBySignature } from './request.js';

export interface HookContext {
  env: NodeJS.ProcessEnv;
  now: number;
  /** Past this instant a hook stops reading and passes the Read through unchanged. */
  deadline: number;
  store: StateStore;
}

/** A Read's path as the engine resolves it: absolute, or against the session's cwd. */
export function resolvedPath(filePath: string, cwd: unknown): string {
  return isAbsolute(filePath) ? filePath : resolve(typeof cwd === 'string' ? cwd : process.cwd(), filePath);
}

/** The file a Read names, resolved as the engine resolves it, if it is a regular file. Never opens it:
 * a FIFO or a device is left alone. */
export function regularFile(filePath: string, cwd: unknown): { path: string; stat: Stats } | undefined {
  if (filePath.length === 0 || filePath.includes('\0')) return undefined;
  const path = resolvedPath(filePath, cwd);
  try {
    const stat = statSync(path);
    return stat.isFile() ? { path, stat } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the engine reads this regular file as an image though its name says nothing of one: no extension, and
 * an image's first bytes (docs/ENGINE.md §1.7). Unreadable: false, and the Read is judged as lines. */
export function readsAsImage(path: string): boolean {
  if (!mayBeImageBySignature(path)) return false;
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a path swapped for a FIFO after the stat must not block the open.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const head = Buffer.alloc(IMAGE_SIGNATURE_BYTES);
    return isImageSignature(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
