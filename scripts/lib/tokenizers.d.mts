/** o200k token counts per token class; long ASCII letter runs (hashes, repeated patterns) apart. */
export function o200kByClass(text: any): {
    counts: {
        [k: string]: number;
    };
    longRunChars: number;
    longRunTokens: number;
};
export function claudeDenseFrom(byClass: any, scale?: {
    sword: number;
    word: number;
    digit: number;
    newline: number;
    indent: number;
    punct: number;
    hangul: number;
    cjk: number;
    other: number;
}): number;
export namespace CLAUDE_47_CHARS_PER_TOKEN {
    let prose: number;
    let ts: number;
    let python: number;
    let html: number;
    let json: number;
    let ko: number;
    let repeat: number;
}
export const REAL: {
    o200k: (s: any) => number;
    cl100k: (s: any) => number;
    llama3: (s: any) => number;
    'claude-legacy': (s: any) => number;
};
/** Tokenizers that neither the estimate nor any decision of the pager was fitted or tuned on. */
export const HELD_OUT: {
    r50k: (s: any) => number;
    mistral: (s: any) => number;
};
/** Token classes of o200k tokens, by the characters a token decodes to: a word with its leading space, a word
 * piece without one (identifiers, markup), digits, newlines, indentation, ASCII punctuation, Hangul, Han/Kana,
 * anything else (other scripts, emoji bytes). */
export const TOKEN_CLASSES: string[];
export const LONG_RUN: RegExp;
export namespace CLAUDE_DENSE_SCALE {
    let sword: number;
    let word: number;
    let digit: number;
    let newline: number;
    let indent: number;
    let punct: number;
    let hangul: number;
    let cjk: number;
    let other: number;
}
export function claudeDense(s: any): number;
