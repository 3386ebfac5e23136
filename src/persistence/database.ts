/**
 * Opens the database: PGlite (embedded; a directory, or `memory://` for tests) or PostgreSQL
 * (a pg.Pool shared by Prisma's adapter and our migration runner).
 */
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import { lockDataDir, type DirLock } from './dir-lock.js';

export type DatabaseConfig =
  /** dataDir: a directory, or `memory://` (optionally `memory://name`) for an in-memory db. */
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'postgres'; url: string; /** pool size, default 10 */ maxConnections?: number };

/** Reads DATABASE_URL (PostgreSQL) or else DATA_DIR (PGlite, default ./data). */
export function databaseConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  if (env.DATABASE_URL) return { kind: 'postgres', url: env.DATABASE_URL };
  return { kind: 'pglite', dataDir: env.DATA_DIR || './data' };
}

/** Plain SQL inside one transaction: what the migration runner needs. */
export interface SqlTx {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Several statements, no parameters. */
  exec(sql: string): Promise<void>;
}

/**
 * One SQL statement with parameters, straight to the driver (no ORM on the way). `name` makes
 * it a prepared statement on PostgreSQL (parsed and planned once per connection).
 */
export type SqlQuery = <R = Record<string, unknown>>(sql: string, params?: unknown[], name?: string) => Promise<R[]>;

export interface Database {
  readonly kind: DatabaseConfig['kind'];
  readonly prisma: PrismaClient;
  /**
   * The move path's statements (read a match, append events, idempotency): measured, Prisma's
   * query compiler cost more CPU per request than everything else on that path together.
   */
  readonly query: SqlQuery;
  /** LISTEN on a channel (NOTIFY payloads arrive after the notifying transaction commits). */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Runs fn in a transaction on one connection (commit on success, rollback on throw). */
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function isMemoryDir(dataDir: string): boolean {
  return dataDir.startsWith('memory://');
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.kind === 'pglite' ? openPglite(config.dataDir) : openPostgres(config.url, config.maxConnections);
}

async function openPglite(dataDir: string): Promise<Database> {
  const lock: DirLock | null = isMemoryDir(dataDir) ? null : lockDataDir(dataDir);
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir);
  } catch (e) {
    lock?.release();
    throw e;
  }
  // pglite-prisma-adapter 0.6 is typed against driver-adapter-utils 6.10 (its own nested copy);
  // at runtime it fits Prisma 6.19's adapter interface.
  const adapter = new PrismaPGlite(client) as unknown as NonNullable<Prisma.PrismaClientOptions['adapter']>;
  const prisma = new PrismaClient({ adapter });
  let closed = false;
  return {
    kind: 'pglite',
    prisma,
    query: async <R>(sql: string, params?: unknown[]) => (await client.query<R>(sql, params)).rows,
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(channel, onPayload);
      return () => unlisten();
    },
    transaction: (fn) =>
      client.transaction((tx) =>
        fn({
          query: async <R>(sql: string, params?: unknown[]) => (await tx.query<R>(sql, params)).rows,
          exec: async (sql) => {
            await tx.exec(sql);
          },
        }),
      ),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await prisma.$disconnect();
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

async function openPostgres(url: string, max = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's error (e.g. server restart) must not crash the process.
  pool.on('error', () => {});
  try {
    const c = await pool.connect();
    c.release();
  } catch (e) {
    await pool.end();
    throw e;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  let closed = false;
  return {
    kind: 'postgres',
    prisma,
    query: async <R>(sql: string, params?: unknown[], name?: string) =>
      (await pool.query({ text: sql, values: params as unknown[] | undefined, ...(name ? { name } : {}) })).rows as R[],
    async listen(channel, onPayload) {
      // A dedicated connection: LISTEN belongs to a session, not to a pooled query.
      const c = new pg.Client({ connectionString: url });
      c.on('error', () => {});
      await c.connect();
      c.on('notification', (n) => {
        if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
      });
      await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      return async () => {
        await c.end().catch(() => {});
      };
    },
    async transaction(fn) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const result = await fn({
          query: async <R>(sql: string, params?: unknown[]) =>
            (await c.query(sql, params as unknown[] | undefined)).rows as R[],
          exec: async (sql) => {
            await c.query(sql); // simple query protocol: several statements allowed
          },
        });
        await c.query('COMMIT');
        return result;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        c.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
