// The engine's own count of a whole file, in the banner of its partial page, is learned on every engine: 2.1.205 and
// later write the banner to the transcript as an attachment of its own, older engines at the head of the Read's
// tool_result (docs/ENGINE.md 4.2). A denser model pages a file read whole; the pager reads the banner's count at the
// file's next hook and keeps it, so in a new session on the same machine the first window of the unchanged file fits
// at once. A machine that never saw the banner is refused (the control). Run on every engine of the matrix.
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { PAGER_BIN, removeTempDirs, tempDir } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const ENGINE_TIMEOUT = 240_000;
const CAP = 3000;
/** count_tokens answers this many times the npm tokenizer's count: a denser model than the pager expects. */
const DENSER = 2.5;
const LINES = 400;

describe('the count in a partial page\'s banner', () => {
  it('is learned: a new session\'s first window of the same unchanged file fits, where a machine without it is refused', async () => {
    const dir = tempDir('banner');
    const home = tempDir('banner-home');
    const path = put(dir, 'prose.txt', prose(LINES, 31));
    const first = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, scale: DENSER, home, targets: [{ path }] });
    expect(first.ok, first.run.stderr).toBe(true);
    const paged = first.cursor(path).steps[0]!;
    expect(first.ran.get(paged.toolUseId)?.file?.truncatedByTokenCap, 'the engine paged the file').toBe(true);
    expect(paged.notes.join('\n')).toMatch(/PARTIAL view/);
    expect(first.refusals).toBe(0);

    const target = { path, offset: 1, limit: LINES, once: true };
    const [next, control] = await Promise.all([
      readSession({ cwd: dir, hooks: 'pager', cap: CAP, scale: DENSER, home, targets: [target] }),
      readSession({ cwd: dir, hooks: 'pager', cap: CAP, scale: DENSER, home: tempDir('banner-home2'), targets: [target] }),
    ]);
    expect(next.ok, next.run.stderr).toBe(true);
    expect(next.sessionId).not.toBe(first.sessionId);
    const step = next.cursor(path).steps[0]!;
    expect(step.isError, step.content.slice(0, 200)).toBe(false);
    // Sized by the banner's count, not needlessly small: the engine counted it near the cap.
    const page = step.lines.map(([, t]) => t).join('\n');
    const counted = next.counts.find((c) => c.text === page);
    expect(counted?.tokens).toBeLessThanOrEqual(CAP);
    expect(counted!.tokens).toBeGreaterThan(CAP * 0.8);
    expect(control.ok, control.run.stderr).toBe(true);
    expect(control.cursor(path).steps[0]!.isError, 'without what the banner taught, the same window is refused').toBe(true);
  }, ENGINE_TIMEOUT);

  // The page is the first part of the file the banner counts, so what its result added to the next request beyond
  // its share of that count is what its line numbers cost the model (docs/ENGINE.md 9.7): the old Claude tokenizer
  // takes 1-2 tokens more than the rule on each indented line, and the pager learns it from the first page it sees,
  // with no refusal (a retry of a refused window told it before). A model that takes the rule is told nothing.
  it('with the usage recorded, tells what the model\'s line numbers cost on indented lines', async () => {
    const dir = tempDir('banner-indent');
    // Four-space indented lines of a few words: under 256 KiB, over the cap.
    const text = prose(1500, 41).split('\n').map((l) => (l ? `    ${l.split(' ').slice(0, 5).join(' ')}` : l)).join('\n');
    const path = put(dir, 'indented.txt', text);
    const run = async (tokenizerName: string) => {
      const home = tempDir(`banner-indent-${tokenizerName}`);
      const s = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, usage: true, tokenizerName, home, targets: [{ path }] });
      expect(s.ok, s.run.stderr).toBe(true);
      const paged = s.cursor(path).steps[0]!;
      expect(s.ran.get(paged.toolUseId)?.file?.truncatedByTokenCap, 'the engine paged the file').toBe(true);
      expect(s.refusals).toBe(0);
      const doctor = spawnSync(process.execPath, [PAGER_BIN, 'doctor'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
      return doctor.stdout.split('\n').find((l) => /^\S+\s+memory /.test(l)) ?? doctor.stdout;
    };
    const [legacy, rule] = await Promise.all([run('claude'), run('o200k')]);
    expect(legacy).toMatch(/line numbers dearer on indented lines: \S+ \(\+(0\.[3-9]|1\.0)\d* a line\)/);
    expect(rule).toContain('memory');
    expect(rule).not.toContain('indented lines');
  }, ENGINE_TIMEOUT);
});
