#!/usr/bin/env node
// `npm run demo`: the real Claude Code engine, offline, reads a generated file through a scripted model — once
// with read-ceiling-pager wired in, once without — and shows what happened at each Read.
// Needs only `npm ci`: no API key, no network (the model is a stand-in on 127.0.0.1).
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { coverage, ranges } from './harness/check.mjs';
import { removeTempDirs, tempDir } from './harness/engine.mjs';
import { put, withLongLine } from './harness/files.mjs';
import { readSession } from './harness/session.mjs';

const CAP = 3000;
const LONG_AT = 90;
const WIDTH = Math.min(process.stdout.columns || 110, 140);

const dir = tempDir('demo');
const path = put(dir, 'field-notes.txt', withLongLine(200, LONG_AT, 30_000, 7));
const size = statSync(path).size;
const totalLines = coverage(path, []).lines;

/** @param {string} s @param {number} [w] */
const clip = (s, w = WIDTH - 22) => (s.length <= w ? s : `${s.slice(0, w - 1)}…`);
/** @param {string} label @param {string} text */
const row = (label, text) => console.log(`   ${label.padEnd(17)}${text}`);
/** @param {Record<string, unknown>} input */
const readCall = (input) => `Read ${Object.entries(input).filter(([k]) => k !== 'file_path').map(([k, v]) => `${k}=${v}`).join(' ') || '(whole file)'}`;

/** @param {string} title @param {import('./harness/session.mjs').Session} s @param {boolean} detailed */
function show(title, s, detailed) {
  console.log(`\n=== ${title} ${'='.repeat(Math.max(0, WIDTH - title.length - 5))}`);
  const c = s.cursor(path);
  c.steps.forEach((st, i) => {
    console.log(`\n${String(i + 1).padStart(2)}. The model asked  ${readCall(st.asked)}`);
    const ran = s.ran.get(st.toolUseId);
    if (st.isError) {
      row('The engine said', clip(`✗ ${st.content}`));
    } else if (ran?.file) {
      const f = ran.file;
      const last = f.startLine + f.numLines - 1;
      const asked = st.asked.limit ?? Infinity;
      const changed = f.numLines < asked && last < f.totalLines - 1 ? '   ← shortened before it ran' : '';
      row('The engine ran', `lines ${f.startLine}-${last} of ${f.totalLines}${changed}`);
      if (detailed && st.lines.length > 0) {
        const first = st.lines[0];
        const end = st.lines[st.lines.length - 1];
        row('Lines back', clip(`${first?.[0]}\t${first?.[1] || '(empty line)'}`));
        if (st.lines.length > 2) row('', `… ${st.lines.length - 2} more …`);
        if (end && end !== first) row('', clip(`${end[0]}\t${end[1] || '(empty line)'}`));
      }
    }
    for (const note of st.notes) {
      const text = note.replace(/^\w+:Read hook additional context: /, '');
      if (detailed) {
        row('The model read', '');
        for (const l of wrap(text, WIDTH - 8)) console.log(`      │ ${l}`);
      } else {
        row('The model read', clip(text));
      }
    }
    row('So it', st.decision);
  });
  const cov = coverage(path, c.received);
  return { calls: c.steps.length, refusals: c.refusals, missing: cov.missing };
}

/** @param {string} text @param {number} w */
function wrap(text, w) {
  const out = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > w) { out.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

console.log('read-ceiling-pager demo: the real Claude Code engine, offline, with a scripted model.');
console.log(`The file: ${basename(path)}, ${totalLines} lines, ${(size / 1024).toFixed(1)} KiB; line ${LONG_AT} alone is ${(30_000 / 1000).toFixed(0)}k characters.`);
console.log(`The Read cap: ${CAP} tokens (CLAUDE_CODE_FILE_READ_MAX_OUTPUT_TOKENS=${CAP}); count_tokens by a real BPE tokenizer.`);
console.log('The model asks for the whole file in one window, then follows whatever it is told;');
console.log('after a refusal nobody explains, it halves its window and tries again.');

const target = { path, offset: 1, limit: totalLines };
const withPager = await readSession({ cwd: dir, hooks: 'pager', cap: CAP, targets: [target] });
const without = await readSession({ cwd: dir, hooks: 'none', cap: CAP, targets: [target] });
if (!withPager.ok || !without.ok) {
  console.error('\nThe engine did not finish a session:', (withPager.ok ? without : withPager).run.stderr.slice(0, 2000));
  process.exit(1);
}
const a = show('With read-ceiling-pager', withPager, true);
const b = show('Without it (the same model, the same file)', without, false);

console.log(`\n=== Side by side ${'='.repeat(Math.max(0, WIDTH - 18))}`);
console.log(`                     with the pager   without`);
console.log(`   Reads             ${String(a.calls).padEnd(17)}${b.calls}`);
console.log(`   refusals          ${String(a.refusals).padEnd(17)}${b.refusals}`);
console.log(`   lines never seen  ${(a.missing.length ? ranges(a.missing) : 'none').padEnd(17)}${b.missing.length ? `${ranges(b.missing)} (${b.missing.length} lines)` : 'none'}`);
if (a.missing.includes(LONG_AT)) console.log(`   (line ${LONG_AT} fits no Read window at this cap; the pager's note named Grep or a shell byte range for it)`);
console.log(`\n(${withPager.run.ms + without.run.ms} ms of engine time; count_tokens by ${withPager.tokenizer.name})`);
removeTempDirs();
