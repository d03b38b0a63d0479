// The engine versions the pager is verified on: one range, kept equal to the list `npm run test:engines` runs,
// and what `doctor` concludes from the installed engine's version.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../src/hooks/engine-version.js';
import { engineFinding, VERIFIED_ENGINES } from '../../src/install/diagnosis.js';

const REPO = resolve(__dirname, '../..');
const list = JSON.parse(readFileSync(join(REPO, 'scripts/engines.json'), 'utf8')) as { versions: string[]; smoke: string[] };
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

describe('the verified engine range', () => {
  it('is the oldest and the newest version test:engines runs, and the newest is the pinned engine', () => {
    expect(VERIFIED_ENGINES).toEqual({ oldest: list.versions[0], newest: list.versions.at(-1) });
    expect(VERIFIED_ENGINES.newest).toBe(pkg.devDependencies['@anthropic-ai/claude-code']);
  });

  it('lists at least five versions, oldest first, each once', () => {
    expect(list.versions.length).toBeGreaterThanOrEqual(5);
    expect([...list.versions].sort(compareVersions)).toEqual(list.versions);
    expect(new Set(list.versions).size).toBe(list.versions.length);
  });
});

describe('compareVersions', () => {
  it('orders by number, not by text', () => {
    expect(compareVersions('2.1.99', '2.1.205')).toBeLessThan(0);
    expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
    expect(compareVersions('2.1.205', '2.1.205')).toBe(0);
    expect(compareVersions('2.1.205-beta', '2.1.205')).toBe(0);
  });
});

describe('doctor on the engine version', () => {
  const range = `${VERIFIED_ENGINES.oldest} to ${VERIFIED_ENGINES.newest}`;

  it('is ok inside the verified range, at both ends', () => {
    for (const v of [VERIFIED_ENGINES.oldest, VERIFIED_ENGINES.newest]) {
      expect(engineFinding(v)).toEqual({ level: 'ok', topic: 'engine', text: `Claude Code ${v} (claude on PATH; the pager was verified on ${range})` });
    }
  });

  it('warns below the range, naming what that version does differently', () => {
    const older = (v: string) => `Claude Code ${v} (claude on PATH) is older than the versions the pager was verified on (${range}): `;
    const refused = 'a whole-file read over the cap is refused, not paged (the pager sends it as a window)';
    const args = "it runs exec-form hooks (the plugin's, `install`'s) without their arguments, so only the command form of settings.example.json runs the pager";
    const preview = 'it shows a Read result over 100,000 characters only as a preview (the pager keeps windows under that)';
    const ignored = "it ignores the pager's rewrite of a Read (it takes one only with a permission decision, which the pager never sends), so only the notes work";
    expect(engineFinding('2.1.144')).toEqual({ level: 'warn', topic: 'engine', text: `${older('2.1.144')}${refused}; update Claude Code` });
    expect(engineFinding('2.1.137').text).toBe(`${older('2.1.137')}${args}; ${refused}; update Claude Code`);
    expect(engineFinding('2.1.79').text).toBe(`${older('2.1.79')}${args}; ${refused}; update Claude Code`);
    expect(engineFinding('2.1.78').text).toBe(`${older('2.1.78')}${preview}; ${args}; ${refused}; update Claude Code`);
    expect(engineFinding('2.1.6').text).toBe(`${older('2.1.6')}${preview}; ${args}; ${refused}; update Claude Code`);
    expect(engineFinding('2.1.5').text).toBe(`${older('2.1.5')}${args}; ${refused}; update Claude Code`);
    expect(engineFinding('2.0.77').text).toBe(`${older('2.0.77')}${ignored}; ${args}; ${refused}; update Claude Code`);
  });

  it('warns above the range, without failing: the pager fails open', () => {
    const f = engineFinding('2.2.0');
    expect(f.level).toBe('warn');
    expect(f.text).toMatch(/^Claude Code 2\.2\.0 \(claude on PATH\) is newer than the versions the pager was verified on/);
  });

  it('warns when no engine answered', () => {
    expect(engineFinding(undefined)).toEqual({ level: 'warn', topic: 'engine', text: '`claude` is not on the PATH here, so its version is unknown' });
  });
});
