// A unified line diff for `install --dry-run`: what would change in the settings file, with some context.

export function unifiedDiff(before: string, after: string, fromName: string, toName: string, context = 3): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = lineOps(a, b);
  const out = [`--- ${fromName}`, `+++ ${toName}`];
  // Group the edit script into hunks: runs of changes with up to `context` equal lines around them.
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === ' ') i++;
    if (i >= ops.length) break;
    let start = i;
    let back = 0;
    while (start > 0 && back < context && ops[start - 1]!.kind === ' ') { start--; back++; }
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let run = 0;
      while (end + run < ops.length && ops[end + run]!.kind === ' ') run++;
      if (end + run < ops.length && run <= 2 * context) { end += run; continue; }
      end += Math.min(run, context);
      break;
    }
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.a;
    const bStart = hunk[0]!.b;
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.text}`);
    i = end;
  }
  return `${out.join('\n')}\n`;
}

interface Op { kind: ' ' | '-' | '+'; text: string; a: number; b: number }

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A shortest edit script by longest common subsequence; settings files are small enough for the table. */
function lineOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) {
    // Too big for the table: show it as a whole replacement rather than spend the memory.
    return [
      ...a.map((text, i) => ({ kind: '-' as const, text, a: i, b: 0 })),
      ...b.map((text, i) => ({ kind: '+' as const, text, a: n, b: i })),
    ];
  }
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let x = n - 1; x >= 0; x--) {
    for (let y = m - 1; y >= 0; y--) {
      lcs[x]![y] = a[x] === b[y] ? lcs[x + 1]![y + 1]! + 1 : Math.max(lcs[x + 1]![y]!, lcs[x]![y + 1]!);
    }
  }
  const ops: Op[] = [];
  let x = 0;
  let y = 0;
  while (x < n || y < m) {
    if (x < n && y < m && a[x] === b[y]) { ops.push({ kind: ' ', text: a[x]!, a: x, b: y }); x++; y++; }
    else if (x < n && (y >= m || lcs[x + 1]![y]! >= lcs[x]![y + 1]!)) { ops.push({ kind: '-', text: a[x]!, a: x, b: y }); x++; }
    else { ops.push({ kind: '+', text: b[y]!, a: x, b: y }); y++; }
  }
  return ops;
}
