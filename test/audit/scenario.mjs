// One scripted session on the real engine that meets every kind of cap event the audit counts: a PARTIAL page
// (whole-file read under 256 KiB over the cap), an explicit window over the cap, a step that follows the pager's
// advice when there is one (otherwise retries the same file), and a whole-file read over 256 KiB.
// Run bare, with the pager as settings hooks, or as a plugin; returns the transcripts and what the model saw.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSession } from './session.mjs';

export const CAP = 5000;
const line = (i) => `line ${String(i).padStart(5, '0')} abcdefghi`; // 20 chars + newline

/** @param {string} dir a fresh directory @param {false | true | 'plugin'} pager */
export async function capScenario(dir, pager) {
  const repo = join(dir, 'repo');
  mkdirSync(repo, { recursive: true });
  const big = join(repo, 'big.txt'); // 63,000 B: under the size cap, about 18,900 tokens at 0.3 per char
  const huge = join(repo, 'huge.txt'); // 315,000 B: over the size cap
  writeFileSync(big, Array.from({ length: 3000 }, (_, i) => line(i + 1)).join('\n') + '\n');
  writeFileSync(huge, Array.from({ length: 15000 }, (_, i) => line(i + 1)).join('\n') + '\n');
  const followOrRetry = (messages) => {
    const text = messages.map((m) => JSON.stringify(m.content)).join('\n');
    const advice = [...text.matchAll(/read-ceiling-pager:[^"]*?offset=(\d+) limit=(\d+)/g)].at(-1);
    return advice
      ? { reads: [{ file_path: big, offset: Number(advice[1]), limit: Number(advice[2]) }] }
      : { reads: [{ file_path: big, offset: 1, limit: 500 }] };
  };
  const run = await runSession({
    home: join(dir, 'home'), cwd: repo, pager, cap: CAP, tokensPerChar: 0.3,
    script: [
      { reads: [{ file_path: big }] },
      { reads: [{ file_path: big, offset: 1, limit: 3000 }] },
      followOrRetry,
      { reads: [{ file_path: huge }] },
      { text: 'Done.' },
    ],
  });
  return { ...run, big, huge, seen: seenByModel(run.messages) };
}

/** What the model was shown, counted from the last request the stand-in received (the whole conversation). */
export function seenByModel(messages) {
  const calls = new Map();
  const seen = { reads: 0, tokenRefusals: 0, sizeRefusals: 0, banners: new Set(), notes: new Set(), shortened: 0, results: [] };
  for (const m of messages) {
    const blocks = Array.isArray(m.content) ? m.content : [{ type: 'text', text: String(m.content) }];
    for (const b of blocks) {
      if (b.type === 'tool_use' && b.name === 'Read') { seen.reads++; calls.set(b.id, b.input); }
      const text = b.type === 'tool_result' ? (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)) : b.type === 'text' ? b.text : '';
      if (b.type === 'tool_result') {
        if (b.is_error && /exceeds maximum allowed tokens/.test(text)) seen.tokenRefusals++;
        if (b.is_error && /exceeds maximum allowed size/.test(text)) seen.sizeRefusals++;
        const input = calls.get(b.tool_use_id);
        const lines = b.is_error ? 0 : text.split('\n').filter((l) => /^\d+\t/.test(l)).length;
        seen.results.push({ input, lines, isError: b.is_error === true });
        if (!b.is_error && input?.limit !== undefined && lines < input.limit) seen.shortened++;
      }
      for (const banner of text.match(/\[Truncated: PARTIAL view[^\]]*\]/g) ?? []) seen.banners.add(banner);
      for (const note of text.match(/read-ceiling-pager: [^\n"]*/g) ?? []) seen.notes.add(note);
    }
  }
  return { ...seen, banners: seen.banners.size, notes: seen.notes.size };
}
