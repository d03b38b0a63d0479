// Every sentence the model is told. Pure. Factual statements, no imperatives (the hooks reference's advice),
// each note well under the engine's 10,000-character inline limit.
import { FIRST_PAGING_ENGINE, PERSISTED_OVER_CHARS } from './engine-version.js';

export const PREFIX = 'read-ceiling-pager:';
const MAX_PATH = 160;

/** A window that fits, or lines no Read window can hold, as the next step from a given line. */
export interface NextWindow {
  first: number;
  lines: number;
  /** A line named alone though its estimate is over the cap (a model may count it under): that estimate. */
  overByEstimate?: number;
  /** That line, when it is not the window's first: the short lines before it joined it (measure.ts, shortRunBefore). */
  longLine?: number;
}

/** A line a note passed over before any count of the file, judged again by the count known now: it may fit. */
export interface Revisit {
  /** The window that names it: that line alone. */
  window: NextWindow;
  /** Its estimate by that count, in engine tokens. */
  tokens: number;
}

/** Lines that alone estimate over the cap: no window holding them fits. */
export interface OversizeLines {
  first: number;
  last: number;
  /** Estimated tokens and characters of the first of them (no tokens where only an earlier reading says it is over
   * the cap, and the density known now would not). */
  tokens?: number;
  chars: number;
}

/** Why a window came back shorter than the reading it belongs to. */
export type ShortBecause =
  /** `pre` clamped the model's window under the cap. */
  | 'clamped'
  /** Another hook shortened it before it ran. */
  | 'shortened'
  /** The model followed the continuation an earlier note named; the reading goes on. */
  | 'continuing'
  /** A Read with no limit of a file over 256 KiB, which the engine refuses, ran as a window. */
  | 'over-size'
  /** A Read with no limit of a file under 256 KiB over the cap ran as a window, not as the engine's partial page. */
  | 'edit-guard'
  /** The same, because this session's engine refuses such a read where later engines page it. */
  | 'whole-refused'
  /** The same, because the engine's partial page would have held far fewer lines than the window. */
  | 'short-page'
  /** The engine's own partial page of a Read with no limit. */
  | 'partial-page';

export interface ShortWindow {
  path: string;
  /** The engine's line count (it counts the empty line after a final newline). */
  totalLines: number;
  returnedFirst: number;
  returnedLast: number;
  /** The window the model asked for: its first line, and its last (undefined: to the end of the file). */
  askedFirst: number;
  askedLast: number | undefined;
  because: ShortBecause;
  cap: number;
  oversize?: OversizeLines;
  /** Where reading goes on (after any oversize lines), sized to fit, or undefined when nothing is left. */
  next: NextWindow | undefined;
  /** The last line wanted: `askedLast`, or the file's last line. */
  end: number;
  /** The requested window reaches the file's last line: when nothing is left of it, nothing is left of the file. */
  endsFile?: boolean;
  /** After a partial page: the page size the engine's banner names, when it is over the cap by the estimate. */
  bannerOver?: number;
  /** When the rest of the requested window fits with room to spare and the file goes on: the longer window from
   * the same line that still fits, for a reader reading on. */
  readingOn?: NextWindow;
  /** Named before the file's density is known, wider than the estimate says fits: `pre` trims it when it runs. */
  hopeful?: NextWindow | undefined;
  /** For 'short-page': about how many lines the engine's partial page would have held. */
  enginePage?: number;
  /** For 'whole-refused': the engine's version, when that told it before any refusal did. */
  engine?: string;
  /** The window ended where its numbered result would pass what this engine shows whole, before the cap. */
  resultBound?: boolean;
  /** For 'partial-page': the model asked for lines 1 to this (all of the file), and `pre` sent the Read without limit,
   * which the engine pages where it would have refused the window. */
  sentWhole?: number;
  /** With `sentWhole`: the window was not all of the file, but its first line alone is over the cap. */
  lineOverCap?: boolean;
  /** For 'partial-page': the page was the engine's character excerpt, which showed only the first `shown` of the
   * `chars` characters of line `line` (then `returnedLast` is the line before it). */
  cut?: { line: number; shown: number; chars: number };
  /** A line passed over before any count of the file that may fit by the count since: named before `next`, which
   * the note after it names. */
  revisit?: Revisit;
}

