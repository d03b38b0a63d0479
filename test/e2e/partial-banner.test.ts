// The engine's own count of a whole file, in the banner of its partial page, is learned on every engine: 2.1.205 and
// later write the banner to the transcript as an attachment of its own, older engines at the head of the Read's
// tool_result (docs/ENGINE.md 4.2). A denser model pages a file read whole; the pager reads the banner's count at the
// file's next hook and keeps it, so in a new session on the same machine the first window of the unchanged file fits
// at once. A machine that never saw the banner is refused (the control). Run on every engine of the matrix.
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
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
});
