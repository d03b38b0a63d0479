// Claude Code 2.1.6 to 2.1.78 show a Read result of over 100,000 characters only as a preview of its first 2 KB, the
// rest saved to a file (docs/ENGINE.md 9.9). Through the built binary: on such an engine, known by the version its
// transcript names, a window within the cap whose numbered lines would pass that length is clamped to the most that
// reach the model whole, the note says why, and the window it names next fits too; on any other engine the same
// window runs as asked.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PERSISTED_OVER_CHARS } from '../../src/hooks/engine-version';
import { engineRead, hookPath, postEvent, preEvent, runHook } from '../helpers/hook';

const dir = mkdtempSync(join(tmpdir(), 'rcp-result-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stateDir = join(dir, 'state');
mkdirSync(stateDir);
// A cap the window is well within: the result's length alone decides.
const env = {
  PATH: process.env.PATH,
  HOME: dir,
  READ_CEILING_PAGER_STATE_DIR: stateDir,
  CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS: '80000',
};
const path = join(dir, 'sparse.txt');
const LINE = 'alpha beta gamma delta epsilon zeta eta theta';
writeFileSync(path, `${LINE}\n`.repeat(5000));
/** The numbered result of lines [first, first + lines) as those engines write it, with the reminder after it. */
const numbered = (first: number, lines: number) =>
  Array.from({ length: lines }, (_, i) => `${String(first + i).padStart(6)}→${LINE}`).join('\n').length + 340;

function transcript(version: string): string {
  const file = join(dir, `transcript-${version}.jsonl`);
  const record = (type: string) => JSON.stringify({ type, sessionId: 's', version, message: { role: type, content: 'Read it.' } });
  writeFileSync(file, `${record('user')}\n${record('assistant')}\n`);
  return hookPath(file);
}

describe('a window within the cap whose numbered result is over 100,000 characters', () => {
  const asked = { file_path: hookPath(path), offset: 1, limit: 3000 };

  it('on 2.1.50: clamped to the most that reaches the model whole, told why, and the next window fits too', () => {
    const s = 'sess-persisting';
    const at = transcript('2.1.50');
    const pre = runHook('pre', { ...preEvent(s, 'r1', asked), transcript_path: at }, env);
    expect(pre.status).toBe(0);
    const sent = pre.json.hookSpecificOutput.updatedInput;
    const lines = sent.limit as number;
    expect(numbered(1, 3000)).toBeGreaterThan(PERSISTED_OVER_CHARS);
    expect(numbered(1, lines)).toBeLessThanOrEqual(PERSISTED_OVER_CHARS);
    expect(numbered(1, lines + 20)).toBeGreaterThan(PERSISTED_OVER_CHARS);

    const post = runHook('post', { ...postEvent(s, 'r1', sent, engineRead(path, 1, lines)), transcript_path: at }, env);
    const note = post.json.hookSpecificOutput.additionalContext as string;
    expect(note).toContain(
      `This Read returned lines 1-${lines} of the requested 1-3000, the most this engine shows whole (it shows a Read result of over 100,000 characters only as a preview of its start).`,
    );
    const next = /offset=(\d+) limit=(\d+)/.exec(note);
    expect(Number(next?.[1])).toBe(lines + 1);
    expect(numbered(lines + 1, Number(next?.[2]))).toBeLessThanOrEqual(PERSISTED_OVER_CHARS);
  });

  it('on 2.1.5 and 2.1.79, which show it whole, and on an engine that names a later version in the environment: run as asked', () => {
    for (const version of ['2.1.5', '2.1.79']) {
      const pre = runHook('pre', { ...preEvent(`sess-${version}`, 'r1', asked), transcript_path: transcript(version) }, env);
      expect(pre.stdout, version).toBe('');
    }
    const fromEnv = { ...env, AI_AGENT: 'claude-code_2-1-332_harness' };
    expect(runHook('pre', preEvent('sess-env', 'r1', asked), fromEnv).stdout).toBe('');
  });

  it('a session begun on 2.1.50 and resumed on a later engine, which names itself: run as asked there', () => {
    const s = 'sess-resumed';
    const at = transcript('2.1.50');
    expect(runHook('pre', { ...preEvent(s, 'r1', asked), transcript_path: at }, env).json.hookSpecificOutput.updatedInput.limit)
      .toBeLessThan(3000);
    const later = { ...env, AI_AGENT: 'claude-code_2-1-332_harness' };
    expect(runHook('pre', { ...preEvent(s, 'r2', asked), transcript_path: at }, later).stdout).toBe('');
  });
});
