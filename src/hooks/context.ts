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
  return mayBeImageBySignature(path) && isImageSignature(fileHead(path, IMAGE_SIGNATURE_BYTES));
}

/** Whether this regular file starts with UTF-16LE's byte order mark, which engines decode by their version
 * (docs/ENGINE.md §3.1). Unreadable: false. */
export function startsWithUtf16leMark(path: string): boolean {
  const head = fileHead(path, 2);
  return head[0] === 0xff && head[1] === 0xfe;
}

/** Up to `bytes` first bytes of a file; none where it cannot be read. */
function fileHead(path: string, bytes: number): Uint8Array {
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a path swapped for a FIFO after the stat must not block the open.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const head = Buffer.alloc(bytes);
    return head.subarray(0, readSync(fd, head, 0, bytes, 0));
  } catch {
    return new Uint8Array(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
