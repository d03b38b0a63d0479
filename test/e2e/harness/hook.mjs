// Runs the built pager hook directly, as the engine would, on a synthetic event: a black-box probe of what
// `pre` decides for a window, to hold the engine's results up against.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { PAGER_BIN, CAP_ENV, tempDir } from './engine.mjs';

/**
 * The limit `pre` sends for a window, or undefined when it leaves the window alone.
 * @param {{ path: string, cwd: string, offset: number, limit: number, cap: number }} w
 * @returns {number | undefined}
 */
export function preLimit(w) {
  const event = {
    session_id: 'e2e-probe', transcript_path: '/dev/null', cwd: w.cwd, permission_mode: 'default',
    hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'toolu_probe',
    tool_input: { file_path: w.path, offset: w.offset, limit: w.limit },
  };
  const state = tempDir('probe');
  const r = spawnSync(process.execPath, [PAGER_BIN, 'pre'], {
    input: JSON.stringify(event),
    env: { PATH: process.env.PATH ?? '', READ_CEILING_PAGER_STATE_DIR: state, [CAP_ENV]: String(w.cap) },
    encoding: 'utf8',
  });
  rmSync(state, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`pre exited ${r.status}: ${r.stderr}`);
  if (r.stdout.trim() === '') return undefined;
  return JSON.parse(r.stdout).hookSpecificOutput?.updatedInput?.limit;
}
