// A file edited or grown since a count taught its density: most of it is the text that was counted, so that density
// sizes its windows in place of the model's prior (hooks/sizing.ts, `earlierDensity` and `sizingForVersion`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharesOf } from '../../src/estimate/groups';
import { VERSION_SAFETY } from '../../src/estimate/weights';
import { budgetFor, fitWindow, measureWindow } from '../../src/hooks/measure';
import { sizingForVersion, sizingFrom } from '../../src/hooks/sizing';
import { lineSketch, sketchResemblance } from '../../src/state/digest';
import { emptyMemory, rememberedVersion, withFile } from '../../src/state/memory';
import { emptyState, learnedForVersion, withLearned, type Learned } from '../../src/state/session';
import { prose } from '../helpers/text';

const dir = mkdtempSync(join(tmpdir(), 'rcp-changed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const soon = () => Date.now() + 10_000;
const NOW = 2e12;

describe('the density of an earlier version of a file', () => {
  const before = { size: 1000, mtimeMs: 5, ratio: 0.7, at: NOW };
  // The earlier version, then the same file with lines inserted (an edit), and another text written at its path.
  const path = join(dir, 'big.ts');
  const lines = prose(3000, 3).split('\n');
  const earlier = lines.join('\n');
  const edit = [...lines.slice(0, 1200), ...prose(40, 4).split('\n'), ...lines.slice(1200)].join('\n');
  const other = prose(3000, 5);
  const at = (text: string, mtimeMs: number) => {
    writeFileSync(path, text);
    return { path, size: Buffer.byteLength(text), mtimeMs };
  };
  const sketchOf = (text: string) => () => lineSketch(Buffer.from(text));
  const kept = (model?: string) =>
    withFile(emptyMemory(), path, {
      ...before, size: earlier.length, sketch: lineSketch(Buffer.from(earlier)), ...(model ? { model } : {}),
    });

  it('is the entry kept at the same path with another size or mtime, when most of its lines are still there', () => {
    const edited = { path, size: edit.length, mtimeMs: 9 };
    expect(rememberedVersion(kept(), edited, sketchOf(edit))?.ratio).toBe(0.7);
    expect(rememberedVersion(kept(), { ...edited, size: earlier.length }, sketchOf(earlier))?.ratio, 'touched').toBe(0.7);
    expect(rememberedVersion(kept(), edited, sketchOf(other)), 'another text at the same path').toBeUndefined();
    // The unchanged file is not an earlier version of itself: its own density is found as it is.
    expect(rememberedVersion(kept(), { path, size: earlier.length, mtimeMs: 5 }, sketchOf(earlier))).toBeUndefined();
    // Without a sketch (a memory written before sketches were kept) nothing tells an edit from another text.
    const unsketched = withFile(emptyMemory(), path, { ...before, size: earlier.length });
    expect(rememberedVersion(unsketched, edited, sketchOf(edit))).toBeUndefined();
    expect(sketchResemblance(lineSketch(Buffer.from(earlier)), lineSketch(Buffer.from(edit)))).toBeGreaterThan(0.5);
    expect(sketchResemblance(lineSketch(Buffer.from(earlier)), lineSketch(Buffer.from(other)))).toBe(0);
  });

  it('sizes a window of the edited file by that density, this session\'s first, and for the model that taught it', () => {
    const edited = at(edit, 9);
    const state = { ...emptyState(), model: 'claude-a' };
    expect(sizingFrom(state, kept('claude-a'), edited, false, NOW).ratio).toBe(0.7);
    expect(sizingFrom(state, kept('claude-a'), edited, false, NOW).unknownDensity).toBeUndefined();
    expect(sizingFrom(state, kept('claude-b'), edited, false, NOW).unknownDensity, 'another model').toBe(true);
    // This session's count of the earlier version comes before the memory's (the memory keeps a session's first).
    const learned = withLearned(state, path, { ...before, size: earlier.length, ratio: 0.8 });
    expect(learnedForVersion(learned, path, edited.size, edited.mtimeMs)?.ratio).toBe(0.8);
    expect(sizingFrom(learned, kept('claude-a'), edited, false, NOW).ratio).toBe(0.8);
    // A count of the file as it is now comes first of all.
    const now = withLearned(state, path, { ...before, size: edited.size, mtimeMs: 9, ratio: 0.9 });
    expect(sizingFrom(now, kept('claude-a'), edited, false, NOW).ratio).toBe(0.9);
    // Another text written at the path: the prior, whatever this session or the memory counted there before.
    const replaced = at(other, 11);
    expect(sizingFrom(learned, kept('claude-a'), replaced, false, NOW).unknownDensity).toBe(true);
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
    // A count of the whole file (a banner) or of a refused window: no window's text to compare, the margin of a
    // version's density (the prior's before it was raised for the calibration's spread between files).
    const byBanner = sizingForVersion({ ...before, countedShares: shares });
    expect(byBanner.safety).toBe(VERSION_SAFETY);
    expect(byBanner.similar).toBeUndefined();
    expect(byBanner.counted).toEqual(shares);
    expect(sizingForVersion(before).safety).toBe(VERSION_SAFETY);
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
