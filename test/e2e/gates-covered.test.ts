// Issue #8, covered re-read, on the real engine: a Read whose lines earlier Reads of the unchanged file already
// returned is denied once, with the path and the earlier lines named; the same Read again runs; a file that
// changed, a window that reaches past what was read, and PDF pages all run; with the gate off nothing is denied.
// A subagent (the engine's Agent tool) has a read record of its own: it does not see its parent's, nor the
// parent its. After a compaction (/compact in a resumed session) the earlier results are gone from the
// conversation, so nothing they covered is denied; a Read made after it counts again. Likewise for results the
// engine cut from the conversation when the session came back after a long idle.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pagerSettings, removeTempDirs, tempDir } from './harness/engine.mjs';
import { minimalPdf, put } from './harness/files.mjs';
import { scriptSession, type ScriptStep } from './harness/session.mjs';

// A real model takes time to answer; the engine's transcript writes, which the gates read, settle meanwhile.
const THINK_MS = 400;
afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 180_000;
const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

/** The pager's settings with `--gates <list>` on each of its hook commands. */
function gatedSettings(list: string) {
  const settings = pagerSettings();
  for (const groups of Object.values(settings.hooks) as any[][]) {
    for (const g of groups) for (const h of g.hooks) h.command = `${h.command} --gates ${list}`;
  }
  return settings;
}

describe('covered re-read gate', () => {
  const dir = tempDir('gate-cover');
  const a = put(dir, 'a.txt', lines(30)); // the engine counts 31 lines: the empty one after the final newline
  const c = put(dir, 'c.txt', lines(12));
  const d = put(dir, 'd.txt', lines(12));
  const pdf = put(dir, 'doc.pdf', minimalPdf(['First page.', 'Second page.']));
  const script: ScriptStep[] = [
    { reads: [{ file_path: a, offset: 1, limit: 10 }] }, // 0
    { reads: [{ file_path: a, offset: 11, limit: 10 }] }, // 1: touches 1-10
    { reads: [{ file_path: a, offset: 5, limit: 12 }] }, // 2: 5-16, covered by 1-10 and 11-20 → denied
    { reads: [{ file_path: a, offset: 5, limit: 12 }] }, // 3: the same read again → runs
    { reads: [{ file_path: a, offset: 15, limit: 10 }] }, // 4: 15-24 reaches past 20 → runs
    { reads: [{ file_path: c }] }, // 5: whole file, 13 lines
    { reads: [{ file_path: c, offset: 3, limit: 4 }] }, // 6: covered by the whole-file read → denied
    { reads: [{ file_path: d }] }, // 7
    () => { appendFileSync(d, 'changed\n'); return { reads: [{ file_path: d, offset: 2, limit: 3 }] }; }, // 8: changed → runs
    { reads: [{ file_path: pdf, pages: '1' }] }, // 9
    { reads: [{ file_path: pdf, pages: '1' }] }, // 10: pages are never gated
    { reads: [{ file_path: a, offset: 0, limit: 3 }] }, // 11: offset 0 is line 1; 1-3 covered → denied
  ];
  let on: Awaited<ReturnType<typeof scriptSession>>;
  let off: Awaited<ReturnType<typeof scriptSession>>;
  const result = (s: typeof on, turn: number) => s.observations[turn + 1]!.results[0]!;

  it('runs the script with the gate on (flag) and off', async () => {
    // One after the other: both write the project's .claude/settings.json.
    on = await scriptSession({ thinkMs: THINK_MS, cwd: dir, hooks: 'pager', settings: gatedSettings('covered-reread'), script });
    off = await scriptSession({ thinkMs: THINK_MS, cwd: dir, hooks: 'pager', script });
    expect(on.ok, on.run.stderr).toBe(true);
    expect(off.ok, off.run.stderr).toBe(true);
  }, ENGINE_TIMEOUT);

  it('denies a window that touching earlier Reads cover, naming the path and the earlier lines', () => {
    const r = result(on, 2);
    expect(r.isError).toBe(true);
    expect(r.content).toContain(`lines 5-16 of ${a} are already in this conversation`);
    expect(r.content).toContain('earlier Reads returned 1-10, 11-20 (together lines 1-20)');
    expect(r.content).toMatch(/repeat this same Read and it will run/);
  });

  it('the deny reaches the model as the engine renders a hook denial', () => {
    expect(result(on, 2).content).toMatch(/^PreToolUse:Read hook error: /);
  });

  it('denies once: the same Read again runs', () => {
    expect(result(on, 3).isError).toBe(false);
    expect(result(on, 3).content.split('\n')[0]).toBe('5\tline 5');
  });

  it('runs a window that reaches past what was read, a changed file and PDF pages', () => {
    expect(result(on, 4).isError).toBe(false);
    expect(result(on, 8).isError).toBe(false);
    expect(result(on, 8).content).toBe('2\tline 2\n3\tline 3\n4\tline 4');
    // A PDF page read comes out as it does with the gate off, twice.
    for (const t of [9, 10]) {
      expect(result(on, t).content).not.toMatch(/read-ceiling-pager/);
      expect(result(on, t).content).toBe(result(off, t).content);
    }
  });

  it('counts a read with no limit as the lines the engine returned, and offset 0 as line 1', () => {
    expect(result(on, 6).isError).toBe(true);
    expect(result(on, 6).content).toContain(`lines 3-6 of ${c} are already in this conversation: an earlier Read returned lines 1-13`);
    expect(result(on, 11).isError).toBe(true);
    expect(result(on, 11).content).toContain(`lines 1-3 of ${a}`);
  });

  it('as a plugin, READ_CEILING_PAGER_GATES switches it on through the plugin\'s own Read hooks', async () => {
    const plugin = await scriptSession({ thinkMs: THINK_MS,
      cwd: tempDir('gate-cover-plugin'), hooks: 'plugin', extraEnv: { READ_CEILING_PAGER_GATES: 'covered-reread' },
      script: [{ reads: [{ file_path: a, offset: 1, limit: 10 }] }, { reads: [{ file_path: a, offset: 2, limit: 3 }] }],
    });
    expect(plugin.ok, plugin.run.stderr).toBe(true);
    expect(plugin.observations[2]!.results[0]!.content).toMatch(/^PreToolUse:Read hook error: read-ceiling-pager: lines 2-4 of .*a\.txt are already/);
  }, ENGINE_TIMEOUT);

  it('with the gate off, every Read runs', () => {
    for (let t = 0; t < script.length; t++) {
      if (t !== 9 && t !== 10) expect(result(off, t).isError, `turn ${t}`).toBe(false);
      expect(result(off, t).content).not.toMatch(/read-ceiling-pager/);
    }
    expect(off.observations.map((o) => o.context).join('\n')).not.toMatch(/already in this conversation/);
  });
});

