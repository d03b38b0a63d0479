// Builds the one bundle every Read pays to start: dist/cli.cjs, no runtime dependencies.
// Deterministic (no banner with dates, no sourcemap paths), so CI can compare it with the committed copy.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Four bundles: every hook run pays to load cli.cjs (each KB of it costs start-up time, used or not), so it holds
// only what answers the commonest Read (a small file); the rest of the hooks are main.cjs, the opt-in gates' code
// gates.cjs, and the commands with commander commands.cjs (a hook never parses them), each loaded by cli.cjs only
// when needed.
const BUNDLES = [
  ['src/cli.ts', 'dist/cli.cjs'],
  ['src/main.ts', 'dist/main.cjs'],
  ['src/gates/run.ts', 'dist/gates.cjs'],
  ['src/commands/program.ts', 'dist/commands.cjs'],
];
for (const [entry, out] of BUNDLES) await build({
  entryPoints: [join(root, entry)],
  outfile: join(root, out),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(version) },
});
