// The opt-in trace: with READ_CEILING_PAGER_TRACE naming a file, each hook run appends one JSON line saying what
// it did and why (the code's own reason names), so "why did it not clamp?" has an answer. Off by default; when off
// the hooks only read one environment variable. Never stdout or stderr, never a reason to fail a Read.
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { isRecord } from '../state/record.js';
import { regularFile } from './context.js';
import type { HookName, HookResult } from './output.js';

export const TRACE_ENV = 'READ_CEILING_PAGER_TRACE';
/** At this size the trace stops growing: delete the file to go on. Bounded, and no rotation race between
 * parallel hooks. */
export const TRACE_MAX_BYTES = 1024 * 1024;

export interface TraceLine {
  at: string;
  hook: HookName;
  event?: string;
  session?: string;
  toolUseId?: string;
  tool?: string;
  file?: string;
  decision: HookResult['kind'];
  reason?: string;
  detail?: string;
  limit?: number;
  /** State writes the store refused in this run (a full, read-only or foreign state directory). */
  stateNotSaved?: number;
  ms: number;
}

/** The file the trace goes to, or undefined when it is off (unset, or not an absolute path). */
export function tracePath(env: NodeJS.ProcessEnv): string | undefined {
  const path = env[TRACE_ENV];
  return path && isAbsolute(path) && !path.includes('\0') ? path : undefined;
}

/** One run as a trace line. Pure apart from the stat that tells a small file from a missing one, done only here,
 * when the trace is on. */
export function traceLine(
  hook: HookName, json: unknown, result: HookResult, started: number, now: number, unsaved = 0,
): TraceLine {
  const e = isRecord(json) ? json : {};
  const input = isRecord(e.tool_input) ? e.tool_input : {};
  const line: TraceLine = { at: new Date(started).toISOString(), hook, decision: result.kind, ms: now - started };
  if (typeof e.hook_event_name === 'string') line.event = e.hook_event_name;
  if (typeof e.session_id === 'string') line.session = e.session_id;
  if (typeof e.tool_use_id === 'string') line.toolUseId = e.tool_use_id;
  if (typeof e.tool_name === 'string') line.tool = e.tool_name;
  if (typeof input.file_path === 'string') line.file = input.file_path;
  if (unsaved > 0) line.stateNotSaved = unsaved;
  switch (result.kind) {
    case 'silent':
      line.reason = result.reason === 'small-or-not-a-file' && line.file !== undefined
        ? (regularFile(line.file, e.cwd) ? 'small-file' : 'not-a-regular-file') : result.reason;
      if (result.detail) line.detail = result.detail;
      break;
    case 'rewrite':
      line.reason = result.context ? 'clamped-unrecorded' : 'clamped';
      if (typeof result.updatedInput.limit === 'number') line.limit = result.updatedInput.limit;
      break;
    case 'note':
      line.reason = 'noted';
      break;
    case 'deny':
      line.reason = 'gate-denied';
      break;
  }
  return line;
}

/** Appends one line in a single write (O_APPEND: parallel hooks never interleave a line), to a regular file
 * only, never through a symlink, created 0600; nothing once the file holds TRACE_MAX_BYTES. Never throws. */
export function appendTrace(path: string, line: TraceLine): void {
  try {
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW
      | constants.O_NONBLOCK, 0o600);
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size >= TRACE_MAX_BYTES) return;
      writeSync(fd, `${JSON.stringify(line)}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    // the trace is a help, never a reason to fail
  }
}
