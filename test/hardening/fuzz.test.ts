// Property-based fuzzing of the hook input. In-process through `answer` (exactly what the hook prints for a
// stdin), thousands of cases on real files and a real state directory; then a few hundred through the built
// binary, with the stdin extremes (empty, 10 MB, truncated).
import fc from 'fast-check';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, contextFor } from '../../src/hooks/io';
import { brokenPromises, figures, hostileFiles, pool, spawnHook } from './lib';
import { CODE_DIR } from '../../src/state/code-cache';

let dir: string;
let files: Record<string, string>;
let env: NodeJS.ProcessEnv;
const stateDirOf = () => join(dir, 'state');
let inProcessCases = 0;
let binaryCases = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-fuzz-'));
  files = hostileFiles(join(dir));
  env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: stateDirOf() };
});

afterAll(() => {
  figures('fuzz (in-process answer)', inProcessCases, 0);
  figures('fuzz (built binary)', binaryCases, 0);
  rmSync(dir, { recursive: true, force: true });
});

const hostileIds = ['../escape', '../../etc/passwd', '/abs/path', 'a/b', 'a\\b', 'nul\0byte', '.', '..', '', ' ', 'x'.repeat(5000),
  '__proto__', 'constructor', 'hasOwnProperty', 'sess.json', 'sess.json.lock', '\u202e', '😀'];
const anyJson = fc.jsonValue({ maxDepth: 2 });
const number = fc.oneof(
  fc.integer({ min: -5, max: 10 }), fc.integer({ min: 0, max: 6000 }), fc.integer(), fc.maxSafeInteger(),
  fc.constantFrom(1e300, -1e300, 2 ** 53, 2 ** 53 + 2, 0.5, 2999.5, -0, 1e-9, 3000, 1500, 2900),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const field = fc.oneof({ weight: 6, arbitrary: number }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: fc.constantFrom('3000', '', null, true, [3000], {}) });
const id = fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/) }, { weight: 2, arbitrary: fc.constantFrom(...hostileIds) },
  { weight: 1, arbitrary: fc.string() }, { weight: 1, arbitrary: anyJson });

function filePathArb() {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...Object.values(files)) },
    { weight: 1, arbitrary: fc.constantFrom('big.txt', './big.txt', '../x', '', '/', '/etc/passwd\0.txt', 'x'.repeat(5000), '/proc/self/fd/0') },
    { weight: 1, arbitrary: anyJson },
  );
}

function toolInputArb() {
  return fc.record({
    file_path: filePathArb(),
    offset: field,
    limit: field,
    pages: fc.constantFrom('1-2', 3, null),
    allow_large: fc.constantFrom(true, false, 'yes', null),
    extra: fc.dictionary(fc.string({ maxLength: 6 }), anyJson, { maxKeys: 3 }),
  }, { requiredKeys: [] }).map(({ extra, ...rest }) => ({ ...extra, ...rest }));
}

function responseArb() {
  return fc.oneof(
    fc.record({
      type: fc.constantFrom('text', 'image', 3),
      file: fc.record({
        filePath: fc.oneof(fc.constantFrom(...Object.values(files)), anyJson), content: fc.string({ maxLength: 50 }),
        numLines: field, startLine: field, totalLines: field, truncatedByTokenCap: fc.constantFrom(true, false, 'no') }, { requiredKeys: [] }),
    }, { requiredKeys: [] }),
    anyJson,
  );
}

const refusal = fc.oneof(
  fc.tuple(fc.integer({ min: -1, max: 10 ** 9 }), fc.integer({ min: -1, max: 10 ** 9 })).map(([n, cap]) => `File content (${n} tokens) exceeds maximum allowed tokens (${cap}). Use offset and limit parameters to read specific portions of the file.`),
  fc.constantFrom('File content (493.2KB) exceeds maximum allowed size (256KB). Use offset and limit parameters.',
    'The requested line range contains over 3.1MB of text, more than a read can return.', 'File does not exist.'),
  fc.string({ maxLength: 200 }), anyJson,
);

