/**
 * Throw-away PostgreSQL databases for tests: CREATE DATABASE <prefix><random> through the
 * maintenance database (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres)
 * and DROP DATABASE … WITH (FORCE) afterwards. The prefix (TEST_DB_PREFIX, default evons_test_)
 * lets a CI run drop whatever a crashed test left behind.
 *
 * Outside CI an unreachable PostgreSQL skips its suites with a printed reason; under CI (`CI` set,
 * as `.ci/run` runs) it fails them, as a missing Chromium fails the browser suites
 * (test/browser/fixture.ts): a green CI run has run every PostgreSQL suite.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const PREFIX = /^[a-z0-9_]{1,40}$/.test(process.env.TEST_DB_PREFIX ?? '') ? process.env.TEST_DB_PREFIX! : 'evons_test_';

export const MAINTENANCE_URL = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Under CI PostgreSQL must be reachable: its suites run (and fail) instead of skipping. */
export const POSTGRES_REQUIRED = Boolean(process.env.CI);

const REQUIRED_HINT = 'CI is set, so the PostgreSQL suites fail rather than skip: start PostgreSQL or point TEST_DATABASE_URL at one';

/** Why `url` cannot be used, with its password hidden. */
export function unreachableReason(url: string, e: unknown): string {
  return `PostgreSQL unreachable at ${url.replace(/\/\/[^@]*@/, '//***@')}: ${e instanceof Error ? e.message : String(e)}`;
}

/**
 * What a suite does with PostgreSQL unreachable for `reason` (null: reachable): skip, saying why
 * (the reason is returned), or under CI run, so that its first connection fails it (null is
 * returned, and the reason printed once here).
 */
export function skipUnlessRequired(reason: string | null): string | null {
  if (reason === null || !POSTGRES_REQUIRED) return reason;
  console.error(`[PostgreSQL tests] ${reason}. ${REQUIRED_HINT}.`);
  return null;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: MAINTENANCE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await c.connect();
  } catch (e) {
    // The suite's failure says what is wrong, not only ECONNREFUSED.
    throw new Error(`${unreachableReason(MAINTENANCE_URL, e)}${POSTGRES_REQUIRED ? ` (${REQUIRED_HINT})` : ''}`, { cause: e });
  }
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Null when PostgreSQL is reachable, or unreachable under CI (the suites run and fail: see
 * skipUnlessRequired); otherwise the reason, for a printed skip.
 */
export async function postgresUnavailableReason(): Promise<string | null> {
  // npm run test:quick (vitest.config.ts) leaves the PostgreSQL pass to npm test, even under CI.
  if (process.env.TEST_QUICK === '1') return 'TEST_QUICK=1 (npm run test:quick): npm test runs them';
  try {
    await admin((c) => c.query('SELECT 1'));
    return null;
  } catch (e) {
    // admin's error wraps the driver's (with the CI hint): the reason names the driver's.
    return skipUnlessRequired(unreachableReason(MAINTENANCE_URL, e instanceof Error && e.cause !== undefined ? e.cause : e));
  }
}

export interface TempDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A new database, empty or (given `template`) a copy of that one: CREATE DATABASE … TEMPLATE copies
 * the files of a migrated database in a fraction of the time the migrations take (measured on the
 * loaded 2-core machine: 0.5 s against 2.5 s). The template must have no open connection.
 */
export async function createTempDatabase(template?: string): Promise<TempDatabase> {
  const name = `${PREFIX}${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`));
  return {
    name,
    url: withDatabase(MAINTENANCE_URL, name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
