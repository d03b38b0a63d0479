// Runs the real engine headless on a scripted session and returns where its transcripts went.
// Clean environment (ENGINE.md §11): a fresh HOME, the stand-in as the API, no CLAUDE* from outside.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStandIn } from './standin.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CLAUDE = join(root, 'node_modules/.bin/claude');
export const PAGER = join(root, 'bin/read-ceiling-pager.js');

export function pagerSettings() {
  const hook = (arg) => [{ matcher: 'Read', hooks: [{ type: 'command', command: `node ${PAGER} ${arg}`, timeout: 10 }] }];
  return { hooks: { PreToolUse: hook('pre'), PostToolUse: hook('post'), PostToolUseFailure: hook('post') } };
}

/**
 * @param {{home: string, cwd: string, script: any[], pager: boolean | 'plugin', cap?: number, tokensPerChar?: number}} o
 */
export async function runSession(o) {
  mkdirSync(o.home, { recursive: true });
  mkdirSync(o.cwd, { recursive: true });
  const server = await startStandIn(o.script, { tokensPerChar: o.tokensPerChar });
  try {
    const args = ['-p', 'Read the files.', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read'];
    if (o.pager === 'plugin') {
      args.push('--plugin-dir', root);
    } else if (o.pager) {
      const settings = join(o.home, 'pager-settings.json');
      writeFileSync(settings, JSON.stringify(pagerSettings()));
      args.push('--settings', settings);
    }
    const env = {
      HOME: o.home,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-test-standin',
      XDG_STATE_HOME: join(o.home, '.state'),
    };
    if (o.cap) env.CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS = String(o.cap);
    const child = spawn(CLAUDE, args, { cwd: o.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const code = await new Promise((res) => child.on('close', res));
    return { code, stdout, stderr, projects: join(o.home, '.claude', 'projects'), messages: server.seen() };
  } finally {
    await server.close();
  }
}
