/**
 * The PostgreSQL the benchmarks create their throw-away databases on (BENCH_DATABASE_URL, else
 * TEST_DATABASE_URL, else the local cluster), and the one-off admin connection that creates and
 * drops them.
 */
import pg from 'pg';

export const MAINTENANCE_URL =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Runs `fn` on a fresh connection to the maintenance database (gives up connecting after 3 s). */
export async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: MAINTENANCE_URL, connectionTimeoutMillis: 3_000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The URL of database `name` on the same server as `url`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
