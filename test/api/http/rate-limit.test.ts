/**
 * Rate limits: a clear 429 (problem+json, Retry-After). The budget belongs to a verified seat
 * token, else to the address: invented or respelled tokens and failed authentications buy no
 * fresh budget. Probes are exempt, whatever their query string.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { buildApp, type App } from '../../../src/app.js';
import { openStore } from '../../../src/persistence/index.js';
import {
  baseUrlOf,
  bearer,
  expectProblem,
  localHttp,
  STARTERS,
  pglite,
  startOn,
  useHarness,
  type HarnessOptions,
  type Http,
} from '../helpers.js';
import { rawSocket, waitFor } from '../../../bench/lib/graphql-ws.js';
import { memoryDatabase } from '../../persistence/pglite-template.js';

describe('rate limits', () => {
  // A fresh budget for each test: a new app per test.
  const h = useHarness(pglite, { rateLimitPerMinute: 5, perTest: true });

  /** Creates a hot-seat match (one request against the address's budget). */
  async function create() {
    const res = await h.http
      .post('/v1/matches')
      .send({ handle: 'rl', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
      .expect(201);
    return res.body as { id: string; tokens: { p1: string; p2: string } };
  }

  it('the 6th request in a minute from one seat is a 429 problem with Retry-After; another seat has its own budget', async () => {
    const { id, tokens } = await create();
    for (let i = 0; i < 5; i++) await h.http.get(`/v1/matches/${id}`).set(bearer(tokens.p1)).expect(200);
    const limited = await h.http.get(`/v1/matches/${id}`).set(bearer(tokens.p1));
    const p = expectProblem(limited, 429, 'rate-limited');
    expect(p.title).toBe('Too many requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await h.http.get(`/v1/matches/${id}`).set(bearer(tokens.p2)).expect(200);
  });

  it('a respelled token (case, spaces) shares its budget', async () => {
    const { id, tokens } = await create();
    for (let i = 0; i < 5; i++) await h.http.get(`/v1/matches/${id}`).set(bearer(tokens.p1)).expect(200);
    for (const spelling of [`bEaReR ${tokens.p1}`, `Bearer  ${tokens.p1}`, `BEARER ${tokens.p1} `]) {
      expectProblem(await h.http.get(`/v1/matches/${id}`).set('authorization', spelling), 429, 'rate-limited');
    }
  });

  it('invented bearer tokens count against the address, and so do failed authentications', async () => {
    const { id } = await create(); // 1 of the address's 5
    for (let i = 0; i < 4; i++) {
      const res = await h.http.get(`/v1/matches/${id}`).set(bearer(randomBytes(24).toString('base64url')));
      expectProblem(res, 401, 'invalid-token');
    }
    // The address's budget is spent: an anonymous request and yet another invented token are refused.
    expectProblem(await h.http.get(`/v1/matches/${id}`), 429, 'rate-limited');
    expectProblem(await h.http.get(`/v1/matches/${id}`).set(bearer(randomBytes(24).toString('base64url'))), 429, 'rate-limited');
  });

  it('health probes are never limited, with or without a query string', async () => {
    for (let i = 0; i < 8; i++) {
      await h.http.get('/healthz').expect(200);
      await h.http.get(`/healthz?probe=${i}`).expect(200);
      await h.http.get(`/readyz?x=${i}`).expect(200);
    }
  });
});

/**
 * Issue 21 item 5: credentials are free to make, so the address has a ceiling over all of them
 * (creates and token minting included, and each GraphQL subscription over a WebSocket), and every
 * transport answers a refusal as 429 rate-limited.
 */
describe('the per-address ceiling, on every transport', () => {
  let app: App;
  let http: Http;
  let close: (() => Promise<void>) | undefined;
  async function start(opts: HarnessOptions) {
    ({ app, http, close } = await startOn(pglite, opts));
  }
  afterEach(async () => close?.());

  const createBody = { handle: 'rl', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } };

  it('seat tokens of many creates share their address ceiling: the request past it is 429, with a fresh token and for a create', async () => {
    await start({ clock: 'now', rateLimitPerMinute: 5, budgets: { perAddressPerMinute: 12 } });
    const tokens: { id: string; token: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const m = (await http.post('/v1/matches').send(createBody).expect(201)).body as { id: string; tokens: { p1: string; p2: string } };
      tokens.push({ id: m.id, token: m.tokens.p1 }, { id: m.id, token: m.tokens.p2 });
    }
    // 3 creates + 9 reads spread over six tokens (each far below its own 5): the ceiling of 12 is reached.
    for (let i = 0; i < 9; i++) {
      const t = tokens[i % tokens.length]!;
      await http.get(`/v1/matches/${t.id}`).set(bearer(t.token)).expect(200);
    }
    const fresh = tokens[5]!; // used once: 4 left of its own budget
    const refused = await http.get(`/v1/matches/${fresh.id}`).set(bearer(fresh.token));
    expectProblem(refused, 429, 'rate-limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expectProblem(await http.post('/v1/matches').send(createBody), 429, 'rate-limited');
    // Probes stay exempt.
    await http.get('/healthz').expect(200);
  });

  it('player tokens minted from one token share the address ceiling', async () => {
    await start({ clock: 'now', rateLimitPerMinute: 100, budgets: { perAddressPerMinute: 8 } });
    const reg = (await http.post('/v1/players').send({ handle: 'minter' }).expect(201)).body as { token: string };
    const minted: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await http
        .post('/v1/me/tokens')
        .set(bearer(reg.token))
        .send({ scopes: ['match:read'] })
        .expect(201);
      minted.push((r.body as { token: string }).token);
    }
    // 1 register + 4 mints + 3 reads = 8; the next read, with yet another token, and the next mint are refused.
    for (const t of minted.slice(0, 3)) await http.get('/v1/me').set(bearer(t)).expect(200);
    expectProblem(await http.get('/v1/me').set(bearer(minted[3]!)), 429, 'rate-limited');
    expectProblem(
      await http
        .post('/v1/me/tokens')
        .set(bearer(reg.token))
        .send({ scopes: ['match:read'] }),
      429,
      'rate-limited',
    );
  });

  it('a throttled GraphQL request over HTTP is a 429 with code rate-limited (not a 400), per client and per address', async () => {
    await start({ clock: 'now', rateLimitPerMinute: 2, budgets: { perAddressPerMinute: 3 } });
    const q = { query: '{ __typename }' };
    for (let i = 0; i < 2; i++) await http.post('/graphql').send(q).expect(200);
    // Third: the client's (address's) own budget of 2 is spent.
    const perClient = await http.post('/graphql').send(q);
    expect(perClient.status).toBe(429);
    expect(perClient.body.errors[0].extensions).toMatchObject({ code: 'rate-limited', status: 429 });
    expect(Number(perClient.headers['retry-after'])).toBeGreaterThan(0);
    // Fourth: past the address's ceiling of 3 as well.
    const perAddress = await http.post('/graphql').send(q);
    expect(perAddress.status).toBe(429);
    expect(perAddress.body.errors[0].extensions).toMatchObject({ code: 'rate-limited', status: 429, retryAfter: expect.any(Number) });
    expect(Number(perAddress.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("is a bucket, not a window: its burst at once, then the minute's rate, never more than a burst after a pause", async () => {
    const h = await startOn(pglite, { clock: 'now', budgets: { perAddressPerMinute: 60, requestBurstSeconds: 5 } });
    close = h.close;
    const ok = () => h.http.get('/v1/games').expect(200);
    // 5 s of 60 a minute: 5 at once, and the sixth is refused for the second until the next one.
    for (let i = 0; i < 5; i++) await ok();
    const refused = await h.http.get('/v1/games');
    expectProblem(refused, 429, 'rate-limited');
    expect(refused.headers['retry-after']).toBe('1');
    h.t.now += 1_000;
    await ok();
    expectProblem(await h.http.get('/v1/games'), 429, 'rate-limited');
    // A long pause refills the bucket to its burst, not to the minute's 60.
    h.t.now += 120_000;
    for (let i = 0; i < 5; i++) await ok();
    expectProblem(await h.http.get('/v1/games'), 429, 'rate-limited');
  });

  it('each GraphQL subscription over a WebSocket counts toward the ceiling; past it the subscription gets an error coded rate-limited', async () => {
    await start({ clock: 'now', budgets: { perAddressPerMinute: 6 }, maxSubscriptionsPerConnection: 50 });
    const at = await baseUrlOf(app);
    const m = (await http.post('/v1/matches').send(createBody).expect(201)).body as { id: string }; // 1
    const r = rawSocket(at); // the upgrade: 2
    try {
      await r.opened;
      r.send({ type: 'connection_init', payload: {} });
      await waitFor(() => r.messages.some((x) => x.type === 'connection_ack'), 'the ack');
      const of = (id: string) => r.messages.filter((x) => x.id === id);
      const query = 'subscription($id: ID!) { matchEvents(matchId: $id) { seq } }';
      // Subscriptions 3..6 are within the ceiling; the fifth (7th request) is refused.
      for (const id of ['a', 'b', 'c', 'd']) {
        r.send({ type: 'subscribe', id, payload: { query, variables: { id: m.id } } });
        await waitFor(() => of(id).length > 0, `subscription ${id}`);
        expect(of(id)[0]!.type, id).toBe('next');
      }
      r.send({ type: 'subscribe', id: 'e', payload: { query, variables: { id: m.id } } });
      await waitFor(() => of('e').length > 0, 'the refusal');
      expect(of('e')).toEqual([
        {
          type: 'error',
          id: 'e',
          payload: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'rate-limited', status: 429 }) })],
        },
      ]);
      // And the address's next HTTP request too.
      expectProblem(await http.get(`/v1/matches/${m.id}`), 429, 'rate-limited');
    } finally {
      r.socket.close();
    }
  });
});

describe('the client address behind a proxy', () => {
  it('with trustProxy the address limits count the X-Forwarded-For client; without it, the peer', async () => {
    for (const trustProxy of [true, false]) {
      const opened = await openStore(memoryDatabase());
      const app = await buildApp({ store: opened.store, logger: false, trustProxy, budgets: { perAddressPerMinute: 2 } });
      try {
        await app.ready();
        const http = await localHttp(app);
        for (let i = 0; i < 2; i++) await http.get('/v1/cards').set('x-forwarded-for', '203.0.113.7').expect(200);
        // Another client behind the same proxy: its own ceiling only when the proxy is trusted.
        const other = await http.get('/v1/cards').set('x-forwarded-for', '203.0.113.8');
        expect(other.status, `trustProxy ${trustProxy}`).toBe(trustProxy ? 200 : 429);
      } finally {
        await app.close();
        await opened.close();
      }
    }
  });
});
