/**
 * Opens the database: PGlite (embedded; a directory, or `memory://` for tests) or PostgreSQL
 * (a pg.Pool shared by Prisma's adapter and our migration runner).
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.js';
import { lockDataDir, type DirLock } from './dir-lock.js';
import { namedStatements } from './pglite-statements.js';

export type DatabaseConfig =
  | {
      kind: 'pglite';
      /** A directory (relative ones from the working directory), or `memory://` (optionally `memory://name`) for an in-memory db. */
      dataDir: string;
      /**
       * Test hook (never set from the environment): start a new database from this data
       * directory dump (PGlite's dumpDataDir tarball) instead of running initdb. The test suite
       * passes one already migrated, so each in-memory database costs a copy, not an initdb plus
       * every migration (see test/persistence/pglite-template.ts).
       */
      loadDataDir?: Blob;
    }
  | {
      kind: 'postgres';
      url: string;
      /** Pool size: connections this node opens at most (default 10; DB_POOL_SIZE). */
      maxConnections?: number;
      /**
       * Give up connecting, or waiting for a pooled connection while all are in use, after this
       * long (default 5000 ms): a hung server or a saturated pool must not hang requests.
       */
      connectTimeoutMs?: number;
      /**
       * Server-side lock_timeout on every pooled connection (default 5000 ms; 0: none): a statement
       * waiting on a row lock gives up (SQLSTATE 55P03, 503 overloaded) rather than hold its
       * connection while other requests queue for one.
       */
      lockTimeoutMs?: number;
      /** Server-side statement_timeout; the client also gives up a second later (default 10000 ms). */
      statementTimeoutMs?: number;
    };

/** The LISTEN session's state: 'down' while it is being re-established. */
export type ListenState = 'up' | 'down';

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
  listen(channel: string, onPayload: (payload: string) => void, onState?: (state: ListenState) => void): Promise<() => Promise<void>>;
  /** Runs fn in a transaction on one connection (commit on success, rollback on throw). */
  transaction<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

function isMemoryDir(dataDir: string): boolean {
  return dataDir.startsWith('memory://');
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.kind === 'pglite' ? openPglite(config.dataDir, config.loadDataDir) : openPostgres(config);
}

async function openPglite(configured: string, loadDataDir?: Blob): Promise<Database> {
  // memory:// is PGlite's in-memory database, not a path (resolving it made a directory "memory:").
  const dataDir = isMemoryDir(configured) ? configured : path.resolve(configured);
  const lock: DirLock | null = isMemoryDir(dataDir) ? null : lockDataDir(dataDir);
  let client: PGlite;
  try {
    client = await (loadDataDir ? PGlite.create({ dataDir, loadDataDir }) : PGlite.create(dataDir));
  } catch (e) {
    lock?.release();
    throw e;
  }
  // pglite-prisma-adapter 0.6 pins driver-adapter-utils 6.10, whose types no longer fit Prisma
  // 6.19's; package.json's overrides give it the client's own copy (the adapter uses only the
  // parts both versions share), so this type-checks. Bump that override with @prisma/client.
  const adapter = new PrismaPGlite(client);
  const prisma = new PrismaClient({ adapter });
  let closed = false;
  const named = namedStatements(client);
  return {
    kind: 'pglite',
    prisma,
    query: async <R>(sql: string, params?: unknown[], name?: string) =>
      name && params ? named<R>(name, sql, params) : (await client.query<R>(sql, params)).rows,
    listen: async (channel, onPayload, onState) => {
      const unlisten = await client.listen(channel, onPayload);
      onState?.('up'); // in-process: never breaks
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

const LISTEN_BACKOFF_MIN_MS = 250;
const LISTEN_BACKOFF_MAX_MS = 5_000;

async function openPostgres(config: Extract<DatabaseConfig, { kind: 'postgres' }>): Promise<Database> {
  const { url } = config;
  const connectTimeoutMs = config.connectTimeoutMs ?? 5_000;
  const statementTimeoutMs = config.statementTimeoutMs ?? 10_000;
  const lockTimeoutMs = config.lockTimeoutMs ?? 5_000;
  const clientOptions: pg.ClientConfig = {
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    // The server cancels a slow statement; a stopped (SIGSTOP) or partitioned server cannot, so
    // the client gives up a little later on its own.
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 1_000,
    ...(lockTimeoutMs > 0 ? { lock_timeout: lockTimeoutMs } : {}),
    keepAlive: true,
  };
  const pool = new pg.Pool({ ...clientOptions, max: config.maxConnections ?? 10 });
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
    async listen(channel, onPayload, onState) {
      // A dedicated session (LISTEN belongs to a session, not to a pooled query), re-established
      // with backoff whenever it breaks; the caller hears 'down'/'up' so it can catch up from
      // the store for whatever was notified while no session listened.
      let stopped = false;
      let client: pg.Client | null = null;
      let timer: NodeJS.Timeout | null = null;
      let delay = LISTEN_BACKOFF_MIN_MS;
      let up: boolean | null = null;
      const setState = (next: boolean) => {
        if (next === up) return;
        up = next;
        onState?.(next ? 'up' : 'down');
      };
      const connect = async (): Promise<void> => {
        const c = new pg.Client({ ...clientOptions, statement_timeout: undefined, query_timeout: undefined, lock_timeout: undefined });
        client = c;
        let broken = false;
        const onBroken = () => {
          if (broken) return;
          broken = true;
          c.removeAllListeners('notification');
          void c.end().catch(() => {});
          if (stopped) return;
          setState(false);
          timer = setTimeout(() => {
            timer = null;
            void connect().catch(() => {});
          }, delay);
          timer.unref();
          delay = Math.min(delay * 2, LISTEN_BACKOFF_MAX_MS);
        };
        c.on('error', onBroken);
        c.on('end', onBroken);
        c.on('notification', (n) => {
          if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
        });
        try {
          await c.connect();
          await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
        } catch {
          onBroken(); // reported as 'down'; retried on backoff
          return;
        }
        if (stopped) {
          await c.end().catch(() => {});
          return;
        }
        delay = LISTEN_BACKOFF_MIN_MS;
        setState(true);
      };
      await connect();
      return async () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        await client?.end().catch(() => {});
      };
    },
    async transaction(fn) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const result = await fn({
          query: async <R>(sql: string, params?: unknown[]) => (await c.query(sql, params as unknown[] | undefined)).rows as R[],
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
