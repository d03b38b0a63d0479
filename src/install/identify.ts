// Is a bundle on disk the pager's? The one running now is; any other is judged by the package.json beside it,
// so a copy installed from a clone in a folder of any name is still recognised (and never someone else's).
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The bundle this installation's hooks run, as an absolute path with links resolved: dist/cli.cjs, the entry
 * beside the bundle this code runs in (dist/commands.cjs, which cli.cjs loads). */
export function bundlePath(): string {
  let here: string;
  try {
    here = realpathSync(__filename);
  } catch {
    here = resolve(__filename);
  }
  return basename(here) === 'commands.cjs' ? join(dirname(here), 'cli.cjs') : here;
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
