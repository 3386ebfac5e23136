/**
 * Expensive reads (issue 21 item 4): a PNG not in the cache, a match export not in the cache, a
 * player's export with events and a large GraphQL document cost hundreds of times a match view.
 * They are charged to a small budget per client and per address (429 rate-limited with
 * Retry-After), a finished match's export is built once per viewer and then served from memory
 * (not charged), and the work runs a few at a time per node: a flood of it is bounded, shed with
 * 503 server-busy past a short line, and /healthz keeps answering while it lasts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import { type App } from '../../src/app.js';
import { MatchReplaySchema } from '../../src/http/schemas.js';
import { LARGE_DOCUMENT_CHARS } from '../../src/graphql/limits.js';
import { BUSY_RETRY_AFTER_S, WorkGate } from '../../src/http/work-gate.js';
import { ServiceError } from '../../src/service/errors.js';
import { binary, bearer, createHotSeat, expectProblem, pglite, startOn, type HarnessOptions, type Http } from './helpers.js';

describe('expensive reads', () => {
  let app: App;
  let http: Http;
  let close: (() => Promise<void>) | undefined;
  async function start(budgets: HarnessOptions['budgets']) {
    ({ app, http, close } = await startOn(pglite, { budgets }));
  }
  afterEach(async () => {
    await close?.();
    close = undefined;
  });
  const png = (id: string, size: number, token?: string) => {
    const req = http.get(`/v1/matches/${id}/board.png?size=${size}`).buffer(true).parse(binary);
    return token ? req.set(bearer(token)) : req;
  };
  /** A refusal of a PNG request (read as bytes) as the problem it is. */
  const problemOf = (res: Response, status: number, code: string) =>
    expectProblem({ status: res.status, headers: res.headers as Record<string, string>, body: JSON.parse((res.body as Buffer).toString('utf8')) }, status, code);

  it('a PNG not in the cache is charged to the budget; past it 429 rate-limited with Retry-After; a cached one is free', async () => {
    await start({ expensivePerMinute: 3 });
    const m = await createHotSeat(http);
    for (const size of [200, 210, 220]) await png(m.id, size).expect(200);
    const refused = await png(m.id, 230);
    problemOf(refused, 429, 'rate-limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Drawn before: from the cache, not charged.
    await png(m.id, 210).expect(200);
    // A seat token is another client, but the same address: the address has its own budget of 3 as well.
    problemOf(await png(m.id, 240, m.tokens.p1), 429, 'rate-limited');
  });

  it("a finished match's export is built once per viewer, then served from memory (not charged), as the schema serialises it", async () => {
    await start({ expensivePerMinute: 2 });
    const m = await createHotSeat(http);
    await http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens.p1)).send({ action: { type: 'resign' } }).expect(200);
    const store = app.service.store;
    let logReads = 0;
    const loadEvents = store.loadEvents.bind(store);
    store.loadEvents = (...args: Parameters<typeof loadEvents>) => {
      logReads++;
      return loadEvents(...args);
    };
    try {
      const first = await http.get(`/v1/matches/${m.id}/export`).expect(200);
      expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
      // Byte for byte what the response schema's serialiser writes.
      expect(first.text).toBe(JSON.stringify(MatchReplaySchema.parse(first.body)));
      const built = logReads;
      expect(built).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) {
        const again = await http.get(`/v1/matches/${m.id}/export`).expect(200);
        expect(again.text).toBe(first.text);
      }
      expect(logReads, 'the cached export reads no log').toBe(built);
      // Another viewer's file is another build: the second charge of the address's 2; the next build is refused.
      const p1 = await http.get(`/v1/matches/${m.id}/export`).set(bearer(m.tokens.p1)).expect(200);
      expect(p1.text).toBe(JSON.stringify(MatchReplaySchema.parse(p1.body)));
      expectProblem(await http.get(`/v1/matches/${m.id}/export`).set(bearer(m.tokens.p2)), 429, 'rate-limited');
    } finally {
      store.loadEvents = loadEvents;
    }
  });

  it("a player's export with events is charged; without events it is not", async () => {
    await start({ expensivePerMinute: 1 });
    const reg = (await http.post('/v1/players').send({ handle: 'exporter' }).expect(201)).body as { token: string };
    await http
      .post('/v1/matches')
      .set(bearer(reg.token))
      .send({ opponentHandle: 'bob', decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } } })
      .expect(201);
    await http.get('/v1/players/exporter/matches/export?events=true').expect(200);
    expectProblem(await http.get('/v1/players/exporter/matches/export?events=true'), 429, 'rate-limited');
    await http.get('/v1/players/exporter/matches/export').expect(200);
  });

  it('a large GraphQL document is charged: past the budget a 429 in GraphQL shape; small documents are not', async () => {
    await start({ expensivePerMinute: 1 });
    // A comment pads the document past the threshold without changing what it asks.
    const large = `{ __typename }\n# ${'x'.repeat(LARGE_DOCUMENT_CHARS)}`;
    await http.post('/graphql').send({ query: large }).expect(200);
    const refused = await http.post('/graphql').send({ query: large + ' ' });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'rate-limited', status: 429 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await http.post('/graphql').send({ query: '{ __typename }' }).expect(200);
  });

  it('a flood of uncached renders runs a bounded number at a time, sheds what does not fit in its line with 503 server-busy, and /healthz answers during it', async () => {
    // No budget (many clients, say): the node's gate alone bounds the work.
    await start({ expensiveAtOnce: 1 });
    const m = await createHotSeat(http);
    const sizes = Array.from({ length: 28 }, (_, i) => 300 + i);
    let answered = 0;
    const flood = sizes.map((size) =>
      png(m.id, size).then((r) => {
        answered++;
        return r;
      }),
    );
    // Probes while the flood runs: each answers 200, and the first before the whole flood has drained.
    const answeredAtProbe: number[] = [];
    for (let i = 0; i < 3; i++) {
      await http.get('/healthz').expect(200);
      answeredAtProbe.push(answered);
    }
    const results = await Promise.all(flood);
    expect(answeredAtProbe[0]).toBeLessThan(sizes.length);
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    for (const r of results.filter((x) => x.status === 503)) {
      problemOf(r, 503, 'server-busy');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // At most one render at a time; whatever did not fit in the line was shed (how many depends on
    // how fast the flood arrived, so only that the two counts agree).
    expect(app.budgets.gate.stats.peak).toBe(1);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s === 503).length).toBe(app.budgets.gate.stats.shed);
    // Shed work is not lost: asked again, one at a time, each is drawn.
    await png(m.id, sizes.at(-1)!).expect(200);
  });
});

describe('the work gate', () => {
  it('runs `atOnce` at a time, lines up `queue` more, refuses the next with 503 server-busy, and hands a freed slot to the first in line', async () => {
    const gate = new WorkGate(1, 1);
    let release!: () => void;
    const first = gate.run(() => new Promise<string>((r) => (release = () => r('first'))));
    const order: string[] = [];
    const second = gate.run(async () => {
      order.push('second ran');
      return 'second';
    });
    let refused: unknown = null;
    await gate.run(() => 'third').catch((e: unknown) => (refused = e));
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'server-busy', kind: 'unavailable', retryAfterS: BUSY_RETRY_AFTER_S });
    expect(order).toEqual([]);
    // A stream under way never gets refused: it waits in line even when the line is full.
    const fourth = gate.run(() => 'fourth', { wait: true });
    release();
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(await fourth).toBe('fourth');
    expect(gate.stats).toEqual({ peak: 1, shed: 1 });
    // Free again: runs at once.
    expect(await gate.run(() => 'fifth')).toBe('fifth');
  });
});
