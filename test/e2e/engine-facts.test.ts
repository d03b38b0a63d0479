// Engine facts the hooks stand on that no other test checks on the real engine (docs/ENGINE.md): what a hook's input
// holds, and when the model's call is in the transcript. A recording hook on Read writes each event it gets, and
// whether the transcript held the call when it ran; a second PreToolUse hook cuts one window short, as another
// project's hook may. Checked on every engine of the matrix (`scripts/engines.json`), for the day one of them changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { pagerSettings, removeTempDirs, tempDir } from './harness/engine.mjs';
import { prose, proseOfSize, put } from './harness/files.mjs';
import { readSession, scriptSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 180_000;
/** The engine counts a window over this many characters (docs/ENGINE.md §3.2): the windows cut short here are. */
const CAP = 5000;

/** Appends the event on stdin to argv[2] as a line of JSON, with whether the transcript held the call when the hook
 * started (`atOnce`) and how many milliseconds it waited for it (-1: it never came in 2 s). */
const RECORDER = `
const fs = require('node:fs');
const event = JSON.parse(fs.readFileSync(0, 'utf8'));
const has = () => { try { return fs.readFileSync(event.transcript_path, 'utf8').includes(JSON.stringify(event.tool_use_id)); } catch { return false; } };
const atOnce = has();
const start = Date.now();
let waited = -1;
while (Date.now() - start < 2000) if (has()) { waited = Date.now() - start; break; }
fs.appendFileSync(process.argv[2], JSON.stringify({ ...event, atOnce, waited }) + '\\n');
`;
/** Cuts a window of 150 lines to 100 through updatedInput, every other field as it came. */
const CUTTER = `
const fs = require('node:fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8')).tool_input;
if (input.limit === 150) {
  const updatedInput = { ...input, limit: 100 };
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput } }));
}
`;

interface Recorded {
  hook_event_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
  tool_response?: { file?: { startLine: number; numLines: number } };
  atOnce: boolean;
  waited: number;
}

/** A hook entry that runs `script` (written into `dir`) with `node` and these arguments (the log's path unless
 * told), killed after `timeout` seconds. */
function scriptHook(dir: string, name: string, script: string, args = join(dir, 'events.jsonl'), timeout = 10) {
  writeFileSync(join(dir, name), script);
  return { type: 'command', command: `node ${join(dir, name)} ${args}`, timeout };
}

describe('what the hooks on Read are given', () => {
  it('coerced input before PreToolUse, the input that ran after it, and the call in the transcript', async () => {
    const dir = tempDir('facts');
    const path = put(dir, 'prose.txt', prose(200, 91));
    const record = scriptHook(dir, 'record.cjs', RECORDER);
    const settings = {
      hooks: {
        PreToolUse: [{ matcher: 'Read', hooks: [record, scriptHook(dir, 'cut.cjs', CUTTER)] }],
        PostToolUse: [{ matcher: 'Read', hooks: [record] }],
      },
    };
    const s = await scriptSession({
      cwd: dir, hooks: 'none', settings, cap: CAP,
      script: [
        // §1.1: numbers sent as strings are numbers by the time a hook sees them.
        { reads: [{ file_path: path, offset: '3', limit: '40' }] },
        // §1.1: a limit of 0 reaches no hook.
        { reads: [{ file_path: path, limit: 0 }] },
        // §6.3: PostToolUse gets the input that ran, after another hook's updatedInput.
        { reads: [{ file_path: path, offset: 10, limit: 150 }] },
      ],
    });
    expect(s.ok, s.run.stderr).toBe(true);
    const events = readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Recorded);
    const ids = [...new Set(events.map((e) => e.tool_use_id))];
    const results = s.observations.slice(1).map((o) => o.results[0]!);
    /** What the hook `name` recorded of the script's call `call`. */
    const of = (call: number, name: string) =>
      events.find((e) => e.tool_use_id === results[call]!.tool_use_id && e.hook_event_name === name);
    const [asStrings, zero, cut] = [0, 1, 2];

    expect(of(asStrings, 'PreToolUse')?.tool_input).toEqual({ file_path: path, offset: 3, limit: 40 });
    expect(of(asStrings, 'PostToolUse')?.tool_response?.file).toMatchObject({ startLine: 3, numLines: 40 });
    // A limit of 0 reaches no hook: later engines drop it (a whole-file read), 2.1.145 refuses the call as invalid
    // input before any hook runs.
    if (results[zero]!.isError) {
      expect(results[zero]!.content).toContain('InputValidationError');
      expect(of(zero, 'PreToolUse')).toBeUndefined();
    } else {
      expect(of(zero, 'PreToolUse')?.tool_input).toEqual({ file_path: path });
      expect(of(zero, 'PostToolUse')?.tool_response?.file).toMatchObject({ startLine: 1, numLines: 201 });
    }

    expect(of(cut, 'PreToolUse')?.tool_input).toEqual({ file_path: path, offset: 10, limit: 150 });
    expect(of(cut, 'PostToolUse')?.tool_input).toEqual({ file_path: path, offset: 10, limit: 100 });
    expect(of(cut, 'PostToolUse')?.tool_response?.file).toMatchObject({ startLine: 10, numLines: 100 });
    // §9.1: the record of the model's call is written while the call runs, not before its hooks: a hook may start
    // before it lands, and it comes within the call (the hooks read the model's own window from it, `callOnceWritten`).
    for (const e of events) {
      expect(e.waited, `${e.hook_event_name} of call ${ids.indexOf(e.tool_use_id) + 1}`).toBeGreaterThanOrEqual(0);
    }
    const atOnce = (name: string) => {
      const runs = events.filter((e) => e.hook_event_name === name);
      return `${runs.filter((e) => e.atOnce).length} of ${runs.length}`;
    };
    const slowest = Math.max(...events.map((e) => e.waited));
    console.log(`the call was in the transcript when its hook started: PreToolUse ${atOnce('PreToolUse')}, `
      + `PostToolUse ${atOnce('PostToolUse')}; the longest wait ${slowest} ms`);
  }, ENGINE_TIMEOUT);

  it('a relative path made absolute before PreToolUse; a binary file refused before any hook', async () => {
    const dir = tempDir('facts-paths');
    const path = put(dir, 'prose.txt', prose(50, 95));
    const binary = put(dir, 'archive.zip', 'PK not really a zip\n');
    const record = scriptHook(dir, 'record.cjs', RECORDER);
    const settings = {
      hooks: { PreToolUse: [{ matcher: 'Read', hooks: [record] }], PostToolUse: [{ matcher: 'Read', hooks: [record] }] },
    };
    const s = await scriptSession({
      cwd: dir, hooks: 'none', settings,
      script: [{ reads: [{ file_path: 'prose.txt', limit: 10 }] }, { reads: [{ file_path: binary }] }],
    });
    expect(s.ok, s.run.stderr).toBe(true);
    const [relative, zipped] = s.observations.slice(1).map((o) => o.results[0]!);
    const events = readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Recorded);
    // §1.2: the hook gets the absolute path (the pager still resolves a relative one against cwd).
    expect(relative!.isError, relative!.content).toBe(false);
    expect(events.filter((e) => e.tool_use_id === relative!.tool_use_id).map((e) => e.tool_input.file_path))
      .toEqual([path, path]);
    // §2.7: a refusal the engine decides before the hooks runs none of them.
    expect(zipped!.isError, zipped!.content).toBe(true);
    expect(events.filter((e) => e.tool_use_id === zipped!.tool_use_id)).toEqual([]);
  }, ENGINE_TIMEOUT);

  it('a window another hook cut short: the note names the rest of the model\'s window', async () => {
    const dir = tempDir('facts-cut');
    const path = put(dir, 'prose.txt', prose(400, 92));
    const settings = pagerSettings();
    settings.hooks.PreToolUse.push({ matcher: 'Read', hooks: [scriptHook(dir, 'cut.cjs', CUTTER)] });
    // Not the session's first call: the engine creates the transcript with that call's record, so no hook can tell
    // that one is on its way (`callOnceWritten`).
    const before = put(dir, 'readme.txt', 'read me first\n');
    const s = await readSession({
      cwd: dir, hooks: 'pager', settings, cap: CAP, targets: [{ path: before }, { path, offset: 10, limit: 150 }],
    });
    expect(s.ok, s.run.stderr).toBe(true);
    const [first, second] = s.cursor(path).steps;
    expect(first?.isError, first?.content).toBe(false);
    expect(first!.lines.map(([n]) => n)).toEqual(Array.from({ length: 100 }, (_, i) => 10 + i));
    const note = first!.notes.join('\n');
    expect(note).toContain('returned lines 10-109 of the requested 10-159 (the window was shortened before it ran)');
    expect(note).toContain('offset=110 limit=50 is the rest of the requested window');
    expect(second?.lines[0]?.[0], note).toBe(110);
    const cov = coverage(path, s.cursor(path).received);
    expect(ranges(cov.missing.filter((n) => n >= 10 && n <= 159))).toBe('');
  }, ENGINE_TIMEOUT);
});

