// The census as one screen of text. Pure: a report in, lines out. Every number is a count of transcript records,
// named the way `--json` names it.
import type { CensusReport, Tally } from './census.js';

const WIDTH = 78;

export function renderReport(r: CensusReport): string {
  const t = r.totals;
  const out: string[] = [];
  const since = r.period.since.slice(0, 10);
  const until = r.period.until.slice(0, 10);
  out.push(`read-ceiling-pager audit: last ${r.period.days} day${r.period.days === 1 ? '' : 's'} (${since} to ${until}), ${n(t.sessions)} session${t.sessions === 1 ? '' : 's'}`);
  const skipped: string[] = [];
  if (r.scan.malformedLines) skipped.push(`${n(r.scan.malformedLines)} malformed line${r.scan.malformedLines === 1 ? '' : 's'}`);
  const unknown = Object.values(r.scan.unknownTypes).reduce((a, b) => a + b, 0);
  if (unknown) skipped.push(`${n(unknown)} record${unknown === 1 ? '' : 's'} of unknown type`);
  if (r.scan.unreadableFiles) skipped.push(`${n(r.scan.unreadableFiles)} unreadable file${r.scan.unreadableFiles === 1 ? '' : 's'}`);
  out.push(`Scanned ${n(r.scan.files)} transcript${r.scan.files === 1 ? '' : 's'} (${bytes(r.scan.bytes)}, ${n(r.scan.records)} records)${skipped.length ? `; skipped ${skipped.join(', ')}` : ''}.`);
  out.push('');
  if (t.reads === 0) {
    out.push('No Read calls in this period.');
    return `${out.join('\n')}\n`;
  }
  const kinds = [`windows ${n(t.windows)}`, `whole-file ${n(t.wholeFile)}`];
  if (t.fromOffset) kinds.push(`from an offset ${n(t.fromOffset)}`);
  if (t.special) kinds.push(`images, PDFs, notebooks or allow_large ${n(t.special)}`);
  out.push(row('Read calls', t.reads, kinds.join(', ')));
  out.push('What the cap cost');
  const caps = Object.entries(t.caps).sort((a, b) => b[1] - a[1]).map(([cap, count]) => `cap ${n(Number(cap))} ×${n(count)}`);
  out.push(row('  token-cap refusals', t.tokenRefusals));
  out.push(row('  size-cap errors (no limit, >256 KiB)', t.sizeRefusals));
  out.push(row('  range-cap errors', t.rangeRefusals));
  const refusals = t.tokenRefusals + t.sizeRefusals + t.rangeRefusals;
  if (refusals) out.push(row('    then the same file again', t.refusalsRetried, `never read again: ${n(t.refusalsAbandoned)}`));
  out.push(row('  rounds lost to refusals', t.roundsLost));
  const sources = t.partialSources.flagOnly || t.partialSources.inline
    ? `banner records ${n(t.partialSources.attachment)}, in results ${n(t.partialSources.inline)}, flag only ${n(t.partialSources.flagOnly)}`
    : '';
  out.push(row('  PARTIAL pages (whole-file reads)', t.partialPages, sources));
  if (t.partialPages) {
    out.push(row('    paged on past the first page', t.partialPagedOn, `at the banner's offset: ${n(t.partialBannerFollowed)}`));
    out.push(row('    never paged on (silent partials)', t.partialNotPagedOn));
    const side = (f: { pages: number; pagedOn: number; readToEnd: number }): string => `${n(f.pagedOn)} of ${n(f.pages)} (to the end ${n(f.readToEnd)})`;
    out.push(`    followed by a Read of the rest: with the pager ${side(t.partialFollowUp.withPager)}, without ${side(t.partialFollowUp.without)}`);
  }
  out.push(row('  single-line excerpts', t.singleLineExcerpts));
  if (caps.length) out.push(`  caps named in refusals and banners: ${caps.join(', ')}`);
  if (t.otherErrors) out.push(row('  other Read errors (not the cap)', t.otherErrors));
  const p = t.pager;
  out.push('');
  if (p.sessions === 0 && p.clamps === 0 && p.notes === 0) {
    out.push('With the pager: not seen at work in this period (no clamps, no notes).');
    const preventable = t.tokenRefusals + t.sizeRefusals;
    if (preventable > 0) out.push(`  ${n(preventable)} refusal${preventable === 1 ? ' is' : 's are'} of the kind it prevents; see \`read-ceiling-pager install\`.`);
  } else {
    out.push(`With the pager (${n(p.sessions)} session${p.sessions === 1 ? '' : 's'})`);
    out.push(row('  windows clamped', p.clamps, `ran ${n(p.clampsRan)}, refused anyway ${n(p.clampsRefused)}`));
    const kinds2 = [`short window ${n(p.notesByKind['short-window'])}`, `after a refusal ${n(p.notesByKind.refusal)}`];
    if (p.notesByKind.clamped) kinds2.push(`clamp ${n(p.notesByKind.clamped)}`);
    out.push(row('  notes added', p.notes, kinds2.join(', ')));
    out.push(row('  advice given (offset=N limit=M)', p.advice, `followed ${n(p.adviceFollowed)}, other window ${n(p.adviceOtherWindow)}, no further Read ${n(p.adviceNoFurtherRead)}`));
    out.push(row('  refusals it could not prevent', p.refusalsNotPrevented));
    out.push(row('  rounds saved', p.roundsSaved, 'clamped windows that ran, each a bare-engine refusal'));
  }
  if (t.otherHookRewrites) out.push(row('  windows rewritten by another hook', t.otherHookRewrites));
  if (r.projects && r.projects.length) {
    out.push('');
    out.push(projectTable(r.projects));
  }
  if (r.files.length) {
    out.push('');
    out.push(fileTable(r));
  }
  return `${out.join('\n')}\n`;
}

