// Which opt-in gates a hook process runs: `--gates a,b` on the hook command and READ_CEILING_PAGER_GATES, joined.
// Imported by cli.ts on every hook run, so it is string work only: no schema, no file system.

export const GATES = ['covered-reread', 'edit-after-reject', 'rejected-calls'] as const;
export type Gate = (typeof GATES)[number];
export const GATES_ENV = 'READ_CEILING_PAGER_GATES';
/** The gates that act on tools other than Read, so need the gate hook on them. */
export const GATES_ON_OTHER_TOOLS: readonly Gate[] = ['edit-after-reject', 'rejected-calls'];

/** The gates a hook command line and environment switch on, or undefined when the arguments after the hook
 * name are not a `--gates` option (then the command is not a hook invocation). Unknown gate names are ignored,
 * so a newer settings file never breaks an older pager. */
export function hookGates(args: readonly string[], env: NodeJS.ProcessEnv): Set<Gate> | undefined {
  const gates = new Set<Gate>();
  if (args.length === 1 && args[0]!.startsWith('--gates=')) addList(gates, args[0]!.slice('--gates='.length));
  else if (args.length === 2 && args[0] === '--gates') addList(gates, args[1]!);
  else if (args.length !== 0) return undefined;
  const fromEnv = env[GATES_ENV];
  if (fromEnv) addList(gates, fromEnv);
  return gates;
}

function addList(into: Set<Gate>, list: string): void {
  for (const name of list.split(',')) {
    const g = name.trim();
    if ((GATES as readonly string[]).includes(g)) into.add(g as Gate);
  }
}
