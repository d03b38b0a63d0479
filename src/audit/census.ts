// The census: every Read in the transcripts, what the cap did to it, what the model did next, and what the pager
// changed. Pure: fed classified records one transcript at a time, it holds only that transcript's Reads until the
// transcript ends, so memory stays flat however many gigabytes go through it.
import { parseRefusal } from '../hooks/refusal.js';
import type { AuditEvent, Classified, ReadWindow, ResultFile } from './records.js';
import { parseBanner, parseNote, ranThePager, type Advice, type Banner, type NoteKind } from './text.js';
import { classifyRecord, readWindow } from './records.js';

export interface Tally {
  sessions: number;
  reads: number;
  /** Reads with a limit. */
  windows: number;
  /** No limit, from line 1. */
  wholeFile: number;
  /** No limit, from a later line. */
  fromOffset: number;
  /** PDF pages, allow_large, images, PDFs and notebooks: not read as lines. */
  special: number;
  tokenRefusals: number;
  sizeRefusals: number;
  rangeRefusals: number;
  /** Read errors that are not the cap's (a missing file, a binary file, a hook's denial). */
  otherErrors: number;
  /** The cap each token refusal and PARTIAL banner named, and how often. */
  caps: Record<string, number>;
  /** Refusals followed by another Read of the same file in the same transcript, and those never followed. */
  refusalsRetried: number;
  refusalsAbandoned: number;
  /** One lost round trip per refused Read. */
  roundsLost: number;
  partialPages: number;
  /** Where each PARTIAL page was seen: its attachment record, inside the result text (fallback mode), or only the
   * result's flag. */
  partialSources: { attachment: number; inline: number; flagOnly: number };
  /** PARTIAL pages that were a character excerpt of very long lines. */
  singleLineExcerpts: number;
  /** A later Read of the same file went past line 1, or none did (the model stayed with the first page). */
  partialPagedOn: number;
  partialNotPagedOn: number;
  /** The next Read of the file started where the banner said. */
  partialBannerFollowed: number;
  /** PARTIAL pages in transcripts where the pager was at work, and in the others: how many were followed by a Read
   * of the rest (a later Read of the file past line 1), and how many of those reached the file's last line. */
  partialFollowUp: { withPager: PartialFollowUp; without: PartialFollowUp };
  pager: PagerTally;
  /** Windows rewritten by a PreToolUse hook that is not the pager. */
  otherHookRewrites: number;
}

export interface PartialFollowUp {
  pages: number;
  pagedOn: number;
  readToEnd: number;
}

export interface PagerTally {
  sessions: number;
  clamps: number;
  clampsRan: number;
  clampsRefused: number;
  notes: number;
  notesByKind: Record<NoteKind, number>;
  /** Reads after which the pager named a window to read next. */
  advice: number;
  /** The next Read of the file started at the named line, with no more lines than named. */
  adviceFollowed: number;
  adviceOtherWindow: number;
  adviceNoFurtherRead: number;
  /** Refusals in transcripts where the pager was at work. */
  refusalsNotPrevented: number;
  /** Clamped windows that ran: each one a refusal the bare engine would have returned, and a round trip. */
  roundsSaved: number;
}

export interface FileTally {
  path: string;
  reads: number;
  refusals: number;
  partialPages: number;
  clamps: number;
  notes: number;
}

export interface ScanTally {
  files: number;
  /** Transcripts left unread because they were last written before the period began. */
  filesBeforePeriod: number;
  unreadableFiles: number;
  bytes: number;
  lines: number;
  records: number;
  malformedLines: number;
  /** Record types the census does not know, with their counts. */
  unknownTypes: Record<string, number>;
  /** Reads already seen in another transcript (a resumed session repeats its history). */
  duplicateReads: number;
}

export interface CensusReport {
  period: { days: number; since: string; until: string };
  scan: ScanTally;
  totals: Tally;
  projects: Array<{ project: string } & Tally> | undefined;
  files: FileTally[];
}

interface Call {
  id: string;
  window: ReadWindow;
  inPeriod: boolean;
  sessionId: string | undefined;
  outcome: 'ok' | 'tokens' | 'size' | 'range' | 'error' | undefined;
  cap: number | undefined;
  file: ResultFile | undefined;
  banner: (Banner & { source: 'attachment' | 'inline' }) | undefined;
  clamp: { pager: boolean } | undefined;
  notes: Array<{ kind: NoteKind; advice: Advice | undefined }>;
}

