// Checks for JSON read back from a file anyone could have damaged, shared by the session rules and the gates.

/** Any id is a key, `__proto__` included (a tool_use_id is the engine's string): never a prototype change. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The value stored under `key` itself, never one inherited from the prototype (`constructor`, `__proto__`). */
export function ownValue<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A plain JSON object: not null, not an array. The one check every parser of damaged JSON uses. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A model name as a transcript records it (`claude-opus-5-5`), bounded: it keys the remembered densities. */
export function isModelName(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= 128 && /^[\w.:@/[\]-]+$/.test(v);
}

export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

export function allFinite(o: Record<string, unknown>, keys: string[]): boolean {
  return keys.every((k) => isFiniteNumber(o[k]));
}
