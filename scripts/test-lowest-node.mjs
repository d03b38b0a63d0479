// Proves the lowest Node version package.json promises: fetches that Node from the npm registry (the
// node-<platform> packages carry the official binaries) and runs the hooks' black-box tests with it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
const lowest = /^>=\s*(\d+\.\d+\.\d+)$/.exec(range)?.[1];
if (!lowest) throw new Error(`engines.node is "${range}": expected ">=X.Y.Z"`);
const pkg = `node-${process.platform}-${process.arch}`;
const prefix = join(root, 'node_modules', '.cache', `lowest-node-${lowest}`);
const node = join(prefix, 'node_modules', pkg, 'bin', 'node');
if (!existsSync(node)) {
  execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', `${pkg}@${lowest}`], { stdio: 'inherit' });
}
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.log(`lowest-node: running the hooks' black-box tests on Node ${version}`);
execFileSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', 'test/cli/hooks.test.ts'], {
  cwd: root, stdio: 'inherit', env: { ...process.env, PAGER_NODE: node },
});
