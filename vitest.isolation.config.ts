import { defineConfig } from 'vitest/config';

// The isolation suite (npm run test:isolation): a bystander's latency while each of issue 33's
// attacks runs against the real server process, on a throw-away PostgreSQL database.
export default defineConfig({
  test: {
    include: ['test/isolation/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
