// The audit's only I/O: find transcript files and stream them line by line into the census. Read-only.
import { createReadStream, readdirSync, statSync, type Dirent } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { claudeConfigDirs } from '../install/paths.js';
import type { Census } from './census.js';

export interface Transcript {
  path: string;
  project: string;
  size: number;
  mtimeMs: number;
}

/** Where Claude Code keeps transcripts: `projects/` of the Claude directory (src/install/paths.ts). */
export function defaultRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  return claudeConfigDirs(env).map((b) => join(b, 'projects')).filter(isDirectory);
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const MAX_DEPTH = 6;

/** Every `.jsonl` under the roots (sessions and their subagents), oldest first. A root may also be one file. */
export function findTranscripts(roots: string[]): Transcript[] {
  const found = new Map<string, Transcript>();
  for (const root of roots) {
    let st;
    try {
      st = statSync(root);
    } catch {
      continue;
    }
    if (st.isFile()) {
      found.set(root, { path: root, project: basename(join(root, '..')), size: st.size, mtimeMs: st.mtimeMs });
      continue;
    }
    walk(root, 0, (path, size, mtimeMs) => {
      const rel = relative(root, path).split(sep);
      // <root>/<project>/<session>.jsonl, or a project dir given itself: <root>/<session>.jsonl
      const project = rel.length > 1 ? rel[0]! : basename(root);
      found.set(path, { path, project, size, mtimeMs });
    });
  }
  return [...found.values()].sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
}

function walk(dir: string, depth: number, visit: (path: string, size: number, mtimeMs: number) => void): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < MAX_DEPTH) walk(path, depth + 1, visit);
    } else if (e.isFile() && e.name.endsWith('.jsonl')) {
      try {
        const st = statSync(path);
        visit(path, st.size, st.mtimeMs);
      } catch {
        // gone since the listing
      }
    }
  }
}

/** Streams one transcript into the census. Malformed lines are counted and skipped; nothing here throws. */
export async function readTranscript(t: Transcript, census: Census, onBytes?: (n: number) => void): Promise<void> {
  census.startTranscript(t.project, t.size);
  // Bytes, not text: most lines are never decoded (see Census.lineBytes).
  const stream = createReadStream(t.path, { highWaterMark: 1 << 20 });
  let carry: Buffer | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      onBytes?.(chunk.length);
      let start = 0;
      let nl = chunk.indexOf(0x0a);
      if (carry && nl >= 0) {
        census.lineBytes(Buffer.concat([carry, chunk.subarray(0, nl)]));
        carry = undefined;
        start = nl + 1;
        nl = chunk.indexOf(0x0a, start);
      }
      for (; nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        if (nl > start) census.lineBytes(chunk.subarray(start, nl));
        start = nl + 1;
      }
      if (start < chunk.length) {
        carry = carry ? Buffer.concat([carry, chunk.subarray(start)]) : Buffer.from(chunk.subarray(start));
      }
    }
    if (carry) census.lineBytes(carry);
  } catch {
    census.unreadable();
  } finally {
    stream.destroy();
    census.endTranscript();
  }
}
