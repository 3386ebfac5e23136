/** The backends every persistence suite runs against. PostgreSQL ones skip, loudly, if unreachable. */
import { createTempDatabase, postgresUnavailableReason, type TempDatabase } from './pg-helper.js';
import { memoryDatabase } from './pglite-template.js';
import { postgresTemplate } from './pg-template.js';
import type { DatabaseConfig } from '../../src/persistence/database.js';

export interface Backend {
  name: 'pglite' | 'postgres';
  /** Null: run. A string: skip with this reason (printed). */
  skipReason: string | null;
  /** A fresh, empty database; dispose() after closing every connection to it. */
  fresh(): Promise<{ config: DatabaseConfig; dispose(): Promise<void> }>;
  /**
   * A fresh database for the store and API suites, possibly with the migrations already applied
   * (each starts from the run's migrated template: see pglite-template.ts and pg-template.ts);
   * openStore migrates whatever is missing either way. Suites about migrating itself use fresh().
   */
  migrated(): Promise<{ config: DatabaseConfig; dispose(): Promise<void> }>;
}

const pgReason = await postgresUnavailableReason();
if (pgReason) console.warn(`[persistence tests] skipping PostgreSQL suites: ${pgReason}`);

export const backends: Backend[] = [
  {
    name: 'pglite',
    skipReason: null,
    fresh: async () => ({ config: { kind: 'pglite', dataDir: 'memory://' }, dispose: async () => {} }),
    migrated: async () => ({ config: memoryDatabase(), dispose: async () => {} }),
  },
  {
    name: 'postgres',
    skipReason: pgReason,
    fresh: async () => {
      const db: TempDatabase = await createTempDatabase();
      return { config: { kind: 'postgres', url: db.url }, dispose: () => db.drop() };
    },
    migrated: async () => {
      const db: TempDatabase = await createTempDatabase(postgresTemplate());
      return { config: { kind: 'postgres', url: db.url }, dispose: () => db.drop() };
    },
  },
];
