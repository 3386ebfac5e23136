/**
 * Queries and mutations over the GraphQL WebSocket (graphql-transport-ws at /graphql, one socket
 * per seat as game clients keep), with the rules of HTTP: the socket's credential (checked at
 * connection_init) acts, with its own scopes per mutation; each operation counts against the
 * address's request ceiling and gets its own context (nothing memoised between operations);
 * idempotency keys and expected versions as on REST; errors coded as over HTTP. The lean
 * ActionResult (status, outcome, pending, legalActions) is enough to play a whole match with one
 * request per move. Hidden information: see ../secrecy/leak-suite.ts (a match played over WebSocket).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { STARTERS, bearer, createHotSeat, graphqlRequest, pglite, prng, startOn, useHarness, type Http } from '../helpers.js';
import { BenchPlayer, MAX_ACTIONS_PER_MATCH } from '../../../bench/lib/move-policy.js';
import type { App } from '../../../src/app.js';
import { execute, gqlWsClient, rawSocket, waitFor, type Next } from '../../../bench/lib/graphql-ws.js';
import { baseUrlOf } from '../harness.js';

type Seat = 'p1' | 'p2';

const ACT = /* GraphQL */ `
  mutation Act($id: ID!, $a: JSON!, $key: String, $v: Int) {
    submitAction(matchId: $id, action: $a, idempotencyKey: $key, expectedVersion: $v) {
      version
      replayed
      status
      winner
      outcome {
        reason
      }
      pending
      events {
        seq
        type
      }
      legalActions {
        type
        action
        text
      }
    }
  }
`;
const LEGAL = 'query Legal($id: ID!) { match(id: $id) { version status pending legalActions { action } } }';

interface Answer {
  version: number;
  replayed: boolean;
  status: string;
  winner: Seat | null;
  outcome: { reason: string } | null;
  pending: { seat: Seat } | null;
  events: { seq: number; type: string }[];
  legalActions: { type: string; action: Record<string, unknown>; text: string }[];
}

const codeOf = (r: Next<unknown>) => r.errors?.[0]?.extensions?.code;

