// Which Claude Code runs the hooks: what an older engine does differently, known before it does it. Pure; `doctor`
// orders versions with it too.

/** The first engine that pages a Read with no limit of a file under 256 KiB over the cap; earlier ones refuse it
 * as they refuse a window (docs/ENGINE.md 2.6: refused on 2.1.100 to 2.1.144). */
export const FIRST_PAGING_ENGINE = '2.1.145';

/** A version as the engine writes it, major.minor.patch. */
export function isEngineVersion(v: unknown): v is string {
  return typeof v === 'string' && /^\d{1,4}\.\d{1,4}\.\d{1,6}$/.test(v);
}

/** The engine's version from the environment it gives its hooks: `AI_AGENT=claude-code_2-1-332_harness` (2.1.144
 * and later; 2.1.100 sets none). Undefined when it is not there or not in that form. */
export function engineVersionOf(env: NodeJS.ProcessEnv): string | undefined {
  const m = /^claude-code_(\d{1,4})-(\d{1,4})-(\d{1,6})(?:_|$)/.exec(env.AI_AGENT ?? '');
  return m ? `${m[1]}.${m[2]}.${m[3]}` : undefined;
}

/** Orders `major.minor.patch` versions numerically; anything after the patch number is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (/^(\d+)\.(\d+)\.(\d+)/.exec(v) ?? []).slice(1, 4).map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** An engine of this version refuses a Read with no limit of a file under 256 KiB that is over the cap. */
export function engineRefusesWholeReads(version: string | undefined): boolean {
  return isEngineVersion(version) && compareVersions(version, FIRST_PAGING_ENGINE) < 0;
}
