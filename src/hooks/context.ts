// What a hook run knows beyond its input: the environment, the clock, its deadline, the state store.
import { isAbsolute, resolve } from 'node:path';
import { statSync, type Stats } from 'node:fs';
import type { StateStore } from '../state/store.js';

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
