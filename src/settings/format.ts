// Settings text in and out. The file is rewritten the way it was written: same indent, same line ending,
// same BOM and final newline, so a second run produces the same bytes and a diff shows only our lines.
import { isObject, type Json, type JsonObject } from './hooks.js';

export interface TextStyle {
  indent: string;
  eol: '\n' | '\r\n';
  bom: boolean;
  finalNewline: boolean;
}

export const DEFAULT_STYLE: TextStyle = { indent: '  ', eol: '\n', bom: false, finalNewline: true };

export type ParsedSettings =
  | { ok: true; settings: JsonObject; style: TextStyle }
  | { ok: false; reason: string };

/** A missing or blank file is an empty settings object; anything that is not a JSON object is refused. */
export function parseSettings(text: string | undefined): ParsedSettings {
  if (text === undefined || text.trim() === '' || text === '\uFEFF') return { ok: true, settings: {}, style: DEFAULT_STYLE };
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  let value: Json;
  try {
    value = JSON.parse(body) as Json;
  } catch (err) {
    return { ok: false, reason: `it is not valid JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  if (!isObject(value)) return { ok: false, reason: 'its top level is not a JSON object' };
  return { ok: true, settings: value, style: detectStyle(body, bom) };
}

export function detectStyle(body: string, bom: boolean): TextStyle {
  const indent = /\n([ \t]+)\S/.exec(body)?.[1] ?? DEFAULT_STYLE.indent;
  return {
    indent,
    eol: body.includes('\r\n') ? '\r\n' : '\n',
    bom,
    finalNewline: body.length === 0 || /\n$/.test(body),
  };
}

export function formatSettings(settings: JsonObject, style: TextStyle): string {
  let text = JSON.stringify(settings, null, style.indent);
  if (style.eol === '\r\n') text = text.replace(/\n/g, '\r\n');
  if (style.finalNewline) text += style.eol;
  return (style.bom ? '\uFEFF' : '') + text;
}