describe('GraphQL queries and mutations over WebSocket', () => {
  const h = useHarness(pglite);
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.dispose();
  });
  /** One persistent connection (a player's socket); a refused one is lazy, to see its close in the operation's sink. */
  const client = (token?: string, persistent = true) => {
    const c = gqlWsClient(h.baseUrl(), token, { persistent });
    clients.push(c);
    return c;
  };
  const legalFor = async (c: Client, id: string) => {
    const r = await execute<{
      match: { version: number; pending: { seat: Seat } | null; legalActions: { action: Record<string, unknown> }[] };
    }>(c, LEGAL, { id });
    expect(r.errors).toBeUndefined();
    return r.data!.match;
  };
  /** The deciding seat of a match, from REST. */
  const toMove = async (id: string) => (await h.http.get(`/v1/matches/${id}`).expect(200)).body.game.pending.seat as Seat;

  it('a refused credential closes the socket at connection_init (4403), before any operation runs', async () => {
    const err = await execute(client('not-a-token', false), LEGAL, { id: 'whatever' }).catch(
      (e: { payload?: { code?: number; reason?: string } }) => e.payload,
    );
    expect(err).toMatchObject({ code: 4403, reason: 'invalid-token' });
  });

  it('a mutation checks its own scope: a player token without match:play cannot act over the socket', async () => {
    const reg = await h.http.post('/v1/players').send({ handle: 'ws-scoped' }).expect(201);
    const full = reg.body.token as string;
    const c = await h.http
      .post('/v1/matches')
      .set(bearer(full))
      .send({ opponentHandle: 'anon', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
      .expect(201);
    const readOnly = (
      await h.http
        .post('/v1/me/tokens')
        .set(bearer(full))
        .send({ scopes: ['match:read'] })
        .expect(201)
    ).body.token as string;
    const id = c.body.id as string;
    // The player's seat is p1; make it p1's decision.
    for (let i = 0; i < 20 && (await toMove(id)) !== 'p1'; i++) {
      const legal = await h.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(c.body.tokens.p2)).expect(200);
      await h.http
        .post(`/v1/matches/${id}/actions`)
        .set(bearer(c.body.tokens.p2))
        .send({ action: legal.body.actions[0].action })
        .expect(200);
    }
    const ro = client(readOnly);
    const legal = await legalFor(ro, id);
    expect(legal.legalActions.length).toBeGreaterThan(0);
    const refused = await execute(ro, ACT, { id, a: legal.legalActions[0]!.action });
    expect(codeOf(refused)).toBe('insufficient-scope');
    expect(refused.errors![0]!.extensions).toMatchObject({ status: 403 });
    // The same action with the full credential, over its own socket, is accepted.
    const ok = await execute<{ submitAction: Answer }>(client(full), ACT, { id, a: legal.legalActions[0]!.action });
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.submitAction.version).toBeGreaterThan(legal.version);
  });

  it('the same idempotency key twice gets the same answer, replayed the second time; a stale expectedVersion is a version-conflict with the version', async () => {
    const m = await createHotSeat(h.http);
    const seat = await toMove(m.id);
    const ws = client(m.tokens[seat]);
    const before = await legalFor(ws, m.id);
    const vars = { id: m.id, a: before.legalActions[0]!.action, key: 'ws-key-1', v: before.version };
    const first = await execute<{ submitAction: Answer }>(ws, ACT, vars);
    expect(first.errors).toBeUndefined();
    expect(first.data!.submitAction).toMatchObject({ replayed: false });
    const now = first.data!.submitAction.version;
    expect(now).toBeGreaterThan(before.version);
    const again = await execute<{ submitAction: Answer }>(ws, ACT, vars);
    expect(again.errors).toBeUndefined();
    expect(again.data!.submitAction).toEqual({ ...first.data!.submitAction, replayed: true });
    // The same key with another action: refused as on REST.
    const other = before.legalActions[1]?.action ?? { type: 'resign' };
    expect(codeOf(await execute(ws, ACT, { ...vars, a: other }))).toBe('idempotency-key-reused');
    // A fresh key at the version seen before the move: stale.
    const stale = await execute(ws, ACT, { id: m.id, a: before.legalActions[0]!.action, key: 'ws-key-2', v: before.version });
    expect(codeOf(stale)).toBe('version-conflict');
    expect(stale.errors![0]!.extensions).toMatchObject({ status: 409, version: now });
    expect(stale.data).toBeNull();
  });

  it('each operation has its own context: a read after a move on the same socket sees the new version', async () => {
    const m = await createHotSeat(h.http);
    const seat = await toMove(m.id);
    const ws = client(m.tokens[seat]);
    const before = await legalFor(ws, m.id);
    const moved = await execute<{ submitAction: Answer }>(ws, ACT, { id: m.id, a: before.legalActions[0]!.action });
    expect(moved.errors).toBeUndefined();
    const after = await legalFor(ws, m.id);
    expect(after.version).toBe(moved.data!.submitAction.version);
    // Concurrent operations on one socket do not mix: a read of another match (answered as over
    // HTTP with the same credential) beside reads of this one.
    const other = await createHotSeat(h.http);
    const q = 'query($id: ID!) { match(id: $id) { id version seat } }';
    const [a, b, c] = await Promise.all([legalFor(ws, m.id), execute(ws, q, { id: other.id }), execute(ws, q, { id: m.id })]);
    expect(a.version).toBe(after.version);
    const overHttp = await graphqlRequest(h, q, { id: other.id }, m.tokens[seat]).expect(200);
    expect(b).toEqual(JSON.parse(JSON.stringify(overHttp.body)));
    expect(c.data).toEqual({ match: { id: m.id, version: after.version, seat } });
  });

  it('errors are coded as over HTTP: an illegal action, a document refused by validation, a query over the cost budget', async () => {
    const m = await createHotSeat(h.http);
    const seat = await toMove(m.id);
    const ws = client(m.tokens[seat]);
    // The other seat's socket sends the deciding seat's action: the rules engine's reason, 422, as over HTTP.
    const other = client(m.tokens[seat === 'p1' ? 'p2' : 'p1']);
    const action = (await legalFor(ws, m.id)).legalActions[0]!.action;
    const illegal = await execute(other, ACT, { id: m.id, a: action });
    const overHttp = await graphqlRequest(h, ACT, { id: m.id, a: action }, m.tokens[seat === 'p1' ? 'p2' : 'p1']).expect(200);
    expect(illegal.errors![0]!.extensions).toMatchObject({ status: 422, version: m.version });
    expect(illegal.errors![0]!.extensions).toEqual(overHttp.body.errors[0].extensions);
    expect(illegal.data).toBeNull();
    // A malformed action: validation-failed (400), as over HTTP.
    expect(codeOf(await execute(ws, ACT, { id: m.id, a: { type: 'play', card: 7 } }))).toBe('validation-failed');
    const invalid = await execute(ws, '{ match(id: "x") { nope } }').catch((e: { payload?: unknown }) => e.payload);
    expect(invalid).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'graphql-validation-failed', status: 400 }) }),
    ]);
    const costly = await execute(
      ws,
      'query($id: ID!) { match(id: $id) { events(limit: 500) { events { seq } } a: events(limit: 500) { events { seq type data actingSeat source } } b: events(limit: 500) { events { seq type data actingSeat source } } c: events(limit: 500) { events { seq type data actingSeat source } } } }',
      { id: m.id },
    ).catch((e: { payload?: unknown }) => e.payload);
    expect(costly).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'query-too-costly' }) })]);
    // Variables refused (a required one missing): coded as over HTTP.
    const noVariable = await execute(ws, 'query($id: ID!) { match(id: $id) { version } }', {}).catch(
      (e: { payload?: unknown }) => e.payload,
    );
    expect(noVariable).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'graphql-validation-failed', status: 400 }) }),
    ]);
    // The socket is still usable.
    expect((await legalFor(ws, m.id)).version).toBe(m.version);
  });

  it('a whole match played over one socket per seat, one request per move (legal actions from the answer or the other socket)', async () => {
    const m = await createHotSeat(h.http);
    const sockets = { p1: client(m.tokens.p1), p2: client(m.tokens.p2) };
    let seat = await toMove(m.id);
    let { version, legalActions } = await legalFor(sockets[seat], m.id);
    const rand = prng(7);
    const player = new BenchPlayer((n) => Math.floor(rand() * n), { matchesResigned: 0, chainBreaks: 0 });
    let last: Answer | null = null;
    for (let moves = 0; moves <= MAX_ACTIONS_PER_MATCH; moves++) {
      const choice = player.choose(legalActions, (o) => String(o.action.type))?.action ?? { type: 'resign' };
      const r = await execute<{ submitAction: Answer }>(sockets[seat], ACT, { id: m.id, a: choice, key: `k-${moves}`, v: version });
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      last = r.data!.submitAction;
      player.accepted(String(choice.type));
      expect(last.version).toBeGreaterThan(version);
      version = last.version;
      if (last.status !== 'active') break;
      const next = last.pending!.seat;
      if (next === seat) {
        expect(last.legalActions.length).toBeGreaterThan(0);
        legalActions = last.legalActions;
      } else {
        // Not the caller's decision: no legal actions for it in the answer.
        expect(last.legalActions).toEqual([]);
        const other = await legalFor(sockets[next], m.id);
        expect(other.version).toBe(version);
        legalActions = other.legalActions;
        seat = next;
      }
    }
    expect(last?.status).toBe('finished');
    expect(last?.outcome).not.toBeNull();
    expect(last?.pending).toBeNull();
    const rest = await h.http.get(`/v1/matches/${m.id}`).expect(200);
    expect(rest.body).toMatchObject({ status: 'finished', version });
  });
});

