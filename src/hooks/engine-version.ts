// Which Claude Code runs the hooks: what an older engine does differently, known before it does it. Pure; `doctor`
// orders versions with it too.

/** The first engine that pages a Read with no limit of a file under 256 KiB over the cap; earlier ones refuse it
 * as they refuse a window (docs/ENGINE.md 2.6: refused on 2.1.100 to 2.1.144). */
export const FIRST_PAGING_ENGINE = '2.1.145';

/** Engines from 2.1.6 to 2.1.78 hand the model a tool result of more than `PERSISTED_OVER_CHARS` characters as a file
 * saved aside and a 2 KB preview (`<persisted-output>`), a Read's numbered lines too; 2.1.79 exempts Read
 * (docs/ENGINE.md 9.9). */
export const FIRST_PERSISTING_ENGINE = '2.1.6';
export const FIRST_READ_EXEMPT_ENGINE = '2.1.79';
export const PERSISTED_OVER_CHARS = 100_000;
/** The reminder those engines append to a text Read's result (340 characters), with room to spare: the lines' own
 * share of the limit is what is left. */
export const READ_REMINDER_CHARS = 400;
/** The first engine that numbers a result's lines as `1\t`; earlier ones write the number padded to six and an
 * arrow, `     1→` (docs/ENGINE.md 9.9). */
export const FIRST_TAB_NUMBERING_ENGINE = '2.1.86';

/** The first engine that reads a file named without an extension as an image when its first bytes are one's
 * (docs/ENGINE.md §1.7); earlier ones read it as text. */
export const FIRST_IMAGE_SIGNATURE_ENGINE = '2.1.187';

/** The first engine that decodes a file starting with UTF-16LE's mark (`FF FE`) as UTF-16LE; earlier ones read it as
 * UTF-8, as any other file (docs/ENGINE.md §3.1). */
export const FIRST_UTF16LE_ENGINE = '2.1.299';

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

/** The most characters of numbered lines (line numbers, text and the newlines between them) a Read's result may hold
 * on an engine of this version and still reach the model whole; undefined where any length does. */
export function resultCharsCap(version: string | undefined): number | undefined {
  if (!isEngineVersion(version)) return undefined;
  const persists =
    compareVersions(version, FIRST_PERSISTING_ENGINE) >= 0 && compareVersions(version, FIRST_READ_EXEMPT_ENGINE) < 0;
  return persists ? PERSISTED_OVER_CHARS - READ_REMINDER_CHARS : undefined;
}

/** An engine of this version numbers a result's lines as `     1→`, not as `1\t`. */
export function numbersWithArrow(version: string | undefined): boolean {
  return isEngineVersion(version) && compareVersions(version, FIRST_TAB_NUMBERING_ENGINE) < 0;
}

/** An engine of this version refuses a Read with no limit of a file under 256 KiB that is over the cap. */
export function engineRefusesWholeReads(version: string | undefined): boolean {
  return isEngineVersion(version) && compareVersions(version, FIRST_PAGING_ENGINE) < 0;
}

/** An engine of this version decodes a file that starts with `FF FE` as UTF-16LE; unknown, the newest engine's way. */
export function decodesUtf16le(version: string | undefined): boolean {
  return !isEngineVersion(version) || compareVersions(version, FIRST_UTF16LE_ENGINE) >= 0;
}

/** An engine of this version reads a file named without an extension as an image by its first bytes; unknown, the
 * newest engine's way. */
export function knowsImagesBySignature(version: string | undefined): boolean {
  return !isEngineVersion(version) || compareVersions(version, FIRST_IMAGE_SIGNATURE_ENGINE) >= 0;
}
