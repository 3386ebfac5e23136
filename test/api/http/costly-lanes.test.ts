/**
 * Costly requests one at a time per address (issue 33, COSTLY_AT_ONCE_PER_ADDRESS): the rest of
 * one address's wait in a short line and past it are refused with 429 too-many-at-once; another
 * address is not held up; the turn is given back whatever the answer (a refusal, a 404, GraphQL).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type App } from '../../../src/app.js';
import { AddressLanes } from '../../../src/http/address-lanes.js';
import { ServiceError } from '../../../src/service/errors.js';
import { baseUrlOf, createHotSeat, pglite, startOn, type Http } from '../helpers.js';

describe('address lanes', () => {
  it('runs one at a time per address, queues a few, refuses past the line, and never holds up another address', async () => {
    const lanes = new AddressLanes(1, 2);
    const first = await lanes.enter('a');
    const order: string[] = [];
    const second = lanes.enter('a').then((r) => (order.push('second'), r));
    const third = lanes.enter('a').then((r) => (order.push('third'), r));
    const refused = await lanes.enter('a').then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).code).toBe('too-many-at-once');
    expect((refused as ServiceError).retryAfterS).toBe(1);
    // Another address runs at once.
    const other = await lanes.enter('b');
    expect(lanes.of('b')).toEqual({ running: 1, waiting: 0 });
    other();
    expect(lanes.of('a')).toEqual({ running: 1, waiting: 2 });
    first();
    first(); // twice: the second call gives back nothing more
    const r2 = await second;
    expect(order).toEqual(['second']);
    expect(lanes.of('a')).toEqual({ running: 1, waiting: 1 });
    r2();
    (await third)();
    expect(order).toEqual(['second', 'third']);
    expect(lanes.of('a')).toEqual({ running: 0, waiting: 0 });
    expect(lanes.stats).toEqual({ peak: 1, refused: 1 });
  });

  it('atOnce 0 is no lane', async () => {
    const lanes = new AddressLanes(0, 0);
    await Promise.all([lanes.enter('a'), lanes.enter('a'), lanes.enter('a')]);
    expect(lanes.stats.peak).toBe(0);
  });
});

describe('costly requests over the API', () => {
  let app: App;
  let http: Http;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('time travel, event pages and a costly GraphQL document take turns, and every answer gives its turn back', async () => {
    ({ app, http, close } = await startOn(pglite, { budgets: { costlyAtOncePerAddress: 1 } }));
    const m = await createHotSeat(http);
    const lanes = app.budgets.costlyLanes;
    // Four at once from one address: all answered, never two running together.
    const answers = await Promise.all([
      http.get(`/v1/matches/${m.id}?at=1`),
      http.get(`/v1/matches/${m.id}?at=2`),
      http.get(`/v1/matches/${m.id}/events?limit=50`),
      http.post('/graphql').send({ query: `{ a: match(id: "${m.id}", at: 1) { version } }` }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(lanes.stats.peak).toBe(1);
    // Refusals give their turn back too: an unknown match, a bad `at`.
    await http.get('/v1/matches/m_unknownunknownunknown?at=1').expect((r) => expect([400, 404]).toContain(r.status));
    await http.get(`/v1/matches/${m.id}?at=999999`).expect((r) => expect(r.status).toBeGreaterThanOrEqual(400));
    // A turn not given back would leave these waiting for ever (the test's timeout): nine at once,
    // one running and eight in line, all answered.
    const more = await Promise.all(Array.from({ length: 9 }, (_, i) => http.get(`/v1/matches/${m.id}?at=${1 + (i % 2)}`)));
    expect(more.map((r) => r.status)).toEqual(Array(9).fill(200));
    expect(lanes.stats.peak).toBe(1);
  });

  it('past one running and eight waiting: 429 too-many-at-once with Retry-After', async () => {
    ({ app, http, close } = await startOn(pglite, { budgets: { costlyAtOncePerAddress: 1 } }));
    const m = await createHotSeat(http);
    const lanes = app.budgets.costlyLanes;
    // Hold this address's turn (as a long export would), then send nine more.
    // Supertest's requests come from the loopback address.
    const held = await lanes.enter('127.0.0.1');
    try {
      const pending = Array.from({ length: 9 }, () => http.get(`/v1/matches/${m.id}?at=1`).then((r) => r));
      // The ninth is refused at once; the eight wait their turn.
      const first = await Promise.race(pending);
      expect(first.status).toBe(429);
      expect(first.body.code).toBe('too-many-at-once');
      expect(first.headers['retry-after']).toBe('1');
      held();
      const all = await Promise.all(pending);
      expect(all.filter((r) => r.status === 200)).toHaveLength(8);
      expect(all.filter((r) => r.status === 429)).toHaveLength(1);
    } finally {
      held();
    }
  });
});

describe('requests at once per address (REQUESTS_AT_ONCE_PER_ADDRESS)', () => {
  let app: App;
  let http: Http;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('a burst from one address runs a few at a time, every request gives its turn back, and a live stream holds none', async () => {
    ({ app, http, close } = await startOn(pglite, { budgets: { requestsAtOncePerAddress: 2 } }));
    const m = await createHotSeat(http);
    const lanes = app.budgets.requestLanes;
    // Twelve at once: reads, legal actions, a refusal (404): all answered, never more than two running.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 0
          ? http.get(`/v1/matches/${m.id}`)
          : i % 3 === 1
            ? http.get(`/v1/matches/${m.id}/legal-actions`).set('authorization', `Bearer ${m.tokens.p1}`)
            : http.get('/v1/matches/m_unknownunknownunknown'),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(4).fill(200), ...Array(4).fill(200), ...Array(4).fill(404)].sort());
    // However the twelve overlapped on this machine, never more than two ran at once.
    expect(lanes.stats.peak).toBeGreaterThanOrEqual(1);
    expect(lanes.stats.peak).toBeLessThanOrEqual(2);
    expect(lanes.of('127.0.0.1')).toEqual({ running: 0, waiting: 0 });
    // Two live streams open: once streaming they hold no turn, so requests still run.
    const base = await baseUrlOf(app);
    const streams = [0, 1].map(() => {
      const ac = new AbortController();
      const res = fetch(`${base}/v1/matches/${m.id}/stream`, { signal: ac.signal });
      return { ac, res };
    });
    for (const s of streams) expect((await s.res).status).toBe(200);
    expect(lanes.of('127.0.0.1')).toEqual({ running: 0, waiting: 0 });
    await http.get(`/v1/matches/${m.id}`).expect(200);
    for (const s of streams) s.ac.abort();
  });

  it('past the running and the 256 waiting: 429 too-many-at-once with Retry-After', async () => {
    ({ app, http, close } = await startOn(pglite, { budgets: { requestsAtOncePerAddress: 1 } }));
    const lanes = app.budgets.requestLanes;
    // Hold the address's one turn, fill its line, then one more.
    const held = await lanes.enter('127.0.0.1');
    const waiting = Array.from({ length: 256 }, () => lanes.enter('127.0.0.1'));
    try {
      const refused = await http.get('/v1/cards');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('too-many-at-once');
      expect(refused.headers['retry-after']).toBe('1');
    } finally {
      held();
      for (const w of waiting) (await w)();
    }
    await http.get('/v1/cards').expect(200);
  });
});