export interface CensusOptions {
  /** Start of the period, ms since the epoch; records before it are not counted. */
  since: number;
  until: number;
  days: number;
  byProject: boolean;
  /** How many files to list. */
  topFiles?: number;
}

export class Census {
  private readonly scan: ScanTally = {
    files: 0, filesBeforePeriod: 0, unreadableFiles: 0, bytes: 0, lines: 0, records: 0, malformedLines: 0,
    unknownTypes: {}, duplicateReads: 0,
  };
  private readonly totals = emptyTally();
  private readonly sessions = new Set<string>();
  private readonly pagerSessions = new Set<string>();
  private readonly projects = new Map<string, { tally: Tally; sessions: Set<string>; pagerSessions: Set<string> }>();
  private readonly files = new Map<string, FileTally>();
  private readonly seenReads = new Set<string>();
  private current: { project: string; calls: Map<string, Call>; order: Call[]; pagerSeen: boolean } | undefined;

  constructor(private readonly opts: CensusOptions) {}

  /** Only transcripts written during the period can hold its records. */
  skipBeforePeriod(): void {
    this.scan.filesBeforePeriod++;
  }

  unreadable(): void {
    this.scan.unreadableFiles++;
  }

  startTranscript(project: string, bytes: number): void {
    this.endTranscript();
    this.scan.files++;
    this.scan.bytes += bytes;
    this.current = { project, calls: new Map(), order: [], pagerSeen: false };
  }

  /**
   * One line as bytes. The bulky records the census takes nothing from (API request copies, prompt snapshots, skill
   * listings) are recognised by their opening bytes and never decoded or parsed: most of a transcript's bytes are
   * theirs. Every other line goes through `line()`. Both paths give the same census (tested).
   */
  lineBytes(buf: Buffer): void {
    const skip = skippable(buf);
    if (!skip) { this.line(buf.toString('utf8')); return; }
    const t = this.current;
    if (!t) throw new Error('lineBytes() before startTranscript()');
    this.scan.lines++;
    this.scan.records++;
    if (skip === 'attachment') {
      const sessionId = stringField(buf, 'sessionId');
      const at = stringField(buf, 'timestamp');
      const time = at === undefined ? undefined : Date.parse(at);
      const inPeriod = time === undefined || !Number.isFinite(time)
        || (time >= this.opts.since && time <= this.opts.until);
      if (sessionId && inPeriod) {
        this.sessions.add(sessionId);
        if (this.opts.byProject) this.project(t.project).sessions.add(sessionId);
      }
    }
  }

  /** One line of a transcript: parsed, classified and counted; a line that is not JSON is counted and skipped. */
  line(text: string): void {
    if (text.trim() === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(text);
    } catch {
      this.scan.lines++;
      this.scan.malformedLines++;
      return;
    }
    this.record(classifyRecord(rec));
  }

  record(c: Classified): void {
    const t = this.current;
    if (!t) throw new Error('record() before startTranscript()');
    this.scan.lines++;
    this.scan.records++;
    if (!c.known) this.scan.unknownTypes[c.type || '(none)'] = (this.scan.unknownTypes[c.type || '(none)'] ?? 0) + 1;
    const inPeriod = c.at === undefined || (c.at >= this.opts.since && c.at <= this.opts.until);
    if (c.conversational && c.sessionId && inPeriod) {
      this.sessions.add(c.sessionId);
      if (this.opts.byProject) this.project(t.project).sessions.add(c.sessionId);
    }
    for (const e of c.events) this.event(e, inPeriod, c.sessionId);
  }

