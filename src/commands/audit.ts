// `read-ceiling-pager audit`: the Read census over the user's own transcripts. Reads only; the census itself is pure
// (src/audit/census.ts), the file walking and streaming live in src/audit/scan.ts.
import { InvalidArgumentError, type Command } from 'commander';
import { Census } from '../audit/census.js';
import { renderReport } from '../audit/render.js';
import { defaultRoots, findTranscripts, isDirectory, readTranscript } from '../audit/scan.js';
import { statSync } from 'node:fs';
import { VERSION } from './version.js';

interface AuditOptions {
  dir?: string[];
  days: number;
  until?: number;
  byProject?: boolean;
  json?: boolean;
  top: number;
}

const DAY_MS = 86_400_000;

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('what the Read cap cost you, from your own Claude Code transcripts: refusals, PARTIAL pages, what followed, and what the pager saved')
    .option('--dir <path>', 'a transcripts directory or .jsonl file (repeatable; default: ~/.claude/projects and ~/.config/claude/projects, or $CLAUDE_CONFIG_DIR)', collect)
    .option('--days <n>', 'the period: the last N days', positiveInt('--days'), 30)
    .option('--until <date>', 'end of the period (an ISO date; default: now)', date)
    .option('--by-project', 'one row per project as well')
    .option('--top <n>', 'how many of the most affected files to list', positiveInt('--top'), 10)
    .option('--json', 'print the census as JSON')
    .showHelpAfterError('(read-ceiling-pager audit --help shows the options)')
    .addHelpText('after', '\nExamples:\n  read-ceiling-pager audit\n  read-ceiling-pager audit --days 7 --by-project\n  read-ceiling-pager audit --dir ~/.claude/projects/-home-me-repo --json')
    .action(async function (this: Command, opts: AuditOptions) {
      const roots = opts.dir ?? defaultRoots();
      for (const dir of opts.dir ?? []) {
        if (!exists(dir)) this.error(`error: --dir ${dir}: no such file or directory`, { exitCode: 2, code: 'audit.dir' });
      }
      if (roots.length === 0) {
        this.error('error: no Claude Code transcripts found (looked in ~/.claude/projects and ~/.config/claude/projects); pass --dir <path>', { exitCode: 2, code: 'audit.dir' });
      }
      try {
        const report = await audit(roots, opts);
        process.stdout.write(opts.json ? `${JSON.stringify({ version: VERSION, ...report }, null, 2)}\n` : renderReport(report));
      } catch (err) {
        process.stderr.write(`read-ceiling-pager audit: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      }
    });
}

async function audit(roots: string[], opts: AuditOptions) {
  const until = opts.until ?? Date.now();
  const since = until - opts.days * DAY_MS;
  const census = new Census({ since, until, days: opts.days, byProject: opts.byProject === true, topFiles: opts.top });
  const transcripts = findTranscripts(roots);
  const progress = progressLine(transcripts.reduce((a, t) => a + t.size, 0), transcripts.length);
  try {
    for (const t of transcripts) {
      // A transcript last written before the period began holds no record of it.
      if (t.mtimeMs < since) { census.skipBeforePeriod(); progress.file(t.size); continue; }
      await readTranscript(t, census, progress.bytes);
      progress.file(0);
    }
  } finally {
    progress.done();
  }
  return census.report();
}

/** Progress on stderr, only on a terminal and only once a scan has run a moment. */
function progressLine(totalBytes: number, totalFiles: number) {
  const tty = process.stderr.isTTY === true;
  const started = Date.now();
  let bytes = 0;
  let files = 0;
  let last = 0;
  let shown = false;
  const draw = () => {
    const now = Date.now();
    if (!tty || now - started < 300 || now - last < 100) return;
    last = now;
    shown = true;
    const pct = totalBytes ? Math.floor((bytes / totalBytes) * 100) : 100;
    process.stderr.write(`\r\x1b[Kscanning transcripts: ${files}/${totalFiles} files, ${pct}%`);
  };
  return {
    bytes: (n: number) => { bytes += n; draw(); },
    file: (skippedBytes: number) => { files++; bytes += skippedBytes; draw(); },
    done: () => { if (shown) process.stderr.write('\r\x1b[K'); },
  };
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function positiveInt(flag: string) {
  return (value: string): number => {
    const v = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(v) || v < 1) {
      throw new InvalidArgumentError(`${flag} takes a whole number of 1 or more, not "${value}".`);
    }
    return v;
  };
}

function date(value: string): number {
  const t = Date.parse(value);
  if (!Number.isFinite(t)) throw new InvalidArgumentError(`--until takes a date such as 2026-11-30, not "${value}".`);
  return t;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return isDirectory(path);
  }
}
