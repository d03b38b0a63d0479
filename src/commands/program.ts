// The command-line program for people: every command but the two hooks' fast path comes through here.
import { Command, CommanderError } from 'commander';
import { registerAudit } from './audit.js';
import { registerDoctor } from './doctor.js';
import { registerEstimate } from './estimate.js';
import { registerInstall } from './install.js';
import { VERSION } from './version.js';

export function buildProgram(): Command {
  const program = new Command('read-ceiling-pager')
    .description('Claude Code Read hooks: clamp a Read window to the token cap before the engine refuses it, and tell the model where to continue.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError()
    .addHelpText('after', '\nExamples:\n  read-ceiling-pager install --scope project\n  read-ceiling-pager estimate src/big.ts --offset 1 --limit 3000\n  read-ceiling-pager doctor');

  const hooks = [
    ['pre', 'the PreToolUse hook on Read', 'PreToolUse'],
    ['post', 'the PostToolUse and PostToolUseFailure hook on Read', 'PostToolUse'],
    ['gate', 'the PreToolUse hook on the tools an opt-in gate acts on (edit-after-reject, rejected-calls)', 'PreToolUse'],
  ] as const;
  for (const [name, what, event] of hooks) {
    program
      .command(name)
      .description(`${what}: reads the hook JSON on stdin, prints at most one JSON object`)
      .option('--gates <list>', 'opt-in gates, comma-separated: covered-reread, edit-after-reject, rejected-calls (also READ_CEILING_PAGER_GATES)')
      .addHelpText('after', `\nExample (as the engine runs it):\n  echo '{"hook_event_name":"${event}",…}' | read-ceiling-pager ${name}${name === 'gate' ? ' --gates rejected-calls' : ''}`)
      .action(() => {
        throw new CommanderError(1, 'hook.stdin', `read-ceiling-pager ${name} reads a hook's JSON on stdin; it is meant to be run by Claude Code (see settings.example.json).`);
      });
  }
  registerEstimate(program);
  registerInstall(program);
  registerDoctor(program);
  registerAudit(program);
  return program;
}

export function main(argv: string[]): void {
  // `read-ceiling-pager --help | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const program = buildProgram().exitOverride();
  try {
    program.parse(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'hook.stdin') process.stderr.write(`${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`read-ceiling-pager: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