describe('an offset past the end of a file over 256 KiB, with no limit (docs/ENGINE.md §2.4a)', () => {
  it('is a size error without the pager; with it, the engine\'s answer that the file is shorter than the offset', async () => {
    const dir = tempDir('facts-past-end');
    const path = put(dir, 'big.txt', proseOfSize(300_000, 93));
    const lines = readFileSync(path, 'utf8').split('\n').length;
    const past = lines + 100;
    const answer = async (hooks: 'none' | 'pager') => {
      const s = await scriptSession({ cwd: dir, hooks, script: [{ reads: [{ file_path: path, offset: past }] }] });
      expect(s.ok, s.run.stderr).toBe(true);
      return s.observations[1]!.results[0]!;
    };
    const bare = await answer('none');
    expect(bare.isError).toBe(true);
    expect(bare.content).toMatch(/exceeds maximum allowed size \(256KB\)/);
    const paged = await answer('pager');
    expect(paged.isError, paged.content).toBe(false);
    expect([paged.content, ...paged.reminders].join('\n')).toContain(`shorter than the provided offset (${past}). The file has ${lines} lines`);
  }, ENGINE_TIMEOUT);
});

describe('two PreToolUse hooks that both rewrite the input (docs/ENGINE.md §7.9)', () => {
  // Each sets its own limit on a window of 140 or 150 lines, and takes 300 ms first on the one named after it.
  const SETTER = `
const fs = require('node:fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8')).tool_input;
const [limit, slowOn] = process.argv.slice(2).map(Number);
if (input.limit === slowOn) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
if (input.limit === 140 || input.limit === 150) {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { ...input, limit } } }));
}
`;
  it('the one that finishes last wins, whatever their order in the settings', async () => {
    const dir = tempDir('facts-race');
    const path = put(dir, 'prose.txt', prose(400, 94));
    const setter = (limit: number, slowOn: number) => scriptHook(dir, 'set.cjs', SETTER, `${limit} ${slowOn}`);
    const settings = { hooks: { PreToolUse: [{ matcher: 'Read', hooks: [setter(20, 140), setter(30, 150)] }] } };
    const s = await scriptSession({
      cwd: dir, hooks: 'none', settings,
      script: [
        { reads: [{ file_path: path, offset: 1, limit: 150 }] },
        { reads: [{ file_path: path, offset: 1, limit: 140 }] },
      ],
    });
    expect(s.ok, s.run.stderr).toBe(true);
    // Lines that came back: the first call's slow hook is listed second (limit 30), the second call's first (20).
    const [listedSecondSlow, listedFirstSlow] = s.observations.slice(1).map((o) => o.results[0]!.content.split('\n').length);
    expect(listedSecondSlow).toBe(30);
    expect(listedFirstSlow).toBe(20);
  }, ENGINE_TIMEOUT);
});

