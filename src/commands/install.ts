// `install` / `uninstall`: wire the three hook entries into one Claude Code settings file, or take them out.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { pagerInvocations } from '../install/diagnosis.js';
import { bundlePath, isPagerBundle } from '../install/identify.js';
import { isEphemeralPath, SCOPE_LABEL, SCOPES, settingsFile, type Scope } from '../install/paths.js';
import { readSettingsText, writeSettingsText } from '../install/settings-file.js';
import { unifiedDiff } from '../settings/diff.js';
import { formatSettings, parseSettings } from '../settings/format.js';
import {
  execLine, hookCommands, mergePagerHooks, nodeExec, pagerExec, PAGER_EVENTS, PAGER_TIMEOUT_S, removePagerHooks,
  shapeProblem,
  type JsonObject,
} from '../settings/hooks.js';

/** The gates' bundle (dist/gates.cjs, beside this one), which holds `install --gates`; undefined if missing. */
function gatesModule(): typeof import('../gates/run.js') | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(`${__dirname}/gates.cjs`) as typeof import('../gates/run.js');
  } catch {
    return undefined;
  }
}

interface Options { scope: Scope; dryRun?: boolean; node: string; projectDir: string; gates?: string }

export function registerInstall(program: Command): void {
  const scope = () => new Option('--scope <scope>', 'which settings file: user (~/.claude/settings.json), project (.claude/settings.json) or local (.claude/settings.local.json)')
    .choices(SCOPES as Scope[]).default('user');
  const projectDir = () => new Option('--project-dir <dir>', 'the project whose .claude/ folder project and local scopes use').default(process.cwd(), 'the current directory');

  program
    .command('install')
    .description('wire the pager\'s PreToolUse, PostToolUse and PostToolUseFailure hooks on Read into a Claude Code settings file')
    .addOption(scope())
    .option('--dry-run', 'show the change as a diff and write nothing')
    .option('--node <path>', 'the node the hooks run with: "node" finds it on the PATH the engine runs hooks with; an absolute path pins one', 'node')
    .addOption(projectDir())
    .option('--gates <list>', 'opt-in gates to switch on, comma-separated: covered-reread, edit-after-reject, rejected-calls (README, "Opt-in gates")')
    .addHelpText('after', [
      '',
      'The hooks run this installation\'s bundle directly, in exec form ("command": "node", "args": ["<path>/dist/cli.cjs", "pre"]):',
      'no shell, and no npx lookup on every Read. Entries of an earlier install in command form are replaced.',
      'With --gates, edit-after-reject and rejected-calls also add a PreToolUse hook on the tools that can ask the user.',
      'Installing again without --gates switches every gate off.',
      'Every other key and hook in the file stays as it was; the old file is kept next to it as *.read-ceiling-pager.bak.',
      '',
      'Examples:',
      '  read-ceiling-pager install                        # ~/.claude/settings.json',
      '  read-ceiling-pager install --scope project --dry-run',
      '  read-ceiling-pager install --gates covered-reread,edit-after-reject',
    ].join('\n'))
    .action((opts: Options) => { process.exitCode = install(opts); });

  program
    .command('uninstall')
    .description('remove the pager\'s hook entries from a Claude Code settings file, and nothing else')
    .addOption(scope())
    .option('--dry-run', 'show the change as a diff and write nothing')
    .addOption(projectDir())
    .addHelpText('after', '\nExamples:\n  read-ceiling-pager uninstall\n  read-ceiling-pager uninstall --scope local --dry-run')
    .action((opts: Omit<Options, 'node'>) => { process.exitCode = uninstall(opts); });
}

