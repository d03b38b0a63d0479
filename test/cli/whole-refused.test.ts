// An engine before 2.1.145 refuses a Read with no limit of a file under 256 KiB over the cap, where later engines
// page it (docs/ENGINE.md 2.6). Through the built binary: after one such refusal, the session's next Read with no
// limit of another such file is sent as a window that fits, and the note says why; before it, and in another
// session, the read is left to the engine.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineRead, failureEvent, hookPath, postEvent, preEvent, runHook } from '../helpers/hook';
import { prose } from '../helpers/text';

const dir = mkdtempSync(join(tmpdir(), 'rcp-whole-refused-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stateDir = join(dir, 'state');
mkdirSync(stateDir);
const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: stateDir };
const first = join(dir, 'first.txt');
const second = join(dir, 'second.txt');
// About 60,000 tokens each by the estimate: over the 25,000 cap, under 256 KiB.
writeFileSync(first, prose(3000, 1));
writeFileSync(second, prose(3000, 2));

const whole = (path: string) => ({ file_path: hookPath(path) });
const REFUSAL = 'File content (61234 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.';

describe('an engine that refuses a whole read it could page', () => {
  it('after one refusal of a whole read, the next whole read of the session is sent as a window, with a note saying why', () => {
    const s = 'sess-whole-refused';
    const before = runHook('pre', preEvent(s, 'w0', whole(second)), env);
    expect(before.status).toBe(0);
    expect(before.stdout, 'left to the engine, which pages it on 2.1.145 and later').toBe('');

    expect(runHook('pre', preEvent(s, 'w1', whole(first)), env).stdout).toBe('');
    const refused = runHook('post', failureEvent(s, 'w1', whole(first), REFUSAL), env);
    expect(refused.status).toBe(0);
    expect(refused.json.hookSpecificOutput.additionalContext).toMatch(/offset=1 limit=\d+ \(lines 1-\d+\) fits/);

    const after = runHook('pre', preEvent(s, 'w2', whole(second)), env);
    expect(after.status).toBe(0);
    const sent = after.json.hookSpecificOutput.updatedInput;
    expect(sent.file_path).toBe(hookPath(second));
    expect(sent.offset ?? 1).toBe(1);
    expect(sent.limit).toBeGreaterThan(500);
    expect(sent.limit).toBeLessThan(3000);
    const ran = engineRead(second, 1, sent.limit as number);
    const note = runHook('post', postEvent(s, 'w2', sent, ran), env).json.hookSpecificOutput.additionalContext as string;
    expect(note).toContain(`This engine refuses a Read without limit of a file over the cap (it refused one this session), so this Read returned lines 1-${sent.limit} as a window`);
    expect(note).toMatch(new RegExp(`offset=${(sent.limit as number) + 1} limit=\\d+`));

    // Another session has seen no such refusal: its engine may page the read.
    expect(runHook('pre', preEvent('sess-other', 'w3', whole(second)), env).stdout).toBe('');
  });

  it('an engine that says its version is one before 2.1.145 gets a window from its first whole read, and is told why', () => {
    const s = 'sess-old-engine';
    const old = { ...env, AI_AGENT: 'claude-code_2-1-144_harness' };
    const sent = runHook('pre', preEvent(s, 'o1', whole(second)), old).json.hookSpecificOutput.updatedInput;
    expect(sent.limit).toBeGreaterThan(500);
    expect(sent.limit).toBeLessThan(3000);
    const ran = engineRead(second, 1, sent.limit as number);
    const note = runHook('post', postEvent(s, 'o1', sent, ran), old).json.hookSpecificOutput.additionalContext as string;
    expect(note).toContain(`Claude Code 2.1.144, like every version before 2.1.145, refuses a Read without limit of a file over the cap, so this Read returned lines 1-${sent.limit} as a window`);
    expect(note).toMatch(new RegExp(`offset=${(sent.limit as number) + 1} limit=\\d+`));

    // 2.1.145 and later page it: left to the engine.
    const paging = { ...env, AI_AGENT: 'claude-code_2-1-145_harness' };
    expect(runHook('pre', preEvent('sess-paging-engine', 'o2', whole(second)), paging).stdout).toBe('');
  });

  it('an engine that does not say its version in the environment is known by its transcript\'s records', () => {
    const transcript = (version: string) => {
      const path = join(dir, `transcript-${version}.jsonl`);
      const record = (type: string) => JSON.stringify({ type, sessionId: 's', version, message: { role: type, content: 'Read it.' } });
      writeFileSync(path, `${record('user')}\n${record('assistant')}\n`);
      return hookPath(path);
    };
    const event = (s: string, version: string) => ({ ...preEvent(s, 't1', whole(second)), transcript_path: transcript(version) });
    const sent = runHook('pre', event('sess-transcript-old', '2.1.100'), env).json.hookSpecificOutput.updatedInput;
    expect(sent.limit).toBeGreaterThan(500);
    expect(runHook('pre', event('sess-transcript-new', '2.1.332'), env).stdout).toBe('');
  });

  it('a refused window, or a refused whole read of a file over 256 KiB, says nothing of whole reads', () => {
    const s = 'sess-window-refused';
    const big = join(dir, 'big.txt');
    writeFileSync(big, prose(14_000, 3));
    runHook('post', failureEvent(s, 'v1', { file_path: hookPath(first), offset: 1, limit: 3000 }, REFUSAL), env);
    runHook('post', failureEvent(s, 'v2', whole(big), REFUSAL), env);
    expect(runHook('pre', preEvent(s, 'v3', whole(second)), env).stdout).toBe('');
  });
});
