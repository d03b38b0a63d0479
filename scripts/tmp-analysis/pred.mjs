import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { simFile } from '/work/main/scripts/lib/engine-sim.mjs';
import { oracle } from '/work/main/scripts/lib/oracle.mjs';
import { corpusFiles } from '/work/main/scripts/lib/rounds-corpus.mjs';
import { tokenizerNamed, windowCounter } from '/work/main/scripts/lib/token-count.mjs';
await build({ stdin: { contents: "export { measureWindow } from './src/hooks/measure.ts';", resolveDir: '/work/main', loader: 'ts' },
  outfile: '/work/main/scripts/tmp-analysis/measure.mjs', bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
const { measureWindow } = await import(pathToFileURL('/work/main/scripts/tmp-analysis/measure.mjs').href);
const toks = process.argv[2].split(',');
const files = corpusFiles({ log: () => {} }).files;
for (const tname of toks) {
  const tok = tokenizerNamed(tname);
  const errs = { first: [], last: [], mean: [] };
  for (const cf of files) {
    const f = simFile(cf.path);
    const c = windowCounter(f, tok);
    const o = oracle(f, c, 25000);
    if (o.windows.length < 2) continue;
    const r = o.windows.map(([s, n]) => c.count(s - 1, s - 1 + n) / measureWindow(cf.path, s, n, Date.now() + 60000).pointTokens);
    for (let k = 1; k < r.length - 1; k++) { // skip last (partial)
      errs.first.push(r[k] / r[0]); errs.last.push(r[k] / r[k - 1]);
      errs.mean.push(r[k] / (r.slice(0, k).reduce((a, b) => a + b, 0) / k));
    }
  }
  const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(p * (s.length - 1))].toFixed(3); };
  for (const [k, a] of Object.entries(errs)) console.log(tname, k, a.length, 'q05', q(a, .05), 'q50', q(a, .5), 'q90', q(a, .9), 'q95', q(a, .95), 'q98', q(a, .98), '>1.03', (a.filter(x=>x>1.03).length/a.length).toFixed(3), '>1.05', (a.filter(x=>x>1.05).length/a.length).toFixed(3));
}
