/**
 * Work budgets (issue 33 item 1; issue 21 item 4 before it): every costly operation is charged by
 * the work it does (src/service/work-costs.ts) against a budget per client and per address —
 * pictures by their pixels, exports by their events, time travel by the events it replays, event
 * pages by their events, a GraphQL document by its size and each alias of a costly field on its
 * own, the computer's decisions by their level. Over budget: 429 rate-limited with Retry-After
 * (extensions.retryAfter in GraphQL), nothing changed. A finished match's export is built once
 * per viewer and then served from memory (not charged), and pictures and exports run a few at a
 * time per node: a flood is bounded, shed with 503 server-busy past a short line, and /healthz
 * keeps answering while it lasts. The tests size each budget from workCost, so they hold whatever
 * the rates.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import { type App } from '../../../src/app.js';
import { MatchReplaySchema } from '../../../src/http/schemas.js';
import { LARGE_DOCUMENT_CHARS } from '../../../src/graphql/limits.js';
import { BUSY_RETRY_AFTER_S, WorkGate } from '../../../src/http/work-gate.js';
import { ServiceError } from '../../../src/service/errors.js';
import { workCost } from '../../../src/service/work-costs.js';
import { WorkBuckets, takeWork } from '../../../src/http/work-budget.js';
import { binary, bearer, createHotSeat, expectProblem, pglite, startOn, type HarnessOptions, type Http } from '../helpers.js';

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
    expectProblem(
      { status: res.status, headers: res.headers as Record<string, string>, body: JSON.parse((res.body as Buffer).toString('utf8')) },
      status,
      code,
    );

  it('a PNG not in the cache is charged by its pixels; past the budget 429 rate-limited with Retry-After; a cached one is free', async () => {
    const budget = workCost.png(200) + workCost.png(210) + workCost.png(220);
    await start({ workPerMinute: budget, workPerAddressPerMinute: budget });
    const m = await createHotSeat(http);
    for (const size of [200, 210, 220]) await png(m.id, size).expect(200);
    const refused = await png(m.id, 230);
    problemOf(refused, 429, 'rate-limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Drawn before: from the cache, not charged.
    await png(m.id, 210).expect(200);
    // A seat token is another client, but the same address: the address has its own budget, spent as well.
    problemOf(await png(m.id, 240, m.tokens.p1), 429, 'rate-limited');
  });

  it("a finished match's export is built once per viewer, then served from memory (not charged), as the schema serialises it", async () => {
    // Two builds of a short match's file fit; a third does not.
    // A match resigned at once has 15–20 events (its deal varies): two of its files fit, a third does not.
    const budget = 2 * workCost.export(20);
    await start({ workPerMinute: budget, workPerAddressPerMinute: budget });
    const m = await createHotSeat(http);
    const resigned = await http
      .post(`/v1/matches/${m.id}/actions`)
      .set(bearer(m.tokens.p1))
      .send({ action: { type: 'resign' } })
      .expect(200);
    const perBuild = workCost.export(resigned.body.version);
    expect(2 * perBuild <= budget && 3 * perBuild > budget, `resigned at ${resigned.body.version} events`).toBe(true);
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
      // Another viewer's file is another build: the address's second; the next build is refused.
      const p1 = await http.get(`/v1/matches/${m.id}/export`).set(bearer(m.tokens.p1)).expect(200);
      expect(p1.text).toBe(JSON.stringify(MatchReplaySchema.parse(p1.body)));
      expectProblem(await http.get(`/v1/matches/${m.id}/export`).set(bearer(m.tokens.p2)), 429, 'rate-limited');
    } finally {
      store.loadEvents = loadEvents;
    }
  });

  it("a player's export with events is charged by its files' events; without events it is not", async () => {
    // A match dealt with two decks has 13–17 events (checked below): one file fits, a second does not.
    const budget = workCost.export(17);
    await start({ workPerMinute: budget, workPerAddressPerMinute: budget });
    const reg = (await http.post('/v1/players').send({ handle: 'exporter' }).expect(201)).body as { token: string };
    await http
      .post('/v1/matches')
      .set(bearer(reg.token))
      .send({ opponentHandle: 'bob', decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } } })
      .expect(201)
      .then((r) => {
        const cost = workCost.export(r.body.version);
        expect(cost <= budget && 2 * cost > budget, `a dealt match has ${r.body.version} events`).toBe(true);
      });
    await http.get('/v1/players/exporter/matches/export?events=true').expect(200);
    expectProblem(await http.get('/v1/players/exporter/matches/export?events=true'), 429, 'rate-limited');
    await http.get('/v1/players/exporter/matches/export').expect(200);
  });

  it('a large GraphQL document is charged by its size: past the budget a 429 in GraphQL shape; small documents are not', async () => {
    // A comment pads the document past the threshold without changing what it asks.
    const large = `{ __typename }\n# ${'x'.repeat(LARGE_DOCUMENT_CHARS)}`;
    await start({ workPerMinute: workCost.document(large.length + 1) });
    await http.post('/graphql').send({ query: large }).expect(200);
    const refused = await http.post('/graphql').send({ query: large + ' ' });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'rate-limited', status: 429 });
    expect(refused.body.errors[0].extensions.retryAfter).toBeGreaterThan(0);
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

describe('work charged by what it does', () => {
  let http: Http;
  let close: (() => Promise<void>) | undefined;
  async function start(opts: HarnessOptions) {
    ({ http, close } = await startOn(pglite, opts));
  }
  afterEach(async () => {
    await close?.();
    close = undefined;
  });
  it('time travel is charged by the events it replays, over REST and per GraphQL alias (extensions.retryAfter)', async () => {
    // Before the first checkpoint every past read replays from event 1: at=1 costs the least.
    const one = workCost.timeTravel(1);
    await start({ budgets: { workPerMinute: 3 * one, workPerAddressPerMinute: 3 * one } });
    const m = await createHotSeat(http);
    await http.get(`/v1/matches/${m.id}?at=1`).expect(200);
    // Each alias is charged on its own: two fit what is left, so a document of two is answered…
    const two = `query($id: ID!) { a: match(id: $id, at: 1) { version } b: match(id: $id, at: 1) { version } }`;
    const ok = await http
      .post('/graphql')
      .send({ query: two, variables: { id: m.id } })
      .expect(200);
    expect(ok.body.data).toEqual({ a: { version: 1 }, b: { version: 1 } });
    // …and the next alias finds the budget spent: a 429 in GraphQL's shape, with the wait.
    const res = await http.post('/graphql').send({ query: two, variables: { id: m.id } });
    expect(res.status).toBe(429);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'rate-limited', status: 429 });
    expect(res.body.errors[0].extensions.retryAfter).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const refused = await http.get(`/v1/matches/${m.id}?at=1`);
    expectProblem(refused, 429, 'rate-limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The present is not time travel: never charged.
    await http.get(`/v1/matches/${m.id}`).expect(200);
  });

  it('an event page is charged by the events it may hold; the live view is not', async () => {
    const m0 = { budgets: { workPerMinute: 3, workPerAddressPerMinute: 3 } };
    await start(m0);
    const m = await createHotSeat(http);
    const version = (await http.get(`/v1/matches/${m.id}`).expect(200)).body.version as number;
    expect(workCost.eventPage(10, 0, version), 'a page of ten events costs one unit').toBe(1);
    for (let i = 0; i < 3; i++) await http.get(`/v1/matches/${m.id}/events?limit=10`).expect(200);
    expectProblem(await http.get(`/v1/matches/${m.id}/events?limit=10`), 429, 'rate-limited');
    await http.get(`/v1/matches/${m.id}`).expect(200);
  });

  it("the computer's decision is charged to the move that hands it over: refused, that move changes nothing", async () => {
    const decision = workCost.aiDecision(1);
    // The creation (its first decision may be due) and one hand-over fit; the next hand-over does not.
    await start({ budgets: { workPerMinute: 2 * decision, workPerAddressPerMinute: 2 * decision }, ai: { workers: 1, pollMs: 50 } });
    const created = (
      await http
        .post('/v1/matches')
        .send({ ai: { level: 1 }, decks: { p1: { starter: 'starter-ember-tide' } } })
        .expect(201)
    ).body;
    const token = created.token as string;
    let handOvers = 0;
    let refusal: Response | null = null;
    for (let i = 0; i < 400 && !refusal; i++) {
      const v = (await http.get(`/v1/matches/${created.id}`).expect(200)).body;
      if (v.status === 'finished') break;
      if (v.game.pending.seat !== 'p1') {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      const legal = (await http.get(`/v1/matches/${created.id}/legal-actions`).set(bearer(token)).expect(200)).body.actions;
      // The whole answer: its view is the match right after this move (the computer may have moved since).
      const res = await http
        .post(`/v1/matches/${created.id}/actions`)
        .set(bearer(token))
        .set('prefer', 'return=representation')
        .send({ action: legal[0].action });
      if (res.status === 429) refusal = res;
      else {
        expect(res.status).toBe(200);
        if (res.body.match.game?.pending?.seat === 'p2') handOvers++;
      }
      if (!refusal) continue;
      expectProblem(res, 429, 'rate-limited');
      // Nothing was written: the match is where it was.
      expect((await http.get(`/v1/matches/${created.id}`).expect(200)).body.version).toBe(v.version);
    }
    expect(refusal, 'a hand-over past the budget is refused').not.toBeNull();
    expect(handOvers).toBe(1);
  });
});

describe('work buckets', () => {
  it('hold a minute of budget, refill at its rate, and take from every bucket or from none', () => {
    const client = new WorkBuckets(60);
    const address = new WorkBuckets(120);
    const both = [
      [client, 'c'],
      [address, 'a'],
    ] as const;
    expect(takeWork(both, 50, 0)).toBe(0);
    expect(client.level('c', 0)).toBe(10);
    expect(address.level('a', 0)).toBe(70);
    // 20 more: the client has 10 (one a second back): 10 s to wait, and nothing is taken.
    expect(takeWork(both, 20, 0)).toBe(10);
    expect(address.level('a', 0)).toBe(70);
    expect(takeWork(both, 20, 10_000)).toBe(0);
    expect(client.level('c', 10_000)).toBe(0);
    // Full again after a minute, never more than full.
    expect(client.level('c', 10_000 + 600_000)).toBe(60);
    // An operation bigger than a whole bucket runs when the bucket is full, and leaves a debt.
    const big = new WorkBuckets(10);
    expect(takeWork([[big, 'x']], 25, 0)).toBe(0);
    expect(big.level('x', 0)).toBe(-15);
    expect(takeWork([[big, 'x']], 1, 0)).toBeGreaterThan(0);
    expect(new WorkBuckets(0).wait('x', 1e9, 0)).toBe(0);
  });

  it("hold only their burst (WORK_BURST_SECONDS) when it is shorter than a minute, and refill at the minute's rate", () => {
    // 600 a minute is 10 a second; a 10 s burst holds 100.
    const b = new WorkBuckets(600, 10);
    expect(b.capacity).toBe(100);
    expect(b.level('k', 0)).toBe(100);
    expect(takeWork([[b, 'k']], 100, 0)).toBe(0);
    // 30 more: 3 s at 10 a second.
    expect(takeWork([[b, 'k']], 30, 0)).toBe(3);
    expect(takeWork([[b, 'k']], 30, 3_000)).toBe(0);
    // Never fuller than the burst, however long it rests.
    expect(b.level('k', 3_600_000)).toBe(100);
    // An operation costing more than the burst waits for a full bucket, then runs into debt.
    expect(takeWork([[b, 'big']], 250, 0)).toBe(0);
    expect(b.level('big', 0)).toBe(-150);
    expect(takeWork([[b, 'big']], 250, 0)).toBe(25);
  });
});
