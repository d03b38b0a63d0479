/**
 * @param {{ name?: string, scale?: number }} [opts] name defaults to $E2E_TOKENIZER, then o200k.
 * @returns {Tokenizer}
 */
export function tokenizer(opts?: {
    name?: string;
    scale?: number;
}): Tokenizer;
export const TOKENIZER_ENV: "E2E_TOKENIZER";
export const TOKENIZER_NAMES: string[];
export type Tokenizer = {
    name: string;
    scale: number;
    count: (text: string) => number;
};
