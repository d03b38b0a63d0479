// Entry point, and the whole of the small bundle every Read pays to load (dist/cli.cjs): a hook reads its input here,
// and a Read of a file too small for any window of it to be refused is answered (with silence) after one stat (and,
// for a file over the floor at the smallest cap but not at the default, a read of the cap the session knows). The
// rest of the hooks are dist/main.cjs, loaded only when needed; the opt-in gates dist/gates.cjs, loaded only when a
// gate is on; the commands and commander dist/commands.cjs, loaded only for a command.
import { fstatSync } from 'node:fs';
import { isHookName, type HookName } from './hooks/output.js';
import { quietNotLines, quietPost, tooSmallToMatter } from './hooks/small.js';
import { readStdin, SCAN_DEADLINE_MS } from './hooks/stdin.js';
import { tracePath } from './hooks/trace.js';
import { loadBundle } from './state/code-cache.js';

type Main = typeof import('./main.js');
type Commands = typeof import('./commands/program.js');
/** A hook's bundle, from the compiled code kept for it (state/code-cache.ts); the code this run compiled is kept
 * when it exits, if there was none. */
function loadHookBundle<T>(name: string): T {
  const bundle = loadBundle(`${__dirname}/${name}`, process.env);
  process.once('exit', bundle.save);
  return bundle.exports as T;
}
const loadMain = (): Main => loadHookBundle<Main>('main.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadCommands = (): Commands => require(`${__dirname}/commands.cjs`) as Commands;

/** A person typed the command at a terminal: explain rather than wait. Anything else on stdin (a pipe, a
 * socket, a file, a device, or a descriptor fstat cannot read, as Windows gives for some redirections) is a
 * hook input to read; reading it fails open. fstat first, since node:tty loads the network stack: it is
 * consulted only for a character device, which a hook never gets from the engine (/dev/null and NUL are
 * character devices too, and no terminal). */
function stdinIsTerminal(): boolean {
  try {
    if (!fstatSync(0).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:tty') as typeof import('node:tty')).isatty(0);
}

const command = process.argv[2];
const isHook = isHookName(command);
if (isHook && process.argv.length === 3 && !process.env.READ_CEILING_PAGER_GATES && !stdinIsTerminal()) {
  runPlainHook(command);
} else if (isHook && !stdinIsTerminal() && hookWithGates(command)) {
  // ran with the gates the command line or the environment named
} else {
  loadCommands().main(process.argv);
}

/** A hook with no gate on. `gate` then has nothing to do; `pre` and `post` of a small file, nothing to say (unless
 * traced), but for a window of it that came back short. */
function runPlainHook(hook: HookName): void {
  process.exitCode = 0;
  if (hook === 'gate') return;
  const started = Date.now();
  const raw = readStdin(started + SCAN_DEADLINE_MS);
  if (raw !== undefined && !tracePath(process.env) && smallRead(hook, raw)) return;
  try {
    loadMain().runHook(hook, undefined, { raw, started });
  } catch {
    // fail open: the Read runs as asked
  }
}

function smallRead(hook: HookName, raw: string): boolean {
  try {
    const json: unknown = JSON.parse(raw);
    if (quietNotLines(json)) return true;
    if (hook === 'pre') return tooSmallToMatter(json, process.env);
    return hook === 'post' && quietPost(json, process.env);
  } catch {
    return false;
  }
}

/** A hook with `--gates a,b` or READ_CEILING_PAGER_GATES: the gates' code is a bundle of its own
 * (dist/gates.cjs), loaded only here, so with no gate on the hooks load and run exactly as before. False when
 * the arguments are not a hook's. */
function hookWithGates(hook: HookName): boolean {
  let run: typeof import('./gates/run.js');
  try {
    run = loadHookBundle<typeof import('./gates/run.js')>('gates.cjs');
  } catch {
    loadMain().runHook(hook); // fail open: no gates rather than no pager
    return true;
  }
  const on = run.hookGates(process.argv.slice(3), process.env);
  if (!on) return false;
  loadMain().runHook(hook, on.size > 0 ? { on, run } : undefined);
  return true;
}
