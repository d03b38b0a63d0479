// The built binary on hand-made transcript directories: what a user sees, and the errors they get.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transcript, lineBanner } from '../audit/records.js';

const BIN = resolve(__dirname, '../../bin/read-ceiling-pager.js');
const root = mkdtempSync(join(tmpdir(), 'rcp-audit-cli-'));
const projects = join(root, 'projects');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: join(root, 'home'), ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function write(path: string, t: Transcript | string, mtime?: Date): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof t === 'string' ? t : t.text());
  if (mtime) utimesSync(path, mtime, mtime);
}

const DAY = 86_400_000;
const NOW = Date.now();

beforeAll(() => {
  const r = run(['audit', '--help']);
  if (r.code !== 0) throw new Error(`bin/read-ceiling-pager.js has no audit command: run \`npm run build\` first.\n${r.stderr}`);
  const big = '/home/me/app/big.txt';
  // Project app: a bare session with a 10,000-token cap refusal retried, and a silent PARTIAL page.
  write(join(projects, '-home-me-app', 'a1.jsonl'), new Transcript('a1', '/home/me/app', NOW - 2 * DAY).prompt()
    .read('r1', { file_path: big, offset: 1, limit: 3000 }).tokenRefusal('r1', 24000, 10000)
    .read('r2', { file_path: big, offset: 1, limit: 1000 }).ok('r2', big, { startLine: 1, numLines: 1000, totalLines: 3001 })
    .read('r3', { file_path: '/home/me/app/log.txt' }).ok('r3', '/home/me/app/log.txt', { startLine: 1, numLines: 400, totalLines: 5000, truncatedByTokenCap: true })
    .banner('r3', lineBanner('/home/me/app/log.txt', 400, 5000, 30000, 10000))
    .raw('{"type":"user","message":{"content":[')
    .raw(JSON.stringify({ type: 'some-future-record', sessionId: 'a1' })));
  // Its subagent, in the layout Claude Code uses: <project>/<session>/subagents/agent-<id>.jsonl
  write(join(projects, '-home-me-app', 'a1', 'subagents', 'agent-x.jsonl'), new Transcript('a1', '/home/me/app', NOW - 2 * DAY, true).prompt()
    .read('s1', { file_path: '/home/me/app/huge.log' }).sizeRefusal('s1'));
  // Project lib: the pager at work, one clamp that ran and its advice followed.
  write(join(projects, '-home-me-lib', 'b1.jsonl'), new Transcript('b1', '/home/me/lib', NOW - DAY).prompt()
    .read('p1', { file_path: '/home/me/lib/gen.ts', offset: 1, limit: 3000 })
    .preHook('p1', { file_path: '/home/me/lib/gen.ts', offset: 1, limit: 1099 })
    .ok('p1', '/home/me/lib/gen.ts', { startLine: 1, numLines: 1099, totalLines: 3001 })
    .context('p1', 'PostToolUse', 'read-ceiling-pager: /home/me/lib/gen.ts has 3001 lines. This Read returned lines 1-1099 of the requested 1-3000, the most that fits under the 25000-token Read cap. Lines 1100-3000 are not shown yet; offset=1100 limit=1901 is the rest of the requested window.')
    .read('p2', { file_path: '/home/me/lib/gen.ts', offset: 1100, limit: 1901 })
    .preHook('p2', { file_path: '/home/me/lib/gen.ts', offset: 1100, limit: 1099 })
    .ok('p2', '/home/me/lib/gen.ts', { startLine: 1100, numLines: 1099, totalLines: 3001 }));
  // An old transcript, last written 90 days ago: outside the default period.
  write(join(projects, '-home-me-old', 'c1.jsonl'), new Transcript('c1', '/home/me/old', NOW - 90 * DAY).prompt()
    .read('o1', { file_path: '/home/me/old/x.txt', offset: 1, limit: 9999 }).tokenRefusal('o1', 99999, 25000), new Date(NOW - 90 * DAY));
});

