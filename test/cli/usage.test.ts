// Learning a file's density from the usage the transcript records, through the built binary: the engine writes each
// assistant message with the API's usage (the request's whole input), so what a window's result added to the next
// request is the model's own count of it, or a little more (docs/ENGINE.md 9.7). The next hook learns it: the
// window after is sized by it, and a named continuation it no longer fits is clamped before the engine refuses it.
// So the continuation after a file's first window is named wide, for the next `pre` to trim by that count. The same
// harness plays the engine's refusals: a refused Read of the model's starts a reading that the notes lead.
import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineRead, failureEvent, postEvent, preEvent, runHook } from '../helpers/hook';
import { PRIOR_SAFETY, SAME_TEXT_SAFETY } from '../../src/estimate/weights';
import { tabStaysApart } from '../../src/estimate/fit';
import { lineNumberDigits, lineNumberTokens } from '../../src/hooks/line-numbers';
import { LONG_LINE_REACH, measureWindow } from '../../src/hooks/measure';
import {
  chineseWordList,
  csvLedger,
  csvPrices,
  fileList,
  generatedParser,
  licenseRecords,
  mixedCode,
  prose,
  russianWordList,
} from '../helpers/text';
import { countText } from '../../scripts/lib/token-count.mjs';

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rcp-usage-'));
  file = join(dir, 'big.txt');
  writeFileSync(file, prose(12_000));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SYSTEM = 20_000;
const WRITTEN = 50;

/** One model reading a file through the hooks, following each note; the API's usage counts each result, and the
 * note that joins it, at `charsPerToken` ('constant': the usage of a stand-in that counts nothing; 'none': no usage
 * recorded; a function: by the window's first line). With `refuses`, the engine counts each window at
 * `charsPerToken` too, and refuses one over the cap. `numbersCost`: the share of the rule that the model's line
 * numbers cost. `stateOf`: the reading whose state directory this one shares (a later session on that machine). */
