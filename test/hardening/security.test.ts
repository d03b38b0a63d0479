// What the pager writes cannot be turned against its user: ids never escape the state directory, state is
// private and never followed through a link, the bundle spawns nothing and opens no socket, and the pre hook
// never grants a permission or widens a Read.
import { build } from 'esbuild';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFor, answer } from '../../src/hooks/io';
import { StateStore } from '../../src/state/store';
import { withPlan } from '../../src/state/session';
import { BIN, figures, prose, spawnHook } from './lib';
import { ROOT } from '../helpers/hook';

let dir: string;
let cases = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-sec-'));
  writeFileSync(join(dir, 'big.txt'), prose(3000));
});
afterAll(() => { figures('security', cases, 0); rmSync(dir, { recursive: true, force: true }); });

const preEv = (session: unknown, id: unknown, input: Record<string, unknown>) => ({ session_id: session, transcript_path: '/nonexistent.jsonl', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: input, tool_use_id: id });
const plan = { file: '/x', size: 1, mtimeMs: 1, askedFirst: 1, sentFirst: 1, sentLines: 1, estimate: 1, cap: 25000, at: Date.now() };

function tree(root: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(root)) {
    const p = join(root, n);
    out.push(p);
    if (lstatSync(p).isDirectory()) out.push(...tree(p));
  }
  return out;
}

describe('hostile ids never escape the state directory', () => {
  const ids = ['../escape', '../../../../tmp/rcp-escaped', '/etc/evil', 'a/b', 'a\\b', 'nul\0x', '..', '.', '', 'x'.repeat(100_000), '%2e%2e%2f', 'ok\n', '__proto__', 'constructor'];
  it('as session_id or tool_use_id, in pre and post: nothing is written outside it, only plain names inside', () => {
    const root = join(dir, 'ids');
    mkdirSync(root);
    const state = join(root, 'deep', 'state');
    const env = { PATH: process.env.PATH, HOME: root, READ_CEILING_PAGER_STATE_DIR: state };
    for (const sid of [...ids, 'good-session']) {
      for (const tid of [...ids, 'toolu_1']) {
        cases++;
        const raw = JSON.stringify(preEv(sid, tid, { file_path: join(dir, 'big.txt'), limit: 3000 }));
        answer('pre', raw, contextFor(Date.now(), env));
        answer('post', raw.replace('"PreToolUse"', '"PostToolUseFailure"').replace('"tool_use_id"', '"error":"File content (40000 tokens) exceeds maximum allowed tokens (25000).","tool_use_id"'), contextFor(Date.now(), env));
      }
    }
    const written = tree(root);
    expect(written.filter((p) => !p.startsWith(state))).toEqual([join(root, 'deep')]);
    const names = written.filter((p) => p.startsWith(`${state}/`)).map((p) => p.slice(state.length + 1));
    expect(names).toContain('good-session.json');
    // Session files by their plain ids, and the one file that outlives sessions, by its fixed name.
    expect(names.filter((n) => !/^[A-Za-z0-9_-]{1,128}\.json$/.test(n) && n !== 'memory.v1.json')).toEqual([]);
    expect(existsSync('/tmp/rcp-escaped.json')).toBe(false);
    // A tool_use_id is a plain key: `__proto__` is stored and found again, and changes no prototype.
    const store = new StateStore(state, Date.now() + 5000);
    expect(store.update('good-session', (s) => withPlan(s, '__proto__', plan))).toBe(true);
    const back = store.read('good-session');
    expect(Object.getPrototypeOf(back.plans)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(back.plans, '__proto__')).toBe(true);
    expect(back.plans['__proto__' as string]).toEqual(plan);
  });
});

describe('state files are private and never followed through a link', () => {
  it('created 0600 in a 0700 directory', () => {
    const state = join(dir, 'modes', 'state');
    expect(new StateStore(state, Date.now() + 5000).update('s1', (s) => withPlan(s, 't', plan))).toBe(true);
    cases++;
    expect(statSync(state).mode & 0o777).toBe(0o700);
    expect(statSync(join(state, 's1.json')).mode & 0o777).toBe(0o600);
  });

  it('a state directory open to others, or owned by someone else, is not used: no state read from it, none written', () => {
    for (const [name, prepare] of [
      ['group-writable', (d: string) => { mkdirSync(d); chmodSync(d, 0o777); }],
      ['someone else\'s', (d: string) => { mkdirSync(d, { mode: 0o700 }); chownSync(d, 4242, 4242); }],
      ['a symlink to a private dir', (d: string) => { mkdirSync(`${d}-target`, { mode: 0o700 }); symlinkSync(`${d}-target`, d); }],
      ['a file', (d: string) => { writeFileSync(d, 'not a dir'); }],
    ] as const) {
      cases++;
      const d = join(dir, `bad-${name.replace(/\W/g, '_')}`);
      prepare(d);
      if (lstatSync(d).isDirectory()) writeFileSync(join(d, 's1.json'), JSON.stringify({ plans: {}, files: {}, cap: 1 }));
      const store = new StateStore(d, Date.now() + 2000);
      expect(store.read('s1').cap, name).toBeUndefined(); // a planted cap of 1 would shrink every Read
      expect(store.update('s2', (s) => withPlan(s, 't', plan)), name).toBe(false);
      if (existsSync(`${d}-target`)) expect(readdirSync(`${d}-target`)).toEqual([]);
    }
  });

  it('a session file, lock or temp name that is a symlink is never written through', () => {
    const state = join(dir, 'links', 'state');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    const victim = join(dir, 'links', 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(state, 's1.json'));
    symlinkSync(join(dir, 'links', 'created-through-lock'), join(state, 's2.json.lock'));
    const store = new StateStore(state, Date.now() + 6000);
    cases += 2;
    expect(store.update('s1', (s) => withPlan(s, 't', plan))).toBe(true);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(join(state, 's1.json')).isFile()).toBe(true); // the link was replaced, not followed
    store.update('s2', (s) => withPlan(s, 't', plan));
    expect(existsSync(join(dir, 'links', 'created-through-lock'))).toBe(false);
  });

  it('a session file owned by someone else is not trusted', () => {
    const state = join(dir, 'owner', 'state');
    mkdirSync(state, { recursive: true, mode: 0o700 });
    writeFileSync(join(state, 's1.json'), JSON.stringify({ plans: {}, files: {}, cap: 1 }));
    chownSync(join(state, 's1.json'), 4242, 4242);
    cases++;
    expect(new StateStore(state, Date.now() + 2000).read('s1').cap).toBeUndefined();
  });
});

