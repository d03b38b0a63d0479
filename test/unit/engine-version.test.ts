// Which engine runs the hooks, from what it tells them: its environment (AI_AGENT) or its transcript's records.
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  decodesUtf16le,
  engineRefusesWholeReads,
  knowsImagesBySignature,
  engineVersionOf,
  numbersWithArrow,
  PERSISTED_OVER_CHARS,
  READ_REMINDER_CHARS,
  resultCharsCap,
} from '../../src/hooks/engine-version';
import { engineVersionIn } from '../../src/hooks/transcript';

describe('the engine version in the hooks\' environment', () => {
  it('reads AI_AGENT as the engine sets it (2.1.144 to 2.1.332, whatever the entry point)', () => {
    expect(engineVersionOf({ AI_AGENT: 'claude-code_2-1-332_harness' })).toBe('2.1.332');
    expect(engineVersionOf({ AI_AGENT: 'claude-code_2-1-144_cli' })).toBe('2.1.144');
    expect(engineVersionOf({ AI_AGENT: 'claude-code_3-0-1' })).toBe('3.0.1');
  });

  it('is unknown without it, or in another form (another agent, or a form this code does not know)', () => {
    expect(engineVersionOf({})).toBeUndefined();
    expect(engineVersionOf({ AI_AGENT: 'cursor_1-2-3' })).toBeUndefined();
    expect(engineVersionOf({ AI_AGENT: 'claude-code_2.1.144' })).toBeUndefined();
    expect(engineVersionOf({ AI_AGENT: 'claude-code_2-1-144x' })).toBeUndefined();
  });
});

describe('which engines refuse a Read with no limit of a file under 256 KiB over the cap', () => {
  it('every version before 2.1.145, by its numbers, not its text', () => {
    expect(engineRefusesWholeReads('2.1.144')).toBe(true);
    expect(engineRefusesWholeReads('2.1.100')).toBe(true);
    expect(engineRefusesWholeReads('2.0.999')).toBe(true);
    expect(engineRefusesWholeReads('1.9.200')).toBe(true);
    expect(engineRefusesWholeReads('2.1.145')).toBe(false);
    expect(engineRefusesWholeReads('2.1.1000')).toBe(false);
    expect(engineRefusesWholeReads('2.2.0')).toBe(false);
    expect(engineRefusesWholeReads('10.0.0')).toBe(false);
  });

  it('not an unknown engine, nor a version it cannot read', () => {
    expect(engineRefusesWholeReads(undefined)).toBe(false);
    expect(engineRefusesWholeReads('2.1')).toBe(false);
    expect(engineRefusesWholeReads('latest')).toBe(false);
    expect(compareVersions('2.1.144-beta', '2.1.145')).toBeLessThan(0);
  });
});

describe('which engines show a long Read result only as a preview, and how they number lines', () => {
  it('2.1.6 to 2.1.78: the numbered lines may take 100,000 characters less the reminder after them', () => {
    for (const v of ['2.1.6', '2.1.50', '2.1.78']) expect(resultCharsCap(v), v).toBe(PERSISTED_OVER_CHARS - READ_REMINDER_CHARS);
    for (const v of ['2.1.5', '2.1.2', '2.0.77', '2.1.79', '2.1.332', '3.0.0']) expect(resultCharsCap(v), v).toBeUndefined();
    expect(resultCharsCap(undefined)).toBeUndefined();
    expect(resultCharsCap('2.1')).toBeUndefined();
  });

  it('before 2.1.86 with an arrow after the number, from 2.1.86 with a tab; an unknown engine as the newest', () => {
    for (const v of ['2.0.77', '2.1.2', '2.1.50', '2.1.85']) expect(numbersWithArrow(v), v).toBe(true);
    for (const v of ['2.1.86', '2.1.100', '2.1.332']) expect(numbersWithArrow(v), v).toBe(false);
    expect(numbersWithArrow(undefined)).toBe(false);
  });
});

describe('which engines decode a file that starts with FF FE as UTF-16LE', () => {
  it('2.1.299 and later; before, UTF-8 like any other file; an unknown engine as the newest', () => {
    for (const v of ['2.1.299', '2.1.310', '2.1.337', '2.2.0']) expect(decodesUtf16le(v), v).toBe(true);
    for (const v of ['2.0.77', '2.1.50', '2.1.145', '2.1.287', '2.1.296']) expect(decodesUtf16le(v), v).toBe(false);
    expect(decodesUtf16le(undefined)).toBe(true);
  });
});

describe('which engines read a file named without an extension as an image by its first bytes', () => {
  it('2.1.187 and later; before, as text; an unknown engine as the newest', () => {
    for (const v of ['2.1.187', '2.1.190', '2.1.337']) expect(knowsImagesBySignature(v), v).toBe(true);
    for (const v of ['2.1.50', '2.1.145', '2.1.186']) expect(knowsImagesBySignature(v), v).toBe(false);
    expect(knowsImagesBySignature(undefined)).toBe(true);
  });
});

describe('the engine version in the transcript', () => {
  const record = (type: string, version: string) => JSON.stringify({ type, sessionId: 's', version, message: { content: 'x' } });

  it('the newest record that names one', () => {
    const jsonl = [record('user', '2.1.99'), record('assistant', '2.1.100'), '{"type":"last-prompt","sessionId":"s"}', ''].join('\n');
    expect(engineVersionIn(jsonl)).toBe('2.1.100');
  });

  it('not a version inside a record\'s text (a package.json the model read), nor from a cut first line', () => {
    const read = JSON.stringify({ type: 'user', message: { content: '{"version":"9.9.9"}' }, toolUseResult: { file: { content: '"version": "8.8.8"' } } });
    expect(engineVersionIn([read, ''].join('\n'))).toBeUndefined();
    const cut = record('user', '2.1.143').slice(10);
    expect(engineVersionIn(`${cut}\n${read}\n`)).toBeUndefined();
    expect(engineVersionIn(`${record('user', '2.1.143')}\n${read}\n`)).toBe('2.1.143');
  });

  it('nothing from an empty transcript or a version that is not one', () => {
    expect(engineVersionIn('')).toBeUndefined();
    expect(engineVersionIn(record('user', 'latest'))).toBeUndefined();
  });
});
