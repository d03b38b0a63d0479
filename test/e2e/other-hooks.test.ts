// Another hook's note beside ours, on the real engine: a project may run other PostToolUse hooks on Read (a linter,
// a policy plugin) whose additionalContext joins every result in the model's next request. The engine records each
// as a `hook_additional_context` attachment (docs/ENGINE.md §9.5); the usage the pager learns a file's density from
// holds its tokens too. Read as the window's own text, they would size every later window short.
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { pagerSettings, removeTempDirs, tempDir } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 240_000;
/** About 6,000 characters, 1,200 tokens, after every Read: 5% of the cap. */
const LINT_NOTE = `lint: ${'the file follows the project style guide; no action is needed for this read. '.repeat(75)}`;

/** The example settings, with another PostToolUse hook on Read that adds `note` to every result. */
function withLintHook(note = LINT_NOTE) {
  const settings = pagerSettings();
  const output = { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: note } };
  const command = `node -e 'process.stdout.write(${JSON.stringify(JSON.stringify(output))})'`;
  settings.hooks.PostToolUse.push({ matcher: 'Read', hooks: [{ type: 'command', command, timeout: 10 }] });
  return settings;
}

const TEXT = prose(6_000, 31);
/** A session that reads TEXT in windows of 6,000 lines, following the notes, with these settings. */
function session(settings: unknown) {
  const dir = tempDir('other-hooks');
  const path = put(dir, 'prose.txt', TEXT);
  return readSession({
    cwd: dir, hooks: 'pager', settings, usage: true, thinkMs: 500, targets: [{ path, offset: 1, limit: 6_000 }],
  }).then((s) => ({ s, path }));
}
type Run = Awaited<ReturnType<typeof session>>;
let plainRun: Promise<Run> | undefined;
const plain = () => (plainRun ??= session(undefined));

/** The windows the usage sizes are as full with the other hook's note as without it, and nothing is lost. */
function asFullAsWithout(without: Run, linted: Run, note: string) {
  for (const { s, path } of [without, linted]) {
    expect(s.ok, s.run.stderr).toBe(true);
    const cov = coverage(path, s.cursor(path).received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated) }).toEqual({ missing: '', duplicated: '' });
  }
  const steps = (r: Run) => r.s.cursor(r.path).steps;
  // The model saw the other hook's note after each Read: the case is what it claims to be.
  expect(linted.s.observations.some((o) => JSON.stringify(o).includes(note))).toBe(true);
  expect(steps(linted).every((st) => !st.isError)).toBe(true);
  // The second window is the first that the usage sizes (the first is sized by the estimate alike).
  const [a, b] = [without, linted].map((r) => steps(r)[1]!);
  expect(steps(linted)[0]!.lines.length).toBe(steps(without)[0]!.lines.length);
  expect(b!.lines[0]![0]).toBe(a!.lines[0]![0]);
  expect(b!.lines.length).toBeGreaterThan(a!.lines.length * 0.99);
}

describe('another hook\'s note beside ours', () => {
  it('is not read as the window\'s text: the windows the usage sizes are as full as without it', async () => {
    const [without, linted] = await Promise.all([plain(), session(withLintHook())]);
    asFullAsWithout(without, linted, 'lint: the file follows');
  }, ENGINE_TIMEOUT);

  // Over 10,000 characters, the engine saves a hook's note to a file and shows the model a preview of about 2 KB
  // (docs/ENGINE.md §7.4, §9.5): what the record holds, and what the usage holds, is that preview.
  it('over 10,000 characters, as the preview the model read', async () => {
    const long = `lint report: ${'line 12: prefer const over let where the binding is never reassigned. '.repeat(180)}`;
    expect(long.length).toBeGreaterThan(12_000);
    const [without, linted] = await Promise.all([plain(), session(withLintHook(long))]);
    asFullAsWithout(without, linted, 'lint report: line 12');
    // The model got the preview, not the whole note.
    const seen = linted.s.observations.map((o) => o.context).find((c) => c.includes('lint report: line 12'))!;
    expect(seen).toContain('persisted-output');
    expect(seen.length).toBeLessThan(long.length);
  }, ENGINE_TIMEOUT);
});