function reading(
  name: string,
  charsPerToken: number | 'constant' | 'none' | ((first: number) => number),
  {
    path = file,
    refuses = false,
    lateMs = 0,
    numbersCost = 1,
    indentCost = 0,
    digitsApart = false,
    numberedByCounter = false,
    stateOf = name,
    counter,
    otherNote,
    version,
  }: {
    path?: string; refuses?: boolean; lateMs?: number; numbersCost?: number; indentCost?: number;
    digitsApart?: boolean; stateOf?: string; counter?: (text: string) => number; otherNote?: string;
    /** The usage counts the numbered result as `counter` does, numbers, tabs and text at once (no rule). */
    numberedByCounter?: boolean;
    /** The engine's version, as its records name it (docs/ENGINE.md 9.8): none by default. */
    version?: string;
  } = {},
) {
  const session = `sess-${name}`;
  const transcript = join(dir, `${name}.jsonl`);
  writeFileSync(transcript, '');
  const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, `state-${stateOf}`) };
  let input = SYSTEM;
  let n = 0;
  return (ask: { offset?: number; limit?: number }) => {
    const id = `toolu_${name}_${++n}`;
    const toolInput = { file_path: path, ...ask };
    const call = `${JSON.stringify({ type: 'assistant', ...(version ? { version } : {}), message: {
      id: `msg_${name}_${n}`, model: 'claude-test', role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'Read', input: toolInput }],
      ...(charsPerToken === 'none' ? {} : {
        usage: { input_tokens: charsPerToken === 'constant' ? 10 : input, output_tokens: WRITTEN },
      }),
    } })}\n`;
    // The engine writes the record of the reply that made a call asynchronously: with `lateMs`, after `pre` starts.
    if (lateMs > 0 && n > 1) appendLater(transcript, call, lateMs);
    else appendFileSync(transcript, call);
    const pre = runHook('pre', { ...preEvent(session, id, toolInput, dir), transcript_path: transcript }, env);
    const ran = pre.json?.hookSpecificOutput?.updatedInput ?? toolInput;
    const response = engineRead(path, ran.offset, ran.limit);
    const density = typeof charsPerToken === 'function' ? charsPerToken(response.file.startLine) : charsPerToken;
    // The model's count of a text: at `charsPerToken`, or by a tokenizer's own count (`counter`).
    const countOf = (text: string) => (counter ? counter(text) : text.length / (density as number));
    const counted = typeof density === 'number' ? Math.round(countOf(response.file.content)) : 0;
    const refused = refuses && counted > 25_000;
    const result = refused
      ? `File content (${counted} tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters.`
      : response.file.content.split('\n').map((l, i) => `${response.file.startLine + i}\t${l}`).join('\n');
    const event = refused ? failureEvent(session, id, ran, result, dir) : postEvent(session, id, ran, response, dir);
    if (lateMs > 0 && n > 1) waitForText(transcript, id);
    const post = runHook('post', { ...event, transcript_path: transcript }, env);
    appendFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: result }] } })}\n`);
    const note: string = post.json?.hookSpecificOutput?.additionalContext ?? '';
    // The note, and another hook's (`otherNote`), join the result in the next request, with the engine's words
    // before each (docs/ENGINE.md 7.4); the transcript records each as an attachment (9.5).
    const notes = [note, otherNote ?? ''].filter(Boolean);
    const joined = notes.map((text) => `PostToolUse:Read hook additional context: ${text}`).join('\n');
    for (const text of notes) {
      appendFileSync(transcript, `${JSON.stringify({ type: 'attachment', attachment: {
        type: 'hook_additional_context', content: [text], hookName: 'PostToolUse:Read', toolUseID: id,
        hookEvent: 'PostToolUse' } })}\n`);
    }
    // The numbering as a tokenizer counts it, and `pre` takes it off the usage: a token for each group of three
    // digits of a line's number, and one for the tab after it before a digit or punctuation (a word joins it). A
    // model may count them cheaper (`numbersCost`).
    // `indentCost`: what it takes beyond that on a line that starts with a space or a tab (the old Claude
    // tokenizer takes 1-2 tokens more there). `digitsApart`: a token for each digit and one for the tab (Mistral's).
    const shown = response.file.content.split('\n');
    const tabs = shown.filter((l) => l.length > 0 && tabStaysApart(l.charCodeAt(0))).length;
    const indented = shown.filter((l) => l.startsWith(' ') || l.startsWith('\t')).length;
    const used = refused || numberedByCounter
      ? countOf(result) + (refused ? 0 : countOf(joined))
      : countOf(response.file.content) + countOf(joined)
        + (digitsApart
          ? lineNumberDigits(response.file.startLine, response.file.numLines)
          : (lineNumberTokens(response.file.startLine, response.file.numLines) + tabs) * numbersCost)
        + indented * indentCost;
    if (typeof density === 'number') input += WRITTEN + Math.ceil(used);
    const named = [...note.matchAll(/offset=(\d+) limit=(\d+)/g)].map((m) => ({
      offset: Number(m[1]),
      limit: Number(m[2]),
    }));
    return {
      clampedTo: ran.limit === ask.limit ? undefined : (ran.limit as number),
      refused,
      first: response.file.startLine,
      lines: refused ? 0 : response.file.numLines,
      chars: response.file.content.length,
      note,
      /** The first window the note names, and the last (the one that reads on, when it names two). */
      next: named.at(0),
      readOn: named.at(-1),
    };
  };
}

/** Appends `text` to `path` from another process, `ms` from now, while this one runs a hook. */
function appendLater(path: string, text: string, ms: number): void {
  spawn(process.execPath, ['-e', `setTimeout(() => require('node:fs').appendFileSync(${JSON.stringify(path)}, ${
    JSON.stringify(text)}), ${ms})`], { stdio: 'ignore' });
}

function waitForText(path: string, text: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 500 && !readFileSync(path, 'utf8').includes(text); i++) Atomics.wait(pause, 0, 0, 10);
}

/** A file read whole from line 1 (a window of `lines` lines), following each note. */
function readAll(read: ReturnType<typeof reading>, lines = 14_000) {
  const got = [read({ offset: 1, limit: lines })];
  for (let next = got[0]!.readOn; next && got.length <= 40; next = got.at(-1)!.readOn) got.push(read(next));
  return got;
}

/** A model reads a file whole on one machine (`name`), learning what a retry tells it; then another such file is
 * read whole in a later session on that machine and on a copy of it whose memory lacks the model's `forget`. Both
 * later readings are checked whole, without a refusal; returned with what the model's memory learned and how many
 * lines the later readings' second to fourth windows held (the first is sized by the estimate alone). */
function taughtAgainstFresh(
  name: string,
  model: Parameters<typeof reading>[2],
  text: (seed: number) => string,
  forget: string,
  teach: (path: string) => ReturnType<typeof readAll> = (path) => readAll(reading(name, 2, { path, ...model })),
) {
  const first = join(dir, `${name}-first.txt`);
  writeFileSync(first, text(7));
  const windows = teach(first);
  const memory = JSON.parse(readFileSync(join(dir, `state-${name}`, 'memory.v1.json'), 'utf8'));
  const learned = structuredClone(memory.models['claude-test']);
  const control = join(dir, `state-${name}-control`);
  cpSync(join(dir, `state-${name}`), control, { recursive: true });
  delete memory.models['claude-test'][forget];
  writeFileSync(join(control, 'memory.v1.json'), JSON.stringify(memory));
  const other = join(dir, `${name}-other.txt`);
  writeFileSync(other, text(11));
  const taught = readAll(reading(`${name}-later`, 2, { path: other, ...model, stateOf: name }));
  const fresh = readAll(reading(`${name}-fresh`, 2, { path: other, ...model, stateOf: `${name}-control` }));
  for (const got of [taught, fresh]) {
    expect(got.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBeGreaterThanOrEqual(14_000);
  }
  const lines = (got: typeof taught) => got.slice(1, 4).reduce((n, w) => n + w.lines, 0);
  return { windows, learned, taughtLines: lines(taught), freshLines: lines(fresh) };
}

/** A model's Read with no limit of `path` (under 256 KiB, over the cap), which the engine answers with a partial
 * page (docs/ENGINE.md 4): the page's lines and its banner, with the model's count of the whole file at 2 characters
 * a token, go to the transcript, and the next request's usage counts the page's numbered lines as a model whose
 * indented lines cost `indentCost` tokens more than the rule does. Then the model reads on from the page: that
 * window's `pre` reads the banner and the page's usage. Returns the page's line count. */
function partialPage(name: string, path: string, indentCost: number): number {
  const session = `sess-${name}`;
  const transcript = join(dir, `${name}.jsonl`);
  const env = { PATH: process.env.PATH, HOME: dir, READ_CEILING_PAGER_STATE_DIR: join(dir, `state-${name}`) };
  const record = (id: string, input: number, toolInput: object) => `${JSON.stringify({ type: 'assistant', message: {
    id: `msg_${id}`, model: 'claude-test', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: toolInput }],
    usage: { input_tokens: input, output_tokens: WRITTEN } } })}\n`;
  writeFileSync(transcript, record(`${name}_1`, SYSTEM, { file_path: path }));
  const whole = { file_path: path };
  expect(runHook('pre', { ...preEvent(session, `${name}_1`, whole, dir), transcript_path: transcript }, env).stdout).toBe('');
  const text = readFileSync(path, 'utf8');
  const tokens = Math.round(text.length / 2);
  const all = engineRead(path, undefined, undefined);
  // The engine's page: about lines × cap / tokens × 0.85 (docs/ENGINE.md 4.4).
  const lines = Math.floor((all.file.numLines * 25_000 * 0.85) / tokens);
  const page = engineRead(path, 1, lines);
  const response = { ...page, file: { ...page.file, totalLines: all.file.totalLines, truncatedByTokenCap: true } };
  const post = runHook('post', { ...postEvent(session, `${name}_1`, whole, response, dir), transcript_path: transcript }, env);
  const note: string = post.json?.hookSpecificOutput?.additionalContext ?? '';
  expect(note).toContain("the engine's partial page");
  const numbered = page.file.content.split('\n').map((l, i) => `${i + 1}\t${l}`).join('\n');
  const banner = `[Truncated: PARTIAL view — ${path}: showing lines 1-${lines} of ${all.file.totalLines} total (${tokens} tokens, cap 25000). Call Read with offset=${lines + 1} limit=${lines} for the next page.]`;
  appendFileSync(transcript, [
    { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `${name}_1`, content: numbered }] } },
    { type: 'attachment', attachment: { type: 'read_truncation_notice', banner, toolUseID: `${name}_1` } },
    { type: 'attachment', attachment: { type: 'hook_additional_context', content: [note], hookName: 'PostToolUse:Read', toolUseID: `${name}_1`, hookEvent: 'PostToolUse' } },
  ].map((r) => `${JSON.stringify(r)}\n`).join(''));
  const shown = page.file.content.split('\n');
  const tabs = shown.filter((l) => l.length > 0 && tabStaysApart(l.charCodeAt(0))).length;
  const indented = shown.filter((l) => l.startsWith(' ') || l.startsWith('\t')).length;
  const used = (page.file.content.length + banner.length + note.length) / 2 + lineNumberTokens(1, lines) + tabs
    + indented * indentCost;
  const next = { file_path: path, offset: lines + 1, limit: lines };
  appendFileSync(transcript, record(`${name}_2`, SYSTEM + WRITTEN + Math.ceil(used), next));
  runHook('pre', { ...preEvent(session, `${name}_2`, next, dir), transcript_path: transcript }, env);
  return lines;
}

/** Three windows: the model's own, then the two continuations the notes name. */
function threeWindows(name: string, charsPerToken: number | 'constant' | 'none') {
  const read = reading(name, charsPerToken);
  const first = read({ offset: 1, limit: 12_000 });
  const second = read(first.next!);
  const third = read(second.next!);
  return { first, second, third };
}

describe('the usage of the request that carried a result teaches the file\'s density', () => {
  it('a sparse count: from the second window on, windows are sized by it and hold more lines', () => {
    const counted = threeWindows('sparse', 6);
    const blind = threeWindows('blind', 'constant');
    // The first window is sized by the estimate alike; the note after it names a wide one, which `pre` trims by
    // the first window's count (or, with nothing counted, by the estimate).
    expect(counted.first.lines).toBe(blind.first.lines);
    expect(counted.first.note).toContain('the pager trims it to the most that fits when it runs');
    expect(counted.second.lines).toBeGreaterThan(blind.second.lines * 1.3);
    expect(counted.third.lines).toBeGreaterThan(blind.third.lines * 1.3);
    // Nothing is lost or read twice.
    expect(counted.second.next?.offset).toBe(counted.first.next!.offset + counted.second.lines);
  });

  it('a reply\'s record written after `pre` starts (the engine writes it late): `pre` waits for it, and learns', () => {
    const read = reading('late-record', 6, { lateMs: 150 });
    const first = read({ offset: 1, limit: 12_000 });
    const second = read(first.next!);
    const blind = threeWindows('late-blind', 'constant');
    expect(second.lines).toBeGreaterThan(blind.second.lines * 1.3);
    expect(second.first).toBe(first.lines + 1);
  });

  it('a dense count: the named continuation is clamped before the engine would refuse it, and the note goes on', () => {
    // Denser than the estimate, yet not so dense that the engine would have refused the first window (sized by the
    // estimate): a window it returned counted under the cap (usage.ts, `boundedByCap`).
    const dense = 3.3;
    const counted = threeWindows('dense', dense);
    expect(counted.first.chars / dense).toBeLessThan(25_000);
    expect(counted.second.clampedTo).toBeLessThan(counted.first.next!.limit);
    // What it holds by the usage's count is the cap's worth, within the margin kept for text like the first window's
    // (the estimate of one window of prose is not the next one's to the percent).
    expect(counted.second.chars / dense).toBeLessThan(25_000 * SAME_TEXT_SAFETY);
    expect(counted.second.chars / dense).toBeGreaterThan(25_000 * 0.93);
    // Nothing is lost: the note after the clamped continuation names the line after it.
    const secondFirst = counted.first.next!.offset;
    expect(counted.third).toBeDefined();
    expect(counted.second.next?.offset).toBe(secondFirst + counted.second.lines);
  });

  it('each window\'s count teaches the file anew: after text that counts denser, windows of sparser text widen', () => {
    // The model counts the first window's text at 3.5 characters a token and the rest at 5: a density learned once,
    // from the first window, would size every later window as small as the second.
    let firstEnd = Infinity;
    const read = reading('sparser-later', (first) => (first <= firstEnd ? 3.5 : 5));
    const first = read({ offset: 1, limit: 12_000 });
    firstEnd = first.lines;
    const second = read(first.next!);
    const third = read(second.next!);
    const fourth = read(third.next!);
    expect(second.first).toBe(first.lines + 1);
    expect(third.lines).toBeGreaterThan(second.lines * 1.25);
    // The window the second one's count sized fits that count (the note's call runs as named or is trimmed), and so
    // does the one after it. The note names each wider than fits, so `pre`'s trim, not the name, sizes them.
    expect(third.chars / 5).toBeLessThan(25_000);
    expect(fourth.chars / 5).toBeLessThan(25_000);
    expect(third.clampedTo).toBeDefined();
    expect(third.first).toBe(second.first + second.lines);
    expect(fourth.first).toBe(third.first + third.lines);
  });

  it('a file of long records, a few to a window: each window\'s count teaches it anew as well', () => {
    // GeoJSON features of about 1,500 characters a line, so that a window holds fewer than 100 lines: the model counts
    // the first window's records at 3.5 characters a token and the rest at 5. A window of a few long lines was taken
    // for minified code, each line a module of its own, and its count kept for the rest of the reading.
    const places = ['Anchorage, Alaska', 'Ridgecrest, CA', 'Hilo, Hawaii', 'Petrolia, CA', 'Ocotillo Wells, CA'];
    const feature = (i: number) => `{"type":"Feature","properties":{"mag":${(i % 50) / 10},"place":"${(i * 37) % 200} ` +
      `km NNW of ${places[i % 5]}","time":${1_700_000_000_000 + i * 61_013},"status":"reviewed","sig":${(i * 13) % 900},` +
      `"title":"M ${(i % 50) / 10} - ${'quarry blast near the old mine road, felt by residents of the valley; '.repeat(17)}"` +
      `},"geometry":{"type":"Point","coordinates":[${-150 + (i % 97) / 7},${60 + (i % 89) / 11},${(i % 23) * 1.7}]}},`;
    const records = join(dir, 'features.json');
    writeFileSync(records, Array.from({ length: 3_000 }, (_, i) => feature(i)).join('\n'));
    let firstEnd = Infinity;
    const read = reading('long-records', (first) => (first <= firstEnd ? 3.5 : 5), { path: records });
    const first = read({ offset: 1, limit: 3_000 });
    firstEnd = first.lines;
    const second = read(first.next!);
    const third = read(second.next!);
    expect(second.lines).toBeLessThan(100);
    expect(third.lines).toBeGreaterThan(second.lines * 1.25);
    expect(third.chars / 5).toBeLessThan(25_000);
    expect(third.first).toBe(second.first + second.lines);
  });

  it('after windows of a few long lines, a window of many lines teaches the file again', () => {
    // Six lines of about 40,000 characters (a bundle's modules), one or two to a window, then short lines of prose. A
    // window of a few long lines is no sample of the text after it: its count sizes the next window with the plain
    // margin, and the next such window does not replace it. The model counts the long lines at 3 characters a token
    // and the prose at 6: kept for the rest of the reading, the long lines' count sized every window of prose half as
    // wide as it fits.
    const modules = Array.from({ length: 6 }, (_, i) => prose(560, 40 + i).replaceAll('\n', ' ')).join('\n');
    const bundle = join(dir, 'bundle-then-prose.txt');
    writeFileSync(bundle, `${modules}\n${prose(12_000, 7)}`);
    const read = reading('long-then-short', (first) => (first <= 6 ? 3 : 6), { path: bundle, refuses: true });
    const got = readAll(read);
    expect(got.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    // To the last line: the empty one after the final newline, as the engine counts lines.
    expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBe(6 + 12_000 + 1);
    // The windows of prose after the first one that starts in it: sized by the prose's count, near the cap (without
    // it, each held 11,000 tokens, and the file took 16 Reads where it takes 10).
    const prosePages = got.filter((w) => w.first > 6).slice(1, -1);
    expect(prosePages.length).toBeGreaterThan(2);
    for (const w of prosePages) expect(w.chars / 6).toBeGreaterThan(25_000 * 0.85);
    for (const w of got) expect(w.chars / (w.first <= 6 ? 3 : 6)).toBeLessThanOrEqual(25_000);
  });

  it('each window of a few long lines moves the density kept toward its own: the first does not size them all', () => {
    // A bundle of one module a line, one or two to a window (no sample of the text after them). The model counts the
    // first module at 4 characters a token and the rest at 3. The first window's count kept for every later one sized
    // lines 3-4 as if they counted 4 (22,050 tokens with the margin), and the engine refused them (28,000); moved
    // halfway to line 2's count (3.4 characters a token), the density sizes line 3 alone.
    const lines = [40_000, 70_000, 42_000, 42_000, 42_000, 42_000].map((chars, i) =>
      prose(1_500, 60 + i).replaceAll('\n', ' ').slice(0, chars));
    const bundle = join(dir, 'modules.js');
    writeFileSync(bundle, `${lines.join('\n')}\n`);
    const read = reading('halfway-modules', (first) => (first === 1 ? 4 : 3), { path: bundle, refuses: true });
    const got = readAll(read);
    expect(got.filter((w) => w.refused)).toEqual([]);
    expect(got.slice(0, 3).map((w) => [w.first, w.lines])).toEqual([[1, 1], [2, 1], [3, 1]]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBeGreaterThanOrEqual(lines.length);
  });

  it('a window of another script than the one counted is sized as a first window, and runs', () => {
    // 1,000 lines of English prose, which the model counts sparser than the estimate, then Russian, which it counts as
    // the estimate does. The prose's density, applied to the Russian, would size a window 1.3 times the cap (xlsx's
    // codepage tables: the next codepage's window, sized by the last one's density, was refused).
    const russian = (i: number) => `${i}: ${'съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(2)}`;
    const mixed = join(dir, 'two-scripts.txt');
    writeFileSync(mixed, `${prose(1_000)}${Array.from({ length: 4_000 }, (_, i) => russian(i)).join('\n')}\n`);
    const probe = join(dir, 'russian-probe.txt');
    writeFileSync(probe, Array.from({ length: 400 }, (_, i) => russian(i)).join('\n'));
    const asEstimated = readFileSync(probe, 'utf8').length / measureWindow(probe, 1, 400, Date.now() + 10_000).pointTokens;
    const read = reading('two-scripts', (first) => (first <= 1_000 ? 6 : asEstimated), { path: mixed, refuses: true });
    const first = read({ offset: 1, limit: 1_000 });
    expect(first.lines).toBe(1_000);
    const second = read({ offset: 1_001, limit: 4_000 });
    expect(second.refused).toBe(false);
    expect(second.clampedTo).toBeDefined();
    expect(second.chars / asEstimated).toBeLessThanOrEqual(25_000);
    // Sized as a first window (the estimate with the prior's margin), not by the prose's density.
    expect(second.chars / asEstimated).toBeGreaterThan(25_000 / PRIOR_SAFETY - 200);
    const third = read(second.next!);
    expect(third.first).toBe(1_001 + second.lines);
    expect(third.refused).toBe(false);
  });

  it('a word list in Cyrillic or in Chinese, or a list of paths, read whole: each window after the first is as full as the margin lets it be', () => {
    // One short word a line, as in a Hunspell dictionary or a segmenter's word list. The tab after each line
    // number is a token of its own before a character past ASCII under every tokenizer measured, one in six or seven
    // here: read as the text's own, it made each window's text look 16% denser than it is, and each window after the
    // first held about 0.82 of the cap (Russian's Hunspell dictionary read whole under o200k: 45 calls where 37
    // fit). So before a '/': a list of paths (a package's file list) lost a tenth.
    const o200k = countText('o200k');
    const lists = { ru: russianWordList, zh: chineseWordList, paths: fileList };
    for (const [kind, list] of Object.entries(lists)) {
      const path = join(dir, `list-${kind}.txt`);
      const text = list(30_000);
      writeFileSync(path, text);
      const model = { path, counter: o200k, numberedByCounter: true, refuses: true };
      const got = readAll(reading(`list-${kind}`, 4, model), 30_000);
      expect(got.filter((w) => w.refused)).toEqual([]);
      for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
      expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBe(30_000);
      const lines = text.split('\n');
      const fills = got.slice(1, -1).map((w) => o200k(lines.slice(w.first - 1, w.first - 1 + w.lines).join('\n')) / 25_000);
      expect(fills.length, kind).toBeGreaterThanOrEqual(2);
      expect(Math.min(...fills), `${kind}: ${fills.map((f) => f.toFixed(3)).join(' ')}`).toBeGreaterThan(0.9);
    }
  });

  it('code whose mix changes from window to window, read whole: each window is sized by its own mix, fuller', () => {
    // A compiler's bundle: indented statements, lists of exported camelCase names, declarations, a few hundred lines
    // of each in turn, which o200k counts at different shares of the estimate. Sized by the last window's density,
    // a window of another mix held 0.79-0.99 of the cap, and one was refused. The file's own weights, fitted to its
    // windows' counts (estimate/file-weights.ts), size each by its own mix, and once three windows came out as they
    // predicted, with the margin for a density that held steady.
    const o200k = countText('o200k');
    const path = join(dir, 'mixed.js');
    const text = mixedCode(40_000);
    writeFileSync(path, text);
    const got = readAll(reading('mixed-code', 4, { path, counter: o200k, numberedByCounter: true, refuses: true }), 40_000);
    expect(got.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBe(40_000);
    const lines = text.split('\n');
    const fills = got.slice(5, -1).map((w) => o200k(lines.slice(w.first - 1, w.first - 1 + w.lines).join('\n')) / 25_000);
    expect(fills.length).toBeGreaterThanOrEqual(10);
    expect(Math.min(...fills), fills.map((f) => f.toFixed(3)).join(' ')).toBeGreaterThan(0.93);
  });

  it('a window of text the file\'s counts did not hold (tables of numbers after symbol names) is not refused', () => {
    // A generated parser in C: symbol names, which o200k counts at 0.70 of the estimate, then tables of numbers and
    // characters, 0.88-0.91. The window after the first holds the names' last lines and then the tables: sized by the
    // names' density with the margin for changed text alone (1.1), it was refused; now its share of text the names
    // lacked is taken at the estimate's own density (`newTextAllowance`).
    const o200k = countText('o200k');
    const path = join(dir, 'parser.c');
    const text = generatedParser(12_000, 1600);
    writeFileSync(path, text);
    const got = readAll(reading('parser', 4, { path, counter: o200k, numberedByCounter: true, refuses: true }), 12_000);
    expect(got[1]!.first, 'the second window starts among the names').toBeLessThan(1600);
    expect(got.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBeGreaterThanOrEqual(12_000);
    expect(got.length).toBeLessThanOrEqual(7);
  });

  it('records whose long lines hold a twentieth to a fifth of a window: a window takes the next one where it pays', () => {
    // A license list as JSON: four short lines, then a license's whole text on one line of 1,250-4,700 tokens, some
    // with numbered clauses and links, so a window's mix moves with its records and its margin is 1.05-1.1. That
    // margin suits text of short lines; before a long line it left a tenth or a fifth of the window for another
    // round, to avoid a refusal that was not likely: the code before stopped a window where, with the next long line,
    // the model counted it at 0.936 of the cap. Now a window takes the next line where its point estimate fits and
    // the refusal it risks costs fewer rounds than it saves (`stretchPays`). No window is refused, every line is read.
    const o200k = countText('o200k');
    const path = join(dir, 'licenses.json');
    const text = licenseRecords(90);
    writeFileSync(path, text);
    const lines = text.split('\n');
    const got = readAll(reading('licenses', 4, { path, counter: o200k, numberedByCounter: true, refuses: true }), lines.length);
    expect(got.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBeGreaterThanOrEqual(lines.length - 1);
    // Each window after the first (sized by the prior, never a gamble), as the model counts it with the long line
    // after it: over 0.94 of the cap wherever it stopped before one.
    const withNextLong = got.slice(1, -1).map((w) => {
      let last = w.first + w.lines; // the line after the window, 1-based
      while (lines[last - 1]!.length < 1_000) last++;
      return o200k(lines.slice(w.first - 1, last).join('\n')) / 25_000;
    });
    expect(Math.min(...withNextLong), withNextLong.map((f) => f.toFixed(3)).join(' ')).toBeGreaterThan(0.94);
  });

  it('another hook\'s note that joined a result is not read as its text: the next window is as full', () => {
    // Another hook adds 6,000 characters of context to every Read, about 1,200 tokens: read as the window's own text,
    // they would size the next window about 5% short of the cap. (Our own note stays in the usage: usage.ts.)
    const otherNote = `lint: ${'the file follows the project style guide; no action is needed for this read. '.repeat(75)}`;
    const o200k = countText('o200k');
    const plain = reading('joined-none', 4, { counter: o200k });
    const noted = reading('joined-other', 4, { counter: o200k, otherNote });
    const [a, b] = [plain, noted].map((read) => {
      const first = read({ offset: 1, limit: 12_000 });
      return read(first.next!);
    });
    expect(b!.first).toBe(a!.first);
    expect(b!.clampedTo).toBeDefined();
    expect(b!.lines).toBeGreaterThan(a!.lines * 0.99);
  });

  it('a window the engine returned held no more than the cap: a usage that reads it far over is bounded there', () => {
    // Short lines, and a model whose line numbers cost a token a digit and one for the tab (Mistral's): the usage of
    // the first window, read with the rule's line numbers, says its text counted far over the cap. The engine would
    // have refused that, so the rest is not the window's text, and the next window is not sized as if it were.
    const short = join(dir, 'short-lines.txt');
    const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'];
    writeFileSync(short, Array.from({ length: 12_000 }, (_, i) => `${words[i % 6]} ${words[(i * 7) % 6]} ${i % 97}`).join('\n'));
    const got = readAll(reading('bounded', 2.5, { path: short, digitsApart: true, refuses: true }));
    expect(got.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    // The first window, sized by the estimate, held 22,700 tokens of text; the usage read it as 34,000. The second
    // holds 21,000 (16,000 without the bound).
    expect(got[1]!.lines).toBeGreaterThan(got[0]!.lines * 0.9);
    expect(got[1]!.chars / 2.5).toBeGreaterThan(25_000 * 0.8);
  });

  it('an engine that records no usage: the continuation is named by the estimate and runs as named', () => {
    const plain = threeWindows('plain', 'none');
    expect(plain.first.note).not.toContain('the pager trims it');
    expect(plain.first.note).toContain('the most that fits');
    expect(plain.second.clampedTo).toBeUndefined();
    expect(plain.second.lines).toBe(plain.first.next!.limit);
  });
});

describe('a file whose density holds still from one window to the next (homogeneous data)', () => {
  it('after two steps over text alike, the windows take a narrower margin: more lines, still under the cap', () => {
    const rows = join(dir, 'rows.csv');
    // Records of one shape, each line starting with a letter, read from line 1001: the harness counts a result's
    // line numbers at the text's rate, which real tokenizers come near only for numbers of four digits or more
    // before a letter.
    const record = (i: number) => `station${i % 89},${(i * 7919) % 100_000},${(i % 13) * 1.5},clear skies and light wind`;
    writeFileSync(rows, Array.from({ length: 60_000 }, (_, i) => record(i)).join('\n'));
    const read = reading('calm', 2.5, { path: rows, refuses: true });
    const windows = [read({ offset: 1001, limit: 59_000 })];
    while (windows.length < 6) windows.push(read(windows.at(-1)!.next!));
    // The second and third windows are sized by the last window's count with the margin for text alike; from the
    // fourth on, by the two steps the density took (none, but for the notes that joined each result) as well.
    const [, , third, fourth, fifth] = windows;
    expect(fourth!.lines).toBeGreaterThan(third!.lines * 1.012);
    expect(fifth!.lines).toBeGreaterThan(third!.lines * 1.012);
    // Each holds what the model counts as under the cap, and the windows follow one another.
    for (const w of windows) expect(w.refused).toBe(false);
    for (let i = 1; i < windows.length; i++)
      expect(windows[i]!.first).toBe(windows[i - 1]!.first + windows[i - 1]!.lines);
  });
});

describe('a file under 256 KiB read with no limit again, in a later session on the same machine', () => {
  it('the first window holds more than the engine\'s page, and the notes read on to the end with no refusal', () => {
    // The first session read it with no limit: the engine's page, sized by its count of the whole file times 0.85,
    // whose usage counted the page's own lines. The later session knows those lines' density, so a window from line
    // 1 holds more than that page would, and is explicit (a partial page does not count as read for an edit).
    const path = join(dir, 'again.txt');
    writeFileSync(path, prose(2500, 3));
    expect(readFileSync(path).length).toBeLessThan(256 * 1024);
    const page = partialPage('again-first', path, 0);
    const read = reading('again-later', 2, { path, refuses: true, stateOf: 'again-first' });
    const got = [read({})];
    for (let next = got[0]!.readOn; next && got.length <= 10; next = got.at(-1)!.readOn) got.push(read(next));
    expect(got[0]!.first).toBe(1);
    expect(got[0]!.clampedTo).toBeGreaterThan(page);
    expect(got[0]!.note).toContain("the engine's partial page of about");
    expect(got.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < got.length; i++) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
    expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBeGreaterThanOrEqual(2500);
  });
});

describe('a Read of the model\'s refused: the advice starts a reading that the notes lead to the end', () => {
  // A model whose count is twice the estimate (2 characters per token where the estimate takes prose at about 4):
  // its Read of the whole file, which `pre` makes a window of (the file is over 256 KiB), is refused.
  let denseFile: string;
  beforeAll(() => {
    denseFile = join(dir, 'dense.txt');
    writeFileSync(denseFile, prose(14_000, 7));
  });

  it('after the advised window comes back, the note names the rest, and following the notes reads every line once', () => {
    const read = reading('refused-first', 2, { path: denseFile, refuses: true });
    const windows = [read({})];
    // The model follows the last window a note names, and stops when none is named.
    for (let next = windows[0]!.readOn; next && windows.length <= 40; next = windows.at(-1)!.readOn)
      windows.push(read(next));
    expect(windows[0]!.refused).toBe(true);
    const retry = windows[1]!;
    expect(retry.refused).toBe(false);
    // The advised window came back whole; the note after it goes on with the model's read of the whole file.
    expect(retry.note).toContain('continuing a read of the whole file');
    expect(retry.note).toContain(`offset=${retry.first + retry.lines} `);
    expect(windows.filter((w) => w.refused)).toHaveLength(1);
    const returned = windows.filter((w) => !w.refused);
    for (let i = 1; i < returned.length; i++)
      expect(returned[i]!.first).toBe(returned[i - 1]!.first + returned[i - 1]!.lines);
    expect(returned.at(-1)!.first + returned.at(-1)!.lines - 1).toBeGreaterThanOrEqual(14_000);
  });

  it('a model whose line numbers cost less than the rule: refused once, after which no window is', () => {
    // Numbers cheaper than the rule (a token for a 4-digit number, as some vocabularies have) make every usage read
    // the text sparser than the model counts it: each window sized from the last one's usage was refused. The
    // advised window after a refusal is a prefix of the refused one, whose text counts as the refusal said: what its
    // result added beyond that is its line numbers' cost, and every later usage is read with it.
    // Lines that start with a word, so that the text's density holds still across line 10000 (numbers in the text
    // would grow a digit there).
    const words = (seed: number) => prose(14_000, seed).replace(/^\d+: /gm, '');
    const first = join(dir, 'words-cheap.txt');
    writeFileSync(first, words(7));
    const read = reading('cheap-numbers', 3, { path: first, refuses: true, numbersCost: 0.4 });
    const windows = readAll(read);
    const refusedAt = windows.flatMap((w, i) => (w.refused ? [i] : []));
    expect(refusedAt).toHaveLength(1);
    // Every line is read, once.
    const returned = windows.filter((w) => !w.refused);
    for (let i = 1; i < returned.length; i++)
      expect(returned[i]!.first).toBe(returned[i - 1]!.first + returned[i - 1]!.lines);
    expect(returned.at(-1)!.first + returned.at(-1)!.lines - 1).toBeGreaterThanOrEqual(14_000);
    // And the pager remembers it for the model: a new session's windows of another file are not refused.
    const other = join(dir, 'dense-other.txt');
    writeFileSync(other, words(11));
    const again = reading('cheap-numbers-later', 3, { path: other, refuses: true, numbersCost: 0.4, stateOf: 'cheap-numbers' });
    const later = readAll(again);
    expect(later.filter((w) => w.refused)).toEqual([]);
  });

  it('a model whose line numbers cost more on indented lines: told by a retry, remembered, later windows hold more', () => {
    // The old Claude tokenizer keeps the tab after a line number apart from the indentation after it: each indented
    // line's number costs 1-2 tokens more than the rule, which a usage read by the rule counts as text, so every
    // window after it is sized short. The retry of a refused window tells it, and the model's memory keeps half of it.
    // Short lines of words: one token more a line is worth a share of the text a retry can tell.
    const indentedWords = (seed: number) => prose(14_000, seed).replace(/^\d+: ((?:\S+ ){4}\S+).*$/gm, '    $1');
    const r = taughtAgainstFresh('dear-indents', { refuses: true, indentCost: 2 }, indentedWords, 'indentation');
    expect(r.windows.filter((w) => w.refused)).toHaveLength(1);
    expect(r.learned.indentation.extra).toBeGreaterThan(0.8);
    expect(r.learned.indentation.extra).toBeLessThanOrEqual(1.05);
    // From the second window on (the first is sized by the estimate alone), 4-5% more lines a window.
    expect(r.taughtLines).toBeGreaterThan(r.freshLines * 1.03);
  });

  it('an engine that numbers lines with an arrow (before 2.1.86): a retry tells nothing of what they cost', () => {
    // Its `     1→` is not the `1\t` later engines write: what a retry would tell of it is the engine's format, not
    // the model's, and the model's memory outlives the engine. The same reading on a later engine learns a cost
    // (the test above).
    const indentedWords = (seed: number) => prose(14_000, seed).replace(/^\d+: ((?:\S+ ){4}\S+).*$/gm, '    $1');
    const path = join(dir, 'arrow-indents.txt');
    writeFileSync(path, indentedWords(7));
    const windows = readAll(reading('arrow-indents', 2, { path, refuses: true, indentCost: 2, version: '2.1.50' }));
    expect(windows.filter((w) => w.refused)).toHaveLength(1);
    const returned = windows.filter((w) => !w.refused);
    for (let i = 1; i < returned.length; i++)
      expect(returned[i]!.first).toBe(returned[i - 1]!.first + returned[i - 1]!.lines);
    expect(returned.at(-1)!.first + returned.at(-1)!.lines - 1).toBeGreaterThanOrEqual(14_000);
    const memory = JSON.parse(readFileSync(join(dir, 'state-arrow-indents', 'memory.v1.json'), 'utf8'));
    const model = memory.models['claude-test'] ?? {};
    expect({ lineNumbers: model.lineNumbers, indentation: model.indentation, digits: model.digits }).toEqual({
      lineNumbers: undefined, indentation: undefined, digits: undefined,
    });
  });

  it('a model whose line numbers cost more on indented lines: told by a partial page and its banner, with no refusal', () => {
    // The banner counts the whole file, of which the page is the first part: what the page's result added beyond
    // its share of that count is its line numbers, as for a retry. A file under 256 KiB, read with no limit.
    const indentedWords = (seed: number) => prose(3000, seed).replace(/^\d+: ((?:\S+ ){4}\S+).*$/gm, '    $1');
    const file = (name: string) => {
      const path = join(dir, `${name}.txt`);
      writeFileSync(path, indentedWords(5));
      expect(readFileSync(path).length).toBeLessThan(256 * 1024);
      return path;
    };
    partialPage('page-dear', file('page-dear'), 2);
    const memory = (name: string) => JSON.parse(readFileSync(join(dir, `state-${name}`, 'memory.v1.json'), 'utf8')).models['claude-test'];
    expect(memory('page-dear').indentation.extra).toBeGreaterThan(0.5);
    expect(memory('page-dear').indentation.extra).toBeLessThanOrEqual(1.05);
    // A model that takes the rule on every line: nothing told.
    partialPage('page-rule', file('page-rule'), 0);
    expect(memory('page-rule').indentation).toBeUndefined();
    // A later session's reading of another such file, over 256 KiB, is not refused, and its windows hold more than on
    // a machine that did not learn it.
    const r = taughtAgainstFresh('page-taught', { refuses: true, indentCost: 2 }, (seed) => prose(14_000, seed)
      .replace(/^\d+: ((?:\S+ ){4}\S+).*$/gm, '    $1'), 'indentation', () => {
      const small = join(dir, 'page-taught-small.txt');
      writeFileSync(small, indentedWords(9));
      partialPage('page-taught', small, 2);
      return [];
    });
    expect(r.learned.indentation.extra).toBeGreaterThan(0.5);
    expect(r.taughtLines).toBeGreaterThan(r.freshLines * 1.02);
  });

  it('a model whose line numbers cost a token a digit: told by a retry, remembered, later windows hold more', () => {
    // Mistral's tokenizer splits a number by the digit and keeps the tab apart: 5 tokens for `1234\t` where the rule
    // takes 2, which a usage read by the rule counts as text, so every window after it is sized short. The retry of
    // an unindented window tells it (an indented one may tell an indented line's cost instead).
    const records = (seed: number) => prose(14_000, seed).replace(/^\d+: ((?:\S+ ){4}\S+).*$/gm, '$1');
    const r = taughtAgainstFresh('split-digits', { refuses: true, digitsApart: true }, records, 'digits');
    expect(r.windows.filter((w) => w.refused)).toHaveLength(1);
    expect(r.learned.digits.split).toBeGreaterThan(0.7);
    expect(r.learned.digits.split).toBeLessThanOrEqual(1);
    expect(r.learned.indentation).toBeUndefined();
    // From the second window on (the first is sized by the estimate alone), about a quarter more lines a window.
    expect(r.taughtLines).toBeGreaterThan(r.freshLines * 1.15);
  });

  it('a model that counts numbers a token a digit: told by its count of data, the next data file fits first time', () => {
    // Mistral's tokenizer counts a CSV of prices and coordinates 1.4-1.9 times the estimate, which weighs a number by
    // its run: the first window of such a file is refused. That count, set beside the digits of the text, tells that
    // the model splits numbers by the digit, and a later session's first window of another such file is sized so.
    // Its numbers are longer (ten-digit ids): raising the estimate of a number by a factor, as the model's counts of
    // other kinds of text raise it, leaves that window refused (checked).
    const mistral = countText('mistral');
    const data = join(dir, 'prices.csv');
    writeFileSync(data, `${csvPrices(6_000, 1)}\n`);
    const other = join(dir, 'ledger.csv');
    writeFileSync(other, `${csvLedger(5_000, 2)}\n`);
    const model = { refuses: true, digitsApart: true, counter: mistral };
    const taught = readAll(reading('digit-counter', 4, { path: data, ...model }));
    expect(taught[0]!.refused).toBe(true);
    expect(taught.filter((w) => w.refused)).toHaveLength(1);
    const later = readAll(reading('digit-counter-later', 4, { path: other, ...model, stateOf: 'digit-counter' }));
    const fresh = readAll(reading('digit-counter-fresh', 4, { path: other, ...model }));
    expect(fresh[0]!.refused).toBe(true);
    expect(later.filter((w) => w.refused)).toEqual([]);
    // Not sized short for it: the first window holds most of what fits.
    expect(mistral(readFileSync(other, 'utf8').split('\n').slice(0, later[0]!.lines).join('\n'))).toBeGreaterThan(20_000);
    for (const got of [taught, later, fresh]) {
      for (let i = 1; i < got.length; i++) {
        if (!got[i - 1]!.refused) expect(got[i]!.first).toBe(got[i - 1]!.first + got[i - 1]!.lines);
      }
      expect(got.at(-1)!.first + got.at(-1)!.lines - 1).toBeGreaterThanOrEqual(5_000);
    }
  });

  it('a model that counts bare numbers densely but does not split them: a retry says so, and is believed', () => {
    // Claude-dense counts lines of numbers and commas (TypeScript's tables of Unicode ranges) 1.5 times their
    // estimate, which reads as a model that counts numbers a token a digit. Its line numbers were then taken to cost
    // 6 tokens a line from line 10,000 on, where they cost 2: every usage read as text that much sparser than it is,
    // and windows of indented code sized from it were refused one after another (TypeScript's compiler: 35 refusals in
    // 394 Reads at a cap of 10,000). The retry of the first refused one proves the numbers cost the rule.
    const dense = countText('claude-dense');
    let seed = 11;
    const next = () => (seed = (seed * 16_807) % 2_147_483_647);
    const tables = join(dir, 'tables.js');
    writeFileSync(tables, `${Array.from({ length: 12 }, (_, line) =>
      `var unicodeTable${line} = [${Array.from({ length: 900 }, () => 65 + (next() % 70_000)).join(', ')}];`).join('\n')}\n`);
    const code = (name: string, stride: number) => {
      const path = join(dir, name);
      writeFileSync(path, `${Array.from({ length: 30_000 }, (_, i) =>
        `    const node${i} = factory.create(kind${(i * stride) % 97}, "name_${i % 1013}", flags | ${i % 7});`).join('\n')}\n`);
      return path;
    };
    const model = { refuses: true, counter: dense };
    const fromLine10001 = (read: ReturnType<typeof reading>) => {
      const got = [read({ offset: 10_001, limit: 20_000 })];
      for (let ask = got[0]!.readOn; ask && got.length < 10; ask = got.at(-1)!.readOn) got.push(read(ask));
      return got;
    };
    // One session: the tables are refused (that count seems to say a token a digit), then code read from line 10,001,
    // whose first refused window's retry proves the numbers cost the rule.
    expect(readAll(reading('bare-numbers', 4, { path: tables, ...model })).some((w) => w.refused)).toBe(true);
    fromLine10001(reading('bare-numbers-code', 4, { path: code('compiler.js', 1), ...model, stateOf: 'bare-numbers' }));
    // A later session reads other code from line 10,001: its second window, sized by the first one's usage, fits.
    const later = fromLine10001(reading('bare-numbers-later', 4, { path: code('checker.js', 3), ...model,
      stateOf: 'bare-numbers' }));
    expect(later.filter((w) => w.refused)).toEqual([]);
    for (let i = 1; i < later.length; i++) expect(later[i]!.first).toBe(later[i - 1]!.first + later[i - 1]!.lines);
  });

  it('after the refusal, each window\'s count teaches the file again: where the text grows sparser, windows widen', () => {
    // Lines that start with a word, read from line 10001: the harness counts the line numbers at the text's rate,
    // which at 3 characters a token is what a real tokenizer takes for a five-digit number and its tab.
    const words = join(dir, 'words.txt');
    writeFileSync(words, prose(40_000, 7).replace(/^\d+: /gm, ''));
    // The model counts the refused window and the advised one at 2 characters a token, and the rest at 3: the
    // refusal's count alone would size every later window as small as the advised one.
    let denseEnd = Infinity;
    const read = reading('refused-then-sparser', (first) => (first <= denseEnd ? 2 : 3), {
      path: words,
      refuses: true,
    });
    const refused = read({ offset: 10_001, limit: 30_000 });
    const advised = read(refused.next!);
    denseEnd = advised.first + advised.lines - 1;
    const windows = [advised];
    while (windows.length < 5) windows.push(read(windows.at(-1)!.readOn!));
    expect(refused.refused).toBe(true);
    expect(advised.first).toBe(10_001);
    // The second window is sized by the advised one's count (the refusal's text); the third on by the window before.
    const [, second, third, fourth, fifth] = windows;
    expect(third!.lines).toBeGreaterThan(second!.lines * 1.3);
    expect(fourth!.lines).toBeGreaterThan(second!.lines * 1.3);
    expect(fifth!.lines).toBeGreaterThan(second!.lines * 1.3);
    // None is refused, and the windows follow one another.
    for (const w of windows) expect(w.refused).toBe(false);
    for (let i = 1; i < windows.length; i++)
      expect(windows[i]!.first).toBe(windows[i - 1]!.first + windows[i - 1]!.lines);
  });
});

describe('a line passed over before any count of the file, under a model sparser than any measured', () => {
  // Before any count, a line is passed over only when its estimate is over the reach of the sparsest tokenizer
  // measured (`LONG_LINE_REACH`). A model that counts the file at under half its estimate counts such a line under
  // the cap (a model at 0.75 times o200k, xlsx.full.min.js at a cap of 10,000: four lines were never read). Once a
  // window's usage tells the file's count, a later note names the line.
  const CHARS_PER_TOKEN = 7;
  let long: string;
  beforeAll(() => {
    long = prose(2400, 3).replace(/\n/g, ' ');
  });
  const withLongLine = (name: string, after: number) => {
    const path = join(dir, `${name}.txt`);
    writeFileSync(path, `${prose(1000)}${long}\n${prose(after, 5)}`);
    return path;
  };

  it('the estimate puts it past the reach, and the model counts it under the cap', () => {
    const path = withLongLine('long-line-reach', 10);
    const estimate = measureWindow(path, 1001, 1, Infinity).pointTokens;
    expect(estimate).toBeGreaterThan(25_000 * LONG_LINE_REACH);
    expect((long.length + 1) / CHARS_PER_TOKEN).toBeLessThan(25_000);
  });

  /** Follows the last window each note names, from the model's window of all of the file, until none is named. */
  function followAll(read: ReturnType<typeof reading>, total: number) {
    const windows = [read({ offset: 1, limit: total })];
    for (let next = windows[0]!.readOn; next && windows.length <= 20; next = windows.at(-1)!.readOn)
      windows.push(read(next));
    return windows;
  }

  /** How many times each line came back. */
  function timesRead(windows: Array<{ first: number; lines: number }>, total: number): number[] {
    const times = new Array<number>(total + 1).fill(0);
    // Not the empty line the engine counts after the final newline.
    for (const w of windows) for (let l = w.first; l < Math.min(w.first + w.lines, total + 1); l++) times[l]!++;
    return times.slice(1);
  }

  it('in the middle of a reading: named once the count is known, then reading goes on where it was', () => {
    const path = withLongLine('long-line-middle', 6000);
    const windows = followAll(reading('long-line-middle', CHARS_PER_TOKEN, { path, refuses: true }), 7001);
    // The first note passes it over, as the estimate alone calls it.
    expect(windows[0]!.note).toContain('Line 1001 alone is over the cap');
    const named = windows.findIndex((w) => w.readOn?.offset === 1001);
    expect(named).toBeGreaterThan(0);
    expect(windows[named]!.note).toMatch(
      /Line 1001, passed over by an earlier note before any count of this file, is about \d+ tokens by the count since: it may fit\. offset=1001 limit=1 \(line 1001\) reads it; lines \d+-7001 are not shown yet, and the note after it names where reading goes on\./,
    );
    // Read, and the note after it goes on from the first line not shown yet, not from the line after it.
    const revisit = windows[named + 1]!;
    expect(revisit).toMatchObject({ first: 1001, lines: 1, refused: false });
    const before = windows[named]!;
    expect(revisit.readOn?.offset).toBe(before.first + before.lines);
    expect(windows.filter((w) => w.refused)).toHaveLength(0);
    expect(timesRead(windows, 7001).every((n) => n === 1)).toBe(true);
  });

  it('at the end of a reading, and refused: the note says that nothing is left, and no line is read twice', () => {
    const path = withLongLine('long-line-end', 1500);
    // The model counts the long line at twice what the window before it told.
    const read = reading('long-line-end', (first) => (first === 1001 ? CHARS_PER_TOKEN / 2 : CHARS_PER_TOKEN), {
      path,
      refuses: true,
    });
    const windows = followAll(read, 2501);
    const last = windows.at(-2)!;
    expect(last.note).toMatch(/offset=1001 limit=1 \(line 1001\) reads it; nothing else is left of the file\./);
    const refused = windows.at(-1)!;
    expect(refused).toMatchObject({ first: 1001, refused: true });
    expect(refused.note).toContain('Line 1001 alone is over the cap');
    expect(refused.note).toContain('Nothing is left of the file.');
    const times = timesRead(windows, 2501);
    expect(times[1000]).toBe(0);
    expect(times.filter((n, i) => i !== 1000 && n !== 1)).toEqual([]);
  });

  it('over the cap in one session: a later reading passes those lines over without a Read', () => {
    // xlsx.full.min.js: line 2 was refused and lines 3-4, text like it, passed over by its count; line 5, other text,
    // was refused after. A later session knew the file by line 5's count alone, by which lines 2-4 (other text) may
    // fit: it named them again and had them refused. Here two lines of Han, then a line of words, each counted over.
    const path = join(dir, 'han-again.txt');
    const han = '漢字文化圏的書写体系'.repeat(3000);
    const words = 'alpha beta gamma delta '.repeat(4400);
    writeFileSync(path, `${prose(1000)}${han}\n${han}\n${words}\nlast line\n`);
    const density = (first: number) => (first === 1001 || first === 1002 ? 1 : first === 1003 ? 3 : CHARS_PER_TOKEN);
    const earlier = followAll(reading('han-again', density, { path, refuses: true }), 1004);
    expect(earlier.filter((w) => w.refused).map((w) => w.first)).toEqual([1001, 1003]);
    expect(earlier.find((w) => w.refused)!.note).toContain('Lines 1001-1002 are each over the cap');
    const later = followAll(reading('han-again-2', density, { path, refuses: true, stateOf: 'han-again' }), 1004);
    expect(later.filter((w) => w.refused)).toEqual([]);
    expect(later[0]!.note).toContain('Lines 1001-1003 are each over the cap');
    expect(later[0]!.readOn?.offset).toBe(1004);
    const times = timesRead(later, 1004);
    expect(times.filter((n, i) => i < 1000 || i > 1002).every((n) => n === 1)).toBe(true);
  });

  it('passed over for its length by an engine that shows long results as a preview: a later engine reads it', () => {
    // Claude Code 2.1.6-2.1.78 show a result of over 100,000 characters only as a preview: the line is passed over
    // there, under the cap by its tokens. The memory keeps only lines over the cap by their tokens.
    // Past the first windows, so that a count of the file judges it.
    const path = join(dir, 'long-line-preview.txt');
    writeFileSync(path, `${prose(3000)}${long}\n${prose(500, 5)}`);
    const earlier = followAll(reading('long-line-preview', CHARS_PER_TOKEN, { path, refuses: true, version: '2.1.50' }), 3501);
    expect(earlier.map((w) => w.first)).not.toContain(3001);
    expect(earlier.some((w) => w.note.includes('Line 3001 alone is over the cap'))).toBe(true);
    const later = followAll(reading('long-line-preview-2', CHARS_PER_TOKEN, { path, refuses: true, stateOf: 'long-line-preview' }), 3501);
    expect(later.filter((w) => w.refused)).toEqual([]);
    expect(timesRead(later, 3501).every((n) => n === 1)).toBe(true);
  });

  it('at the end of a reading, and it fits: read, then nothing is left of the file', () => {
    const path = withLongLine('long-line-fits', 1500);
    const windows = followAll(reading('long-line-fits', CHARS_PER_TOKEN, { path, refuses: true }), 2501);
    const revisit = windows.at(-1)!;
    expect(revisit).toMatchObject({ first: 1001, lines: 1, refused: false });
    expect(revisit.note).toContain('Nothing is left of the file.');
    expect(timesRead(windows, 2501).every((n) => n === 1)).toBe(true);
  });
});
