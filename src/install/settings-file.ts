// The only code that reads and writes a Claude Code settings file: it follows a symlinked file to its target,
// keeps a backup of what was there, and replaces it atomically so the engine never reads half a file.
import {
  chmodSync, closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync,
  statSync, unlinkSync, writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export const BACKUP_SUFFIX = '.read-ceiling-pager.bak';

/** The file's text, or undefined when there is no such file. */
export function readSettingsText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Writes `text` in place of `file`. Returns the backup's path when there was a file to back up. */
export function writeSettingsText(file: string, text: string): string | undefined {
  const target = resolveTarget(file);
  let backup: string | undefined;
  let mode = 0o644;
  try {
    mode = statSync(target).mode & 0o777;
    backup = `${target}${BACKUP_SUFFIX}`;
    copyFileSync(target, backup);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(target), { recursive: true });
  }
  const tmp = `${target}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'wx', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (err) {
    try { unlinkSync(tmp); } catch { /* already gone */ }
    throw err;
  }
  return backup;
}

/** A settings file kept in a dotfiles repo is often a symlink: write through it, do not replace the link. */
function resolveTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
