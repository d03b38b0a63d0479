// A Read with no limit of a file under 256 KiB over the cap, on whichever engine runs it (docs/ENGINE.md 2.6). From
// 2.1.145 on the engine pages it, and the pager leaves it to the engine. Before that the engine refuses it, as it
// refuses a window; the pager knows such an engine by its version (the hooks' AI_AGENT, else the transcript) and
// sends the session's first such read as a window that fits, so it is never refused. `npm run test:engines` runs
// this file on the verified engines and on 2.1.144 (`refusing` in scripts/engines.json).
import { spawnSync } from 'node:child_process';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { engineRefusesWholeReads } from '../../src/hooks/engine-version';
import { coverage, ranges } from './harness/check.mjs';
import { ENGINE, removeTempDirs, tempDir } from './harness/engine.mjs';
import { prose, put } from './harness/files.mjs';
import { readSession, type Session } from './harness/session.mjs';

afterAll(removeTempDirs);

const CAP = 3000;
const ENGINE_TIMEOUT = 180_000;
const version = /\d+\.\d+\.\d+/.exec(spawnSync(ENGINE[0]!, [...ENGINE.slice(1), '--version'], { encoding: 'utf8' }).stdout)?.[0];
const refuses = engineRefusesWholeReads(version);

describe(`a whole read of a file under 256 KiB over the cap, on Claude Code ${version}`, () => {
  const dir = tempDir('whole-engines');
  // About 9,000 tokens: three times the cap, about 20 KB.
  const path = put(dir, 'notes.txt', prose(300, 61));
  let withPager: Session;
  let bare: Session;

  beforeAll(async () => {
    withPager = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets: [{ path }] });
    bare = await readSession({ cwd: dir, hooks: 'none', cap: CAP, targets: [{ path }] });
  }, ENGINE_TIMEOUT);

  it('the engine is what its version says: it refuses the read, or pages it', () => {
    expect(version, 'the engine printed its version').toBeDefined();
    expect(bare.ok, bare.run.stderr).toBe(true);
    const first = bare.cursor(path).steps[0]!;
    if (refuses) {
      expect(first.isError).toBe(true);
      expect(first.content).toMatch(/File content \(\d+ tokens\) exceeds maximum allowed tokens \(3000\)/);
    } else {
      expect(first.isError).toBe(false);
      expect(bare.ran.get(first.toolUseId)?.file?.truncatedByTokenCap).toBe(true);
    }
  });

  it('with the pager, no Read is refused and every line comes back once', () => {
    expect(withPager.ok, withPager.run.stderr).toBe(true);
    const steps = withPager.cursor(path).steps;
    expect(steps.filter((s) => s.isError).map((s) => s.content)).toEqual([]);
    const c = coverage(path, withPager.cursor(path).received);
    expect(ranges(c.missing)).toBe('');
    expect(ranges(c.duplicated)).toBe('');
    expect(c.wrong).toEqual([]);
  });

  it('the first Read: a window that fits, with the engine named, where the engine refuses; else its page', () => {
    const first = withPager.cursor(path).steps[0]!;
    const ran = withPager.ran.get(first.toolUseId)?.file;
    const note = first.notes.find((t) => /read-ceiling-pager/.test(t)) ?? '';
    if (refuses) {
      expect(ran?.truncatedByTokenCap).toBeFalsy();
      expect(ran?.startLine).toBe(1);
      expect(note).toContain(`Claude Code ${version}, like every version before 2.1.145, refuses a Read without limit of a file over the cap, so this Read returned lines 1-${ran?.numLines} as a window`);
      expect(first.advice?.offset).toBe((ran?.numLines ?? 0) + 1);
    } else {
      expect(ran?.truncatedByTokenCap).toBe(true);
      expect(note).toContain("the engine's partial page");
    }
  });
});
