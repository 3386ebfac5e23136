import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'src/generated/', 'coverage/', 'clients/typescript/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Promises must be awaited or handed off on purpose (issue 35): these two rules need type
    // information, so only the TypeScript that tsconfig.json covers is linted with types.
    files: [
      'src/**/*.ts',
      'scripts/**/*.ts',
      'bench/**/*.ts',
      'test/**/*.ts',
      'examples/**/*.ts',
      'clients/typescript/src/**/*.ts',
      'clients/typescript/test/**/*.ts',
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Fixture games (test/fixtures/games) are engines too; their tests are not. The computer
    // player (src/ai) is as pure as the engines it drives, and so is tournament pairing.
    files: ['src/core/**/*.ts', 'src/games/**/*.ts', 'src/ai/**/*.ts', 'src/tournaments/pairing/**/*.ts', 'test/fixtures/games/**/*.ts'],
    ignores: ['test/fixtures/games/**/*.test.ts'],
    rules: {
      // Rules engines are pure: no I/O, no clock, no ambient randomness, no environment. They may
      // use the game-agnostic core (src/core) and nothing of the service around them.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'node:fs*',
            'fs',
            'node:net',
            'node:http*',
            'node:child_process',
            'node:worker_threads',
            '**/persistence/**',
            '**/service/**',
            '**/http/**',
            '**/graphql/**',
            '**/config/**',
            '**/app.js',
            '**/server.js',
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use a keyed stream from the match seed (src/core/random.ts).' },
        { object: 'Date', property: 'now', message: 'Time comes from the caller.' },
        { object: 'process', property: 'env', message: 'The engine takes its settings as arguments.' },
      ],
    },
  },
  {
    // The move path's decision (src/service/match/decide.ts) is pure: its handler (moves.ts) loads,
    // charges and appends; the command carries the time. Types of the store and loader only.
    files: ['src/service/match/decide.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', '**/http/**', '**/graphql/**', '**/config/**', './moves.js', './match-service.js'] },
            { group: ['**/persistence/**', './match-loader.js'], allowTypeImports: true, message: 'decide does no I/O: types only.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'A decision depends on its command and entry only.' },
        { object: 'Date', property: 'now', message: 'The time comes in the command (now).' },
        { object: 'process', property: 'env', message: 'A decision depends on its command and entry only.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'The time comes in the command (now).' },
      ],
    },
  },
  {
    // Board pictures are drawn by pure code too (the same view gives the same bytes); only the
    // PNG rasteriser (png.ts) touches the outside, to read its font.
    files: ['src/pictures/**/*.ts'],
    ignores: ['src/pictures/png.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'fs', '**/persistence/**', '**/http/**', '**/graphql/**', '**/config/**', '@resvg/*'] },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'A picture depends on its view only.' },
        { object: 'Date', property: 'now', message: 'A picture depends on its view only.' },
        { object: 'process', property: 'env', message: 'A picture depends on its view only.' },
      ],
    },
  },
);