describe('covered re-read gate, per agent', () => {
  const dir = tempDir('gate-agent');
  const a = put(dir, 'a.txt', lines(30));
  const b = put(dir, 'b.txt', lines(30));
  const PROMPT = 'Subagent 1: read a.txt and b.txt.';
  let s: Awaited<ReturnType<typeof scriptSession>>;
  const main = (turn: number) => s.observations[turn + 1]!.results[0]!;
  const sub = (turn: number) => s.agentObservations.find((o) => o.agent === PROMPT && o.turn === turn + 1)!.results[0]!;

  it('runs a parent and a subagent reading the same files', async () => {
    s = await scriptSession({
      thinkMs: THINK_MS, cwd: dir, hooks: 'pager', settings: gatedSettings('covered-reread'), allowedTools: 'Read,Agent',
      script: [
        { reads: [{ file_path: a, offset: 1, limit: 10 }] }, // 0
        { calls: [{ name: 'Agent', input: { description: 'read two files', prompt: PROMPT, subagent_type: 'general-purpose', run_in_background: false } }] }, // 1
        { reads: [{ file_path: b, offset: 2, limit: 3 }] }, // 2: the subagent read b 1-10, the parent did not → runs
        { reads: [{ file_path: a, offset: 2, limit: 3 }] }, // 3: the parent's own 1-10 covers it → denied
      ],
      agents: {
        [PROMPT]: [
          { reads: [{ file_path: a, offset: 1, limit: 10 }] }, // 0: the parent read it, the subagent did not → runs
          { reads: [{ file_path: a, offset: 2, limit: 3 }] }, // 1: its own 1-10 covers it → denied
          { reads: [{ file_path: b, offset: 1, limit: 10 }] }, // 2
          { text: 'Read both.' },
        ],
      },
    });
    expect(s.ok, s.run.stderr).toBe(true);
    // The engine ran the subagent in the foreground: all its turns came before the parent's next one.
    expect(s.agentObservations.map((o) => o.turn)).toEqual([0, 1, 2, 3]);
  }, ENGINE_TIMEOUT);

  it('a subagent does not see its parent\'s reads, and is denied a window its own reads cover', () => {
    expect(sub(0).isError).toBe(false);
    expect(sub(0).content.split('\n')).toHaveLength(10);
    expect(sub(1).isError).toBe(true);
    expect(sub(1).content).toContain(`read-ceiling-pager: lines 2-4 of ${a} are already in this conversation: an earlier Read returned lines 1-10`);
  });

  it('the parent does not see its subagent\'s reads, and keeps its own', () => {
    expect(main(2).isError).toBe(false);
    expect(main(2).content).toBe('2\tline 2\n3\tline 3\n4\tline 4');
    expect(main(3).isError).toBe(true);
    expect(main(3).content).toContain(`lines 2-4 of ${a} are already in this conversation`);
  });
});

