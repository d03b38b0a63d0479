/** A small deterministic PRNG (mulberry32), so every run reads the same files. */
export function rng(seed?: number): () => number;
/** English prose, one paragraph per line. */
export function prose(lines?: number, seed?: number): string;
/** English prose as in prose(), as many lines as it takes to reach `bytes`: a file of a given size.
 * @param {number} bytes */
export function proseOfSize(bytes: number, seed?: number): string;
/** TypeScript-like code: indentation, identifiers, punctuation. */
export function code(functions?: number, seed?: number): string;
/** Pretty-printed JSON whose strings are in one script (Hangul or Han). */
export function cjsonPretty(script?: string, records?: number, seed?: number): string;
/** JSON Lines: one minified record per line, a few hundred characters each. */
export function minifiedJsonl(lines?: number, seed?: number): string;
/** GeoJSON features, one to a line, about 1,500 characters each: a window holds fewer than 100 of them. */
export function featureLines(lines?: number, seed?: number): string;
/** Prose with one line at `at` far longer than the cap. */
export function withLongLine(lines?: number, at?: number, longChars?: number, seed?: number): string;
/**
 * The lines of a file as the engine numbers them: BOM stripped, CRLF as LF, a lone trailing CR dropped; a final
 * newline gives an empty last line.
 * @param {string} path
 */
export function engineLines(path: string): string[];
/** @param {string} dir @param {string} name @param {string} text */
export function put(dir: string, name: string, text: string): string;
/** A small valid PDF with one line of text per page (xref offsets computed). @param {string[]} pages */
export function minimalPdf(pages: string[]): string;
export function crlf(text: string): string;
export function noFinalNewline(text: string): string;
