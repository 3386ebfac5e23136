/**
 * One migrated PostgreSQL database per test run and project, the PostgreSQL twin of
 * pglite-template.ts: vitest's global setup (test/global-setup.ts) creates it and migrates it the
 * way the server does (openStore), and backends' migrated() copies it (CREATE DATABASE … TEMPLATE)
 * instead of running every migration again in every suite. Each suite's database is still its own.
 * The migration suite itself opens empty databases (fresh()), never the template.
 */
import { inject } from 'vitest';
import { openStore } from '../../src/persistence/match-store.js';
import { createTempDatabase, postgresUnavailableReason, type TempDatabase } from './pg-helper.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Name of the migrated PostgreSQL template database; '' when there is none. */
    postgresTemplate: string;
  }
}

/** The migrated template, or null when PostgreSQL is unreachable (its suites then skip or fail as before). */
export async function createPostgresTemplate(): Promise<TempDatabase | null> {
  if ((await postgresUnavailableReason()) !== null) return null;
  let db: TempDatabase;
  try {
    db = await createTempDatabase();
  } catch {
    return null; // unreachable under CI: the suites' own connections fail them, saying why
  }
  try {
    // A loaded machine can hold a connection or one migration statement past the defaults (5 s,
    // 10 s); the suites' own timeouts are not this setup's subject.
    const opened = await openStore({
      kind: 'postgres',
      url: db.url,
      connectTimeoutMs: 60_000,
      statementTimeoutMs: 300_000,
      lockTimeoutMs: 0,
    });
    await opened.close();
  } catch (e) {
    // Without a template each suite migrates its own database, as before: a broken migration
    // still fails them, each saying why.
    console.warn(`[PostgreSQL tests] no template database, each suite migrates its own: ${e instanceof Error ? e.message : String(e)}`);
    await db.drop().catch(() => {});
    return null;
  }
  return db;
}

/** The template's name inside a vitest worker of a run that made one, else undefined (a plain new database). */
export function postgresTemplate(): string | undefined {
  try {
    return inject('postgresTemplate') || undefined;
  } catch {
    return undefined; // not inside a vitest worker, or a config without the global setup
  }
}
