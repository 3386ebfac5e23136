import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

const REGISTRY = resolve('src/games/registry.ts');
const FIXTURE_REGISTRY = resolve('test/fixtures/games/registry.ts');

/**
 * The fixture-games project runs the real app with a third, test-only game: every import of the
 * product registry (src/games/registry.ts) resolves to the fixture registry, which is the same
 * list plus one line. Nothing else changes: that is the proof that a game is one folder.
 */
const fixtureRegistry: Plugin = {
  name: 'fixture-registry',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!importer || importer === FIXTURE_REGISTRY || !source.endsWith('registry.js')) return null;
    const found = await this.resolve(source, importer, { ...options, skipSelf: true });
    return found?.id === REGISTRY ? FIXTURE_REGISTRY : null;
  },
};

/**
 * `npm run test:quick` (TEST_QUICK=1): the inner loop. It leaves out the suites that start other
 * programs (server processes, Chromium, tsc, npm, dependency-cruiser, the bench scripts, the
 * production build) and the PostgreSQL pass (test/persistence/pg-helper.ts); `npm test` runs them all.
 */
const QUICK = process.env.TEST_QUICK === '1';
const SLOW_SUITES = [
  'test/browser/**',
  'test/package/**',
  'test/bench/{lobby,notify,tournament}.test.ts',
  'test/docs/examples.test.ts',
  'test/architecture/imports.test.ts',
  'test/api/http/server-process.test.ts',
  'test/api/**/*-processes.test.ts',
  'test/persistence/shutdown.test.ts',
  'clients/typescript/test/{consumer,install,package,readme}.test.ts',
];

const shared = {
  // Once per run and project: the migrated PGlite template the suites' in-memory databases start from.
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // A worker runs file after file with one module cache: the app, Prisma and PGlite's
  // WebAssembly are loaded once per worker instead of once per file (measured: about 1.8 s of
  // CPU less per API file). No suite mocks modules, fakes timers, stubs globals or changes
  // process.env, and each opens and closes its own servers and databases.
  isolate: false,
};

export default defineConfig({
  test: {
    // API suites each open their own database; keep the 2-core machines from thrashing.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'main',
          // The client package's and the reference bot's suites run with the rest (one `npm test`).
          include: ['test/**/*.test.ts', 'clients/typescript/test/**/*.test.ts', 'examples/**/*.test.ts'],
          // The chaos and isolation suites have their own configs and commands (npm run test:chaos, test:isolation).
          exclude: ['**/node_modules/**', 'test/chaos/**', 'test/isolation/**', 'test/fixture-games/**', ...(QUICK ? SLOW_SUITES : [])],
        },
      },
      {
        plugins: [fixtureRegistry],
        test: { ...shared, name: 'fixture-games', include: ['test/fixture-games/**/*.test.ts'] },
      },
    ],
  },
});
