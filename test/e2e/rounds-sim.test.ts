// The rounds benchmark's engine simulation (scripts/lib/engine-sim.mjs, driven by scripts/lib/sim-session.mjs) against
// the real engine: the same scripted reader, the same files, the same count_tokens, with and without the pager. The
// simulation must predict every Read call, what ran, the lines returned, the refusals (their text verbatim) and
// the notes the model got, so that scripts/rounds.mjs measures what a real session would do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFile } from '../../scripts/lib/engine-sim.mjs';
import { loadHooks, simulateSession } from '../../scripts/lib/sim-session.mjs';
import { countText, tokenizerNamed, windowCounter } from '../../scripts/lib/token-count.mjs';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 300_000;
const TOKENIZER = 'o200k';
const count = countText(TOKENIZER);

const dir = tempDir('rounds-sim');
// At cap 3000: prose, dense Korean JSON (the engine's len/2 estimate), a line no window holds. At the default cap:
// a file over 256 KiB, which the engine refuses to read without a limit, and Chinese JSON under it, paged by the
// engine: its results run past the 64 KiB a pipe read returns, so a character split between two reads is decoded whole.
const small = [
  F.put(dir, 'prose.txt', F.prose(300, 71)),
  F.put(dir, 'ko.json', F.cjsonPretty('ko', 40, 72)),
  F.put(dir, 'long.txt', F.withLongLine(120, 40, 40_000, 73)),
];
const big = [
  F.put(dir, 'big.txt', F.crlf(F.proseOfSize(300_000, 74))),
  F.put(dir, 'zh.json', F.cjsonPretty('zh', 700, 75)),
];

const CASES: Array<{ cap: number | undefined; files: string[] }> = [
  { cap: 3000, files: small }, { cap: undefined, files: big },
];
const MODES = ['windows', 'whole'] as const;
type Hooks = Awaited<ReturnType<typeof loadHooks>>;

interface Seen { asked: unknown; isError: boolean; content: string; lines: number; notes: string[]; hookSaw: unknown }

let hooks: Hooks;
/** What the cases met, as the simulation named it: checked at the end, so the cases are what they claim. */
const kinds = new Set<string>();
beforeAll(async () => { hooks = await loadHooks(); });

describe(`the simulated engine predicts the real one (count_tokens by ${TOKENIZER})`, () => {
  for (const { cap, files } of CASES) {
    for (const mode of MODES) {
      for (const withPager of [false, true]) {
        const name = `${withPager ? 'with the pager' : 'bare engine'}, ${mode === 'windows' ? 'windows of 2000 lines' : 'reads with no limit'}, cap ${cap ?? 25_000}: ${files.map((f) => f.split('/').pop()).join(', ')}`;
        it(name, async () => {
          const targets = files.map((path) => (mode === 'windows' ? { path, offset: 1, limit: 2000 } : { path }));
          const s = await readSession({ cwd: dir, hooks: withPager ? 'pager' : 'none', cap, count, targets });
          expect(s.ok, s.run.stderr).toBe(true);
          let refusals = 0;
          for (const path of files) {
            const real: Seen[] = s.cursor(path).steps.map((st) => ({
              asked: st.asked, isError: st.isError, content: st.content, lines: st.lines.length, notes: st.notes,
              hookSaw: s.ran.get(st.toolUseId),
            }));
            const file = simFile(path);
            const sim = simulateSession({
              file, count: windowCounter(file, tokenizerNamed(TOKENIZER)).count, mode,
              hooks: withPager ? hooks : undefined, stateDir: tempDir('rounds-sim-state'), cap,
              flatUsage: true, // the stand-in here counts no usage
            });
            for (const st of sim.steps) kinds.add(`${withPager ? 'pager' : 'bare'} ${st.kind}${st.context.includes('read-ceiling-pager:') ? ' noted' : ''}`);
            const predicted: Seen[] = sim.steps.map((st, i) => ({
              asked: st.asked, isError: st.isError, content: st.content, lines: sim.cursor.steps[i]!.lines.length,
              notes: sim.cursor.steps[i]!.notes, hookSaw: st.isError ? `Error: ${st.error}` : st.response,
            }));
            const trail = real.map((st) => `${JSON.stringify(st.asked)} → ${st.isError ? st.content.slice(0, 80) : `${st.lines} lines`}`).join('\n');
            expect(predicted.length, `${path}: Read calls\n${trail}`).toBe(real.length);
            for (let i = 0; i < real.length; i++) expect(predicted[i], `${path}, Read ${i + 1}\n${trail}`).toEqual(real[i]);
            expect(sim.cursor.received).toEqual(s.cursor(path).received);
            refusals += real.filter((st) => st.isError).length;
          }
          if (!withPager) expect(refusals, 'the bare engine refuses something in every case').toBeGreaterThan(0);
        }, ENGINE_TIMEOUT);
      }
    }
  }

  it('the cases cover token and size refusals, PARTIAL pages, windows and the pager\'s notes', () => {
    // With the pager these files are read without a refusal, so its refusal notes are not compared here (the unit
    // and black-box tests hold their text); its notes after a partial page and after a window are.
    expect([...kinds].sort()).toEqual(expect.arrayContaining([
      'bare partial', 'bare size', 'bare tokens', 'bare window', 'pager partial noted', 'pager window noted',
    ]));
  });
});
