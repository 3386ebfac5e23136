import { defineConfig } from 'vitest/config';

// The chaos suite (npm run test:chaos): real server processes and its own PostgreSQL cluster.
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
