// The commonest Read of all, of a file too small for any window of it to be refused, answered from the raw input
// with one stat (and, between the floors of the smallest and the default cap, a read of the session's cap): in the
// small bundle (dist/cli.cjs), before the rest of the pager is loaded.
import type { Stats } from 'node:fs';
import { neverCountedChars, resolveCap } from '../estimate/cap.js';
import { isPrivateDir, readOwnFile, sessionFileIn, SESSION_FILE_MAX_BYTES, stateDir } from '../state/dir.js';
import { readsAsImage, regularFile } from './context.js';
import { engineVersionOf, knowsImagesBySignature } from './engine-version.js';
import { notLines } from './request.js';

/** The smallest cap sessions are known to run at (a server flag); below this size no window is at risk. */
const SMALLEST_KNOWN_CAP = 10_000;

/** The regular file a Read names, unless it is too small for any window of it to be counted: every UTF-16
 * unit takes at least one byte, so a file no larger than the never-counted floor at the cap is never refused on
 * tokens (and a read with no limit of it is under 256 KiB too). The cap is the session's as the rest of the pager
 * knows it (a refusal's, kept in the session's state file, else the environment's or the default); with no session
 * named, the smallest cap sessions are known to run at. Nor an image the engine knows by its first bytes (2.1.187 and
 * later): by the version the engine names to its hooks, else by the one the session's transcript names
 * (`transcriptEngine`); without either, such a file is left to `pre`, which reads the transcript. */
export function fileAtRisk(
  filePath: string,
  cwd: unknown,
  env: NodeJS.ProcessEnv,
  session?: string,
  transcriptEngine?: () => string | undefined,
): { path: string; stat: Stats } | undefined {
  const file = regularFile(filePath, cwd);
  if (!file) return undefined;
  // The session's file is read only between the floors at the smallest cap and at the environment's or the default:
  // under the first no cap puts the file at risk, over the second the rest of the hooks read that file anyway.
  const { cap } = resolveCap(env);
  const { size } = file.stat;
  if (size <= neverCountedChars(Math.min(cap, SMALLEST_KNOWN_CAP), file.path)) return undefined;
  const atRisk =
    session === undefined || size > neverCountedChars(cap, file.path) ||
    size > neverCountedChars(sessionCap(env, session), file.path);
  if (!atRisk) return undefined;
  // An image named without an extension is no more a Read of lines than one named .png, where the engine knows it.
  if (!readsAsImage(file.path)) return file;
  const engine = engineVersionOf(env) ?? transcriptEngine?.();
  if (engine === undefined && transcriptEngine === undefined) return file;
  return knowsImagesBySignature(engine) ? undefined : file;
}

/** The cap `pre` and `post` would resolve for this session: the one a refusal taught it, kept in its state file, else
 * the environment's or the default. The file is read as the store reads it (in a private directory of ours, our own
 * file, no link, bounded); one that cannot be read so holds no cap for the store either. */
function sessionCap(env: NodeJS.ProcessEnv, session: string): number {
  const dir = stateDir(env);
  const file = isPrivateDir(dir) ? sessionFileIn(dir, session) : undefined;
  const text = file === undefined ? undefined : readOwnFile(file, SESSION_FILE_MAX_BYTES);
  let learned: unknown;
  try {
    learned = text === undefined ? undefined : (JSON.parse(text) as { cap?: unknown } | null)?.cap;
  } catch {
    learned = undefined;
  }
  return resolveCap(env, typeof learned === 'number' ? learned : undefined).cap;
}

/** The cheapest answer first, from the raw hook input before any schema is loaded: true when `pre` would
 * certainly say nothing because the file is not one a window of could be refused. `atSmallestCap`: judged at the
 * smallest cap sessions are known to run at, whatever the session knows. */
export function tooSmallToMatter(json: unknown, env: NodeJS.ProcessEnv, atSmallestCap = false): boolean {
  const filePath = rawFilePath(json);
  const event = json as { cwd?: unknown; session_id?: unknown };
  const session = !atSmallestCap && typeof event.session_id === 'string' ? event.session_id : undefined;
  return filePath !== undefined && !fileAtRisk(filePath, event.cwd, env, session);
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
  if (typeof json !== 'object' || json === null) return false;
  const event = json as {
    hook_event_name?: unknown;
    tool_input: { limit?: unknown };
    tool_response?: {
      file?: { startLine?: unknown; numLines?: unknown; totalLines?: unknown; truncatedByTokenCap?: unknown };
    };
  };
  const failed = event.hook_event_name === 'PostToolUseFailure';
  // A refusal or an engine's partial page of such a file says the session runs at a smaller cap than the pager knew:
  // judged at the smallest known cap, so that the whole hook explains it and learns that cap.
  const paged = event.tool_response?.file?.truncatedByTokenCap === true;
  if (!tooSmallToMatter(json, env, failed || paged)) return false;
  if (failed) return true;
  if (event.hook_event_name !== 'PostToolUse') return false;
  if (event.tool_input.limit === undefined) return true;
  const { startLine, numLines, totalLines } = event.tool_response?.file ?? {};
  if (typeof startLine !== 'number' || typeof numLines !== 'number' || typeof totalLines !== 'number') return false;
  return numLines === 0 || Math.max(1, startLine) + numLines - 1 >= totalLines;
}
