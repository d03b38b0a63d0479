// pre's plan for one Read, on a real file: the first window of a file is never a gamble; a later one whose point
// estimate fits runs as asked, because clamped it would take two rounds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { namedWindow, PRIOR_SIZING, sizingFor } from '../../src/hooks/measure';
import { FOLLOW_SAFETY, PRIOR_SAFETY } from '../../src/estimate/weights';
import { planWindow } from '../../src/hooks/pre';
import { prose } from '../helpers/text';

const dir = mkdtempSync(join(tmpdir(), 'rcp-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'big.txt');
writeFileSync(file, prose(3000));
const stat = { size: Buffer.byteLength(prose(3000)) };
const later = Date.now() + 60_000;

describe('planWindow', () => {
  const first = planWindow(
    { file_path: file, offset: 1, limit: 3000 }, { path: file, stat }, 25_000, PRIOR_SIZING, later,
  );
  if (first.kind !== 'clamp') throw new Error('the fixture must be clamped');
  // A window over the cap with either margin, under it by its point estimate.
  const asked = Math.floor(first.lines * PRIOR_SAFETY * (1 / FOLLOW_SAFETY + 1) / 2);

  it('clamps the first window of a file with the full margin', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: asked }, { path: file, stat }, 25_000, PRIOR_SIZING, later,
    );
    expect(p).toMatchObject({ kind: 'clamp', lines: first.lines });
  });

  it('lets a later window run when its point estimate fits', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: asked }, { path: file, stat }, 25_000, sizingFor(undefined, true), later,
    );
    expect(p).toEqual({ kind: 'pass', reason: 'worth-the-risk' });
  });

  it('never gambles once a refusal taught the file\'s density: a file is refused at most once', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: asked }, { path: file, stat }, 25_000, sizingFor({ ratio: 1 }, true), later,
    );
    expect(p.kind).toBe('clamp');
  });

  it('a later window clamps with the narrower margin: a larger window than the first', () => {
    const p = planWindow(
      { file_path: file, offset: 1, limit: 3000 }, { path: file, stat }, 25_000, sizingFor(undefined, true), later,
    );
    expect(p.kind).toBe('clamp');
    if (p.kind === 'clamp') expect(p.lines).toBeGreaterThan(first.lines);
  });
});

describe('namedWindow', () => {
  it('a window to the last line asks for one line more than is left, never past what was asked', () => {
    // 300 lines and a final newline: the engine counts 301.
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, undefined)).toEqual({ first: 158, lines: 145 });
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, 3000)).toEqual({ first: 158, lines: 145 });
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, 301)).toEqual({ first: 158, lines: 144 });
    expect(namedWindow({ first: 158, lines: 143 }, 300, 301, 300)).toEqual({ first: 158, lines: 143 });
    expect(namedWindow({ first: 158, lines: 100 }, 300, 301, undefined)).toEqual({ first: 158, lines: 100 });
  });
});