function eventArb() {
  const common = { session_id: id, tool_use_id: id, tool_name: fc.oneof({ weight: 8, arbitrary: fc.constant('Read') }, { weight: 1, arbitrary: fc.constantFrom('Write', 'read', 'Bash', 7) }),
    cwd: fc.constantFrom(dir, '/', 'relative', 5), transcript_path: fc.constantFrom(files['fifo.txt']!, '/dev/zero', files['a-dir']!, '/nonexistent.jsonl', 3), tool_input: toolInputArb() };
  return fc.oneof(
    fc.record({ ...common, hook_event_name: fc.constant('PreToolUse') }, { requiredKeys: ['hook_event_name', 'tool_name', 'tool_input', 'session_id', 'tool_use_id'] }),
    fc.record({ ...common, hook_event_name: fc.constant('PostToolUse'), tool_response: responseArb() }, { requiredKeys: ['hook_event_name', 'tool_name', 'tool_input', 'session_id', 'tool_use_id', 'tool_response'] }),
    fc.record({ ...common, hook_event_name: fc.constant('PostToolUseFailure'), error: refusal }, { requiredKeys: ['hook_event_name', 'tool_name', 'tool_input', 'session_id', 'tool_use_id', 'error'] }),
    fc.record({ ...common, hook_event_name: fc.constantFrom('SessionStart', 'Stop', '', 'preToolUse') }),
  );
}

/** A stdin: a whole event, a cut one, one with bytes flipped, or plain garbage. */
function stdinArb() {
  return fc.oneof(
    { weight: 6, arbitrary: eventArb().map((ev) => ({ ev, raw: JSON.stringify(ev) })) },
    {
      weight: 1,
      arbitrary: fc.tuple(eventArb(), fc.double({ min: 0, max: 1, noNaN: true })).map(([ev, f]) => {
        const s = JSON.stringify(ev);
        return { ev: undefined, raw: s.slice(0, Math.floor(s.length * f)) };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(eventArb(), fc.nat(), fc.string({ minLength: 1, maxLength: 3 })).map(([ev, at, junk]) => {
        const s = JSON.stringify(ev);
        const i = at % (s.length + 1);
        return { ev: undefined as unknown, raw: s.slice(0, i) + junk + s.slice(i) };
      }),
    },
    { weight: 1, arbitrary: fc.oneof(fc.string(), anyJson.map((j) => JSON.stringify(j)), fc.constantFrom('', ' ', 'null', '[]', '{}', '"x"', '\uFEFF{}')).map((raw) => ({ ev: undefined as unknown, raw })) },
  );
}

/** Which event a stdin really is, as the hook would parse it (a mutated stdin may still be valid JSON). */
function parsed(raw: string): unknown {
  try { return JSON.parse(raw); } catch { return undefined; }
}

function stateDirIsClean(): string[] {
  const bad: string[] = [];
  let names: string[];
  try { names = readdirSync(stateDirOf()); } catch { return bad; }
  for (const n of names) {
    if (n === CODE_DIR) bad.push(...codeDirIsClean(join(stateDirOf(), n)));
    else if (!/^[A-Za-z0-9_-]{1,128}\.json(\.lock)?$/.test(n)) bad.push(`unexpected state entry ${JSON.stringify(n.slice(0, 80))}`);
    else if (!lstatSync(join(stateDirOf(), n)).isFile()) bad.push(`${n} is not a regular file`);
  }
  const outside = readdirSync(dir).filter((n) => !Object.values(files).includes(join(dir, n)) && n !== 'state' && n !== 'loop-b' && n !== 'nowhere');
  if (outside.length) bad.push(`written outside the state dir: ${outside.join()}`);
  return bad;
}

/** The hooks' compiled code (state/code-cache.ts): one file for each bundle, named by it, never a stdin's text. */
function codeDirIsClean(code: string): string[] {
  if (!lstatSync(code).isDirectory()) return [`${CODE_DIR} is not a directory`];
  return readdirSync(code).filter((n) => !/^(main|gates)-v\d+\.\d+\.\d+-\w+-\d+-\d+\.code$/.test(n))
    .map((n) => `unexpected code cache entry ${JSON.stringify(n.slice(0, 80))}`);
}

describe('fuzzed hook input keeps the wire promise', () => {
  it('in-process: every stdin gives "" or one JSON object that only lowers limit, with the right hookEventName', () => {
    const failures: string[] = [];
    fc.assert(fc.property(stdinArb(), fc.constantFrom('pre' as const, 'post' as const), ({ raw }, name) => {
      inProcessCases++;
      const out = answer(name, raw, contextFor(Date.now(), env));
      const broken = [...brokenPromises(name, parsed(raw), out), ...stateDirIsClean()];
      if (broken.length) failures.push(`${name} ${raw.slice(0, 300)} → ${out.slice(0, 300)}: ${broken.join('; ')}`);
      return broken.length === 0;
    }), { numRuns: 2500, seed: Number(process.env.FUZZ_SEED ?? 20250607) });
    expect(failures).toEqual([]);
  });

  it('in-process: clamps happen (the fuzz reaches the rewriting paths, not only rejections)', () => {
    // Well-formed windows over the cap on real files: the property above must have had rewrites to judge.
    let rewrites = 0;
    fc.assert(fc.property(fc.constantFrom('big.txt', 'huge.txt', 'crlf.txt', 'cjk.txt', 'big.json', 'utf16le.txt', 'nul.txt'), fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1500, max: 100_000 }),
      fc.stringMatching(/^[a-z0-9]{1,8}$/), (f, offset, limit, tid) => {
        inProcessCases++;
        const ev = { session_id: 'fuzz-sess', tool_use_id: tid, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: files[f], offset, limit } };
        const out = answer('pre', JSON.stringify(ev), contextFor(Date.now(), env));
        if (out) rewrites++;
        return brokenPromises('pre', ev, out).length === 0;
      }), { numRuns: 400, seed: 7 });
    expect(rewrites).toBeGreaterThan(100);
  });
});