  private event(e: AuditEvent, inPeriod: boolean, sessionId: string | undefined): void {
    const t = this.current!;
    if (e.kind === 'read') {
      // tool_use ids are unique per call; the path guards against a stand-in or proxy that reuses them.
      const key = `${e.id}\0${e.window.path}`;
      if (this.seenReads.has(key)) { this.scan.duplicateReads++; return; }
      this.seenReads.add(key);
      const call: Call = {
        id: e.id, window: e.window, inPeriod, sessionId, outcome: undefined, cap: undefined, file: undefined,
        banner: undefined, clamp: undefined, notes: [],
      };
      t.calls.set(e.id, call);
      t.order.push(call);
      return;
    }
    const call = t.calls.get(e.id);
    if (!call) return; // another tool's hook, or a Read counted in an earlier transcript
    switch (e.kind) {
      case 'result': {
        if (call.outcome !== undefined) return;
        call.file = e.file;
        if (!e.isError) { call.outcome = 'ok'; return; }
        const refusal = parseRefusal(e.text);
        call.outcome = refusal?.kind ?? 'error';
        if (refusal?.kind === 'tokens') call.cap = refusal.cap;
        return;
      }
      case 'banner':
        if (!call.banner || e.source === 'attachment') call.banner = { ...parseBanner(e.text), source: e.source };
        return;
      case 'hook-output': {
        if (e.event !== 'PreToolUse' || !e.updatedInput) return;
        const sent = readWindow(e.updatedInput);
        if (!sent || sent.lines === undefined) return;
        if (call.window.lines !== undefined && sent.lines >= call.window.lines) return;
        const pager = ranThePager(e.command);
        call.clamp = { pager: pager || call.clamp?.pager === true };
        if (pager) t.pagerSeen = true;
        return;
      }
      case 'context': {
        const note = parseNote(e.text);
        if (!note) return;
        call.notes.push(note);
        t.pagerSeen = true;
        // A clamp whose hook command did not name the pager is the pager's when the pager explains it.
        if (call.clamp) call.clamp.pager = true;
        return;
      }
    }
  }

  endTranscript(): void {
    const t = this.current;
    if (!t) return;
    this.current = undefined;
    const byPath = new Map<string, Call[]>();
    for (const call of t.order) {
      const list = byPath.get(call.window.path);
      if (list) list.push(call); else byPath.set(call.window.path, [call]);
    }
    const tallies = [this.totals];
    const project = this.opts.byProject ? this.project(t.project) : undefined;
    if (project) tallies.push(project.tally);
    for (const calls of byPath.values()) {
      calls.forEach((call, i) => {
        if (!call.inPeriod) return;
        const later = calls.slice(i + 1);
        const facts = callFacts(call, later, t.pagerSeen);
        for (const tally of tallies) addFacts(tally, facts);
        const file = this.fileTally(call.window.path);
        file.reads++;
        file.refusals += facts.refused ? 1 : 0;
        file.partialPages += facts.partial ? 1 : 0;
        file.clamps += facts.clamp ? 1 : 0;
        file.notes += call.notes.length;
        if ((facts.clamp === 'pager' || call.notes.length > 0) && call.sessionId) {
          this.pagerSessions.add(call.sessionId);
          project?.pagerSessions.add(call.sessionId);
        }
      });
    }
  }

  report(): CensusReport {
    this.endTranscript();
    const pager = { ...this.totals.pager, sessions: this.pagerSessions.size };
    const totals = { ...this.totals, sessions: this.sessions.size, pager };
    const projects = this.opts.byProject
      ? [...this.projects.entries()]
        .map(([project, p]) => ({
          project, ...p.tally, sessions: p.sessions.size, pager: { ...p.tally.pager, sessions: p.pagerSessions.size },
        }))
        .filter((p) => p.sessions > 0 || p.reads > 0)
        .sort((a, b) => affected(b) - affected(a) || b.reads - a.reads || a.project.localeCompare(b.project))
      : undefined;
    const files = [...this.files.values()]
      .filter((f) => f.refusals + f.partialPages + f.clamps > 0)
      .sort((a, b) => (b.refusals + b.partialPages + b.clamps) - (a.refusals + a.partialPages + a.clamps)
        || b.reads - a.reads || a.path.localeCompare(b.path))
      .slice(0, this.opts.topFiles ?? 10);
    return {
      period: {
        days: this.opts.days,
        since: new Date(this.opts.since).toISOString(),
        until: new Date(this.opts.until).toISOString(),
      },
      scan: { ...this.scan, unknownTypes: { ...this.scan.unknownTypes } },
      totals,
      projects,
      files,
    };
  }

  private project(name: string) {
    let p = this.projects.get(name);
    if (!p) {
      p = { tally: emptyTally(), sessions: new Set(), pagerSessions: new Set() };
      this.projects.set(name, p);
    }
    return p;
  }

