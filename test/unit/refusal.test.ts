import { describe, expect, it } from 'vitest';
import { parseRefusal } from '../../src/hooks/refusal';

describe('parseRefusal reads the engine\'s own error texts (docs/ENGINE.md §5)', () => {
  it('takes the count and the cap from a token-cap refusal, whatever follows', () => {
    const error = 'File content (58000 tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file. To read it anyway, up to what still fits in your context, call Read again with allow_large: true — only if you genuinely need all of it or the user asked for the whole file.';
    expect(parseRefusal(error)).toEqual({ kind: 'tokens', tokens: 58000, cap: 25000 });
  });

  it('sees a session running at a 10,000-token cap', () => {
    expect(parseRefusal('File content (12001 tokens) exceeds maximum allowed tokens (10000).')).toEqual({ kind: 'tokens', tokens: 12001, cap: 10000 });
  });

  it('tolerates thousands separators a future release might print', () => {
    expect(parseRefusal('File content (58,000 tokens) exceeds maximum allowed tokens (25,000).')).toEqual({ kind: 'tokens', tokens: 58000, cap: 25000 });
  });

  it('reads the size cap', () => {
    expect(parseRefusal('File content (493.2KB) exceeds maximum allowed size (256KB). Use offset and limit parameters')).toEqual({ kind: 'size', size: '493.2KB', max: '256KB' });
  });

  it('reads the range cap', () => {
    expect(parseRefusal('The requested line range contains over 3.1MB of text, more than a read can return. Use a smaller limit')).toEqual({ kind: 'range', max: '3.1MB' });
  });

  it('ignores everything else', () => {
    for (const text of ['File does not exist. Note: your current working directory is /repo.', '', 'tokens exceeds', 'File content (0 tokens) exceeds maximum allowed tokens (0).']) {
      expect(parseRefusal(text)).toBeUndefined();
    }
  });
});
