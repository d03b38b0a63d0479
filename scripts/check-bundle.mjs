// Fails when the committed dist/cli.cjs is not what a fresh build of the committed sources produces.
// The plugin runs the committed bundle straight from a clone (no build step), so it must never drift.
// It builds the sources of HEAD (or the commit given as the argument) in a temporary directory, so uncommitted
// work neither hides nor fakes a drift;
// outside a git checkout it builds the working tree and compares with the working tree's bundle.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// small Reads; the rest of the hooks; the opt-in gates; the commands
const BUNDLES = ['dist/cli.cjs', 'dist/main.cjs', 'dist/gates.cjs', 'dist/commands.cjs'];
const INPUTS = ['src', 'scripts', 'package.json', 'tsconfig.json']; // esbuild reads tsconfig (strict: "use strict")
const REV = process.argv[2] ?? 'HEAD'; // another commit to check, e.g. in a bisect

const work = mkdtempSync(join(tmpdir(), 'rcp-check-bundle-'));
try {
  let committed;
  try {
    committed = BUNDLES.map((b) => execFileSync('git', ['show', `${REV}:${b}`], { cwd: root, maxBuffer: 64 << 20 }));
    const archive = execFileSync('git', ['archive', '--format=tar', REV, ...INPUTS], { cwd: root, maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', work], { input: archive });
  } catch {
    committed = BUNDLES.map((b) => readFileSync(join(root, b)));
    for (const p of INPUTS) cpSync(join(root, p), join(work, p), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  execFileSync(process.execPath, [join(work, 'scripts/build.mjs')], { cwd: work, stdio: 'inherit' });
  for (const [i, BUNDLE] of BUNDLES.entries()) {
    const fresh = readFileSync(join(work, BUNDLE));
    if (Buffer.compare(fresh, committed[i]) !== 0) {
      process.stderr.write(
        `check-bundle: the committed ${BUNDLE} (${committed[i].length} bytes) differs from a fresh build of the committed sources (${fresh.length} bytes).\n`
        + `Run \`npm run build\` and commit ${BUNDLE} with the source change that caused it.\n`,
      );
      process.exitCode = 1;
    } else {
      process.stdout.write(`check-bundle: ${BUNDLE} matches a fresh build (${fresh.length} bytes).\n`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