describe('covered re-read gate, across a compaction', () => {
  /** One session in three runs: reads, then (or not) /compact, then more reads in the resumed session. */
  async function session(compact: boolean) {
    const dir = tempDir(compact ? 'gate-compact' : 'gate-nocompact');
    const home = tempDir('gate-compact-home');
    const a = put(dir, 'a.txt', lines(30));
    const o = { thinkMs: THINK_MS, cwd: dir, home, hooks: 'pager' as const, settings: gatedSettings('covered-reread') };
    const before = await scriptSession({ ...o, script: [
      { reads: [{ file_path: a, offset: 1, limit: 10 }] }, // 0
      { reads: [{ file_path: a, offset: 2, limit: 2 }] }, // 1: covered → denied (the gate is at work in this session)
    ] });
    const id = before.sessionId!;
    const compaction = compact
      ? await scriptSession({ ...o, prompt: '/compact', args: ['--resume', id], script: [{ text: 'Summary: a.txt was read.' }] })
      : undefined;
    const after = await scriptSession({ ...o, args: ['--resume', id], script: [
      { reads: [{ file_path: a, offset: 3, limit: 3 }] }, // 0: covered by 1-10 on record
      { reads: [{ file_path: a, offset: 1, limit: 10 }] }, // 1
      { reads: [{ file_path: a, offset: 6, limit: 3 }] }, // 2: covered by the Read just made → denied
    ] });
    return { before, compaction, after, id };
  }
  let on: Awaited<ReturnType<typeof session>>;
  let control: Awaited<ReturnType<typeof session>>;
  const result = (s: Awaited<ReturnType<typeof scriptSession>>, step: number) => s.observations[step + 1]!.results[0]!;

  it('runs a session with /compact between its reads, and one without', async () => {
    [on, control] = await Promise.all([session(true), session(false)]);
    for (const x of [on, control]) {
      for (const s of [x.before, x.compaction, x.after]) if (s) expect(s.ok, s.run.stderr).toBe(true);
      expect(x.after.sessionId).toBe(x.id); // --resume continues the same session, and its gate state
    }
    // The engine compacted: a compact_boundary record and a summary in the session transcript.
    const transcript = readFileSync(on.after.transcript!, 'utf8');
    expect(transcript).toMatch(/"subtype":"compact_boundary"/);
    expect(transcript).toMatch(/"isCompactSummary":true/);
  }, 3 * ENGINE_TIMEOUT);

  it('before the compaction, a covered Read is denied', () => {
    for (const x of [on, control]) expect(result(x.before, 1).content).toMatch(/^PreToolUse:Read hook error: read-ceiling-pager: lines 2-3 of/);
  });

  it('after it, a Read that only compacted results covered runs; without it, the same Read is denied', () => {
    expect(result(on.after, 0).isError).toBe(false);
    expect(result(on.after, 0).content).toBe('3\tline 3\n4\tline 4\n5\tline 5');
    expect(result(control.after, 0).content).toMatch(/^PreToolUse:Read hook error: read-ceiling-pager: lines 3-5 of/);
  });

  it('a Read made after the compaction covers again', () => {
    expect(result(on.after, 1).isError).toBe(false);
    expect(result(on.after, 2).content).toMatch(/^PreToolUse:Read hook error: read-ceiling-pager: lines 6-8 of .*an earlier Read returned lines 1-10/);
  });
});