/** The note after a window that came back shorter than the reading it belongs to. */
export function shortWindowNote(w: ShortWindow): string {
  const parts = [`${PREFIX} ${shortPath(w.path)} has ${w.totalLines} lines.`];
  const returned = range2(w.returnedFirst, w.returnedLast);
  const asked = w.askedLast === undefined ? undefined : range(w.askedFirst, w.askedLast);
  const fits = w.resultBound
    ? `, the most this engine shows whole (it shows a Read result of over ${PERSISTED_OVER_CHARS.toLocaleString('en-US')} characters only as a preview of its start)`
    : `, the most that fits under the ${w.cap}-token Read cap`;
  switch (w.because) {
    case 'clamped':
      parts.push(
        `This Read returned ${returned} of the requested ${asked ?? `${w.askedFirst}-${w.totalLines}`}${fits}.`,
      );
      break;
    case 'shortened':
      parts.push(
        `This Read returned ${returned} of the requested ${asked ?? `${w.askedFirst}-${w.totalLines}`} (the window was shortened before it ran).`,
      );
      break;
    case 'continuing':
      parts.push(
        `This Read returned ${returned}, continuing ${asked ? `the requested ${asked}` : 'a read of the whole file'}.`,
      );
      break;
    case 'over-size':
      parts.push(
        `A Read without limit is refused for a file over 256 KiB, so this Read returned ${returned} as a window${fits}.`,
      );
      break;
    case 'edit-guard':
      parts.push(
        `A Read without limit of this file would return a partial page, which does not count as reading the file for Edit, so this Read returned ${returned} as a window${fits}.`,
      );
      break;
    case 'whole-refused':
      parts.push(
        `${w.engine ? `Claude Code ${w.engine}, like every version before ${FIRST_PAGING_ENGINE},` : 'This engine'} refuses a Read without limit of a file over the cap${w.engine ? '' : ' (it refused one this session)'}, so this Read returned ${returned} as a window${fits}.`,
      );
      break;
    case 'short-page':
      parts.push(
        `A Read without limit of this file would return the engine's partial page of about ${w.enginePage ?? 1} lines, fewer than a window holds (the engine sizes its page by its count of the whole file), so this Read returned ${returned} as a window${fits}.`,
      );
      break;
    case 'partial-page': {
      const share = Math.round((100 * (w.returnedLast - w.returnedFirst + 1)) / Math.max(1, w.end));
      const read = w.sentWhole === undefined
        ? 'This Read without limit'
        : w.lineOverCap
          ? `This Read asked for ${range2(1, w.sentWhole)}; the pager sent it without limit, which the engine answers with an excerpt where it would refuse a window, and it`
          : `This Read asked for ${range2(1, w.sentWhole)}, all of the file; the pager sent it without limit, which the engine pages where it would refuse the window, and it`;
      // An excerpt that ends on a newline shows none of the line after it.
      const shown = w.cut && w.cut.shown > 0
        ? `${w.returnedLast >= w.returnedFirst ? `${returned} and ` : ''}the first ${w.cut.shown} of the ${w.cut.chars} characters of line ${w.cut.line}, the engine's excerpt`
        : w.cut
          ? `${returned}, the engine's excerpt`
          : `${returned} (${share}% of the file's lines), the engine's partial page`;
      parts.push(`${read} showed ${shown}, which does not count as having read the file for Write; a window does.`);
      break;
    }
  }
  if (w.oversize) parts.push(oversizeSentence(w.path, w.oversize, w.cut?.line === w.oversize.first ? w.cut.shown : 0));
  parts.push(nextSentence(w));
  return parts.join(' ');
}

function nextSentence(w: ShortWindow): string {
  const next = w.next;
  if (w.revisit) return revisitSentence(w, w.revisit);
  if (!next)
    return w.askedLast === undefined || w.endsFile ? 'Nothing is left of the file.' : 'Nothing is left of the requested window.';
  const unseen = `${capitalize(range2(next.first, w.end))} ${next.first === w.end ? 'is' : 'are'} not shown yet`;
  const call = `offset=${next.first} limit=${next.lines}`;
  const banner =
    w.bannerOver === undefined
      ? ''
      : ` The banner's page of ${w.bannerOver} lines is over the cap by this estimate; this one fits.`;
  if (next.first + next.lines - 1 >= w.end) {
    // It may ask for a line past the end: the engine returns what there is, and the reader knows it reached the end.
    const on = w.hopeful
      ? `, and ${hopefulCall(w.hopeful)}`
      : w.readingOn && w.askedLast !== undefined
        ? `, and offset=${w.readingOn.first} limit=${w.readingOn.lines} (to line ${w.readingOn.first + w.readingOn.lines - 1}) the most that fits reading on`
        : '';
    return `${unseen}; ${call} is the rest of ${w.askedLast === undefined ? 'the file' : 'the requested window'}${on}.${banner}`;
  }
  if (w.hopeful) return `${unseen}; ${hopefulCall(w.hopeful)}.${banner}`;
  if (next.overByEstimate !== undefined) return `${unseen}; ${call}${mayFit(next)} reads on.${banner}`;
  return `${unseen}; ${call} (${linesWord(next)}) is the most that fits next under the ${w.cap}-token cap.${banner}`;
}

