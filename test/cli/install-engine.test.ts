// Each way of installing, end to end on the real engine: a fresh HOME set up the way a user would
// (`read-ceiling-pager install`, or `claude plugin marketplace add` + `claude plugin install` from a plain clone),
// then a headless session against a stand-in model whose one Read asks for far more than the cap allows.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE, removeTempDirs, runEngine, tempDir } from '../e2e/harness/engine.mjs';
import { startStandIn } from '../e2e/harness/standin.mjs';

const REPO = resolve(__dirname, '../..');
const CAP = 2000;
const ASKED = 3000;

afterAll(() => removeTempDirs());

function freshHome(name: string) {
  const home = join(tempDir('install'), name);
  const project = join(home, 'proj');
  mkdirSync(project, { recursive: true });
  const file = join(project, 'big.txt');
  writeFileSync(file, Array.from({ length: 5000 }, (_, i) => `line ${i + 1} of a long file that no window of ${ASKED} lines can hold`).join('\n'));
  return { home, project, file, env: { PATH: process.env.PATH, HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } };
}

/** One headless session in the user's own HOME, whose one Read asks for far more than the cap allows; returns
 * what the model saw after it: the lines shown, whether it was refused, and the notes. */
async function session(home: string, project: string, file: string, env: Record<string, string> = {}) {
  const standIn = await startStandIn({
    policy: (obs) => (obs.turn === 0 ? { reads: [{ file_path: file, offset: 1, limit: ASKED }] } : { text: 'done' }),
    count: (text) => Math.ceil(text.length / 4),
  });
  try {
    const run = await runEngine({
      baseUrl: standIn.url, cwd: project, hooks: 'none', home, cap: CAP, timeoutMs: 100_000,
      prompt: 'Read the file.', extraEnv: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', ...env },
    });
    const after = standIn.observations.find((o) => o.turn === 1);
    const result = after?.results[0];
    const shown = result && !result.isError ? result.content.split('\n').filter((l) => /^\d+\t/.test(l)).length : 0;
    const refused = Boolean(result?.isError && /exceeds maximum allowed tokens/.test(result.content));
    return { code: run.code, shown, refused, context: after?.context ?? '' };
  } finally {
    await standIn.close();
  }
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** This checkout's `read-ceiling-pager` command, as a user runs it. */
const pager = (args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
  run(process.execPath, [join(REPO, 'bin/read-ceiling-pager.js'), ...args], cwd, env);

/** The session's Read was clamped, not refused, and the pager's note reached the model. */
function expectClamped(r: Awaited<ReturnType<typeof session>>) {
  expect(r.code).toBe(0);
  expect(r.refused).toBe(false);
  expect(r.shown).toBeGreaterThan(0);
  expect(r.shown).toBeLessThan(ASKED);
  expect(r.context).toContain('PostToolUse:Read hook additional context: read-ceiling-pager:');
}

describe('installed, the real engine clamps a Read that would exceed the cap', () => {
  it('without the pager the engine refuses the window (the baseline these tests rely on)', async () => {
    const { home, project, file } = freshHome('baseline');
    const r = await session(home, project, file);
    expect(r.code).toBe(0);
    expect(r.refused).toBe(true);
  }, 120_000);

  it('via `read-ceiling-pager install` into ~/.claude/settings.json', async () => {
    const { home, project, file, env } = freshHome('settings');
    expect(pager(['install'], project, env).code).toBe(0);
    expectClamped(await session(home, project, file));
  }, 120_000);

  // The engine's Claude directory is CLAUDE_CONFIG_DIR when set (docs/ENGINE.md §8.1): `install` writes there, and
  // nothing into ~/.claude.
  it('via `read-ceiling-pager install` with CLAUDE_CONFIG_DIR set: into that directory\'s settings.json', async () => {
    const { home, project, file, env } = freshHome('config-dir');
    const config = join(home, 'elsewhere', 'claude');
    expect(pager(['install'], project, { ...env, CLAUDE_CONFIG_DIR: config }).code).toBe(0);
    expect(existsSync(join(config, 'settings.json'))).toBe(true);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(false);
    const doctor = pager(['doctor'], project, { ...env, CLAUDE_CONFIG_DIR: config });
    expect(doctor.out).toContain(`wired  user settings ${join(config, 'settings.json')}`);
    expectClamped(await session(home, project, file, { CLAUDE_CONFIG_DIR: config }));
  }, 120_000);

  it('via the marketplace: `claude plugin marketplace add <clone>` then `claude plugin install`', async () => {
    const { home, project, file, env } = freshHome('plugin');
    const clone = join(home, 'clone');
    // A plain clone of what is committed: the plugin must run with no build step.
    expect(run('git', ['clone', '-q', '--depth', '1', `file://${REPO}`, clone], home, env).code).toBe(0);
    expect(run(ENGINE[0]!, [...ENGINE.slice(1), 'plugin', 'marketplace', 'add', clone], project, env)).toMatchObject({ code: 0 });
    const installed = run(ENGINE[0]!, [...ENGINE.slice(1), 'plugin', 'install', 'read-ceiling-pager@read-ceiling-pager'], project, env);
    expect(installed.out).toContain('Successfully installed plugin: read-ceiling-pager@read-ceiling-pager');
    // doctor finds the plugin where the engine recorded it (installed_plugins.json, docs/ENGINE.md §8.2).
    const doctor = pager(['doctor'], project, env);
    expect(doctor.out).toContain('wired  plugin read-ceiling-pager@read-ceiling-pager: node ${CLAUDE_PLUGIN_ROOT}/dist/cli.cjs pre');
    expectClamped(await session(home, project, file));
    // State goes to the plugin's data directory, which survives plugin updates.
    const data = join(home, '.claude', 'plugins', 'data', 'read-ceiling-pager-read-ceiling-pager', 'state');
    expect(existsSync(data) && readdirSync(data).some((f) => f.endsWith('.json'))).toBe(true);
  }, 180_000); // plugin install copies the clone and the session may take 10+ s (docs/ENGINE.md §7.8)
});