  private fileTally(path: string): FileTally {
    let f = this.files.get(path);
    if (!f) {
      f = { path, reads: 0, refusals: 0, partialPages: 0, clamps: 0, notes: 0 };
      this.files.set(path, f);
    }
    return f;
  }
}

const TYPE_FIRST = Buffer.from('{"type":"');
const PARENT_FIRST = Buffer.from('{"parentUuid":');
const ATTACHMENT_TYPE = Buffer.from('"attachment":{"type":"');
/** Non-conversational records written with their type first, that hold nothing for the census. */
const SKIP_TYPES = new Set(['api-request', 'api-request-shape', 'api-request-blob', 'queue-operation', 'atis-latch', 'cost-state', 'last-prompt', 'tools-used', 'file-history-snapshot']);
/** Attachments the census reads; every other attachment only shows that its session was active. */
const READ_ATTACHMENTS = new Set(['read_truncation_notice', 'hook_success', 'hook_additional_context']);

/** 'record' or 'attachment' when a line can be counted without parsing it, or undefined. */
function skippable(buf: Buffer): 'record' | 'attachment' | undefined {
  let end = buf.length - 1;
  while (end >= 0 && (buf[end] === 0x20 || buf[end] === 0x0d || buf[end] === 0x09)) end--;
  if (end < 0 || buf[end] !== 0x7d) return undefined; // not ending in `}`: let the parser judge it
  if (buf.subarray(0, TYPE_FIRST.length).equals(TYPE_FIRST)) {
    const close = buf.indexOf(0x22, TYPE_FIRST.length);
    return close > 0 && SKIP_TYPES.has(buf.toString('latin1', TYPE_FIRST.length, close)) ? 'record' : undefined;
  }
  if (buf.subarray(0, PARENT_FIRST.length).equals(PARENT_FIRST)) {
    // The attachment's own type comes early; anything nested inside it is escaped, so this is the real one.
    const at = buf.indexOf(ATTACHMENT_TYPE);
    if (at < 0 || at > 400) return undefined;
    const from = at + ATTACHMENT_TYPE.length;
    const close = buf.indexOf(0x22, from);
    if (close < 0 || close - from > 64) return undefined;
    return READ_ATTACHMENTS.has(buf.toString('latin1', from, close)) ? undefined : 'attachment';
  }
  return undefined;
}

/** The last top-level `"name":"value"` string in a record's bytes (its envelope fields come last). */
function stringField(buf: Buffer, name: string): string | undefined {
  const key = Buffer.from(`"${name}":"`);
  const at = buf.lastIndexOf(key);
  if (at < 0) return undefined;
  const from = at + key.length;
  const close = buf.indexOf(0x22, from);
  return close > from && close - from < 200 ? buf.toString('utf8', from, close) : undefined;
}

/** What one Read contributes, judged with the Reads of the same file that came after it. */
interface CallFacts {
  call: Call;
  refused: boolean;
  retried: boolean;
  partial: 'attachment' | 'inline' | 'flagOnly' | undefined;
  pagedOn: boolean;
  /** Later Reads of the file reached its last line. */
  readToEnd: boolean;
  bannerFollowed: boolean;
  clamp: 'pager' | 'other' | undefined;
  advice: 'followed' | 'other' | 'none' | undefined;
  pagerAtWork: boolean;
}

function callFacts(call: Call, later: Call[], pagerInTranscript: boolean): CallFacts {
  const next = later[0];
  const refused = call.outcome === 'tokens' || call.outcome === 'size' || call.outcome === 'range';
  const partial = call.banner ? call.banner.source : call.file?.truncatedByTokenCap ? 'flagOnly' : undefined;
  const bannerAdvice = call.banner?.advice;
  const advice = [...call.notes].reverse().find((n) => n.advice)?.advice;
  return {
    call,
    refused,
    retried: refused && next !== undefined,
    partial,
    pagedOn: partial !== undefined && later.some((c) => c.window.first > 1),
    readToEnd: partial !== undefined && call.file !== undefined && reachesEnd(later, call.file.totalLines),
    bannerFollowed: partial !== undefined && bannerAdvice !== undefined && next !== undefined
      && follows(next.window, bannerAdvice),
    clamp: call.clamp ? (call.clamp.pager ? 'pager' : 'other') : undefined,
    advice: advice === undefined ? undefined : next === undefined ? 'none' : follows(next.window, advice) ? 'followed' : 'other',
    pagerAtWork: pagerInTranscript,
  };
}

