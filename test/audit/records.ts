// Hand-made transcript records in the shapes Claude Code 2.1.332 writes (checked against real transcripts from
// test/cli/audit.engine.test.ts, run on the e2e harness): enough fields for the census, plus the envelope fields a
// real record carries.

export interface FileResult {
  startLine: number;
  numLines: number;
  totalLines: number;
  truncatedByTokenCap?: boolean;
}

export class Transcript {
  readonly lines: string[] = [];
  private seq = 0;
  private clock: number;

  constructor(readonly sessionId: string, readonly cwd = '/repo', start = Date.now() - 3_600_000, readonly isSidechain = false) {
    this.clock = start;
  }

  private envelope(type: string, extra: Record<string, unknown>): Record<string, unknown> {
    this.clock += 1000;
    return {
      parentUuid: null, isSidechain: this.isSidechain, type, uuid: `u-${this.sessionId}-${++this.seq}`,
      timestamp: new Date(this.clock).toISOString(), userType: 'external', entrypoint: 'sdk-cli', cwd: this.cwd,
      sessionId: this.sessionId, version: '2.1.332', ...extra,
    };
  }

  private push(rec: Record<string, unknown>): this {
    this.lines.push(JSON.stringify(rec));
    return this;
  }

  /** Moves this transcript's clock, e.g. to put the next records before a period. */
  at(ms: number): this {
    this.clock = ms;
    return this;
  }

  prompt(text = 'Read the files.'): this {
    return this.push(this.envelope('user', { message: { role: 'user', content: text } }));
  }

  read(id: string, input: Record<string, unknown>): this {
    return this.push(this.envelope('assistant', {
      message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-opus-5-5', content: [{ type: 'tool_use', id, name: 'Read', input }], stop_reason: 'tool_use' },
    }));
  }

  /** Several Reads in one assistant message (parallel calls). */
  reads(calls: Array<[string, Record<string, unknown>]>): this {
    return this.push(this.envelope('assistant', {
      message: { role: 'assistant', content: calls.map(([id, input]) => ({ type: 'tool_use', id, name: 'Read', input })) },
    }));
  }

  otherTool(id: string, name: string): this {
    return this.push(this.envelope('assistant', { message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input: {} }] } }));
  }

  ok(id: string, path: string, f: FileResult): this {
    const file: Record<string, unknown> = { filePath: path, content: 'x', numLines: f.numLines, startLine: f.startLine, totalLines: f.totalLines };
    if (f.truncatedByTokenCap) file.truncatedByTokenCap = true;
    return this.push(this.envelope('user', {
      message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: `${f.startLine}\tx` }] },
      toolUseResult: { type: 'text', file },
    }));
  }

  error(id: string, text: string): this {
    return this.push(this.envelope('user', {
      message: { role: 'user', content: [{ type: 'tool_result', content: text, is_error: true, tool_use_id: id }] },
      toolUseResult: `Error: ${text}`,
    }));
  }

  tokenRefusal(id: string, tokens: number, cap: number): this {
    return this.error(id, tokenRefusalText(tokens, cap));
  }

  sizeRefusal(id: string, size = '493.2KB', max = '256KB'): this {
    return this.error(id, `File content (${size}) exceeds maximum allowed size (${max}). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.${SUFFIX}`);
  }

  rangeRefusal(id: string, max = '3.1MB'): this {
    return this.error(id, `The requested line range contains over ${max} of text, more than a read can return. Use a smaller limit — or, if a single line is this large, no limit will fit it: search for specific content instead.${SUFFIX}`);
  }

  /** The engine's PARTIAL banner, as the attachment record it writes after the tool_result. */
  banner(id: string, text: string): this {
    return this.push(this.envelope('attachment', { attachment: { type: 'read_truncation_notice', banner: text, toolUseID: id }, renderedRole: 'system' }));
  }

  /** The pager's PreToolUse output as the engine records it (only hooks that print something get a record). */
  preHook(id: string, updatedInput: Record<string, unknown>, command = 'node /opt/rcp/bin/read-ceiling-pager.js pre'): this {
    const stdout = `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput } })}\n`;
    return this.push(this.envelope('attachment', {
      attachment: { type: 'hook_success', hookName: 'PreToolUse:Read', toolUseID: id, hookEvent: 'PreToolUse', content: '', stdout, stderr: '', exitCode: 0, command, durationMs: 90 },
    }));
  }

  context(id: string, event: string, text: string | string[]): this {
    return this.push(this.envelope('attachment', {
      attachment: { type: 'hook_additional_context', content: Array.isArray(text) ? text : [text], hookName: `${event}:Read`, toolUseID: id, hookEvent: event },
      renderedRole: 'system',
    }));
  }

  /** The same texts as sent to the API: must never be counted again. */
  apiBlob(text: string): this {
    return this.push({ type: 'api-request-blob', sessionId: this.sessionId, hash: 'h', message: { role: 'system', content: [{ type: 'text', text }] } });
  }

  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

export const SUFFIX = ' To read it anyway, up to what still fits in your context, call Read again with allow_large: true — only if you genuinely need all of it or the user asked for the whole file.';

export function tokenRefusalText(tokens: number, cap: number): string {
  return `File content (${tokens} tokens) exceeds maximum allowed tokens (${cap}). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.${SUFFIX}`;
}

export function lineBanner(path: string, last: number, total: number, tokens: number, cap: number): string {
  return `[Truncated: PARTIAL view — ${path}: showing lines 1-${last} of ${total} total (${tokens} tokens, cap ${cap}). Call Read with offset=${last + 1} limit=${last} for the next page, or Grep to find a specific section.${SUFFIX} Do NOT answer from this page alone if the answer may be further in the file.]`;
}

export function charBanner(path: string, shown: number, chars: number, tokens: number, cap: number): string {
  return `[Truncated: PARTIAL view — ${path}: showing the first ${shown} of ${chars} characters (${tokens} tokens, cap ${cap}); this file has very long lines and cannot be paginated by line. Use Grep to find a specific section, or Read with offset/limit to page through it.${SUFFIX} Do NOT answer from this excerpt alone if the answer may be elsewhere in the file.]`;
}
