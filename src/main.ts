// Everything but the commonest hook run, in its own bundle (dist/main.cjs): cli.ts loads it only when a Read is
// not of a small file, a gate is on, or a command was typed. The commands and commander load only for a command
// (esbuild keeps a required module unevaluated until it is required).
export { runHook } from './hooks/io.js';

export function main(argv: string[]): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./commands/program.js') as typeof import('./commands/program.js')).main(argv);
}
