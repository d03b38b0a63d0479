// A word list in Russian, one short word a line (as Hunspell's dictionaries are), over 256 KiB, read whole on the
// real engine with a stand-in that reports each request's usage. The tab after each line number is a token of its
// own before a letter past ASCII: read as the text's own, it made each window after the first hold about 0.8 of the
// cap, and the file took more calls than it needs (docs/ROUNDS.md, "Held out fifth").
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { coverage, ranges } from './harness/check.mjs';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import * as F from './harness/files.mjs';
import { readSession } from './harness/session.mjs';
import { tokenizer } from './harness/tokenizer.mjs';
import { russianWordList } from '../helpers/text';

afterAll(removeTempDirs);
const ENGINE_TIMEOUT = 240_000;
const CAP = 25_000;

describe('a word list in Russian over 256 KiB, read whole', () => {
  it('every line once, no refusal, and each window after the first holds 0.9 of the cap or more', async () => {
    const text = russianWordList(20_000);
    const path = F.put(tempDir('word-list'), 'index.dic', text);
    expect(Buffer.byteLength(text)).toBeGreaterThan(262_144); // the engine would page a smaller one itself
    const bare = F.put(tempDir('word-list-bare'), 'index.dic', text);
    const common = { hooks: 'pager', cap: CAP, tokenizerName: 'o200k', usage: true } as const;
    const [s, without] = await Promise.all([
      readSession({ ...common, cwd: dirname(path), targets: [{ path }] }),
      readSession({ ...common, hooks: 'none', cwd: dirname(bare), targets: [{ path: bare }] }),
    ]);
    expect(s.ok, s.run.stderr).toBe(true);
    expect(without.ok, without.run.stderr).toBe(true);
    const c = s.cursor(path);
    const trail = c.steps.map((st) => `${JSON.stringify({ offset: st.asked.offset, limit: st.asked.limit })} → ${
      st.decision}\n    ${st.notes.join('\n    ')}`).join('\n');
    const cov = coverage(path, c.received, { except: [] });
    expect({ missing: ranges(cov.missing), duplicated: ranges(cov.duplicated), wrong: ranges(cov.wrong) }, trail)
      .toEqual({ missing: '', duplicated: '', wrong: '' });
    expect(c.refusals, trail).toBe(0);
    // What each window the engine returned holds, by the count the engine refuses by.
    const count = tokenizer({ name: 'o200k' }).count;
    const lines = readFileSync(path, 'utf8').split('\n');
    const windows = c.steps.map((st) => s.ran.get(st.toolUseId)?.file).filter((f) => f?.numLines > 0);
    const fills = windows.map((f) => count(lines.slice(f.startLine - 1, f.startLine - 1 + f.numLines).join('\n')) / CAP);
    // The first window is sized by the estimate with the prior's margin; the last holds what is left.
    const between = fills.slice(1, -1);
    expect(between.length, trail).toBeGreaterThanOrEqual(2);
    expect(Math.min(...between), `${fills.map((f) => f.toFixed(3)).join(' ')}\n${trail}`).toBeGreaterThan(0.9);
    expect(c.steps.length, trail).toBeLessThan(without.cursor(bare).steps.length);
  }, ENGINE_TIMEOUT);
});