describe('read-ceiling-pager audit', () => {
  it('prints the census as one screen of text, with nothing on stderr when piped', () => {
    const r = run(['audit', '--dir', projects]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(lines[0]).toMatch(/^read-ceiling-pager audit: last 30 days \(\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\), 2 sessions$/);
    expect(r.stdout).toMatch(/Scanned 3 transcripts \(.* KB, \d+ records\); skipped 1 malformed line, 1 record of unknown type\./);
    expect(r.stdout).toMatch(/^Read calls +6 +windows 4, whole-file 2$/m);
    expect(r.stdout).toMatch(/^ {2}token-cap refusals +1$/m);
    expect(r.stdout).toMatch(/^ {2}size-cap errors \(no limit, >256 KiB\) +1$/m);
    expect(r.stdout).toMatch(/^ {4}then the same file again +1 +never read again: 1$/m);
    expect(r.stdout).toMatch(/^ {2}rounds lost to refusals +2$/m);
    expect(r.stdout).toMatch(/^ {2}PARTIAL pages \(whole-file reads\) +1$/m);
    expect(r.stdout).toMatch(/^ {4}never paged on \(silent partials\) +1$/m);
    expect(r.stdout).toMatch(/caps named in refusals and banners: cap 10,000 ×2/);
    expect(r.stdout).toMatch(/^With the pager \(1 session\)$/m);
    expect(r.stdout).toMatch(/^ {2}windows clamped +2 +ran 2, refused anyway 0$/m);
    expect(r.stdout).toMatch(/^ {2}advice given \(offset=N limit=M\) +1 +followed 1, other window 0, no further Read 0$/m);
    expect(r.stdout).toMatch(/^ {2}rounds saved +2 /m);
    expect(r.stdout).toMatch(/^ {2}\/home\/me\/lib\/gen\.ts +2 +0 +0 +2 +1$/m);
    expect(r.stdout).not.toContain('/home/me/old');
  });

  it('prints JSON with the same numbers, and counts the old transcript as skipped', () => {
    const r = run(['audit', '--dir', projects, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.scan).toMatchObject({ files: 3, filesBeforePeriod: 1, malformedLines: 1, unknownTypes: { 'some-future-record': 1 } });
    expect(j.totals).toMatchObject({
      sessions: 2, reads: 6, tokenRefusals: 1, sizeRefusals: 1, caps: { 10000: 2 }, partialPages: 1,
    });
    expect(j.totals.pager).toMatchObject({ clamps: 2, clampsRan: 2, roundsSaved: 2, notes: 1, adviceFollowed: 1 });
    expect(j.projects).toBeUndefined();
  });

  it('widens the period with --days and splits by project', () => {
    const r = run(['audit', '--dir', projects, '--days', '365', '--by-project', '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.totals).toMatchObject({ sessions: 3, tokenRefusals: 2 });
    expect(j.projects.map((p: any) => [p.project, p.sessions, p.reads])).toEqual([['-home-me-app', 1, 4], ['-home-me-lib', 1, 2], ['-home-me-old', 1, 1]]);
    const table = run(['audit', '--dir', projects, '--days', '365', '--by-project']).stdout;
    expect(table).toMatch(/^By project +sessions +reads +refused +partial +clamped +saved$/m);
    expect(table).toMatch(/^ {2}-home-me-app +1 +4 +2 +1 +0 +0$/m);
  });

  it('narrows the period with --days and --until', () => {
    const j = JSON.parse(run(['audit', '--dir', projects, '--days', '1', '--until', new Date(NOW - 1.5 * DAY).toISOString(), '--json']).stdout);
    expect(j.totals).toMatchObject({ sessions: 1, reads: 4, tokenRefusals: 1, sizeRefusals: 1 });
    expect(j.totals.pager.clamps).toBe(0);
  });

  it('takes one project directory or one transcript file', () => {
    expect(JSON.parse(run(['audit', '--dir', join(projects, '-home-me-lib'), '--json']).stdout).totals.reads).toBe(2);
    expect(JSON.parse(run(['audit', '--dir', join(projects, '-home-me-app', 'a1.jsonl'), '--json']).stdout).totals.reads).toBe(3);
  });

  it('finds the transcripts under $CLAUDE_CONFIG_DIR when no --dir is given', () => {
    const r = run(['audit', '--json'], { CLAUDE_CONFIG_DIR: root });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).totals.reads).toBe(6);
  });

  it('reads lines that span many read chunks, CRLF endings and a last line with no newline', () => {
    const dir = join(root, 'long');
    const path = '/home/me/app/data.csv';
    const t = new Transcript('l1', '/home/me/app').prompt()
      .read('w1', { file_path: path, offset: 1, limit: 90000 })
      .raw(JSON.stringify({
        type: 'user', sessionId: 'l1', timestamp: new Date().toISOString(),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'w1', content: 'x\u2014'.repeat(1_500_000) }] },
        toolUseResult: { type: 'text', file: { filePath: path, content: 'y'.repeat(2_000_000), numLines: 40000, startLine: 1, totalLines: 90000, truncatedByTokenCap: true } },
      }))
      .read('w2', { file_path: path, offset: 40001, limit: 40000 });
    write(join(dir, '-p', 'l1.jsonl'), `${t.lines.join('\r\n')}\r\n${JSON.stringify({ type: 'user', sessionId: 'l1', message: { content: [{ type: 'tool_result', tool_use_id: 'w2', is_error: true, content: 'File content (30000 tokens) exceeds maximum allowed tokens (25000). Use offset and limit' }] } })}`);
    const j = JSON.parse(run(['audit', '--dir', dir, '--json']).stdout);
    expect(j.scan).toMatchObject({ files: 1, records: 5, malformedLines: 0 });
    expect(j.totals).toMatchObject({
      reads: 2, partialPages: 1, partialSources: { flagOnly: 1 }, partialPagedOn: 1, tokenRefusals: 1,
    });
  });

  it('says so when there are no Reads in the period', () => {
    const r = run(['audit', '--dir', join(projects, '-home-me-old'), '--days', '7']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No Read calls in this period.');
  });

  it('fails clearly on a missing --dir, a bad --days, and no transcripts at all', () => {
    const missing = run(['audit', '--dir', join(root, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--dir ${join(root, 'nope')}: no such file or directory`);
    expect(missing.stdout).toBe('');
    for (const days of ['0', '-3', 'abc', '2.5']) {
      const bad = run(['audit', '--dir', projects, '--days', days]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain(`--days takes a whole number of 1 or more, not "${days}"`);
    }
    const none = run(['audit']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no Claude Code transcripts found');
    const badUntil = run(['audit', '--dir', projects, '--until', 'someday']);
    expect(badUntil.code).not.toBe(0);
    expect(badUntil.stderr).toContain('--until takes a date');
  });
});
