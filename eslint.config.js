import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'src/generated/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      // The engine is pure: no I/O, no clock, no ambient randomness, no environment.
      'no-restricted-imports': ['error', { patterns: ['node:fs*', 'fs', 'node:net', 'node:http', 'node:child_process', '../*/**', '../../*'] }],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the seeded generator (rng.ts).' },
        { object: 'Date', property: 'now', message: 'Time comes from the caller.' },
        { object: 'process', property: 'env', message: 'The engine takes its settings as arguments.' },
      ],
    },
  },
);
