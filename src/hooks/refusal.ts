// The engine's Read errors are display text (docs/ENGINE.md §5): matched loosely, and anything else is ignored.

export type Refusal =
  | { kind: 'tokens'; tokens: number; cap: number }
  | { kind: 'size'; size: string; max: string }
  | { kind: 'range'; max: string };

export function parseRefusal(error: string): Refusal | undefined {
  const tokens = /\((\d[\d,]*) tokens\) exceeds maximum allowed tokens \((\d[\d,]*)\)/i.exec(error);
  if (tokens) {
    const n = toInt(tokens[1]);
    const cap = toInt(tokens[2]);
    if (n > 0 && cap > 0) return { kind: 'tokens', tokens: n, cap };
  }
  const size = /content \(([\d.,]+\s*[KMGT]?i?B)\) exceeds maximum allowed size \(([\d.,]+\s*[KMGT]?i?B)\)/i.exec(error);
  if (size) return { kind: 'size', size: size[1]!, max: size[2]! };
  const range = /requested line range contains over ([\d.,]+\s*[KMGT]?i?B)/i.exec(error);
  if (range) return { kind: 'range', max: range[1]! };
  return undefined;
}

/** A count as the engine prints it, thousands separators allowed (`31,000`). */
export function toInt(s: string | undefined): number {
  return Number.parseInt((s ?? '').replace(/,/g, ''), 10);
}
