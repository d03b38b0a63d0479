// Entry point. The hooks run on every Read, so they skip the command-line parser entirely; every other
// command loads commander on demand (esbuild keeps a required module unevaluated until it is required).
import { fstatSync } from 'node:fs';
import { hookGates } from './gates/names.js';
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
// Gates: `--gates a,b` after the hook name, or READ_CEILING_PAGER_GATES; parsed without commander.
const gates = command === 'pre' || command === 'post' || command === 'gate' ? hookGates(process.argv.slice(3), process.env) : undefined;
if (gates && (command === 'pre' || command === 'post' || command === 'gate') && !stdinIsTerminal()) {
  // The gates' code is loaded only when one is on: with none, the hooks run exactly as before.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  runHook(command, gates.size > 0 ? { on: gates, run: require('./gates/run.js') as typeof import('./gates/run.js') } : undefined);
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./commands/program.js') as typeof import('./commands/program.js')).main(process.argv);
}
