// The scripted model: a reader that pages through files by following any `offset=N limit=M` it is told (a hook
// note, the engine's own PARTIAL banner), stops where a note says nothing is left of the file, and halves its window
// after a refusal that nobody explains.
// It sees only what a model sees: the tool_result text and the texts beside it.

/**
 * @typedef {import('./standin.mjs').Observation} Observation
 * @typedef {import('./standin.mjs').Reply} Reply
 * @typedef {{ file_path: string, offset?: number, limit?: number, [k: string]: unknown }} ReadInput
 * @typedef {object} Step One Read as the model asked and saw it.
 * @property {number} turn
 * @property {string} toolUseId
 * @property {ReadInput} asked
 * @property {boolean} isError
 * @property {string} content The tool_result text.
 * @property {Array<[number, string]>} lines Numbered lines that came back.
 * @property {string[]} notes Context lines about this file (hook notes, engine banners).
 * @property {{ offset: number, limit: number } | undefined} advice The last offset/limit the notes named.
 * @property {string} decision What the reader made of it.
 * @typedef {object} Target
 * @property {string} path
 * @property {number} [offset]
 * @property {number} [limit] Absent: a Read with no limit.
 * @property {Record<string, unknown>} [extra] Other input fields (allow_large, pages).
 * @property {boolean} [once] Read once and stop, whatever comes back.
 */

const ADVICE = /offset=(\d+)\s+limit=(\d+)/g;
/** What a note says when the rest of a file is only lines no Read window holds, or nothing at all. */
const FILE_ENDS = 'Nothing is left of the file.';
// Engines before 2.1.86 number a line as `     1→` (padded to six, an arrow) where later ones write `1\t`, or `1:`
// where a flag of the engine's asks it (docs/ENGINE.md 9.10).
const LINE = /^ *(\d+)(?:\t|→|:)/;
/** The window a model falls back to when a read with no limit is refused and nothing says what to do. */
export const FALLBACK_LIMIT = 2000;

export class Cursor {
  /** @param {Target} t */
  constructor(t) {
    this.path = t.path;
    this.once = t.once ?? false;
    /** @type {ReadInput | undefined} */
    this.next = {
      ...t.extra, file_path: t.path,
      ...(t.offset !== undefined ? { offset: t.offset } : {}), ...(t.limit !== undefined ? { limit: t.limit } : {}),
    };
    /** @type {Step[]} */
    this.steps = [];
    /** Set when the reader gave up (its window could not shrink further). */
    this.gaveUp = false;
    /** The page size it keeps paging with: what it first asked for, the first page it was told of, or what
     * halving left it with. A short "rest of the window" it was told about does not shrink it. */
    /** @type {number | undefined} */
    this.pageLimit = t.limit;
  }

  get done() { return this.next === undefined; }

  /** Every numbered line received, in order of arrival. */
  get received() { return this.steps.flatMap((s) => s.lines); }
  get refusals() { return this.steps.filter((s) => s.isError).length; }

