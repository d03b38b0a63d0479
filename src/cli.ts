// Entry point. The hooks run on every Read, so they skip the command-line parser entirely; every other
// command loads commander on demand (esbuild keeps a required module unevaluated until it is required).
import { fstatSync } from 'node:fs';
import { runHook } from './hooks/io.js';

/** A person typed the command (stdin is a terminal, or nothing): explain rather than wait. Cheaper than
 * node:tty, which loads the network stack on every Read. */
function stdinIsTerminal(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true;
  }
}

const command = process.argv[2];
if ((command === 'pre' || command === 'post') && process.argv.length === 3 && !stdinIsTerminal()) {
  runHook(command);
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./commands/program.js') as typeof import('./commands/program.js')).main(process.argv);
}