function install(opts: Options): number {
  const bundle = bundlePath();
  const invocation = nodeExec(opts.node, bundle);
  // An entry from an earlier install of this or another copy is updated in place, not duplicated.
  const g = gatesModule();
  const parsed = opts.gates === undefined ? [] : g ? g.parseGateList(opts.gates) : 'this installation has no dist/gates.cjs';
  if (typeof parsed === 'string') {
    process.stderr.write(`read-ceiling-pager: --gates ${opts.gates}: ${parsed}. Nothing was changed.\n`);
    return 1;
  }
  const gates = parsed;
  return edit(opts, 'install', (settings) => {
    const known = pagerInvocations(hookCommands(settings), isPagerBundle);
    const merged = mergePagerHooks(settings, invocation, undefined, known, gates);
    // The gate hook is written only when a gate needs it; installing without --gates takes an earlier one out.
    return g ? g.withGateHook(merged, invocation, PAGER_TIMEOUT_S, known, gates) : merged;
  }, () => {
    const lines = PAGER_EVENTS.map(([event, hook]) => `  ${event.padEnd(18)} Read  ${execLine(pagerExec(invocation, hook, gates))}`);
    if (g?.needsGateHook(gates)) lines.push(`  ${'PreToolUse'.padEnd(18)} ${g.GATE_MATCHER}  ${execLine(pagerExec(invocation, 'gate', gates))}`);
    lines.push('each in exec form ("command" and "args"): the engine starts the program with no shell.');
    if (isEphemeralPath(bundle)) {
      process.stderr.write(
        'Warning: this copy of read-ceiling-pager runs from npm\'s npx cache, which `npm cache clean` deletes; the hooks\n'
        + 'would then stop running. Install it for good (npm install -g read-ceiling-pager) and run install from there.\n',
      );
    }
    return lines;
  });
}

function uninstall(opts: Omit<Options, 'node'>): number {
  const invocation = execLine(nodeExec('node', bundlePath()));
  return edit(opts, 'uninstall', (settings) => removePagerHooks(settings, [invocation, ...pagerInvocations(hookCommands(settings), isPagerBundle)]), () => []);
}

function edit(
  opts: Omit<Options, 'node'>,
  verb: 'install' | 'uninstall',
  change: (settings: JsonObject) => { settings: JsonObject; changed: boolean },
  describe: () => string[],
): number {
  const file = settingsFile(opts.scope, process.env, resolve(opts.projectDir));
  const where = `${SCOPE_LABEL[opts.scope]} (${file})`;
  let before: string | undefined;
  try {
    before = readSettingsText(file);
  } catch (err) {
    process.stderr.write(`read-ceiling-pager: cannot read ${file}: ${(err as Error).message}\n`);
    return 1;
  }
  const parsed = parseSettings(before);
  const problem = parsed.ok ? shapeProblem(parsed.settings) : parsed.reason;
  if (!parsed.ok || problem) {
    process.stderr.write(
      `read-ceiling-pager: will not ${verb}: ${file} cannot be edited safely: ${problem}.\n`
      + 'Nothing was changed. Fix the file (Claude Code cannot use it as it is either), then run this again.\n',
    );
    return 1;
  }
  const result = change(parsed.settings);
  const after = formatSettings(result.settings, parsed.style);
  if (!result.changed || after === before) {
    process.stdout.write(verb === 'install'
      ? `read-ceiling-pager is already installed in ${where}: nothing changed.\n`
      : `read-ceiling-pager is not installed in ${where}: nothing changed.\n`);
    return 0;
  }
  if (opts.dryRun) {
    process.stdout.write(unifiedDiff(before ?? '', after, before === undefined ? '/dev/null' : file, file));
    process.stdout.write(`Dry run: ${file} was not changed.\n`);
    return 0;
  }
  let backup: string | undefined;
  try {
    backup = writeSettingsText(file, after);
  } catch (err) {
    process.stderr.write(`read-ceiling-pager: cannot write ${file}: ${(err as Error).message}\nNothing was changed.\n`);
    return 1;
  }
  const lines = verb === 'install'
    ? [`Installed read-ceiling-pager in ${where}:`, ...describe(), 'Claude Code sessions started from now on run it. Check with: read-ceiling-pager doctor']
    : [`Removed read-ceiling-pager from ${where}.`];
  if (backup) lines.push(`The previous file is saved as ${backup}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