describe('covered re-read gate, after old results are cleared', () => {
  // 2.1.332 (and 2.1.337) clears old tool results from the conversation when a session resumes after more than 65
  // minutes idle (at least 27 tool uses, the last 12 kept, 20,000 tokens or more to save), behind feature flags a
  // user's cached flags can hold. With both flags it cuts them itself and records the cut as an attachment; with the
  // first only, it asks the API to clear them, and keeps the API's report on the assistant record. Either way the
  // result records stay as they were. The stand-in plays the API's side.
  const ENGINE_CUTS = { tengu_jiggly_blossom: 'on', tengu_wise_pearl: { write_records: true } };
  const API_CLEARS = { tengu_jiggly_blossom: 'on' };
  const FILES = 30;

  async function session(flags: object, idle: boolean) {
    const dir = tempDir('gate-idle');
    const home = tempDir('gate-idle-home');
    const files = Array.from({ length: FILES }, (_, i) => put(dir, `f${String(i).padStart(2, '0')}.txt`, lines(1500))); // ~12 KB each
    const o = { thinkMs: THINK_MS, cwd: dir, home, hooks: 'pager' as const, settings: gatedSettings('covered-reread'), timeoutMs: ENGINE_TIMEOUT };
    const batch = (from: number) => ({ reads: files.slice(from, from + 10).map((file_path) => ({ file_path })) });
    const first = await scriptSession({ ...o, script: [batch(0), batch(10), batch(20)] });
    const id = first.sessionId!;
    const transcript = first.transcript!;
    const config = join(home, '.claude.json');
    writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), cachedGrowthBookFeatures: flags }));
    if (idle) { // the user comes back two hours later
      const shifted = readFileSync(transcript, 'utf8').split('\n').map((l) => {
        if (!l.trim()) return l;
        const r = JSON.parse(l);
        if (typeof r.timestamp === 'string') r.timestamp = new Date(Date.parse(r.timestamp) - 2 * 3600_000).toISOString();
        return JSON.stringify(r);
      });
      writeFileSync(transcript, shifted.join('\n'));
    }
    const ids = new Map<string, string>(); // file → the tool_use_id of its Read
    for (const obs of first.observations) {
      for (const r of obs.results) ids.set(r.input.file_path as string, r.tool_use_id);
    }
    const after = await scriptSession({ ...o, args: ['--resume', id], script: [
      { reads: [{ file_path: files[0]!, offset: 2, limit: 2 }] }, // 0: covered by the first Read made
      { reads: [{ file_path: files[FILES - 1]!, offset: 2, limit: 2 }] }, // 1: covered by the last Read made
    ] });
    const records = readFileSync(transcript, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    return { first, after, files, ids, records };
  }
  let cut: Awaited<ReturnType<typeof session>>;
  let cleared: Awaited<ReturnType<typeof session>>;
  let control: Awaited<ReturnType<typeof session>>;
  const result = (s: Awaited<ReturnType<typeof scriptSession>>, step: number) => s.observations[step + 1]!.results[0]!;
  const cutIds = (x: typeof cut) => x.records.filter((r) => r.attachment?.type === 'tool_results_cut').flatMap((r) => r.attachment.callIds as string[]);
  const apiCleared = (x: typeof cut) => x.records.flatMap((r) => r.message?.context_management?.applied_edits ?? []);

  it('runs 30 Reads, then resumes two hours later (the engine cuts; the API clears), and (control) at once', async () => {
    [cut, cleared, control] = await Promise.all([
      session(ENGINE_CUTS, true), session(API_CLEARS, true), session(ENGINE_CUTS, false),
    ]);
    for (const x of [cut, cleared, control]) for (const s of [x.first, x.after]) expect(s.ok, s.run.stderr).toBe(true);
    // The engine cut the first Read's result from the conversation, not the last one's.
    expect(cutIds(cut)).toContain(cut.ids.get(cut.files[0]!));
    expect(cutIds(cut)).not.toContain(cut.ids.get(cut.files[FILES - 1]!));
    // The engine asked the API to clear, and kept its report: all but the last 12 tool uses.
    expect(cutIds(cleared)).toEqual([]);
    expect(apiCleared(cleared)[0]).toMatchObject({ type: 'clear_tool_uses_20250919', cleared_tool_uses: 18 });
    // Resumed at once, nothing was cleared.
    expect([...cutIds(control), ...apiCleared(control)]).toEqual([]);
  }, 2 * ENGINE_TIMEOUT);

  it('a Read covered only by a cleared result runs; the control, whose result is still there, is denied', () => {
    for (const x of [cut, cleared]) {
      expect(result(x.after, 0).isError).toBe(false);
      expect(result(x.after, 0).content).toBe('2\tline 2\n3\tline 3');
    }
    expect(result(control.after, 0).content).toMatch(/^PreToolUse:Read hook error: read-ceiling-pager: lines 2-3 of .*f00\.txt/);
  });

  it('a Read covered by a result that was kept is still denied', () => {
    for (const x of [cut, cleared, control]) expect(result(x.after, 1).content).toMatch(/^PreToolUse:Read hook error: read-ceiling-pager: lines 2-3 of .*f29\.txt/);
  });
});
