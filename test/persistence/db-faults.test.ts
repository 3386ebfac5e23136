/**
 * The app on PostgreSQL behind a proxy that cuts or hangs the database (issue 7):
 * defect 3: an unreachable database is a 503 database-unavailable with Retry-After on REST and
 * GraphQL, not a 500; defect 4: a hung one answers 503 within the timeouts, /readyz within its
 * own deadline; defect 1: the LISTEN session comes back after a cut, /readyz says
 * live-updates-unavailable meanwhile, and an open stream gets a move made while it was down
 * (catch-up) and the next one pushed, without waiting for the keep-alive.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { openStore, type OpenedStore } from '../../src/persistence/index.js';
import { backends } from './backends.js';
import { createTempDatabase, type TempDatabase } from './pg-helper.js';
import { postgresTemplate } from './pg-template.js';
import { startPgProxy, type PgProxy } from './pg-proxy.js';
import { isDatabaseUnavailable } from '../../src/persistence/db-errors.js';

const pgSkip = backends.find((b) => b.name === 'postgres')!.skipReason;

async function waitFor(cond: () => boolean | Promise<boolean>, what: string, tries = 250): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('database error classification (issue 7 defect 3)', () => {
  it('connection-level codes and wrappers are unavailable; constraint errors are not', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'P1001']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code })), code).toBe(true);
    }
    // A saturated pool and a statement timeout are overload, not an outage (db-overload.test.ts).
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '57014' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
    // Prisma's adapter wrapper: the driver error is the cause.
    expect(isDatabaseUnavailable(Object.assign(new Error('wrapped'), { cause: { kind: 'postgres', originalCode: '57P01' } }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});

describe.skipIf(pgSkip !== null)('PostgreSQL cut and hung behind a proxy (issue 7 defects 1, 3, 4)', () => {
  let db: TempDatabase;
  let proxy: PgProxy;
  let opened: OpenedStore;
  let app: App;
  let direct: { opened: OpenedStore; app: App };
  let base: string;

  beforeAll(async () => {
    db = await createTempDatabase(postgresTemplate());
    const u = new URL(db.url);
    proxy = await startPgProxy({ host: u.hostname, port: Number(u.port || 5432) });
    opened = await openStore({ kind: 'postgres', url: proxy.via(db.url), connectTimeoutMs: 1000, statementTimeoutMs: 1000 });
    app = await buildApp({ store: opened.store, logger: false, readyTimeoutMs: 500 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // Another node on the same database, not behind the proxy: it makes moves while ours is cut off.
    const o2 = await openStore({ kind: 'postgres', url: db.url });
    direct = { opened: o2, app: await buildApp({ store: o2.store, logger: false }) };
    await direct.app.ready();
  });
  afterAll(async () => {
    proxy?.set('pass');
    await app?.close();
    await opened?.close();
    await direct?.app.close();
    await direct?.opened.close();
    await proxy?.close();
    await db?.drop();
  });

  async function hotSeat(): Promise<{ id: string; tokens: { p1: string; p2: string } }> {
    const res = await supertest(direct.app.server)
      .post('/v1/matches')
      .send({
        handle: 'alice',
        opponentHandle: 'bob',
        decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } },
      })
      .expect(201);
    return res.body;
  }

  it('cut: REST and GraphQL answer 503 database-unavailable with Retry-After, then recover', async () => {
    const m = await hotSeat();
    proxy.set('cut');
    try {
      const rest = await supertest(app.server).get('/v1/matches/AAAAAAAAAAAAAAAAAAAAAA');
      expect(rest.status, rest.text).toBe(503);
      expect(rest.headers['content-type']).toMatch(/problem\+json/);
      expect(rest.body.code).toBe('database-unavailable');
      expect(rest.headers['retry-after']).toBeDefined();
      const gql = await supertest(app.server)
        .post('/graphql')
        .send({ query: `{ match(id: "${m.id}") { id } }` });
      expect(gql.body.errors?.[0]?.extensions?.code, gql.text).toBe('database-unavailable');
      expect(gql.status).toBe(503);
      expect(gql.headers['retry-after']).toBe('2');
      expect(JSON.stringify(gql.body)).not.toMatch(/ECONN|terminat|127\.0\.0\.1/);
      expect((await supertest(app.server).get('/readyz')).status).toBe(503);
    } finally {
      proxy.set('pass');
    }
    await waitFor(async () => (await supertest(app.server).get(`/v1/matches/${m.id}`)).status === 200, 'recovery');
  });

  it('hung: /readyz and requests answer 503 instead of waiting, and all is well afterwards', async () => {
    proxy.set('hang');
    try {
      const ready = await supertest(app.server).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.code).toBe('database-unavailable');
      const rest = await supertest(app.server).get('/v1/matches/AAAAAAAAAAAAAAAAAAAAAA');
      expect(rest.status, rest.text).toBe(503);
      expect(rest.body.code).toBe('database-unavailable');
    } finally {
      proxy.set('pass');
    }
    await waitFor(async () => (await supertest(app.server).get('/readyz')).status === 200, 'readiness after the hang');
  });

  it('LISTEN comes back after a cut: /readyz says so meanwhile, the stream catches up and keeps pushing', async () => {
    const m = await hotSeat();
    const lines: string[] = [];
    let buf = '';
    const req = http.get(`${base}/v1/matches/${m.id}/stream`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        buf += c;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim()) lines.push(line);
        }
      });
    });
    try {
      await waitFor(() => lines.length > 0, 'the stored events');
      await waitFor(() => app.service.live.state === 'up', 'the subscription');
      proxy.set('cut');
      await waitFor(() => app.service.live.state === 'down', 'the subscription to notice');
      const ready = await supertest(app.server).get('/readyz');
      expect(ready.status).toBe(503);
      // A move while this node hears nothing.
      const before = lines.length;
      const node = supertest(direct.app.server);
      const v = await node.get(`/v1/matches/${m.id}`).expect(200);
      const seat = v.body.game.pending.seat as 'p1' | 'p2';
      const legal = await node.get(`/v1/matches/${m.id}/legal-actions`).set('authorization', `Bearer ${m.tokens[seat]}`).expect(200);
      await node
        .post(`/v1/matches/${m.id}/actions`)
        .set('authorization', `Bearer ${m.tokens[seat]}`)
        .send({ action: legal.body.actions[0].action })
        .expect(200);
      proxy.set('pass');
      await waitFor(async () => (await supertest(app.server).get('/readyz')).status === 200, 'readiness');
      // Caught up well before the 15 s keep-alive would have.
      await waitFor(() => lines.length > before, 'the missed move', 125);
      const after = lines.length;
      await supertest(direct.app.server)
        .post(`/v1/matches/${m.id}/actions`)
        .set('authorization', `Bearer ${m.tokens.p2}`)
        .send({ action: { type: 'resign' } })
        .expect(200);
      await waitFor(() => lines.length > after, 'the next move, pushed', 125);
    } finally {
      proxy.set('pass');
      req.destroy();
    }
  });
});
