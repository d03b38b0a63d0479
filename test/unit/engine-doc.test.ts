// docs/ENGINE.md is the project's record of the engine facts it stands on. These checks keep the pointers honest:
// every "docs/ENGINE.md §n" in the repository names a section or fact that exists, and every test the document
// names as checking a fact exists.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'ENGINE.md'), 'utf8');
const sections = new Set([...doc.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]!));
const facts = new Set([...doc.matchAll(/^\| (\d+\.\d+) \|/gm)].map((m) => m[1]!));

/** "§3", "§7.5", "§1–2" and "§1.4, §3.1" as the section and fact numbers they name. */
function refs(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/§(\d+(?:\.\d+)?)(?:–(\d+))?/g)) {
    out.push(m[1]!);
    if (m[2]) out.push(m[2]);
  }
  return out;
}

describe('docs/ENGINE.md', () => {
  it('numbers its sections and facts, each fact with a version and a test (or says it has none)', () => {
    expect(sections.size).toBeGreaterThanOrEqual(9);
    expect(facts.size).toBeGreaterThanOrEqual(40);
    for (const row of doc.split('\n').filter((l) => /^\| \d+\.\d+ \|/.test(l))) {
      const cells = row.split(' | ');
      expect(cells.length, row).toBeGreaterThanOrEqual(4);
      expect(cells.at(-2), row).toMatch(/2\.1\.\d+|reported by users/);
      expect(cells.at(-1), row).toMatch(/\.test\.ts|not checked by a test/);
    }
  });

  it('names only tests that exist', () => {
    const named = new Set([...doc.matchAll(/`((?:e2e|cli|unit|gates|hardening)\/[\w.-]+\.test\.ts)`/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((t) => !existsSync(join(ROOT, 'test', t)))).toEqual([]);
  });

  it('every reference to it in the repository points at a section or fact it has, and none points elsewhere', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n').filter((f) => f && !f.startsWith('dist/') && f !== 'docs/ENGINE.md' && f !== 'test/unit/engine-doc.test.ts' && existsSync(join(ROOT, f)));
    const broken: string[] = [];
    let seen = 0;
    for (const f of files) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      for (const m of text.matchAll(/(docs\/)?ENGINE\.md\)?([^\n]{0,40})/g)) {
        seen++;
        // Outside docs/ the path names the folder; inside it, a sibling link is enough.
        if (!m[1] && !f.startsWith('docs/')) broken.push(`${f}: ${m[0]}`);
        for (const r of refs(m[2]!.split(/[):]/)[0]!)) if (!sections.has(r) && !facts.has(r)) broken.push(`${f}: §${r}`);
      }
    }
    expect(seen).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});
