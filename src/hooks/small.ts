// The commonest Read of all, of a file too small for any window of it to be refused, answered from the raw input
// with one stat: in the small bundle (dist/cli.cjs), before the rest of the pager is loaded.
import type { Stats } from 'node:fs';
import { neverCountedChars, resolveCap } from '../estimate/cap.js';
import { regularFile } from './context.js';
import { notLines } from './request.js';

/** The smallest cap sessions are known to run at (a server flag); below this size no window is at risk. */
const SMALLEST_KNOWN_CAP = 10_000;

/** The regular file a Read names, unless it is too small for any window of it to be counted: every UTF-16
 * unit takes at least one byte, so a file no larger than the never-counted floor at the smallest cap sessions
 * run at is never refused on tokens (and a read with no limit of it is under 256 KiB too). */
export function fileAtRisk(
  filePath: string,
  cwd: unknown,
  env: NodeJS.ProcessEnv,
): { path: string; stat: Stats } | undefined {
  const file = regularFile(filePath, cwd);
  if (!file) return undefined;
  const floor = neverCountedChars(Math.min(resolveCap(env).cap, SMALLEST_KNOWN_CAP), file.path);
  return file.stat.size > floor ? file : undefined;
}

/** The cheapest answer first, from the raw hook input before any schema is loaded: true when `pre` would
 * certainly say nothing because the file is not one a window of could be refused. */
export function tooSmallToMatter(json: unknown, env: NodeJS.ProcessEnv): boolean {
  const filePath = rawFilePath(json);
  return filePath !== undefined && !fileAtRisk(filePath, (json as { cwd?: unknown }).cwd, env);
}

/** True when the hook certainly says nothing of a Read of an image, a PDF or a notebook, which the engine does not
 * read as lines: `pre` never changes one, and `post` speaks only when the engine refused a notebook. */
export function quietNotLines(json: unknown): boolean {
  const filePath = rawFilePath(json);
  const kind = filePath === undefined ? undefined : notLines(filePath);
  if (kind === undefined) return false;
  return kind !== 'notebook' || (json as { hook_event_name?: unknown }).hook_event_name !== 'PostToolUseFailure';
}

function rawFilePath(json: unknown): string | undefined {
  const event = json as { tool_input?: { file_path?: unknown } } | null;
  const filePath =
    typeof event === 'object' && event !== null && typeof event.tool_input === 'object' && event.tool_input !== null
      ? event.tool_input.file_path
      : undefined;
  return typeof filePath === 'string' ? filePath : undefined;
}

/** The same for `post`: true when it would certainly say nothing about a Read of such a file. `pre` planned
 * nothing for it and the engine refuses none of its windows on tokens or size, so only a window that came back short
 * of what was asked (another hook may have shortened it) is left to explain: not a read with no limit, nor one that
 * reached the file's last line. */
export function quietPost(json: unknown, env: NodeJS.ProcessEnv): boolean {
  if (!tooSmallToMatter(json, env)) return false;
  const event = json as {
    hook_event_name?: unknown;
    tool_input: { limit?: unknown };
    tool_response?: { file?: { startLine?: unknown; numLines?: unknown; totalLines?: unknown } };
  };
  if (event.hook_event_name === 'PostToolUseFailure') return true;
  if (event.hook_event_name !== 'PostToolUse') return false;
  if (event.tool_input.limit === undefined) return true;
  const { startLine, numLines, totalLines } = event.tool_response?.file ?? {};
  if (typeof startLine !== 'number' || typeof numLines !== 'number' || typeof totalLines !== 'number') return false;
  return numLines === 0 || Math.max(1, startLine) + numLines - 1 >= totalLines;
}