describe('what becomes of a PreToolUse hook\'s answer (docs/ENGINE.md §7.2, §7.8)', () => {
  // Drops offset and limit from a window of 150 lines (as the pager does to send a whole read); on a window of 140
  // lines it sleeps past its 1 s timeout before it would answer the same.
  const DROPPER = `
const fs = require('node:fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8')).tool_input;
if (input.limit === 140) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
if (input.limit === 150 || input.limit === 140) {
  const { offset: _o, limit: _l, ...rest } = input;
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: rest } }));
}
`;
  it('updatedInput replaces the input (a key left out is gone); a hook past its timeout leaves the call as asked', async () => {
    const dir = tempDir('facts-answer');
    const path = put(dir, 'prose.txt', prose(400, 96));
    const hook = scriptHook(dir, 'drop.cjs', DROPPER, '', 1);
    const settings = { hooks: { PreToolUse: [{ matcher: 'Read', hooks: [hook] }] } };
    const s = await scriptSession({
      cwd: dir, hooks: 'none', settings,
      script: [
        { reads: [{ file_path: path, offset: 20, limit: 150 }] },
        { reads: [{ file_path: path, offset: 20, limit: 140 }] },
      ],
    });
    expect(s.ok, s.run.stderr).toBe(true);
    const [replaced, timedOut] = s.observations.slice(1).map((o) => o.results[0]!);
    const numbers = (r: typeof replaced) => r!.content.split('\n').map((l) => Number(/^\s*(\d+)\t/.exec(l)?.[1]));
    // Replaced, not merged: without offset and limit it is a read of the whole file.
    expect(replaced!.isError, replaced!.content).toBe(false);
    expect(numbers(replaced).slice(0, 1)).toEqual([1]);
    expect(numbers(replaced).length).toBe(401);
    // Killed at 1 s, the hook changed nothing: the window runs as the model asked.
    expect(timedOut!.isError, timedOut!.content).toBe(false);
    expect(numbers(timedOut)).toEqual(Array.from({ length: 140 }, (_, i) => 20 + i));
  }, ENGINE_TIMEOUT);
});
