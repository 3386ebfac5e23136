/**
 * Throw-away PostgreSQL databases for tests: CREATE DATABASE <prefix><random> through the
 * maintenance database (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres)
 * and DROP DATABASE … WITH (FORCE) afterwards. The prefix (TEST_DB_PREFIX, default evons_test_)
 * lets a CI run drop whatever a crashed test left behind.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const PREFIX = /^[a-z0-9_]{1,40}$/.test(process.env.TEST_DB_PREFIX ?? '') ? process.env.TEST_DB_PREFIX! : 'evons_test_';

export const MAINTENANCE_URL = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: MAINTENANCE_URL, connectionTimeoutMillis: 3_000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Null when PostgreSQL is reachable; otherwise the reason, for a printed skip. */
export async function postgresUnavailableReason(): Promise<string | null> {
  try {
    await admin((c) => c.query('SELECT 1'));
    return null;
  } catch (e) {
    return `PostgreSQL unreachable at ${MAINTENANCE_URL.replace(/\/\/[^@]*@/, '//***@')}: ${(e as Error).message}`;
  }
}

export interface TempDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTempDatabase(): Promise<TempDatabase> {
  const name = `${PREFIX}${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  return {
    name,
    url: withDatabase(MAINTENANCE_URL, name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
