// `doctor`: gathers what decides whether the pager runs (settings files, plugins, cap, state directory, engine)
// and hands it to the pure checks in install/diagnosis.ts. Reads only; writes nothing.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { CAP_ENV, resolveCap } from '../estimate/cap.js';
import { GATES_ENV } from '../gates/names.js';
import {
  bundleOf, engineFinding, exitCode, gateFindings, nodeFinding, pagerInvocations, pagerWirings, render, rivalFindings,
  memoryFinding, rivalPreHooks, traceFinding, wiringFindings,
  type Finding, type Source,
} from '../install/diagnosis.js';
import { claudeConfigDir, installedPluginsFile, SCOPE_LABEL, SCOPES, settingsFile } from '../install/paths.js';
import { parseSettings } from '../settings/format.js';
import { hookCommands, isObject, isPagerCommand, type Json } from '../settings/hooks.js';
import { isPagerBundle } from '../install/identify.js';
import { TRACE_ENV, TRACE_MAX_BYTES } from '../hooks/trace.js';
import { MEMORY_FILE, StateStore, stateDir } from '../state/store.js';
import { VERSION } from './version.js';

const PLUGIN_NAME = 'read-ceiling-pager';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('say whether the pager will run and how: Node, where it is wired, rival Read hooks, the cap, the state directory, the engine')
    .option('--project-dir <dir>', 'the project whose .claude/ settings to check', process.cwd())
    .addHelpText('after', '\nExits 1 when something would stop the pager from running.\n\nExample:\n  read-ceiling-pager doctor --project-dir ~/src/my-repo')
    .action((opts: { projectDir: string }) => {
      const findings = diagnose(process.env, resolve(opts.projectDir));
      process.stdout.write(`read-ceiling-pager ${VERSION}\n${render(findings)}`);
      process.exitCode = exitCode(findings);
    });
}

function diagnose(env: NodeJS.ProcessEnv, projectDir: string): Finding[] {
  const findings: Finding[] = [nodeFinding(process.version)];

  // Lowest precedence first: later sources override earlier ones, as the engine merges them.
  const files: Array<{ label: string; path: string }> = [];
  for (const scope of SCOPES) {
    const path = settingsFile(scope, env, projectDir);
    // In the home directory the project settings file is the user's: count it once.
    if (!files.some((f) => f.path === path)) files.push({ label: `${SCOPE_LABEL[scope]} ${path}`, path });
  }
  const managed = managedSettingsPath();
  if (managed) files.push({ label: `managed settings ${managed}`, path: managed });
  const sources: Source[] = files.map(({ label, path }) => readSource(label, path, 'settings'));
  for (const s of sources) {
    if (s.parseError) findings.push({ level: 'warn', topic: 'config', text: `${s.label} cannot be read: ${s.parseError}; Claude Code cannot use it either` });
  }

  const settingsObjects = sources.map((s) => (isObject(s.settings) ? s.settings : {}));
  const enabled = new Map<string, boolean>();
  for (const s of settingsObjects) {
    if (!isObject(s.enabledPlugins)) continue;
    for (const [id, on] of Object.entries(s.enabledPlugins)) enabled.set(id, on === true);
  }
  const installed = installedPlugins(env);
  const missing: Array<{ source: string; path: string }> = [];
  const pluginDataDirs: string[] = [];
  for (const [id, on] of enabled) {
    const installPath = installed.get(id);
    if (!on || !installPath) continue;
    const label = `plugin ${id}`;
    sources.push(readSource(label, join(installPath, 'hooks', 'hooks.json'), 'plugin'));
    if (id.startsWith(`${PLUGIN_NAME}@`)) {
      if (!existsSync(join(installPath, 'dist', 'cli.cjs'))) missing.push({ source: label, path: join(installPath, 'dist', 'cli.cjs') });
      pluginDataDirs.push(join(claudeConfigDir(env), 'plugins', 'data', id.replace('@', '-').replace(/[^A-Za-z0-9_.-]/g, '-'), 'state'));
    }
  }

  const known = pagerInvocations(sources.flatMap((s) => hookCommands(s.settings ?? null)), isPagerBundle);
  const wirings = pagerWirings(sources, known);
  for (const w of wirings) {
    const bundle = bundleOf(w.command);
    if (bundle && !existsSync(bundle) && !missing.some((m) => m.path === bundle)) {
      missing.push({ source: w.source, path: bundle });
    }
  }
  const disabledBy = sources.find((s) => s.kind === 'settings' && isObject(s.settings) && s.settings.disableAllHooks === true);
  findings.push(...wiringFindings({ wirings, missing, hooksDisabledBy: disabledBy?.label }));
  if (wirings.some((w) => /(^|\s)npx\s/.test(w.command))) {
    findings.push({ level: 'warn', topic: 'wired', text: 'through npx, which resolves the package on every Read (see docs/INSTALL.md); run: read-ceiling-pager install' });
  }
  findings.push(...rivalFindings(rivalPreHooks(sources, known)));

  // The cap and the gates: settings `env` blocks reach the engine and its hooks, over the shell's environment.
  const capSetting = envSetting(CAP_ENV, env, settingsObjects, sources);
  const cap = resolveCap(capSetting ? { ...env, [CAP_ENV]: capSetting.value } : env);
  findings.push({
    level: 'ok',
    topic: 'cap',
    text: cap.from === 'env'
      ? `${cap.cap} tokens (${CAP_ENV} from ${capSetting?.from ?? 'the environment'})`
      : `${cap.cap} tokens (the engine's default; ${CAP_ENV} is not set). A session the engine runs at another cap is learned from its first refusal`,
  });
  findings.push(...gateFindings({
    env: envSetting(GATES_ENV, env, settingsObjects, sources),
    wirings,
    gateHookSources: sources.filter((s) => hookCommands(s.settings ?? null).some((c) => isPagerCommand(c, 'gate', known)
      || (s.kind === 'plugin' && s.label.startsWith(`plugin ${PLUGIN_NAME}@`) && /\sgate\s*$/.test(c)))).map((s) => s.label),
  }));

  const dirs = new Set<string>();
  if (wirings.some((w) => !w.source.startsWith('plugin ')) || wirings.length === 0) dirs.add(stateDir(env));
  for (const d of pluginDataDirs) dirs.add(env.READ_CEILING_PAGER_STATE_DIR || d);
  for (const dir of dirs) {
    const problem = unwritable(dir);
    findings.push(problem
      ? { level: 'warn', topic: 'state', text: `${dir} is not writable (${problem}): the pager still clamps, but cannot link a note to the clamp that caused it` }
      : { level: 'ok', topic: 'state', text: `${dir} (writable)` });
    const memoryFile = join(dir, MEMORY_FILE);
    const memory = existsSync(memoryFile) ? new StateStore(dir, Date.now() + 1000).readMemory() : undefined;
    findings.push(memoryFinding(memoryFile, memory, Date.now()));
  }

  const trace = envSetting(TRACE_ENV, env, settingsObjects, sources);
  findings.push(traceFinding(trace, trace ? traceFile(trace.value) : 'missing', TRACE_MAX_BYTES));

  const engine = spawnSync('claude', ['--version'], { encoding: 'utf8', timeout: 15_000, env });
  const version = engine.status === 0 ? /\d+\.\d+\.\d+\S*/.exec(engine.stdout)?.[0] : undefined;
  findings.push(engineFinding(version));
  return findings;
}

