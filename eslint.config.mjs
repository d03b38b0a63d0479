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
);