function projectTable(projects: Array<{ project: string } & Tally>): string {
  const head = ['sessions', 'reads', 'refused', 'partial', 'clamped', 'saved'];
  const rows = projects.map((p) => [
    p.project, p.sessions, p.reads, p.tokenRefusals + p.sizeRefusals + p.rangeRefusals, p.partialPages, p.pager.clamps,
    p.pager.roundsSaved,
  ] as const);
  return table('By project', head, rows);
}

function fileTable(r: CensusReport): string {
  const head = ['reads', 'refused', 'partial', 'clamped', 'notes'];
  const rows = r.files.map((f) => [f.path, f.reads, f.refusals, f.partialPages, f.clamps, f.notes] as const);
  return table('Files most affected', head, rows);
}

function table(title: string, head: string[], rows: ReadonlyArray<readonly [string, ...number[]]>): string {
  const cols = head.map((h, i) => Math.max(h.length, ...rows.map((r) => n(r[i + 1] as number).length)));
  const numbers = cols.reduce((a, w) => a + w + 2, 0);
  const nameWidth = Math.max(title.length, Math.min(WIDTH - numbers, Math.max(...rows.map((r) => r[0].length + 2))));
  const lines = [title.padEnd(nameWidth) + head.map((h, i) => h.padStart(cols[i]! + 2)).join('')];
  for (const r of rows) {
    lines.push(`  ${clip(r[0], nameWidth - 2)}`.padEnd(nameWidth) + r.slice(1).map((v, i) => n(v as number).padStart(cols[i]! + 2)).join(''));
  }
  return lines.join('\n');
}

function row(label: string, value: number, detail = ''): string {
  return `${label.padEnd(40)}${n(value).padStart(7)}${detail ? `   ${detail}` : ''}`;
}

function clip(s: string, width: number): string {
  return s.length <= width ? s : `…${s.slice(s.length - width + 1)}`;
}

function n(v: number): string {
  return v.toLocaleString('en-US');
}

function bytes(b: number): string {
  if (b < 1024) return `${b} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = b / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v.toFixed(1)} ${units[i]}`;
}
