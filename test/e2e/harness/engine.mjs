// Runs the real Claude Code engine headless (docs/ENGINE.md, "How"): a fresh HOME, a clean environment, the stand-in as
// its API, the pager wired through the project's .claude/settings.json (or as a plugin), stream-json out.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The engine the tests run: the pinned one, or E2E_CLAUDE (a native binary, or an older engine's cli.js) as
 * `npm run test:engines` sets it to try another version. */
export const CLAUDE = process.env.E2E_CLAUDE || join(REPO, 'node_modules/.bin/claude');
/** How to start CLAUDE: a `.js` engine runs under this Node. Spawn `ENGINE[0]` with `[...ENGINE.slice(1), ...args]`. */
export const ENGINE = /\.[cm]?js$/.test(CLAUDE) ? [process.execPath, CLAUDE] : [CLAUDE];
export const PAGER_BIN = join(REPO, 'bin/read-ceiling-pager.js');
export const CAP_ENV = 'CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS';

/** The hook wiring users copy: the repo's settings.example.json when present, else the documented form. */
export function exampleSettings() {
  const file = join(REPO, 'settings.example.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const hook = (/** @type {string} */ cmd) => [{ matcher: 'Read', hooks: [{ type: 'command', command: `read-ceiling-pager ${cmd}`, timeout: 10 }] }];
  return { hooks: { PreToolUse: hook('pre'), PostToolUse: hook('post'), PostToolUseFailure: hook('post') } };
}

/** The example settings with `read-ceiling-pager <x>` run from this checkout; fails if the example has none. */
export function pagerSettings() {
  const settings = exampleSettings();
  let wired = 0;
  for (const groups of Object.values(settings.hooks ?? {})) {
    for (const group of /** @type {any[]} */ (groups)) {
      for (const h of group.hooks ?? []) {
        const m = /(?:^|\s|\/)read-ceiling-pager(?:\.js)?\s+(pre|post)\s*$/.exec(h.command ?? '');
        if (m) { h.command = `node ${JSON.stringify(PAGER_BIN)} ${m[1]}`; wired++; }
      }
    }
  }
  if (wired === 0) throw new Error('settings.example.json wires no read-ceiling-pager hook');
  return settings;
}

/** @type {string[]} */
const made = [];

/** A fresh directory under the system temp dir, removed by removeTempDirs(). @param {string} prefix */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `rcp-e2e-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes every directory tempDir() made in this process (kept when E2E_KEEP is set, to look at). */
export function removeTempDirs() {
  if (process.env.E2E_KEEP) return;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * @typedef {object} RunOptions
 * @property {string} baseUrl The stand-in.
 * @property {string} cwd Project dir; the files live here.
 * @property {'pager' | 'none' | 'plugin'} hooks
 * @property {number} [cap] Sets CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS.
 * @property {string} [prompt]
 * @property {number} [timeoutMs]
 * @property {Record<string, string>} [extraEnv]
 * @property {boolean} [keepHome] Keep the engine's HOME (its transcripts under .claude/projects) until
 *   removeTempDirs(), for tests that read what the engine wrote.
 * @property {any} [settings] The project's .claude/settings.json, in place of the one `hooks` picks.
 * @property {string[]} [args] More engine arguments (for example --permission-prompt-tool, --mcp-config).
 * @property {string} [allowedTools] In place of "Read".
 * @property {string} [home] A HOME the test set up as a user would (`read-ceiling-pager install`, a plugin
 *   install): used as it is and kept, with no state-directory override, so the pager finds its state where a
 *   user's would be.
 * @typedef {object} RunResult
 * @property {any[]} events stream-json lines.
 * @property {string} stderr
 * @property {number | null} code
 * @property {number} ms
 * @property {string} home The engine's HOME; gone after the run unless keepHome.
 * @property {string} projects Where the engine wrote its transcripts: <home>/.claude/projects.
 */

/** @param {RunOptions} o @returns {Promise<RunResult>} */
export async function runEngine(o) {
  const home = o.home ?? tempDir('home');
  const claudeDir = join(o.cwd, '.claude');
  mkdirSync(claudeDir, { recursive: true });
  const settingsFile = join(claudeDir, 'settings.json');
  writeFileSync(settingsFile, JSON.stringify(o.settings ?? (o.hooks === 'pager' ? pagerSettings() : {}), null, 2));

  /** @type {Record<string, string>} */
  const env = {
    HOME: home,
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TMPDIR: home,
    ANTHROPIC_BASE_URL: o.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-stand-in',
    ...(o.home ? {} : { READ_CEILING_PAGER_STATE_DIR: join(home, 'pager-state') }),
    ...(o.cap !== undefined ? { [CAP_ENV]: String(o.cap) } : {}),
    ...o.extraEnv,
  };
  const args = ['-p', o.prompt ?? 'Read the files.', '--output-format', 'stream-json', '--verbose', '--allowedTools', o.allowedTools ?? 'Read', ...(o.args ?? [])];
  if (o.hooks === 'plugin') args.push('--plugin-dir', REPO);

  const started = Date.now();
  const child = spawn(ENGINE[0], [...ENGINE.slice(1), ...args], { cwd: o.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  // Decoded across chunks: a character split between two reads of the pipe must not become two U+FFFD.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const timeoutMs = o.timeoutMs ?? 90_000;
  const timer = setTimeout(() => { if (child.pid) child.kill('SIGKILL'); }, timeoutMs);
  const code = await new Promise((res) => child.on('close', (c) => res(c)));
  clearTimeout(timer);
  // The engine's HOME (its transcripts, the pager's state) is of no use after most runs; E2E_KEEP keeps it.
  if (!o.home && !o.keepHome && !process.env.E2E_KEEP) rmSync(home, { recursive: true, force: true });
  const events = stdout.split('\n').filter((l) => l.trim().startsWith('{')).map((l) => JSON.parse(l));
  return { events, stderr, code: /** @type {number | null} */ (code), ms: Date.now() - started, home, projects: join(home, '.claude', 'projects') };
}
