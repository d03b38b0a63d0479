// Is a bundle on disk the pager's? The one running now is; any other is judged by the package.json beside it,
// so a copy installed from a clone in a folder of any name is still recognised (and never someone else's).
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The bundle this process runs from, as an absolute path with links resolved. */
export function bundlePath(): string {
  try {
    return realpathSync(__filename);
  } catch {
    return resolve(__filename);
  }
}

export function isPagerBundle(path: string): boolean {
  if (path === bundlePath()) return true;
  try {
    const pkg = JSON.parse(readFileSync(join(dirname(dirname(path)), 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === 'read-ceiling-pager';
  } catch {
    return false;
  }
}
