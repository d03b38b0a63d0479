// Reading a hook's input: the first thing every hook run does, so it lives in the small bundle (dist/cli.cjs)
// that every Read pays to load.
import { readSync } from 'node:fs';

/** Past this the hook stops reading the file and passes the Read through. Generous on purpose: on a busy
 * machine dozens of parallel hooks share two cores, and the settings give each hook 10 s. */
export const SCAN_DEADLINE_MS = 7_000;
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** All of stdin, or undefined when it is too large to be a hook input or cannot be read.
 * Read synchronously: the stream API would load the network stack on every Read. A JSON object is
 * self-delimiting, so a writer that sends a whole input and never closes stdin still gets its answer; one that
 * sends nothing and never closes is ended by the engine's hook timeout, and the Read runs as asked. */
export function readStdin(deadline: number): string | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.allocUnsafe(256 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' && Date.now() < deadline) { pause(); continue; }
      if (code === 'EOF') break;
      return undefined;
    }
    if (n === 0) break;
    total += n;
    if (total > MAX_STDIN_BYTES) return undefined;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    if (endsWithBrace(buf, n) && isWholeJson(chunks)) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function endsWithBrace(buf: Buffer, n: number): boolean {
  let i = n - 1;
  while (i >= 0 && (buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x20 || buf[i] === 0x09)) i--;
  return i >= 0 && buf[i] === 0x7d;
}

function isWholeJson(chunks: Buffer[]): boolean {
  try {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
export function pause(): void {
  Atomics.wait(sleeper, 0, 0, 2);
}
