/**
 * Overload is not an outage (issue 33 item 5), on real PostgreSQL: a saturated pool (waiting for a
 * pooled connection past DB_CONNECT_TIMEOUT_MS), a statement timeout (57014), a lock timeout
 * (55P03, DB_LOCK_TIMEOUT_MS) and the server out of connection slots (53300) answer 503 with
 * Retry-After and code `overloaded` on REST and GraphQL, never 500 and never
 * `database-unavailable` (which stays for an unreachable database).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import supertest from 'supertest';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openStore, type OpenedStore } from '../../src/persistence/index.js';
import type { DatabaseConfig } from '../../src/persistence/database.js';
import { databaseFailure } from '../../src/persistence/db-errors.js';
import { backends } from './backends.js';
import { createTempDatabase, MAINTENANCE_URL, type TempDatabase } from './pg-helper.js';
import { postgresTemplate } from './pg-template.js';

const pgSkip = backends.find((b) => b.name === 'postgres')!.skipReason;
const PREFIX = /^[a-z0-9_]{1,40}$/.test(process.env.TEST_DB_PREFIX ?? '') ? process.env.TEST_DB_PREFIX! : 'evons_test_';

/** Not a match: reading it asks the database every time (no cache to answer from). */
const MISSING = 'AAAAAAAAAAAAAAAAAAAAAA';
const DECKS = { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } };

describe('database error classification: overloaded vs unavailable', () => {
  it('saturation codes are overloaded, connection-level ones unavailable, the rest neither', () => {
    for (const code of ['57014', '55P03', '53300', '53400', 'P2024']) {
      expect(databaseFailure(Object.assign(new Error('x'), { code })), code).toBe('overloaded');
    }
    expect(databaseFailure(new Error('timeout exceeded when trying to connect'))).toBe('overloaded');
    expect(databaseFailure(Object.assign(new Error('wrapped'), { cause: { kind: 'TooManyConnections' } }))).toBe('overloaded');
    expect(
      databaseFailure(Object.assign(new Error('wrapped'), { meta: { driverAdapterError: { kind: 'postgres', originalCode: '55P03' } } })),
    ).toBe('overloaded');
    expect(databaseFailure(Object.assign(new Error('x'), { code: '57P01' }))).toBe('unavailable');
    expect(databaseFailure(new Error('Connection terminated due to connection timeout'))).toBe('unavailable');
    expect(databaseFailure(Object.assign(new Error('dup'), { code: '23505' }))).toBe(null);
  });
});

