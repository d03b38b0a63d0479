// The hook input, validated only where the pager uses it. Loose on purpose: the engine adds fields every few
// releases, and tool_input must survive whole because updatedInput replaces the input instead of merging.
import * as z from 'zod/mini';

const line = z.number().check(z.int(), z.nonnegative());

export const ReadInput = z.looseObject({
  file_path: z.string(),
  offset: z.optional(line),
  limit: z.optional(line),
  pages: z.optional(z.unknown()),
  allow_large: z.optional(z.unknown()),
});
export type ReadInput = z.infer<typeof ReadInput>;

const common = {
  session_id: z.string(),
  transcript_path: z.optional(z.string()),
  /** Set on a subagent's calls, whose transcript_path is still the session's (docs/ENGINE.md). */
  agent_id: z.optional(z.string()),
  tool_name: z.literal('Read'),
  tool_use_id: z.string(),
  tool_input: ReadInput,
};

export const PreToolUse = z.looseObject({
  ...common,
  hook_event_name: z.literal('PreToolUse'),
});

export const ReadFile = z.looseObject({
  filePath: z.optional(z.string()),
  startLine: line,
  numLines: line,
  totalLines: line,
  truncatedByTokenCap: z.optional(z.boolean()),
  /** The text shown, without line numbers: on a partial page that is a character excerpt, shorter than its lines. */
  content: z.optional(z.string()),
});

export const PostToolUse = z.looseObject({
  ...common,
  hook_event_name: z.literal('PostToolUse'),
  tool_response: z.looseObject({ type: z.optional(z.string()), file: ReadFile }),
});

export const PostToolUseFailure = z.looseObject({
  ...common,
  hook_event_name: z.literal('PostToolUseFailure'),
  error: z.string(),
});

export const PostEvent = z.union([PostToolUse, PostToolUseFailure]);

export type PreToolUse = z.infer<typeof PreToolUse>;
export type PostToolUse = z.infer<typeof PostToolUse>;
export type PostToolUseFailure = z.infer<typeof PostToolUseFailure>;
export type PostEvent = z.infer<typeof PostEvent>;
