// The Read tool's input and result as the pinned engine publishes them (`sdk-tools.d.ts` in @anthropic-ai/claude-code),
// against what the hooks parse (src/hooks/input.ts). `npm test` type-checks this file (`tsc --noEmit`), so raising the
// pinned engine to one that adds a field to Read's input, a kind of result, or renames a field the post hook reads
// fails here first. A new input field may change what a window is, as `pages` and `allow_large` did (docs/ENGINE.md
// 1.6: the pager leaves such Reads alone), and a new kind of result may hold lines the notes should count.
import type { FileReadInput, FileReadOutput } from '@anthropic-ai/claude-code/sdk-tools.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import { PostToolUse, ReadFile, ReadInput } from '../../src/hooks/input.js';

type Result<K extends FileReadOutput['type']> = Extract<FileReadOutput, { type: K }>;
/** A loose schema's type without its index signature: the fields it names. */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

describe("the engine's published Read types", () => {
  it('has the input fields the pager knows, and no other', () => {
    expectTypeOf<keyof FileReadInput>().toEqualTypeOf<keyof typeof ReadInput.shape>();
    expectTypeOf<FileReadInput>().toExtend<Named<z.input<typeof ReadInput>>>();
  });

  it('a Read input of every published field parses whole: updatedInput must carry them all back', () => {
    const input: Required<FileReadInput> = {
      file_path: '/project/notes.txt',
      offset: 3,
      limit: 40,
      pages: '1-2',
      allow_large: false,
    };
    const parsed = ReadInput.safeParse({ ...input, a_later_field: 'kept' });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({ ...input, a_later_field: 'kept' });
  });

  it('has the kinds of result the pager tells apart: only text holds numbered lines', () => {
    expectTypeOf<FileReadOutput['type']>().toEqualTypeOf<'text' | 'image' | 'notebook' | 'pdf' | 'parts'>();
    type Lines = Named<z.input<typeof ReadFile>>;
    expectTypeOf<Result<'text'>['file']>().toExtend<Lines>();
    expectTypeOf<keyof typeof ReadFile.shape>().toExtend<keyof Result<'text'>['file']>();
    expectTypeOf<Result<'image'>['file']>().not.toExtend<Lines>();
    expectTypeOf<Result<'notebook'>['file']>().not.toExtend<Lines>();
    expectTypeOf<Result<'pdf'>['file']>().not.toExtend<Lines>();
    expectTypeOf<Result<'parts'>['file']>().not.toExtend<Lines>();
  });

  it("reads a text result as the engine types it, and leaves a notebook's alone", () => {
    const event = (tool_response: FileReadOutput) => ({
      session_id: 's',
      tool_name: 'Read',
      tool_use_id: 'toolu_1',
      tool_input: { file_path: '/project/notes.txt', offset: 3, limit: 2 },
      hook_event_name: 'PostToolUse',
      tool_response,
    });
    const text: Result<'text'> = {
      type: 'text',
      file: { filePath: '/project/notes.txt', content: 'c\nd', numLines: 2, startLine: 3, totalLines: 9 },
    };
    const read = PostToolUse.safeParse(event(text));
    expect(read.success && read.data.tool_response.file).toMatchObject({ startLine: 3, numLines: 2, totalLines: 9 });
    const notebook: Result<'notebook'> = { type: 'notebook', file: { filePath: '/project/a.ipynb', cells: [] } };
    expect(PostToolUse.safeParse(event(notebook)).success).toBe(false);
  });
});
