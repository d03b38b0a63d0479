// A file edited or grown since a count taught its density: most of it is the text that was counted, so that density
// sizes its windows in place of the model's prior (hooks/measure.ts, `earlierDensity` and `sizingForVersion`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharesOf } from '../../src/estimate/groups';
import { PRIOR_SAFETY } from '../../src/estimate/weights';
import { budgetFor, fitWindow, measureWindow, sizingForVersion, sizingFrom } from '../../src/hooks/measure';
import { emptyMemory, rememberedVersion, withFile } from '../../src/state/memory';
import { emptyState, learnedForVersion, withLearned, type Learned } from '../../src/state/session';
import { prose } from '../helpers/text';

const dir = mkdtempSync(join(tmpdir(), 'rcp-changed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const soon = () => Date.now() + 10_000;
const NOW = 2e12;

describe('the density of an earlier version of a file', () => {
  const before = { size: 1000, mtimeMs: 5, ratio: 0.7, at: NOW };
  const edited = { path: '/repo/big.ts', size: 1040, mtimeMs: 9 };

  it('is found at the same path with another size or mtime, this session or in the memory, for the same model', () => {
    const state = withLearned(emptyState(), '/repo/big.ts', before);
    expect(learnedForVersion(state, edited.path, edited.size, edited.mtimeMs)?.ratio).toBe(0.7);
    expect(learnedForVersion(state, edited.path, 1000, 9)?.ratio, 'touched, same size').toBe(0.7);
    // The unchanged file is not an earlier version of itself: its own density is found as it is.
    expect(learnedForVersion(state, edited.path, 1000, 5)).toBeUndefined();
    expect(learnedForVersion(state, '/repo/other.ts', 1040, 9)).toBeUndefined();

    const memory = withFile(emptyMemory(), '/repo/big.ts', { ...before, model: 'claude-a' });
    expect(rememberedVersion(memory, edited, 'claude-a')?.ratio).toBe(0.7);
    expect(rememberedVersion(memory, edited, undefined)?.ratio, 'a session that names no model yet').toBe(0.7);
    expect(rememberedVersion(memory, edited, 'claude-b'), 'another model counts it otherwise').toBeUndefined();
    expect(rememberedVersion(memory, { ...edited, size: 1000, mtimeMs: 5 }, 'claude-a')).toBeUndefined();
  });

  it('sizes a window of the changed file by that density, not by the prior, and the unchanged file by its own', () => {
    const memory = withFile(emptyMemory(), '/repo/big.ts', { ...before, model: 'claude-a' });
    const state = { ...emptyState(), model: 'claude-a' };
    expect(sizingFrom(state, memory, edited, false, NOW).ratio).toBe(0.7);
    expect(sizingFrom(state, memory, edited, false, NOW).unknownDensity).toBeUndefined();
    // This session's count of the file as it is now comes first.
    const now = withLearned(state, '/repo/big.ts', { ...before, size: 1040, mtimeMs: 9, ratio: 0.9 });
    expect(sizingFrom(now, memory, edited, false, NOW).ratio).toBe(0.9);
    // Nothing known of the path: the prior.
    expect(sizingFrom(state, memory, { ...edited, path: '/repo/new.ts' }, false, NOW).unknownDensity).toBe(true);
  });

  it('keeps the margin of the text it was counted on, or the prior\'s, and nothing that held for that version alone', () => {
    const shares = sharesOf([30, 10, 0, 0, 0, 0]);
    const taught: Learned = {
      ...before, shares, steps: [0.001, 0.001], shifts: [0.001, 0.001, 0.001], charsPerToken: 2.5, refused: true,
    };
    const byUsage = sizingForVersion(taught);
    expect(byUsage.ratio).toBe(0.7);
    expect(byUsage.similar).toEqual(shares);
    expect(byUsage.calm, 'the narrower margin of a file that held still').toBeUndefined();
    expect(byUsage.steady).toBeUndefined();
    expect(byUsage.charsPerToken, 'the refused window\'s text is not the new version\'s').toBeUndefined();
    expect(byUsage.gambleOnRest, 'a file refused once is not gambled on').toBe(false);
    // A count of the whole file (a banner) or of a refused window: no window's text to compare, the prior's margin.
    const byBanner = sizingForVersion({ ...before, countedShares: shares });
    expect(byBanner.safety).toBe(PRIOR_SAFETY);
    expect(byBanner.similar).toBeUndefined();
    expect(byBanner.counted).toEqual(shares);
    expect(sizingForVersion(before).safety).toBe(PRIOR_SAFETY);
  });

  it('a window of the text that was counted fits more lines than the prior allows; text the edit added, fewer', () => {
    const path = join(dir, 'notes.txt');
    const korean = Array.from({ length: 2000 }, (_, i) => `${i} 번째 줄에는 한국어 문장이 들어 있습니다 그리고 조금 더 깁니다`);
    writeFileSync(path, `${prose(6000)}\n${korean.join('\n')}\n`);
    const shares = sharesOf(measureWindow(path, 1, 1000, soon()).groups);
    // A sparse model: the earlier version's prose counted 0.7 times the estimate.
    const sizing = sizingForVersion({ ...before, ratio: 0.7, shares });
    const fit = (first: number, s = sizing) =>
      fitWindow(path, first, budgetFor(path, 25_000, s, 100_000), soon()).lines;
    const prior = sizingFrom(emptyState(), emptyMemory(), { path, size: 1, mtimeMs: 1 }, false, NOW);
    expect(fit(1)).toBeGreaterThan(fit(1, prior) * 1.3);
    // The Korean the edit added: another script than the text counted, sized as the prior sizes it.
    expect(fit(6001)).toBe(fit(6001, prior));
  });
});
