// The hooks beyond the commonest Read, in their own bundle (dist/main.cjs): cli.ts loads it only when a Read is not
// of a small file or a gate is on. The commands and commander are dist/commands.cjs, loaded only for a command, so
// a hook never pays to parse them.
export { runHook } from './hooks/io.js';
