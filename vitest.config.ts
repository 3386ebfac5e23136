import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The client package's and the reference bot's suites run with the rest (one `npm test`).
    include: ['test/**/*.test.ts', 'clients/typescript/test/**/*.test.ts', 'examples/**/*.test.ts'],
    // The chaos suite has its own config and command (npm run test:chaos).
    exclude: ['**/node_modules/**', 'test/chaos/**'],
    // Once per run: the migrated PGlite template the suites' in-memory databases start from.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // API suites each open their own database; keep the 2-core machines from thrashing.
    maxWorkers: 2,
    // A worker runs file after file with one module cache: the app, Prisma and PGlite's
    // WebAssembly are loaded once per worker instead of once per file (measured: about 1.8 s of
    // CPU less per API file). No suite mocks modules, fakes timers, stubs globals or changes
    // process.env, and each opens and closes its own servers and databases.
    isolate: false,
  },
});
