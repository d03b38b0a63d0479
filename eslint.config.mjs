// ESLint flat config: the recommended JavaScript and typescript-eslint rules, and lines of at most 120 characters.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly', Buffer: 'readonly', console: 'readonly', __dirname: 'readonly', require: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        URL: 'readonly', SharedArrayBuffer: 'readonly', Atomics: 'readonly', NodeJS: 'readonly', TextDecoder: 'readonly',
        TextEncoder: 'readonly', AbortController: 'readonly', structuredClone: 'readonly', fetch: 'readonly',
        setImmediate: 'readonly', queueMicrotask: 'readonly', performance: 'readonly',
      },
    },
    rules: {
      'max-len': ['error', {
        code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true,
      }],
      '@typescript-eslint/no-explicit-any': 'off', // tests read untyped JSON the binary printed
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The two-line bin shim is CommonJS on purpose: it loads the bundle.
    files: ['bin/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // TEMPORARY (issue #15): the window logic is being rewritten in these files; the rewrite wraps their long
    // lines and removes this override.
    files: [
      // and the tests the rewrite changed since
      'test/cli/hooks.test.ts', 'test/e2e/whole-reads.test.ts', 'test/helpers/hook.ts', 'test/unit/audit.census.test.ts',
      'test/unit/memory.test.ts', 'test/unit/note.test.ts', 'test/unit/plan.test.ts', 'test/unit/session.test.ts',
      'test/unit/model.test.ts',
    ],
    rules: { 'max-len': 'off', 'preserve-caught-error': 'off' },
  },
  {
    // TEMPORARY (issue #15): the rounds benchmark, merged after the lint went in; its long lines are still to wrap.
    files: [
      'scripts/rounds.mjs', 'scripts/lib/engine-sim.mjs', 'scripts/lib/engine-sim.d.mts', 'scripts/lib/rounds-corpus.mjs',
      'scripts/lib/sim-session.mjs', 'scripts/lib/sim-session.d.mts', 'scripts/lib/token-count.mjs',
      'scripts/lib/token-count.d.mts', 'test/e2e/rounds-sim.test.ts', 'test/unit/engine-sim.test.ts',
    ],
    rules: { 'max-len': 'off' },
  },
);