  /**
   * @param {number} turn @param {import('./standin.mjs').ToolOutcome} r @param {string} context
   */
  see(turn, r, context) {
    const asked = /** @type {ReadInput} */ (r.input);
    // Texts delivered inside this very result are about it, named or not (an engine before 2.1.205 puts a partial
    // page's banner, without the path, at the head of the result).
    const own = new Set(r.reminders.flatMap((t) => t.split('\n')));
    const notes = context.split('\n').filter((l) => mentions(l, this.path) || own.has(l));
    let advice;
    // The last word wins: a note after the engine's banner may say that the page it names holds nothing readable.
    let fileEnds = false;
    for (const note of notes) {
      for (const m of note.matchAll(ADVICE)) {
        advice = { offset: Number(m[1]), limit: Number(m[2]) };
        fileEnds = false;
      }
      if (note.includes(FILE_ENDS)) { advice = undefined; fileEnds = true; }
    }
    /** @type {Array<[number, string]>} */
    const lines = [];
    if (!r.isError && !r.content.startsWith('<system-reminder>')) {
      const all = r.content.split('\n');
      for (const [i, l] of all.entries()) {
        const m = LINE.exec(l);
        if (m) lines.push([Number(m[1]), l.slice(m[0].length)]);
        // In fallback mode the engine trims the result before it appends a note: a last empty line keeps its number
        // and loses its tab (docs/ENGINE.md 7.5).
        else if (i === all.length - 1 && /^ *\d+$/.test(l)) lines.push([Number(l), '']);
      }
    }
    /** @type {Step} */
    const step = { turn, toolUseId: r.tool_use_id, asked, isError: r.isError, content: r.content, lines, notes, advice, decision: '' };
    this.steps.push(step);
    const { offset: _o, limit: _l, ...rest } = asked;
    if (this.once) { this.next = undefined; step.decision = 'done (one read)'; return; }
    if (fileEnds) {
      this.next = undefined;
      step.decision = 'stop: a note says nothing is left of the file';
    } else if (advice) {
      this.pageLimit ??= advice.limit;
      this.next = { ...rest, offset: advice.offset, limit: advice.limit };
      step.decision = `follow the note: offset=${advice.offset} limit=${advice.limit}`;
    } else if (r.isError) {
      if (!/exceeds maximum allowed|requested line range/.test(r.content)) { this.next = undefined; step.decision = 'stop: an error no window fixes'; return; }
      const limit = Math.floor((asked.limit ?? FALLBACK_LIMIT * 2) / 2);
      if (limit < 1) { this.next = undefined; this.gaveUp = true; step.decision = 'give up: nothing smaller to try'; return; }
      this.next = { ...rest, offset: asked.offset ?? 1, limit };
      this.pageLimit = limit;
      step.decision = `refused, no advice: halve to offset=${this.next.offset} limit=${limit}`;
    } else if (asked.limit === undefined || lines.length < asked.limit) {
      this.next = undefined;
      step.decision = 'stop: fewer lines than asked, so this is the end';
    } else {
      const last = lines.length > 0
        ? /** @type {[number, string]} */ (lines[lines.length - 1])[0]
        : (asked.offset ?? 1) - 1;
      const limit = Math.max(asked.limit, this.pageLimit ?? 0);
      this.next = { ...rest, offset: last + 1, limit };
      step.decision = `page on: offset=${last + 1} limit=${limit}`;
    }
  }
}

/** @param {string} text @param {string} path  the path, not a longer path that starts with it */
function mentions(text, path) {
  let i = text.indexOf(path);
  while (i >= 0) {
    const after = text.charAt(i + path.length);
    if (!/[\w.\-/]/.test(after) || (after === '.' && !/[\w]/.test(text.charAt(i + path.length + 1)))) return true;
    i = text.indexOf(path, i + 1);
  }
  return false;
}

/**
 * A reader over several files at once: each turn it sends one Read per unfinished file, in one message.
 * @param {Target[]} targets
 * @param {{ maxTurns?: number }} [opts]
 */
export function reader(targets, opts = {}) {
  const paths = new Set(targets.map((t) => t.path));
  if (paths.size !== targets.length) throw new Error('one cursor per file');
  const cursors = targets.map((t) => new Cursor(t));
  const maxTurns = opts.maxTurns ?? 80;
  /** @type {import('./standin.mjs').Policy} */
  const policy = (obs) => {
    for (const r of obs.results) {
      const c = cursors.find((x) => x.path === r.input.file_path);
      if (c) c.see(obs.turn, r, obs.context);
    }
    const reads = cursors.filter((c) => !c.done).map((c) => /** @type {ReadInput} */ (c.next));
    if (reads.length === 0 || obs.turn >= maxTurns) return { text: 'Done reading.' };
    return { reads };
  };
  return { cursors, policy };
}