describe.skipIf(pgSkip !== null)('PostgreSQL overloaded: 503 overloaded with Retry-After, never 500', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
  });

  async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }

  /** A new database, migrated from the run's template unless `empty` (migrated by the suite's own role). */
  async function tempDb(empty = false): Promise<TempDatabase> {
    const db = await createTempDatabase(empty ? undefined : postgresTemplate());
    cleanups.push(() => db.drop());
    return db;
  }

  /** Migrates with default settings, then opens the app's store with `extra` (short timeouts, a tiny pool). */
  async function appOn(
    url: string,
    extra: Partial<Extract<DatabaseConfig, { kind: 'postgres' }>>,
  ): Promise<{ app: App; opened: OpenedStore }> {
    const migrating = await openStore({ kind: 'postgres', url });
    await migrating.close();
    const opened = await openStore({ kind: 'postgres', url, ...extra });
    const app = await buildApp({ store: opened.store, logger: false, webhooks: { worker: false } });
    await app.ready();
    cleanups.push(() => opened.close());
    cleanups.push(() => app.close());
    return { app, opened };
  }

  function expectOverloaded(res: supertest.Response): void {
    expect(res.status, res.text).toBe(503);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
    expect(res.body.code, res.text).toBe('overloaded');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.text).not.toMatch(/timeout|lock|too many|55P03|57014|53300/i);
  }

  async function hotSeat(app: App): Promise<{ id: string; tokens: { p1: string; p2: string } }> {
    return (await supertest(app.server).post('/v1/matches').send({ handle: 'alice', opponentHandle: 'bob', decks: DECKS }).expect(201))
      .body;
  }

  /** The first legal action of the seat to move, as a request ready to send. */
  async function nextMove(app: App, m: { id: string; tokens: { p1: string; p2: string } }) {
    const v = await supertest(app.server).get(`/v1/matches/${m.id}`).expect(200);
    const token = m.tokens[v.body.game.pending.seat as 'p1' | 'p2'];
    const legal = await supertest(app.server).get(`/v1/matches/${m.id}/legal-actions`).set('authorization', `Bearer ${token}`).expect(200);
    return () =>
      supertest(app.server)
        .post(`/v1/matches/${m.id}/actions`)
        .set('authorization', `Bearer ${token}`)
        .send({ action: legal.body.actions[0].action });
  }

  /** An outside transaction holding the match row's lock until release(). */
  async function holdRowLock(url: string, matchId: string): Promise<() => Promise<void>> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('BEGIN');
    await c.query('SELECT 1 FROM "match" WHERE "id" = $1 FOR UPDATE', [matchId]);
    const release = async () => {
      await c.query('ROLLBACK').catch(() => {});
      await c.end().catch(() => {});
    };
    cleanups.push(release);
    return release;
  }

  it('pool saturation: a request that waits past the acquire timeout gets 503 overloaded (REST and GraphQL)', async () => {
    const db = await tempDb();
    const { app, opened } = await appOn(db.url, { maxConnections: 1, connectTimeoutMs: 1_000 });
    const m = await hotSeat(app);
    // The pool's one connection, held.
    let free!: () => void;
    const held = opened.db.transaction(() => new Promise<void>((r) => (free = r)));
    try {
      expectOverloaded(await supertest(app.server).get(`/v1/matches/${MISSING}`));
      const gql = await supertest(app.server)
        .post('/graphql')
        .send({ query: `{ match(id: "${MISSING}") { id } }` });
      expect(gql.status, gql.text).toBe(503);
      expect(gql.headers['retry-after']).toBe('1');
      expect(gql.body.errors[0].extensions).toMatchObject({ code: 'overloaded', status: 503, retryAfter: 1 });
    } finally {
      free();
      await held;
    }
    await supertest(app.server).get(`/v1/matches/${m.id}`).expect(200);
  });

  // A move waits on a row lock held from outside until a server-side limit ends the wait: the
  // lock timeout, or (with none) the statement timeout.
  for (const [what, limits] of [
    ['lock timeout (55P03): a move waiting on a held row lock gives up', { lockTimeoutMs: 200, statementTimeoutMs: 60_000 }],
    ['statement timeout (57014): a statement cancelled by statement_timeout', { lockTimeoutMs: 0, statementTimeoutMs: 1_000 }],
  ] as const) {
    it(`${what} with 503 overloaded`, async () => {
      const db = await tempDb();
      const { app } = await appOn(db.url, limits);
      const m = await hotSeat(app);
      const move = await nextMove(app, m);
      const release = await holdRowLock(db.url, m.id);
      try {
        expectOverloaded(await move());
      } finally {
        await release();
      }
      // Nothing was written: the same move now applies.
      expect((await move()).status).toBe(200);
    });
  }

  it('out of connection slots (53300): a new connection refused by the role limit is 503 overloaded', async () => {
    // Empty: the role that owns it migrates it (the template's tables belong to the admin).
    const db = await tempDb(true);
    const role = `${PREFIX}r${randomBytes(4).toString('hex')}`;
    await admin(MAINTENANCE_URL, async (c) => {
      await c.query(`CREATE ROLE "${role}" LOGIN`);
      await c.query(`ALTER DATABASE "${db.name}" OWNER TO "${role}"`);
    });
    cleanups.push(() =>
      admin(MAINTENANCE_URL, async (c) => {
        await c.query(`DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`);
        await c.query(`DROP ROLE IF EXISTS "${role}"`);
      }),
    );
    const url = new URL(db.url);
    url.username = role;
    const { app } = await appOn(url.toString(), { maxConnections: 4 });
    const m = await hotSeat(app);
    // No new connection for the role; the ones it holds are ended, so the pool must open one.
    await admin(MAINTENANCE_URL, async (c) => {
      await c.query(`ALTER ROLE "${role}" CONNECTION LIMIT 0`);
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
    });
    let res: supertest.Response | undefined;
    // A pooled connection ended under the pool may still be handed out once (database-unavailable).
    for (let i = 0; i < 20; i++) {
      res = await supertest(app.server).get(`/v1/matches/${MISSING}`);
      if (!(res.status === 503 && res.body.code === 'database-unavailable')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expectOverloaded(res!);
    const gql = await supertest(app.server)
      .post('/graphql')
      .send({ query: `{ match(id: "${MISSING}") { id } }` });
    expect(gql.status, gql.text).toBe(503);
    expect(gql.body.errors[0].extensions.code).toBe('overloaded');
    await admin(MAINTENANCE_URL, (c) => c.query(`ALTER ROLE "${role}" CONNECTION LIMIT -1`));
    await supertest(app.server).get(`/v1/matches/${m.id}`).expect(200);
  });
});
