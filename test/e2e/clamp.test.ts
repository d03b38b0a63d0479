// Points 1 and 4 of issue #3 on the real engine: an explicit window over the cap is clamped to the largest page
// the estimate allows, and a read with no limit of a file over 256 KiB comes back as a page, not an error.
import { afterAll, describe, expect, it } from 'vitest';
import { ranges, coverage } from './harness/check.mjs';
import { CAP_ENV, pagerSettings, tempDir, removeTempDirs } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { preLimit } from './harness/hook.mjs';
import { readSession } from './harness/session.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 120_000;

describe('an explicit window over the cap', () => {
  const dir = tempDir('clamp');
  const path = put(dir, 'prose.txt', prose(300));

  it('is clamped: no refusal, the largest page the estimate allows, and a note naming the rest', async () => {
    const s = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets: [{ path, offset: 1, limit: 300, once: true }] });
    expect(s.ok).toBe(true);
    const [step] = s.cursor(path).steps;
    expect(step?.isError, step?.content).toBe(false);
    const n = step!.lines.length;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(300);
    expect(step!.lines.map(([k]) => k)).toEqual(Array.from({ length: n }, (_, i) => i + 1));

    // The engine counted the page it ran, and it was under the cap; it is no needlessly small page either.
    const page = step!.lines.map(([, t]) => t).join('\n');
    const counted = s.counts.find((c) => c.text === page);
    expect(counted, 'the engine sent the clamped page to count_tokens').toBeDefined();
    expect(counted!.tokens).toBeLessThanOrEqual(CAP);
    expect(counted!.tokens).toBeGreaterThan(CAP * 0.5);
    // As large as the pager's estimate allows: a few lines more are clamped back to this page. (One or two more may
    // run as asked: the narrower margin of a rest holds them, where a clamp would leave them a round of their own.)
    expect(preLimit({ path, cwd: dir, offset: 1, limit: n, cap: CAP })).toBeUndefined();
    expect([undefined, n]).toContain(preLimit({ path, cwd: dir, offset: 1, limit: n + 1, cap: CAP }));
    expect(preLimit({ path, cwd: dir, offset: 1, limit: n + 5, cap: CAP })).toBe(n);

    // What the engine ran is what came back (stream-json's record of the Read).
    expect(s.ran.get(step!.toolUseId)?.file).toMatchObject({ startLine: 1, numLines: n });
    // The model's context holds the continuation note, with the exact rest of its window.
    expect(step!.notes.join('\n')).toContain(`offset=${n + 1} limit=${300 - n}`);
    expect(step!.advice).toEqual({ offset: n + 1, limit: 300 - n });
  }, ENGINE_TIMEOUT);

  it('without the pager the same window is refused', async () => {
    const s = await readSession({ cwd: dir, hooks: 'none', cap: CAP, targets: [{ path, offset: 1, limit: 300, once: true }] });
    const [step] = s.cursor(path).steps;
    expect(step?.isError).toBe(true);
    expect(step?.content).toMatch(/exceeds maximum allowed tokens \(3000\)/);
  }, ENGINE_TIMEOUT);
});

// Users often set the cap in settings.json's "env" rather than in the shell: the engine applies it, and the hooks it
// runs inherit it, so the pager sizes its clamp to that cap without waiting for a refusal to tell it.
describe('a cap set in the project\'s settings.json "env"', () => {
  const dir = tempDir('clamp-settings-env');
  const path = put(dir, 'prose.txt', prose(300));
  const env = { [CAP_ENV]: String(CAP) };

  it('sizes the clamp: no refusal, and the note names that cap', async () => {
    const s = await readSession({
      cwd: dir, hooks: 'pager', settings: { ...pagerSettings(), env },
      targets: [{ path, offset: 1, limit: 300, once: true }],
    });
    const [step] = s.cursor(path).steps;
    expect(step?.isError, step?.content).toBe(false);
    const n = step!.lines.length;
    expect(n).toBe(preLimit({ path, cwd: dir, offset: 1, limit: 300, cap: CAP }));
    expect(step!.notes.join('\n')).toContain(`under the ${CAP}-token Read cap`);
  }, ENGINE_TIMEOUT);

  it('is the engine\'s cap too: without the pager the same window is refused at it', async () => {
    const s = await readSession({
      cwd: dir, hooks: 'none', settings: { env }, targets: [{ path, offset: 1, limit: 300, once: true }],
    });
    const [step] = s.cursor(path).steps;
    expect(step?.isError).toBe(true);
    expect(step?.content).toMatch(/exceeds maximum allowed tokens \(3000\)/);
  }, ENGINE_TIMEOUT);
});

describe('a read with no limit of a file over 256 KiB', () => {
  const dir = tempDir('whole');
  const path = put(dir, 'big.txt', prose(3600, 11));

  it('comes back as a page with a note, not an error, and the notes lead to the end of the file', async () => {
    const { statSync } = await import('node:fs');
    expect(statSync(path).size).toBeGreaterThan(262_144);
    // The default cap (25,000): no override.
    const s = await readSession({ cwd: dir, hooks: 'pager', targets: [{ path }] });
    expect(s.ok).toBe(true);
    const c = s.cursor(path);
    const [first] = c.steps;
    expect(first?.asked).toEqual({ file_path: path });
    expect(first?.isError, first?.content).toBe(false);
    expect(first!.lines[0]?.[0]).toBe(1);
    const n = first!.lines.length;
    expect(first!.notes.join('\n')).toMatch(new RegExp(`offset=${n + 1} limit=\\d+`));
    expect(c.refusals).toBe(0);
    const cov = coverage(path, c.received);
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) })
      .toEqual({ missing: '', duplicated: '', wrong: '' });
  }, ENGINE_TIMEOUT);

  it('without the pager it is an error', async () => {
    const s = await readSession({ cwd: dir, hooks: 'none', targets: [{ path, once: true }] });
    const [step] = s.cursor(path).steps;
    expect(step?.isError).toBe(true);
    expect(step?.content).toMatch(/exceeds maximum allowed size \(256KB\)/);
  }, ENGINE_TIMEOUT);
});
