// Entry point. The hooks run on every Read, so they skip the command-line parser entirely; every other
// command loads commander on demand (esbuild keeps a required module unevaluated until it is required).
import { fstatSync } from 'node:fs';
import { runHook } from './hooks/io.js';
import { isHookName, type HookName } from './hooks/output.js';

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
  runHook(command);
} else if (isHook && !stdinIsTerminal() && hookWithGates(command)) {
  // ran with the gates the command line or the environment named
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./commands/program.js') as typeof import('./commands/program.js')).main(process.argv);
}

/** A hook with `--gates a,b` or READ_CEILING_PAGER_GATES: the gates' code is a bundle of its own
 * (dist/gates.cjs), loaded only here, so with no gate on the hooks load and run exactly as before. False when
 * the arguments are not a hook's. */
function hookWithGates(hook: HookName): boolean {
  let run: typeof import('./gates/run.js');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    run = require(`${__dirname}/gates.cjs`) as typeof import('./gates/run.js');
  } catch {
    runHook(hook); // fail open: no gates rather than no pager
    return true;
  }
  const on = run.hookGates(process.argv.slice(3), process.env);
  if (!on) return false;
  runHook(hook, on.size > 0 ? { on, run } : undefined);
  return true;
}
