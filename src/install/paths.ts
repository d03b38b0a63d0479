// Where Claude Code keeps the settings files the pager can be wired in, and how `install` finds itself.
import { homedir } from 'node:os';
import { join } from 'node:path';

export type Scope = 'user' | 'project' | 'local';
export const SCOPES: readonly Scope[] = ['user', 'project', 'local'];

/** The user's Claude directory: `CLAUDE_CONFIG_DIR` when set, as the engine does, else `~/.claude`. The engine
 * takes the variable as one folder (docs/ENGINE.md §9); this is the only place the pager reads it. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

/** Every Claude directory that may hold transcripts: the engine's, and when `CLAUDE_CONFIG_DIR` is unset, also
 * `~/.config/claude`, where older engines kept them. */
export function claudeConfigDirs(env: NodeJS.ProcessEnv): string[] {
  return env.CLAUDE_CONFIG_DIR ? [claudeConfigDir(env)] : [join(env.HOME || homedir(), '.config', 'claude'), claudeConfigDir(env)];
}

export function settingsFile(scope: Scope, env: NodeJS.ProcessEnv, projectDir: string): string {
  switch (scope) {
    case 'user': return join(claudeConfigDir(env), 'settings.json');
    case 'project': return join(projectDir, '.claude', 'settings.json');
    case 'local': return join(projectDir, '.claude', 'settings.local.json');
  }
}

export const SCOPE_LABEL: Record<Scope, string> = {
  user: 'user settings',
  project: 'project settings',
  local: 'local project settings',
};

/** The installed plugins the engine records, by `name@marketplace`. */
export function installedPluginsFile(env: NodeJS.ProcessEnv): string {
  return join(claudeConfigDir(env), 'plugins', 'installed_plugins.json');
}

/** A bundle that lives in npm's npx cache is gone after `npm cache clean`; hooks should not point there. */
export function isEphemeralPath(path: string): boolean {
  return /[/\\]_npx[/\\]/.test(path);
}
