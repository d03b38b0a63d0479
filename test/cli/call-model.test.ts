// The built binary sizes a window by the prior of the model that made the call, as its transcript names it, not by
// the model that last taught the session: a subagent may run another model than the main conversation.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GROUP_COUNT } from '../../src/estimate/groups';
import { hookPath, preEvent, runHook } from '../helpers/hook';
import { prose } from '../helpers/text';

const dir = mkdtempSync(join(tmpdir(), 'rcp-call-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stateDir = join(dir, 'state');
mkdirSync(stateDir);
const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: stateDir };
const file = join(dir, 'big.txt');
writeFileSync(file, prose(3000));
const session = 'sess-call-model';

// The memory: 'dense-model' counted every kind of text 1.5 times the estimate, eight times; 'sparse-model' has no
// counts (the calibration stands). The session was last taught by 'sparse-model'.
const now = Date.now();
const observation = (i: number) => {
  const point = new Array<number>(GROUP_COUNT).fill(0);
  point[0] = 9_000 + 100 * i;
  point[1] = 5_000;
  return { point, tokens: Math.round(1.5 * (point[0] + point[1])), at: now - 1000 * i };
};
writeFileSync(join(stateDir, 'memory.v1.json'), JSON.stringify({
  files: {},
  models: { 'dense-model': { observations: Array.from({ length: 8 }, (_, i) => observation(i)) } },
  lastModel: 'sparse-model',
}));
writeFileSync(join(stateDir, `${session}.json`), JSON.stringify({ model: 'sparse-model' }));

/** pre's limit for a first window of lines 1-3000, the call written by `model` in its transcript (none: no record). */
function clampedBy(model: string | undefined, id: string): number {
  const input = { file_path: hookPath(file), offset: 1, limit: 3000 };
  const transcript = join(dir, `${id}.jsonl`);
  const record = { type: 'assistant', message: { id: `msg_${id}`, model, content: [{ type: 'tool_use', id, name: 'Read', input }] } };
  writeFileSync(transcript, model === undefined ? '' : `${JSON.stringify(record)}\n`);
  const r = runHook('pre', { ...preEvent(session, id, input), transcript_path: hookPath(transcript) }, env);
  expect(r.status).toBe(0);
  return r.json.hookSpecificOutput.updatedInput.limit as number;
}

describe('a first window is sized by the prior of the model that made the call', () => {
  it('a call by the model whose counts ran denser gets about two thirds of the window the session\'s model gets', () => {
    const bySession = clampedBy(undefined, 'toolu_none');
    const bySparse = clampedBy('sparse-model', 'toolu_sparse');
    const byDense = clampedBy('dense-model', 'toolu_dense');
    expect(bySparse).toBe(bySession);
    expect(byDense / bySession).toBeGreaterThan(0.55);
    expect(byDense / bySession).toBeLessThan(0.8);
  });
});