/** A line passed over before any count of the file, named out of order: one offset and limit, so that a reader who
 * follows the last it is told reads it; the note after it names where reading goes on. */
function revisitSentence(w: ShortWindow, r: Revisit): string {
  const line = r.window.first;
  const passed = `Line ${line}, passed over by an earlier note before any count of this file, is about ${Math.round(r.tokens)} tokens by the count since: it may fit`;
  const on = w.next
    ? `; ${range2(w.next.first, w.end)} ${w.next.first === w.end ? 'is' : 'are'} not shown yet, and the note after it names where reading goes on`
    : `; nothing else is left of ${w.askedLast === undefined || w.endsFile ? 'the file' : 'the requested window'}`;
  return `${passed}. offset=${line} limit=${r.window.lines} (${linesWord(r.window)}) reads it${on}.`;
}

/** A window named wider than the estimate says fits, before the model's count of this Read is known. */
function hopefulCall(h: NextWindow): string {
  return `offset=${h.first} limit=${h.lines} (${linesWord(h)}) reads on; the pager trims it to the most that fits when it runs`;
}

function range2(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}

export interface RefusalAdvice {
  path: string;
  refusedFirst: number;
  /** Last line of the refused window, when known. */
  refusedLast: number | undefined;
  /** What the engine said: its count and cap, or a size that was too large. */
  engine: { tokens: number; cap: number } | { size: string; max: string } | { rangeMax: string };
  /** Characters per engine token measured on the refused window. */
  charsPerToken: number | undefined;
  cap: number;
  fits: NextWindow | undefined;
  oversize?: OversizeLines;
  /** The window after the oversize lines, when the first lines cannot be read at all. */
  after: NextWindow | undefined;
  /** The limit `after` is named with where it is the rest of the file: past the file's last line (measure.ts,
   * `namedWindow`). */
  afterLimit?: number;
  /** The refused window reached the end of the file: no lines follow the oversize ones at all. */
  fileEnds?: boolean;
}

/** The note after the engine refused a window anyway. */
export function refusalNote(a: RefusalAdvice): string {
  const window =
    a.refusedLast !== undefined ? range2(a.refusedFirst, a.refusedLast) : `the lines from ${a.refusedFirst}`;
  const parts = [PREFIX];
  if ('tokens' in a.engine) {
    const density =
      a.charsPerToken !== undefined ? ` (about ${a.charsPerToken.toFixed(1)} characters per token in this file)` : '';
    parts.push(
      `the engine counted ${window} of ${shortPath(a.path)} at ${a.engine.tokens} tokens, over its cap of ${a.engine.cap}${density}.`,
    );
  } else if ('size' in a.engine) {
    parts.push(`${shortPath(a.path)} (${a.engine.size}) is over the ${a.engine.max} a Read without limit may return.`);
  } else {
    parts.push(`${window} of ${shortPath(a.path)} hold over ${a.engine.rangeMax}, more than one Read may return.`);
  }
  if (a.fits) {
    parts.push(
      `offset=${a.fits.first} limit=${a.fits.lines} (${linesWord(a.fits)}) fits under the ${a.cap}-token cap.`,
    );
  } else if (a.oversize) {
    parts.push(oversizeSentence(a.path, a.oversize));
    parts.push(
      a.after
        ? `Reading goes on with offset=${a.after.first} limit=${a.afterLimit ?? a.after.lines}${
          a.afterLimit === undefined ? '' : ', the rest of the file'}${mayFit(a.after)}.`
        : a.fileEnds
          ? 'Nothing is left of the file.'
          : 'No lines follow them in that window.',
    );
  }
  return parts.join(' ');
}

/** What a window that names a line over the cap by its estimate is, when a model may count it under: with the short
 * lines before or after it, when they joined it (measure.ts, shortRunBefore, shortStretchAfter). */