/** A variable as the hooks see it: a settings file's `env` (the last, by precedence) over the shell's. */
function envSetting(
  name: string, env: NodeJS.ProcessEnv, settings: readonly Json[], sources: readonly Source[],
): { value: string; from: string } | undefined {
  for (let i = settings.length - 1; i >= 0; i--) {
    const s = settings[i]!;
    const block = isObject(s) ? s.env : undefined;
    if (isObject(block) && typeof block[name] === 'string') return { value: block[name], from: `"env" in ${sources[i]!.label}` };
  }
  return env[name] ? { value: env[name], from: 'the environment' } : undefined;
}

function readSource(label: string, path: string, kind: Source['kind']): Source {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { label, settings: undefined, kind };
    return { label, settings: undefined, parseError: (err as Error).message, kind };
  }
  const parsed = parseSettings(text);
  return parsed.ok
    ? { label, settings: parsed.settings, kind }
    : { label, settings: undefined, parseError: parsed.reason, kind };
}

/** `name@marketplace` → install path, from the engine's own record of installed plugins. */
function installedPlugins(env: NodeJS.ProcessEnv): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const json = JSON.parse(readFileSync(installedPluginsFile(env), 'utf8')) as Json;
    const plugins = isObject(json) && isObject(json.plugins) ? json.plugins : {};
    for (const [id, entries] of Object.entries(plugins)) {
      const list = Array.isArray(entries) ? entries : [entries];
      const first = list.find((e) => isObject(e) && typeof e.installPath === 'string');
      if (first && isObject(first)) out.set(id, first.installPath as string);
    }
  } catch { /* no plugins installed */ }
  return out;
}

function managedSettingsPath(): string | undefined {
  if (process.platform === 'linux') return '/etc/claude-code/managed-settings.json';
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (process.platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return undefined;
}

/** The trace file as the hooks would meet it: its size, missing (and creatable), or why no line would land. */
function traceFile(path: string): { size: number } | 'missing' | { problem: string } {
  try {
    const st = lstatSync(path);
    if (!st.isFile()) return { problem: st.isSymbolicLink() ? 'it is a symbolic link (never followed)' : 'it is not a regular file' };
    accessSync(path, constants.W_OK);
    return { size: st.size };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return { problem: code === 'EACCES' ? 'no write permission' : (err as Error).message };
  }
  // The hook creates the file, never its folder.
  try {
    if (!statSync(dirname(path)).isDirectory()) return { problem: `${dirname(path)} is not a directory` };
    accessSync(dirname(path), constants.W_OK | constants.X_OK);
    return 'missing';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? `${dirname(path)} does not exist` : code === 'EACCES' ? `no write permission on ${dirname(path)}` : (err as Error).message };
  }
}

/** Why the pager could not write state under `dir`, or undefined when it can (or can create it). */
function unwritable(dir: string): string | undefined {
  let probe = dir;
  for (;;) {
    try {
      const st = statSync(probe);
      if (!st.isDirectory()) return `${probe} is not a directory`;
      accessSync(probe, constants.W_OK | constants.X_OK);
      return undefined;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return code === 'EACCES' ? `no write permission on ${probe}` : (err as Error).message;
    }
    const parent = dirname(probe);
    if (parent === probe) return 'no existing parent directory';
    probe = parent;
  }
}