/** Whether some later Read returned the file's last line (the engine's count less the empty line after a final
 * newline, which nobody reads). */
function reachesEnd(later: Call[], totalLines: number): boolean {
  return later.some((c) => c.file !== undefined && c.file.numLines > 0
    && Math.max(1, c.file.startLine) + c.file.numLines - 1 >= Math.max(1, totalLines - 1));
}

function follows(w: ReadWindow, advice: Advice): boolean {
  return w.first === advice.first && w.lines !== undefined && w.lines <= advice.lines;
}

function addFacts(t: Tally, f: CallFacts): void {
  const { call } = f;
  t.reads++;
  if (call.window.special) t.special++;
  else if (call.window.lines !== undefined) t.windows++;
  else if (call.window.whole) t.wholeFile++;
  else t.fromOffset++;
  if (call.outcome === 'tokens') t.tokenRefusals++;
  else if (call.outcome === 'size') t.sizeRefusals++;
  else if (call.outcome === 'range') t.rangeRefusals++;
  else if (call.outcome === 'error') t.otherErrors++;
  const cap = call.cap ?? call.banner?.cap;
  if (cap !== undefined && (f.refused || f.partial)) t.caps[String(cap)] = (t.caps[String(cap)] ?? 0) + 1;
  if (f.refused) {
    t.roundsLost++;
    if (f.retried) t.refusalsRetried++; else t.refusalsAbandoned++;
    if (f.pagerAtWork) t.pager.refusalsNotPrevented++;
  }
  if (f.partial) {
    t.partialPages++;
    t.partialSources[f.partial]++;
    if (call.banner?.by === 'chars') t.singleLineExcerpts++;
    if (f.pagedOn) t.partialPagedOn++; else t.partialNotPagedOn++;
    if (f.bannerFollowed) t.partialBannerFollowed++;
    const side = f.pagerAtWork ? t.partialFollowUp.withPager : t.partialFollowUp.without;
    side.pages++;
    if (f.pagedOn) side.pagedOn++;
    if (f.readToEnd) side.readToEnd++;
  }
  if (f.clamp === 'other') t.otherHookRewrites++;
  if (f.clamp === 'pager') {
    t.pager.clamps++;
    if (call.outcome === 'ok') { t.pager.clampsRan++; t.pager.roundsSaved++; } else if (f.refused) t.pager.clampsRefused++;
  }
  t.pager.notes += call.notes.length;
  for (const n of call.notes) t.pager.notesByKind[n.kind]++;
  if (f.advice) {
    t.pager.advice++;
    if (f.advice === 'followed') t.pager.adviceFollowed++;
    else if (f.advice === 'other') t.pager.adviceOtherWindow++;
    else t.pager.adviceNoFurtherRead++;
  }
}

function affected(t: Tally): number {
  return t.tokenRefusals + t.sizeRefusals + t.rangeRefusals + t.partialPages + t.pager.clamps;
}

export function emptyTally(): Tally {
  return {
    sessions: 0, reads: 0, windows: 0, wholeFile: 0, fromOffset: 0, special: 0,
    tokenRefusals: 0, sizeRefusals: 0, rangeRefusals: 0, otherErrors: 0, caps: {},
    refusalsRetried: 0, refusalsAbandoned: 0, roundsLost: 0,
    partialPages: 0, partialSources: { attachment: 0, inline: 0, flagOnly: 0 }, singleLineExcerpts: 0,
    partialPagedOn: 0, partialNotPagedOn: 0, partialBannerFollowed: 0,
    partialFollowUp: {
      withPager: { pages: 0, pagedOn: 0, readToEnd: 0 }, without: { pages: 0, pagedOn: 0, readToEnd: 0 },
    },
    pager: {
      sessions: 0, clamps: 0, clampsRan: 0, clampsRefused: 0, notes: 0,
      notesByKind: { 'short-window': 0, refusal: 0, clamped: 0 },
      advice: 0, adviceFollowed: 0, adviceOtherWindow: 0, adviceNoFurtherRead: 0,
      refusalsNotPrevented: 0, roundsSaved: 0,
    },
    otherHookRewrites: 0,
  };
}