describe('GraphQL over WebSocket: the address request ceiling', () => {
  let app: App | undefined;
  let http: Http;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('each query or mutation over a socket counts as one request; past the ceiling it gets an error coded rate-limited (429), and the socket stays open', async () => {
    ({ app, http, close } = await startOn(pglite, { budgets: { perAddressPerMinute: 6 } }));
    const at = await baseUrlOf(app);
    const m = (
      await http
        .post('/v1/matches')
        .send({ handle: 'rl', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
        .expect(201)
    ).body as { id: string; tokens: Record<Seat, string> }; // 1
    const r = rawSocket(at); // the upgrade: 2
    try {
      await r.opened;
      r.send({ type: 'connection_init', payload: { authorization: `Bearer ${m.tokens.p1}` } });
      await waitFor(() => r.messages.some((x) => x.type === 'connection_ack'), 'the ack');
      const of = (id: string) => r.messages.filter((x) => x.id === id);
      const query = 'query($id: ID!) { match(id: $id) { version } }';
      for (const id of ['a', 'b', 'c', 'd']) {
        r.send({ type: 'subscribe', id, payload: { query, variables: { id: m.id } } });
        await waitFor(() => of(id).some((x) => x.type === 'complete'), `operation ${id}`);
        expect(of(id)[0]).toMatchObject({ type: 'next', payload: { data: { match: { version: expect.any(Number) } } } });
      }
      r.send({
        type: 'subscribe',
        id: 'e',
        payload: {
          query: 'mutation($id: ID!) { submitAction(matchId: $id, action: {type: "resign"}) { version } }',
          variables: { id: m.id },
        },
      });
      await waitFor(() => of('e').length > 0, 'the refusal');
      expect(of('e')).toEqual([
        {
          type: 'error',
          id: 'e',
          payload: [
            expect.objectContaining({
              extensions: expect.objectContaining({ code: 'rate-limited', status: 429, retryAfter: expect.any(Number) }),
            }),
          ],
        },
      ]);
      expect(r.socket.readyState).toBe(r.socket.OPEN);
      // Nothing ran: the match is not resigned.
      expect((await app.service.load(m.id, undefined)).row.status).not.toBe('finished');
    } finally {
      r.socket.close();
    }
  });
});
