// The engine's limits, as docs/ENGINE.md §2–3 states them (verified on Claude Code 2.1.337).

export const DEFAULT_CAP = 25_000;

/** A read with no `limit` of a file larger than this is an error, not a page. */
export const WHOLE_FILE_MAX_BYTES = 262_144;

/** The engine's partial page of a whole read holds about this share of the cap, by its own count. */
export const ENGINE_PAGE_FILL = 0.85;

export const CAP_ENV = 'CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS';

export interface CapSource {
  cap: number;
  from: 'default' | 'env' | 'learned';
}

/** The cap the engine applies: the env override when set and positive, else 25,000; a cap the engine
 * itself reported in a refusal this session (some sessions run at 10,000) wins over both. */
export function resolveCap(env: NodeJS.ProcessEnv, learned?: number): CapSource {
  if (learned !== undefined && Number.isInteger(learned) && learned > 0) return { cap: learned, from: 'learned' };
  const raw = env[CAP_ENV];
  if (raw !== undefined && /^\s*\d+\s*$/.test(raw)) {
    const n = Number.parseInt(raw, 10);
    if (n > 0) return { cap: n, from: 'env' };
  }
  return { cap: DEFAULT_CAP, from: 'default' };
}

export function isJsonLike(path: string): boolean {
  return /\.(json|jsonl|jsonc)$/i.test(path);
}

/** UTF-16 units per token in the engine's own estimate of a window: 4, or 2 for JSON files. */
export function lengthDivisor(path: string): number {
  return isJsonLike(path) ? 2 : 4;
}

/** Whether the engine's count of a text of `chars` UTF-16 units is its estimate by length, not a tokenizer's: what it
 * reports when count_tokens fails, as it does behind an API gateway that lacks it (docs/ENGINE.md §3.3). A tokenizer
 * gives that exact number by chance in about 1 window of 1,000 (docs/ROUNDS.md), and a later count that differs
 * undoes it. */
export function countedByLength(tokens: number, chars: number, path: string): boolean {
  return chars > 0 && tokens === Math.round(chars / lengthDivisor(path));
}

/** The engine estimates len/4 (len/2 for JSON files) and skips count_tokens while that estimate is at most
 * cap/4, so a window of at most this many UTF-16 units is never counted and never refused on tokens. */
export function neverCountedChars(cap: number, path: string): number {
  return isJsonLike(path) ? Math.floor(cap / 2) : cap;
}