describe('the bundle spawns no process and opens no socket', () => {
  const forbidden = /require\(["'](?:node:)?(child_process|net|http|https|dgram|tls|http2|worker_threads|cluster|dns)["']\)/g;
  it('the hook path bundled alone has no require of child_process, net, http(s), dgram, tls, http2, workers or dns', async () => {
    // The hooks share dist/cli.cjs with the commands (doctor runs `claude --version`); cli.ts loads the command
    // program only off the hook path. So the hook path is bundled on its own, exactly as cli.ts enters it.
    const out = await build({ stdin: { contents: "import { runHook } from './src/hooks/io';\nrunHook('pre');", resolveDir: ROOT, loader: 'ts' },
      bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent' });
    const text = out.outputFiles[0]!.text;
    cases++;
    expect([...text.matchAll(forbidden)].map((m) => m[1])).toEqual([]);
    // Nor do the shipped bundles a hook loads; only the commands' bundle may (doctor runs `claude --version`).
    for (const b of ['cli.cjs', 'main.cjs', 'gates.cjs']) {
      const bundle = readFileSync(join(ROOT, 'dist', b), 'utf8');
      expect([b, [...bundle.matchAll(forbidden)].map((m) => m[1])]).toEqual([b, []]);
    }
    const commands = readFileSync(join(ROOT, 'dist', 'commands.cjs'), 'utf8');
    expect([...commands.matchAll(forbidden)].map((m) => m[1]).filter((m) => m !== 'child_process')).toEqual([]);
  });

  it('pre and post run with child_process and socket entry points trapped: none is used', async () => {
    const trap = join(dir, 'trap.cjs');
    const log = join(dir, 'trap.log');
    writeFileSync(trap, `
      const fs = require('fs');
      const note = (what) => { fs.appendFileSync(${JSON.stringify(log)}, what + '\\n'); throw new Error('trapped ' + what); };
      const Module = require('module');
      const load = Module._load;
      const banned = /^(node:)?(child_process|net|http|https|dgram|tls|http2|worker_threads|cluster|dns)$/;
      const cp = require('child_process');
      for (const k of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) cp[k] = () => note('child_process.' + k);
      const net = require('net');
      for (const k of ['connect', 'createConnection', 'createServer']) net[k] = () => note('net.' + k);
      net.Socket.prototype.connect = () => note('net.Socket.connect');
      for (const m of ['http', 'https']) { const h = require(m); h.request = () => note(m + '.request'); h.get = () => note(m + '.get'); h.createServer = () => note(m + '.createServer'); }
      require('dgram').createSocket = () => note('dgram.createSocket');
      require('tls').connect = () => note('tls.connect');
      // From here on, the bundle itself loading any of these modules is recorded too.
      Module._load = function (request, ...rest) { if (banned.test(request)) fs.appendFileSync(${JSON.stringify(log)}, 'require ' + request + '\\n'); return load.call(this, request, ...rest); };
    `);
    const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, 'trap-state') };
    const input = { file_path: join(dir, 'big.txt'), offset: 1, limit: 3000 };
    const pre = await spawnHook('pre', JSON.stringify(preEv('trap', 't1', input)), env, { preload: trap });
    const ran = JSON.parse(pre.stdout).hookSpecificOutput.updatedInput;
    const lines = prose(3000).split('\n').slice(0, ran.limit);
    const post = await spawnHook('post', JSON.stringify({ ...preEv('trap', 't1', ran), hook_event_name: 'PostToolUse', tool_response: { type: 'text', file: { filePath: input.file_path, content: lines.join('\n'), numLines: lines.length, startLine: 1, totalLines: 3001 } } }), env, { preload: trap });
    const fail = await spawnHook('post', JSON.stringify({ ...preEv('trap', 't2', input), hook_event_name: 'PostToolUseFailure', error: 'File content (40000 tokens) exceeds maximum allowed tokens (25000).' }), env, { preload: trap });
    cases += 3;
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');
    expect(JSON.parse(post.stdout).hookSpecificOutput.additionalContext).toContain('offset=');
    expect(JSON.parse(fail.stdout).hookSpecificOutput.additionalContext).toContain('fits under');
    expect([pre.stderr, post.stderr, fail.stderr]).toEqual(['', '', '']);
    void BIN;
  });
});
