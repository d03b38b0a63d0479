// Bundles the pager's own estimator (TypeScript sources) into a temporary ES module and imports it, so the
// calibration and the benchmark measure exactly the code the hook runs, with no separate build step.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function loadEstimator() {
  const dir = mkdtempSync(join(tmpdir(), 'rcp-src-'));
  const outfile = join(dir, 'estimator.mjs');
  try {
    await build({
      stdin: {
        contents: [
          "export * from './src/estimate/density.ts';",
          "export * from './src/estimate/weights.ts';",
          "export * from './src/estimate/fit.ts';",
          "export * from './src/estimate/cap.ts';",
          "export * from './src/estimate/groups.ts';",
          "export * from './src/hooks/measure.ts';",
          "export * from './src/hooks/sizing.ts';",
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