describe('fuzzed stdin through the built binary', () => {
  it('exit 0, nothing on stderr, and the same promise, for a few hundred stdins', async () => {
    const samples = fc.sample(fc.tuple(stdinArb(), fc.constantFrom('pre' as const, 'post' as const)), { numRuns: 150, seed: 99 });
    const extremes: [string, 'pre' | 'post'][] = [
      ['', 'pre'], ['', 'post'], [' '.repeat(10 * 1024 * 1024), 'pre'],
      [JSON.stringify({ session_id: 's', tool_use_id: 't', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: files['big.txt'], limit: 3000, pad: 'x'.repeat(10 * 1024 * 1024) } }), 'pre'],
      ['x'.repeat(17 * 1024 * 1024), 'post'],
      ['{"session_id":"s","tool_use_id":"t","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":', 'pre'],
      ['\0\0\0', 'pre'], [Buffer.from([0xff, 0xfe, 0x7b, 0x00]).toString('latin1'), 'post'],
    ];
    const cases = [...samples.map(([s, n]) => [s.raw, n] as [string, 'pre' | 'post']), ...extremes];
    const failures: string[] = [];
    await pool(cases.map(([raw, name]) => async () => {
      const r = await spawnHook(name, raw, env);
      binaryCases++;
      const broken = brokenPromises(name, parsed(raw), r.stdout);
      if (r.code !== 0) broken.push(`exit ${r.code} ${r.signal ?? ''}`);
      if (r.stderr !== '') broken.push(`stderr ${r.stderr.slice(0, 200)}`);
      if (broken.length) failures.push(`${name} ${raw.slice(0, 200)}: ${broken.join('; ')}`);
    }), 4);
    expect(failures).toEqual([]);
    expect(stateDirIsClean()).toEqual([]);
  });
});
