import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The client package's and the reference bot's suites run with the rest (one `npm test`).
    include: ['test/**/*.test.ts', 'clients/typescript/test/**/*.test.ts', 'examples/**/*.test.ts'],
    // The chaos suite has its own config and command (npm run test:chaos).
    exclude: ['**/node_modules/**', 'test/chaos/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // API suites each open their own database; keep the 2-core machines from thrashing.
    maxWorkers: 2,
  },
});
