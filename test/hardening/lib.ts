// Shared by the hardening battery: hostile fixtures, the wire-level promise as one checker, async runs of the
// built binary, and the figures each suite prints.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, hookCommand, hookEnv, localPath, WINDOWS } from '../helpers/hook';
import { prose } from '../helpers/text';

export { BIN, prose };

/** Every kind of file a Read may name, regular or not. Returns name → absolute path. */
export function hostileFiles(dir: string): Record<string, string> {
  const p = (n: string) => join(dir, n);
  const big = prose(3000);
  writeFileSync(p('big.txt'), big);
  writeFileSync(p('small.txt'), prose(20));
  writeFileSync(p('huge.txt'), prose(5000));
  writeFileSync(p('big.json'), big);
  writeFileSync(p('crlf.txt'), big.replace(/\n/g, '\r\n'));
  writeFileSync(p('lone-cr.txt'), big.replace(/\n/g, '\r'));
  writeFileSync(p('long-line.txt'), `short first line\n${'x'.repeat(450_000)}\nthird\nfourth\n`);
  writeFileSync(p('empty.txt'), '');
  writeFileSync(p('newline.txt'), '\n');
  writeFileSync(p('nul.txt'), big.replace(/e/g, '\0'));
  writeFileSync(p('invalid-utf8.txt'), Buffer.concat([Buffer.from(big.slice(0, 60_000)), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]), Buffer.from(big.slice(60_000))]));
  writeFileSync(p('utf16le.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(big, 'utf16le')]));
  const be = Buffer.from(big, 'utf16le');
  for (let i = 0; i + 1 < be.length; i += 2) { const t = be[i]!; be[i] = be[i + 1]!; be[i + 1] = t; }
  writeFileSync(p('utf16be.txt'), Buffer.concat([Buffer.from([0xfe, 0xff]), be]));
  writeFileSync(p('bom.txt'), `\uFEFF${big}`);
  writeFileSync(p('cjk.txt'), Array.from({ length: 2000 }, (_, i) => `${i} 窗口引擎返回的行数超过了上限，因此读取器请求更多内容。`).join('\n'));
  mkdirSync(p('a-dir'));
  execFileSync('mkfifo', [p('fifo.txt')]);
  symlinkSync(p('loop-b'), p('loop-a'));
  symlinkSync(p('loop-a'), p('loop-b'));
  symlinkSync(p('big.txt'), p('link-to-big.txt'));
  symlinkSync(p('nowhere'), p('dangling.txt'));
  writeFileSync(p('unreadable.txt'), big);
  chmodSync(p('unreadable.txt'), 0o000);
  return Object.fromEntries([
    'big.txt', 'small.txt', 'huge.txt', 'big.json', 'crlf.txt', 'lone-cr.txt', 'long-line.txt', 'empty.txt', 'newline.txt',
    'nul.txt', 'invalid-utf8.txt', 'utf16le.txt', 'utf16be.txt', 'bom.txt', 'cjk.txt', 'a-dir', 'fifo.txt', 'loop-a',
    'link-to-big.txt', 'dangling.txt', 'unreadable.txt', 'missing.txt',
  ].map((n) => [n, p(n)]).concat([['/dev/zero', '/dev/zero'], ['/dev/null', '/dev/null'], ['/dev/urandom', '/dev/urandom'], ['/proc/self/status', '/proc/self/status']]));
}

export type Event = Record<string, unknown>;

/** The wire promise for one hook run, as a list of broken rules (empty: kept). `stdout` is exactly what
 * was printed; `event` is what was sent (undefined when stdin was not a JSON object). */
/** The one other rewrite `pre` may make: a window from line 1 of a file under 256 KiB sent as a read of the whole
 * file (no offset, no limit), which the engine answers with a page or an excerpt and never refuses. */
function readsWholeBroken(input: Record<string, any>, next: Record<string, any>): string[] {
  const bad: string[] = [];
  if (typeof input.limit !== 'number') bad.push('a read with no limit sent as another read with no limit');
  if (!(input.offset === undefined || input.offset === 0 || input.offset === 1)) bad.push(`offset ${input.offset} dropped`);
  let size = Infinity;
  try { size = statSync(localPath(input.file_path)).size; } catch { /* not a file: reported below */ }
  if (size > 256 * 1024) bad.push(`sent without limit a file of ${size} bytes, which the engine refuses`);
  const { limit: _l, offset: _o, ...restIn } = input;
  if (JSON.stringify(restIn) !== JSON.stringify(next)) bad.push('a field other than limit/offset changed');
  return bad;
}

export function brokenPromises(name: 'pre' | 'post', event: unknown, stdout: string): string[] {
  if (stdout === '') return [];
  const bad: string[] = [];
  if (!stdout.endsWith('\n') || stdout.indexOf('\n') !== stdout.length - 1) bad.push('not exactly one line');
  let out: any;
  try { out = JSON.parse(stdout); } catch { return ['stdout is not JSON']; }
  if (typeof out !== 'object' || out === null || Array.isArray(out)) return ['not a JSON object'];
  if (Object.keys(out).join() !== 'hookSpecificOutput') bad.push(`top-level keys ${Object.keys(out).join()}`);
  const h = out.hookSpecificOutput;
  const ev = (event && typeof event === 'object' ? event : {}) as Event;
  const expected = name === 'pre' ? ['PreToolUse'] : ['PostToolUse', 'PostToolUseFailure'];
  if (!expected.includes(h?.hookEventName) || h.hookEventName !== ev.hook_event_name) bad.push(`hookEventName ${h?.hookEventName} for ${String(ev.hook_event_name)}`);
  if (ev.tool_name !== 'Read') bad.push('answered a tool other than Read');
  if ('permissionDecision' in (h ?? {})) bad.push('permissionDecision sent');
  const allowed = name === 'pre' ? ['hookEventName', 'updatedInput', 'additionalContext'] : ['hookEventName', 'additionalContext'];
  for (const k of Object.keys(h ?? {})) if (!allowed.includes(k)) bad.push(`unexpected key ${k}`);
  if ('additionalContext' in h) {
    const c = h.additionalContext;
    if (typeof c !== 'string' || c.length === 0) bad.push('empty or non-string additionalContext');
    else if (c.length >= 10_000) bad.push(`additionalContext of ${c.length} chars`);
    else if (!c.startsWith('read-ceiling-pager:')) bad.push('additionalContext without the prefix');
  }
  if (name === 'post' && !('additionalContext' in h)) bad.push('post output without a note');
  if (name === 'pre') {
    const input = ev.tool_input as Record<string, any> | undefined;
    const next = h.updatedInput as Record<string, any> | undefined;
    if (!next || typeof next !== 'object') return [...bad, 'pre output without updatedInput'];
    if (!input || typeof input !== 'object') return [...bad, 'updatedInput without a tool_input'];
    if (!('limit' in next) && !('offset' in next)) return [...bad, ...readsWholeBroken(input, next)];
    if (!Number.isSafeInteger(next.limit) || next.limit < 1) bad.push(`limit ${next.limit}`);
    if (typeof input.limit === 'number' && input.limit > 0 && next.limit > input.limit) bad.push(`limit raised ${input.limit} → ${next.limit}`);
    if (!(next.offset === input.offset || (input.offset === 0 && next.offset === 1))) bad.push(`offset ${input.offset} → ${next.offset}`);
    if (next.offset !== undefined && (!Number.isSafeInteger(next.offset) || next.offset < 1)) bad.push(`offset ${next.offset} sent`);
    const { limit: _l, offset: _o, ...restIn } = input;
    const { limit: _l2, offset: _o2, ...restOut } = next;
    if (JSON.stringify(restIn) !== JSON.stringify(restOut)) bad.push('a field other than limit/offset changed');
    if (input.allow_large !== undefined && input.allow_large !== false) bad.push('rewrote an allow_large read');
    if (input.pages !== undefined) bad.push('rewrote a pages read');
  }
  return bad;
}

export interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** The built hook as the engine runs it, asynchronously: stdin written (and closed unless `keepOpen`). */
export function spawnHook(name: 'pre' | 'post', stdin: string | Buffer, env: NodeJS.ProcessEnv,
  opts: { preload?: string; keepOpen?: boolean; timeoutMs?: number; uid?: number; gid?: number; bin?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const bin = opts.bin ?? BIN;
    const args = opts.preload ? ['--require', opts.preload, bin, name] : [bin, name];
    // Under scripts/test-windows.mjs the plain hook runs as Node for Windows under Wine.
    const [cmd, argv] = WINDOWS && !opts.preload && !opts.bin ? hookCommand(name) : [process.execPath, args];
    const child = spawn(cmd, argv, { env: hookEnv(env), stdio: ['pipe', 'pipe', 'pipe'], uid: opts.uid, gid: opts.gid });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8'); // a character split between two reads of the pipe stays whole
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.stdin.on('error', () => undefined); // the hook may stop reading early (oversized input)
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? (WINDOWS ? 180_000 : 30_000));
    child.on('error', reject);
    child.on('close', (code, signal) => { clearTimeout(killer); resolve({ code, signal, stdout, stderr }); });
    if (opts.keepOpen) child.stdin.write(stdin);
    else child.stdin.end(stdin);
  });
}

/** Runs `tasks` at most `width` at a time. */
export async function pool<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, async () => {
    while (next < tasks.length) { const i = next++; results[i] = await tasks[i]!(); }
  }));
  return results;
}

/** The figures line a suite prints: cases run and failures (the suite fails when failures > 0). */
export function figures(area: string, cases: number, failures: number, extra = ''): void {
  console.log(`hardening: ${area}: cases run ${cases}, failures: ${failures}${extra ? ` (${extra})` : ''}`);
}
