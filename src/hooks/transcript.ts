// The model's own tool input, read back from the session transcript. The post hooks see only the input that
// ran; when another hook shortened a window, the transcript still holds what the model asked for (the engine
// writes the assistant's tool_use line before it runs any hook).
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isRecord } from '../state/record.js';

/** The tool_use is among the last lines written: the tail is enough, whatever the transcript's size. */
const TAIL_BYTES = 1024 * 1024;

export function modelInput(transcriptPath: unknown, toolUseId: string): Record<string, unknown> | undefined {
  if (typeof transcriptPath !== 'string') return undefined;
  const tail = readTailBytes(transcriptPath, TAIL_BYTES);
  return tail ? toolUse(tail.toString('utf8'), toolUseId)?.input : undefined;
}

/** The last `bytes` of a file (never a FIFO or a device), undecoded, or undefined when there is none to read. */
export function readTailBytes(path: string | undefined, bytes: number): Buffer | undefined {
  if (!path || path.includes('\0')) return undefined;
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return undefined;
      const length = Math.min(st.size, bytes);
      const buf = Buffer.allocUnsafe(length);
      const n = readSync(fd, buf, 0, length, st.size - length);
      return buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

export interface ToolUse { name: string; input: Record<string, unknown> }

/** The tool_use block with this id (name and input as the engine recorded them), from the last assistant record
 * in the JSONL that holds it. Pure; the post hook and the gates both read calls back this way. */
export function toolUse(jsonl: string, toolUseId: string): ToolUse | undefined {
  const needle = `"id":${JSON.stringify(toolUseId)}`;
  let at = jsonl.lastIndexOf(needle);
  while (at >= 0) {
    const start = jsonl.lastIndexOf('\n', at) + 1;
    const endNl = jsonl.indexOf('\n', at);
    const found = toolUseIn(jsonl.slice(start, endNl < 0 ? jsonl.length : endNl), toolUseId);
    if (found) return found;
    at = start > 0 ? jsonl.lastIndexOf(needle, start - 1) : -1;
  }
  return undefined;
}

function toolUseIn(line: string, toolUseId: string): ToolUse | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return undefined; // the first line of the tail may be cut
  }
  if (!isRecord(record) || record.type !== 'assistant' || !isRecord(record.message)) return undefined;
  const content = record.message.content;
  if (!Array.isArray(content)) return undefined;
  for (const b of content) {
    if (isRecord(b) && b.type === 'tool_use' && b.id === toolUseId && typeof b.name === 'string' && isRecord(b.input)) {
      return { name: b.name, input: b.input };
    }
  }
  return undefined;
}
