/**
 * GraphQL subscriptions over WebSocket (issue 12): `matchEvents` and `myTurn` over the
 * graphql-transport-ws protocol, driven by the graphql-ws library's client (as integrators use
 * it) and by a raw socket where close codes and single messages matter:
 * - each connection sees what its token may see (the same events as Match.events; a seat never
 *   the other's hand), from moves made on this node and on another one;
 * - `myTurn` sends a match to the seat (or player) whose decision it now is, once per version;
 * - a refused credential closes the connection at connection_init (4403 + problem code);
 * - a connection holds at most GRAPHQL_MAX_SUBSCRIPTIONS subscriptions;
 * - documents are validated and costed as over HTTP; a subscription over HTTP is refused;
 * - two server processes on one PostgreSQL: a move made through A reaches subscribers on B.
 * PGlite and, when reachable, PostgreSQL.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import type { Client } from 'graphql-ws';
import { buildApp, type App } from '../../../src/app.js';
import { startServer, type ServerProcess } from '../../../bench/lib/server-process.js';
import { productionImage } from '../../package/production-image.js';
import { openSse } from '../../../bench/lib/sse-reader.js';
import { createTempDatabase, postgresUnavailableReason, type TempDatabase } from '../../persistence/pg-helper.js';
import { STARTERS, backends, bearer, createHotSeat, graphqlRequest, type Created, useHarness } from '../helpers.js';
import { gqlWsClient, rawSocket, subscribe, waitFor } from '../../../bench/lib/graphql-ws.js';

type Seat = 'p1' | 'p2';
interface GqlEvent {
  seq: number;
  actingSeat: Seat | null;
  type: string;
  data: { type: string; seat?: Seat; card?: string };
}
interface Turn {
  id: string;
  version: number;
  seat: Seat;
  pending: { seat: Seat };
  hand: { id: string }[] | null;
}

const EVENTS = 'subscription Events($id: ID!, $after: Int) { matchEvents(matchId: $id, after: $after) { seq actingSeat type data } }';
const MY_TURN = 'subscription { myTurn { id version seat pending ... on EvonsMatch { hand { id } } } }';
const EVENTS_QUERY = 'query($id: ID!) { match(id: $id) { events(limit: 500) { events { seq actingSeat type data } } } }';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`GraphQL subscriptions [${backend.name}]`, () => {
    const h = useHarness(backend);
    const clients: Client[] = [];
    afterAll(async () => {
      for (const c of clients) await c.dispose();
    });
    const client = (token?: string, at = h.baseUrl()) => {
      const c = gqlWsClient(at, token);
      clients.push(c);
      return c;
    };
    const listen = async (app: App) => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    };

    /** The seat to move, the version, and one decision by that seat (its first legal action) through `node`. */
    async function move(node: ReturnType<typeof supertest>, m: Created): Promise<void> {
      const v = await node.get(`/v1/matches/${m.id}`).expect(200);
      const seat = v.body.game.pending.seat as Seat;
      const legal = await node.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200);
      await node.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[seat])).send({ action: legal.body.actions[0].action }).expect(200);
    }
    /** A new hot-seat match and a raw socket on `at`, acknowledged with p1's token: `sub(id)` subscribes to its events, `of(id)` is what came for that id. */
    async function eventsSocket(at: string) {
      const m = await createHotSeat(h.http);
      const r = rawSocket(at);
      await r.opened;
      r.send({ type: 'connection_init', payload: { authorization: `Bearer ${m.tokens.p1}` } });
      await waitFor(() => r.messages.some((x) => x.type === 'connection_ack'), 'the ack');
      const sub = (id: string) => r.send({ type: 'subscribe', id, payload: { query: EVENTS, variables: { id: m.id } } });
      const of = (id: string) => r.messages.filter((x) => x.id === id);
      return { m, r, sub, of };
    }
    const state = async (id: string) => {
      const v = await h.http.get(`/v1/matches/${id}`).expect(200);
      return { version: v.body.version as number, toMove: (v.body.game?.pending?.seat ?? null) as Seat | null };
    };
    const eventsFor = async (id: string, token?: string): Promise<GqlEvent[]> => {
      const r = await graphqlRequest(h, EVENTS_QUERY, { id }, token).expect(200);
      return r.body.data.match.events.events as GqlEvent[];
    };

    it('matchEvents: each connection gets its own redacted events, from this node and another, and completes with the game', async () => {
      const m = await createHotSeat(h.http);
      const subs = {
        p1: subscribe<{ matchEvents: GqlEvent }>(client(m.tokens.p1), EVENTS, { id: m.id }),
        p2: subscribe<{ matchEvents: GqlEvent }>(client(m.tokens.p2), EVENTS, { id: m.id }),
        spectator: subscribe<{ matchEvents: GqlEvent }>(client(), EVENTS, { id: m.id }),
      };
      await waitFor(() => Object.values(subs).every((s) => s.results.length > 0), 'the stored events');
      const other = await buildApp({ store: h.app.service.store, logger: false });
      await other.ready();
      try {
        for (let i = 0; i < 6; i++) await move(i % 2 === 0 ? h.http : supertest(other.server), m);
        await supertest(other.server)
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens.p1))
          .send({ action: { type: 'resign' } })
          .expect(200);
      } finally {
        await other.close();
      }
      await Promise.all(Object.values(subs).map((s) => s.done));
      for (const [viewer, s] of Object.entries(subs)) {
        expect(s.error(), viewer).toBeNull();
        expect(
          s.results.every((r) => r.errors === undefined),
          viewer,
        ).toBe(true);
        const got = s.results.map((r) => r.data!.matchEvents);
        // Exactly Match.events for the same token: in order, none twice, through the end of the game.
        expect(got, viewer).toEqual(await eventsFor(m.id, viewer === 'spectator' ? undefined : m.tokens[viewer as Seat]));
        expect(got.at(-1)!.type, viewer).toBe('SeedRevealed');
      }
      const draws = (viewer: keyof typeof subs, seat: Seat) =>
        subs[viewer].results.map((r) => r.data!.matchEvents).filter((e) => e.type === 'CardDrawn' && e.data.seat === seat);
      for (const [mine, theirs] of [
        ['p1', 'p2'],
        ['p2', 'p1'],
      ] as const) {
        expect(draws(mine, theirs).length).toBeGreaterThan(0);
        expect(
          draws(mine, theirs).every((e) => e.data.card === undefined),
          `${mine} sees ${theirs}'s hand`,
        ).toBe(true);
        expect(draws(mine, mine).every((e) => typeof e.data.card === 'string')).toBe(true);
      }
      expect([...draws('spectator', 'p1'), ...draws('spectator', 'p2')].every((e) => e.data.card === undefined)).toBe(true);
    });

    it('matchEvents(after:) starts after that seq; a finished match sends its tail and completes', async () => {
      const m = await createHotSeat(h.http);
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p2))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const all = await eventsFor(m.id, m.tokens.p2);
      const after = all[all.length - 4]!.seq;
      const s = subscribe<{ matchEvents: GqlEvent }>(client(m.tokens.p2), EVENTS, { id: m.id, after });
      await s.done;
      expect(s.results.map((r) => r.data!.matchEvents)).toEqual(all.filter((e) => e.seq > after));
    });

    it('myTurn (seat tokens): the seat to move gets its match, as it sees it, once per version; the other seat nothing until its turn', async () => {
      const m = await createHotSeat(h.http);
      const subs = {
        p1: subscribe<{ myTurn: Turn }>(client(m.tokens.p1), MY_TURN),
        p2: subscribe<{ myTurn: Turn }>(client(m.tokens.p2), MY_TURN),
      };
      const expected: Record<Seat, number[]> = { p1: [], p2: [] };
      const sent = (seat: Seat) => subs[seat].results.map((r) => r.data!.myTurn);
      for (let i = 0; i <= 8; i++) {
        // After each move (and before the first), the seat to move hears of it before anyone moves again.
        const s = await state(m.id);
        const seat = s.toMove!;
        expected[seat].push(s.version);
        await waitFor(() => sent(seat).some((t) => t.version === s.version), `${seat}'s turn at version ${s.version}`);
        if (i < 8) await move(h.http, m);
      }
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      // The resignation leaves nobody to move: a later emission would show up before this read's answer does.
      await eventsFor(m.id);
      for (const seat of ['p1', 'p2'] as const) {
        expect(subs[seat].error(), seat).toBeNull();
        expect(
          sent(seat).map((t) => t.version),
          seat,
        ).toEqual(expected[seat]);
        for (const t of sent(seat)) {
          expect(t.id).toBe(m.id);
          expect(t.seat).toBe(seat);
          expect(t.pending.seat).toBe(seat);
          expect(Array.isArray(t.hand), `${seat} sees its own hand`).toBe(true);
        }
        subs[seat].dispose();
      }
      expect(expected.p1.length + expected.p2.length).toBe(9);
      expect(expected.p1.length > 0 && expected.p2.length > 0).toBe(true);
    });

    it('myTurn (player token): the matches of a registered player, only where the decision is theirs', async () => {
      const reg = await h.http
        .post('/v1/players')
        .send({ handle: `sub${Date.now() % 1_000_000}` })
        .expect(201);
      const player = reg.body.token as string;
      const sub = subscribe<{ myTurn: Turn }>(client(player), MY_TURN);
      const created = await h.http
        .post('/v1/matches')
        .set(bearer(player))
        .send({ openSeat: true, decks: { p1: { starter: STARTERS[0] } } })
        .expect(201);
      const id = created.body.id as string;
      const seat = created.body.seat as Seat;
      const joined = await h.http
        .post(`/v1/matches/${id}/join`)
        .send({ handle: 'anon', deck: { starter: STARTERS[2] } })
        .expect(200);
      const tokens = { [seat]: player, [joined.body.seat as Seat]: joined.body.token as string } as Record<Seat, string>;
      const m: Created = { id, tokens, version: 0 };
      const expected: number[] = [];
      for (let i = 0; i <= 8; i++) {
        const s = await state(id);
        if (s.toMove === seat) {
          expected.push(s.version);
          await waitFor(() => sub.results.some((r) => r.data?.myTurn.version === s.version), `the player's turn at ${s.version}`);
        }
        if (i < 8) await move(h.http, m);
      }
      await h.http
        .post(`/v1/matches/${id}/actions`)
        .set(bearer(player))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await eventsFor(id);
      expect(sub.error()).toBeNull();
      expect(sub.results.map((r) => r.data!.myTurn.version)).toEqual(expected);
      expect(sub.results.every((r) => r.data!.myTurn.seat === seat && r.data!.myTurn.id === id)).toBe(true);
      expect(expected.length).toBeGreaterThan(0);
      sub.dispose();
    });

    it('connection-level auth: a refused credential closes the connection at connection_init with 4403 and the problem code, before any ack', async () => {
      const m = await createHotSeat(h.http);
      const reg = await h.http
        .post('/v1/players')
        .send({ handle: `scope${Date.now() % 1_000_000}` })
        .expect(201);
      const playOnly = await h.http
        .post('/v1/me/tokens')
        .set(bearer(reg.body.token))
        .send({ label: 'no-read', scopes: ['match:play'] })
        .expect(201);
      const refused: [unknown, string][] = [
        [{ authorization: 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 'invalid-token'],
        [{ authorization: 'Bearer !' }, 'invalid-token'],
        [{ authorization: 'Basic dXNlcjpwdw==' }, 'invalid-token'],
        [{ authorization: 42 }, 'invalid-token'],
        [{ authorization: 'Bearer evp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 'invalid-token'],
        [{ authorization: `Bearer ${playOnly.body.token}` }, 'insufficient-scope'],
      ];
      for (const [payload, code] of refused) {
        const r = rawSocket(h.baseUrl());
        await r.opened;
        r.send({ type: 'connection_init', payload });
        expect(await r.closed, JSON.stringify(payload)).toEqual({ code: 4403, reason: code });
        expect(
          r.messages.filter((x) => x.type === 'connection_ack'),
          JSON.stringify(payload),
        ).toEqual([]);
      }
      // A valid seat token is acknowledged; a second connection_init closes with 4429.
      const ok = rawSocket(h.baseUrl());
      await ok.opened;
      ok.send({ type: 'connection_init', payload: { authorization: `Bearer ${m.tokens.p1}` } });
      await waitFor(() => ok.messages.some((x) => x.type === 'connection_ack'), 'the ack');
      ok.send({ type: 'connection_init', payload: {} });
      expect((await ok.closed).code).toBe(4429);

      // A seat token reads its own match only, as on REST.
      const other = await createHotSeat(h.http);
      const s = subscribe<{ matchEvents: GqlEvent }>(client(m.tokens.p1), EVENTS, { id: other.id });
      await s.done;
      expect(s.results).toEqual([]);
      expect((s.error() as { extensions?: { code?: string } }[])[0]?.extensions?.code).toBe('invalid-token');
    });

    it('a connection holds at most the configured number of subscriptions; completing one frees its slot', async () => {
      const node = await buildApp({ store: h.app.service.store, logger: false, maxSubscriptionsPerConnection: 2 });
      const at = await listen(node);
      try {
        const { m, r, sub, of } = await eventsSocket(at);
        sub('a');
        sub('b');
        await waitFor(() => of('a').length > 0 && of('b').length > 0, 'two subscriptions');
        sub('c');
        await waitFor(() => of('c').length > 0, 'the refusal');
        expect(of('c')).toEqual([
          {
            type: 'error',
            id: 'c',
            payload: [expect.objectContaining({ extensions: { code: 'too-many-subscriptions', status: 429, limit: 2 } })],
          },
        ]);
        expect(of('a').every((x) => x.type === 'next')).toBe(true);
        r.send({ type: 'complete', id: 'a' });
        // Messages are handled in order: the complete has freed the slot before this subscribe is read.
        sub('d');
        await waitFor(() => of('d').length > 0, 'a subscription in the freed slot');
        expect(of('d')[0]!.type).toBe('next');
        // Another connection has its own budget.
        const c = client(m.tokens.p2, at);
        const s1 = subscribe<{ matchEvents: GqlEvent }>(c, EVENTS, { id: m.id });
        await waitFor(() => s1.results.length > 0, 'the other connection');
        s1.dispose();
        r.socket.close();
      } finally {
        await node.close();
      }
    });

    it('a complete sent right after its subscribe frees the slot; a second subscribe with an id in use closes with 4409', async () => {
      const MAX = 3;
      const node = await buildApp({ store: h.app.service.store, logger: false, maxSubscriptionsPerConnection: MAX });
      const at = await listen(node);
      try {
        const { r, sub, of } = await eventsSocket(at);
        // Each complete reaches the server while its subscription is still being set up (the
        // match is being read): before the fix the subscription went on and kept its slot.
        for (let i = 0; i < MAX; i++) {
          sub(`gone${i}`);
          r.send({ type: 'complete', id: `gone${i}` });
        }
        // Each ends once its setup does (the server's complete; before the fix it never came).
        await waitFor(
          () => [...Array(MAX).keys()].every((i) => of(`gone${i}`).some((x) => x.type === 'complete')),
          'the completed ones to end',
        );
        for (let i = 0; i < MAX; i++) {
          sub(`live${i}`);
          await waitFor(() => of(`live${i}`).length > 0, `subscription ${i} in a freed slot`);
          expect(of(`live${i}`)[0]!.type).toBe('next');
        }
        for (let i = 0; i < MAX; i++) expect(of(`gone${i}`).filter((x) => x.type !== 'complete')).toEqual([]);
        // The protocol: a subscribe whose id is already in use closes the socket with 4409.
        sub('live0');
        expect(await r.closed).toEqual({ code: 4409, reason: 'Subscriber for live0 already exists' });
      } finally {
        await node.close();
      }
    });

    it('a subscribe with the id of one still being set up closes with 4409 too', async () => {
      const { r, sub } = await eventsSocket(h.baseUrl());
      sub('twice');
      sub('twice');
      expect(await r.closed).toEqual({ code: 4409, reason: 'Subscriber for twice already exists' });
    });

    it('documents are validated and costed as over HTTP; myTurn needs a token; a subscription over HTTP is refused', async () => {
      const m = await createHotSeat(h.http);
      const spectator = client();
      const codeOf = async (query: string, variables: Record<string, unknown> = {}) => {
        const s = subscribe(spectator, query, variables);
        await s.done;
        return (s.error() as { extensions?: { code?: string } }[])[0]?.extensions?.code;
      };
      expect(await codeOf('subscription { matchEvents(matchId: "x") { nope } }')).toBe('graphql-validation-failed');
      expect(await codeOf('subscription { matchEvents(matchId: "x") { seq } myTurn { id } }')).toBe('graphql-validation-failed');
      expect(await codeOf('subscription { myTurn { seats { seat } } }')).toBe('missing-token');
      expect(await codeOf('subscription { matchEvents(matchId: "AAAAAAAAAAAAAAAAAAAAAA") { seq } }')).toBe('match-not-found');
      expect(await codeOf(EVENTS, { id: m.id, after: -1 })).toBe('validation-failed');
      const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: seq`).join(' ');
      expect(await codeOf(`subscription { matchEvents(matchId: "x") { ${aliases} } }`)).toBe('too-many-aliases');
      const costly = `subscription($n: Int) { myTurn { ${[1, 2, 3, 4, 5, 6].map((i) => `e${i}: events(limit: $n) { events { seq actingSeat type data } }`).join(' ')} } }`;
      expect(await codeOf(costly, { n: 500 })).toBe('query-too-costly');
      const res = await h.http.post('/graphql').send({ query: 'subscription { myTurn { id } }' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('graphql-validation-failed');
    });

    it('a server that stops closes its WebSocket connections with 1001 (going away: reconnect elsewhere)', async () => {
      const m = await createHotSeat(h.http);
      const node = await buildApp({ store: h.app.service.store, logger: false });
      const at = await listen(node);
      const r = rawSocket(at);
      await r.opened;
      r.send({ type: 'connection_init', payload: {} });
      await waitFor(() => r.messages.some((x) => x.type === 'connection_ack'), 'the ack');
      r.send({ type: 'subscribe', id: '1', payload: { query: EVENTS, variables: { id: m.id } } });
      await waitFor(() => r.messages.some((x) => x.id === '1'), 'the events');
      await node.close();
      expect((await r.closed).code).toBe(1001);
    });
  });
}

const pgReason = await postgresUnavailableReason();

describe.skipIf(pgReason !== null)('live updates across two server processes on one PostgreSQL [postgres]', () => {
  let db: TempDatabase;
  const servers: ServerProcess[] = [];
  const clients: Client[] = [];
  let app: string;
  beforeAll(async () => {
    app = await productionImage();
    db = await createTempDatabase();
  }, 600_000);
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    for (const s of servers) await s.stop(5_000).catch(() => {});
    await db?.drop();
  });

  it('a move made through node A reaches subscribers and SSE streams on node B: every event, redacted, and each turn', async () => {
    const env = { DATABASE_URL: db.url, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', SWEEP_INTERVAL_MS: '0', WEBHOOK_WORKER: 'off' };
    const [a, b] = await Promise.all([startServer({ cwd: app, env }), startServer({ cwd: app, env })]);
    servers.push(a, b);
    const A = supertest(a.baseUrl);
    const m = await createHotSeat(A);
    const on = (token: string) => {
      const c = gqlWsClient(b.baseUrl, token);
      clients.push(c);
      return c;
    };
    const events = subscribe<{ matchEvents: GqlEvent }>(on(m.tokens.p1), EVENTS, { id: m.id });
    const turns = { p1: subscribe<{ myTurn: Turn }>(on(m.tokens.p1), MY_TURN), p2: subscribe<{ myTurn: Turn }>(on(m.tokens.p2), MY_TURN) };
    const sse = openSse(`${b.baseUrl}/v1/matches/${m.id}/stream`, bearer(m.tokens.p2));
    await waitFor(() => events.results.length > 0 && sse.messages.length > 0, 'the stored events on B');

    const expected: Record<Seat, number[]> = { p1: [], p2: [] };
    for (let i = 0; i <= 8; i++) {
      const v = await A.get(`/v1/matches/${m.id}`).expect(200);
      const seat = v.body.game.pending.seat as Seat;
      expected[seat].push(v.body.version as number);
      await waitFor(() => turns[seat].results.some((r) => r.data?.myTurn.version === v.body.version), `${seat}'s turn on B`);
      if (i === 8) break;
      const legal = await A.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200);
      await A.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[seat])).send({ action: legal.body.actions[0].action }).expect(200);
    }
    await A.post(`/v1/matches/${m.id}/actions`)
      .set(bearer(m.tokens.p2))
      .send({ action: { type: 'resign' } })
      .expect(200);
    await Promise.all([events.done, sse.ended]);

    const log = async (token: string) =>
      (
        await A.post('/graphql')
          .set(bearer(token))
          .send({ query: EVENTS_QUERY, variables: { id: m.id } })
          .expect(200)
      ).body.data.match.events.events as GqlEvent[];
    expect(events.error()).toBeNull();
    expect(events.results.map((r) => r.data!.matchEvents)).toEqual(await log(m.tokens.p1));
    const sseEvents = sse.messages
      .filter((x) => x.event === 'match-event')
      .map((x) => JSON.parse(x.data) as { seq: number; event: unknown });
    const rest = (await A.get(`/v1/matches/${m.id}/events?limit=500`).set(bearer(m.tokens.p2)).expect(200)).body.events as unknown[];
    expect(sseEvents).toEqual(rest);
    expect(sse.messages.at(-1)!.event).toBe('end');
    for (const seat of ['p1', 'p2'] as const) {
      expect(
        turns[seat].results.map((r) => r.data!.myTurn.version),
        seat,
      ).toEqual(expected[seat]);
      turns[seat].dispose();
    }
  });
});