function mayFit(w: NextWindow): string {
  if (w.overByEstimate === undefined) return '';
  const line = w.longLine ?? w.first;
  const which = w.lines === 1 ? `line ${line} alone,` : `${linesWord(w)}; line ${line} alone is`;
  return ` (${which} about ${Math.round(w.overByEstimate)} tokens by the estimate, which tokenizers count from 0.6 to `
    + '1.3 times: it may fit)';
}

/** The note after the engine refused a notebook: it counts every cell whatever `offset` and `limit` say, and its
 * own message names them, so without a word a model halves its window until it gives up. */
export function notebookNote(n: { path: string; tokens: number; cap: number; cells: number | undefined }): string {
  const file = shellQuote(n.path);
  // About the cap's share of the cells, for the first range; a single cell is shown a part at a time.
  const some = n.cells === undefined ? 10 : Math.max(1, Math.min(n.cells, Math.floor((n.cells * n.cap) / n.tokens)));
  const shown = n.cells === 1
    ? `parts of its one cell, for example \`jq '.cells[0].source' ${file}\``
    : `${n.cells === undefined ? 'its cells' : `its ${n.cells} cells`} a few at a time, for example \`jq '.cells[0:${some}]' ${file}\``;
  return (
    `${PREFIX} ${shortPath(n.path)} is a notebook: a Read returns all of its cells whatever offset and limit say, ` +
    `and the engine counted them at ${n.tokens} tokens, over its cap of ${n.cap}, so no Read of this notebook fits. ` +
    `A shell shows ${shown}.`
  );
}

/** `shown`: characters of the first line the model has already seen, so the byte range goes on after them. */
function oversizeSentence(path: string, o: OversizeLines, shown = 0): string {
  const which = o.first === o.last ? `Line ${o.first} alone is` : `Lines ${o.first}-${o.last} are each`;
  const chars = `(${o.chars} characters${o.first === o.last ? '' : ' for the first'})`;
  const size = o.tokens === undefined ? ` ${chars}` : `, about ${Math.round(o.tokens)} tokens ${chars}`;
  return (
    `${which} over the cap${size}: no Read window holding ${o.first === o.last ? 'it' : 'them'} fits. ` +
    `Grep finds text inside ${o.first === o.last ? 'it' : 'them'}, and a shell byte range shows a part, for example ` +
    `${byteRangeAdvice(path, o.first, process.platform, shown)}.`
  );
}

/** A command that shows 20,000 characters of one line, after the first `skip`. POSIX tools everywhere (BSD and GNU
 * alike); on Windows the engine's Bash tool is Git Bash, which has them, and its PowerShell tool needs its own form. */
export function byteRangeAdvice(
  path: string,
  line: number,
  platform: NodeJS.Platform = process.platform,
  skip = 0,
): string {
  const sed = `\`sed -n '${line}p' ${shellQuote(path)} | cut -c ${skip + 1}-${skip + 20000}\``;
  if (platform !== 'win32') return sed;
  const ps = `\`@(Get-Content -LiteralPath '${path.replace(/'/g, "''")}' -TotalCount ${line})[-1][${skip}..${skip + 19999}] -join ''\``;
  return `${sed} in Git Bash, or ${ps} in PowerShell`;
}

function linesWord(w: NextWindow): string {
  return w.lines === 1 ? `line ${w.first}` : `lines ${w.first}-${w.first + w.lines - 1}`;
}

function range(first: number, last: number): string {
  return first === last ? `${first}` : `${first}-${last}`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function shortPath(path: string): string {
  return path.length <= MAX_PATH ? path : `…${path.slice(path.length - MAX_PATH + 1)}`;
}

function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** Said by `pre` only when its plan could not be recorded, so that the clamp never goes unexplained. */
export function clampedNote(
  path: string,
  plan: { sentFirst: number; sentLines: number; askedLines?: number; cap: number },
): string {
  const last = plan.sentFirst + plan.sentLines - 1;
  const asked =
    plan.askedLines === undefined
      ? `the lines from ${plan.sentFirst} on`
      : `the requested ${range(plan.sentFirst, plan.sentFirst + plan.askedLines - 1)}`;
  const rest = plan.askedLines === undefined ? plan.sentLines : plan.askedLines - plan.sentLines;
  return (
    `${PREFIX} this Read of ${shortPath(path)} was shortened to ${range2(plan.sentFirst, last)} of ${asked}, ` +
    `the most that fits under the ${plan.cap}-token Read cap. offset=${last + 1} limit=${rest} continues from there.`
  );
}
