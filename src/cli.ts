// Entry point. The hooks run on every Read, so they skip the command-line parser entirely; every other
// command loads commander on demand (esbuild keeps a required module unevaluated until it is required).
import { isatty } from 'node:tty';
import { runHook } from './hooks/io.js';

const command = process.argv[2];
if ((command === 'pre' || command === 'post') && process.argv.length === 3 && !isatty(0)) {
  runHook(command);
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./commands/program.js') as typeof import('./commands/program.js')).main(process.argv);
}
