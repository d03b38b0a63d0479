// The stand-in's count_tokens: a real BPE tokenizer from npm, chosen by name, optionally scaled up to play a
// denser model (real Claude tokenizers are denser than these). The pager must not depend on which one is used.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** @typedef {{ name: string, scale: number, count: (text: string) => number }} Tokenizer */

/** @type {Record<string, () => (text: string) => number>} */
const LOADERS = {
  o200k: () => {
    const { countTokens } = require('gpt-tokenizer/cjs/encoding/o200k_base');
    return (t) => countTokens(t);
  },
  cl100k: () => {
    const { countTokens } = require('gpt-tokenizer/cjs/encoding/cl100k_base');
    return (t) => countTokens(t);
  },
  claude: () => {
    const { countTokens } = require('@anthropic-ai/tokenizer');
    return (t) => countTokens(t);
  },
};

export const TOKENIZER_ENV = 'E2E_TOKENIZER';
export const TOKENIZER_NAMES = Object.keys(LOADERS);

/** @type {Map<string, (text: string) => number>} */
const loaded = new Map();

/**
 * @param {{ name?: string, scale?: number }} [opts] name defaults to $E2E_TOKENIZER, then o200k.
 * @returns {Tokenizer}
 */
export function tokenizer(opts = {}) {
  const name = opts.name ?? process.env[TOKENIZER_ENV] ?? 'o200k';
  const scale = opts.scale ?? 1;
  const load = LOADERS[name];
  if (!load) throw new Error(`unknown tokenizer ${name}; one of ${TOKENIZER_NAMES.join(', ')}`);
  let base = loaded.get(name);
  if (!base) { base = load(); loaded.set(name, base); }
  const b = base;
  return { name, scale, count: (text) => Math.ceil(b(text) * scale) };
}
