/**
 * The client against the real service (buildApp on PGlite, a free port): seats and tokens,
 * actions with If-Match and Idempotency-Key and what is retried (a response lost on the way
 * back is resent with the same key and applied once; a create is never resent), typed problems.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvonsClient, EvonsProblem, type ProblemCode, type Seat } from '../src/index.js';
import { openAndJoin as openAndJoinAt, serve, STARTERS, type Served } from './server.js';

/** Records what was sent; `fault` may replace the real exchange for one request. */
function spyFetch(fault?: (request: Request, n: number, real: () => Promise<Response>) => Promise<Response | undefined>) {
  const sent: { method: string; path: string; key: string | null; ifMatch: string | null; status?: number; replayed?: string | null }[] =
    [];
  const fetch = async (request: Request): Promise<Response> => {
    const entry = {
      method: request.method,
      path: new URL(request.url).pathname,
      key: request.headers.get('idempotency-key'),
      ifMatch: request.headers.get('if-match'),
    };
    sent.push(entry);
    const real = async () => {
      const r = await globalThis.fetch(request);
      Object.assign(entry, { status: r.status, replayed: r.headers.get('idempotent-replayed') });
      return r;
    };
    return (await fault?.(request, sent.length, real)) ?? real();
  };
  return { fetch, sent };
}

const noWait = { baseDelayMs: 1, maxDelayMs: 5 };

describe('EvonsClient against the real service', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  /** p1 opens a seat, p2 joins: two clients, each holding its own seat token. */
  const openAndJoin = (p1?: EvonsClient, p2?: EvonsClient) => openAndJoinAt(s.baseUrl, p1, p2);

  it('create and join keep each seat token and version; reads are made as that seat', async () => {
    const { id, p1, p2 } = await openAndJoin();
    expect(p1.seatIn(id)).toBe('p1');
    expect(p2.seatIn(id)).toBe('p2');
    expect(p1.tokenFor(id)).not.toBe(p2.tokenFor(id));
    const v1 = await p1.getMatch(id);
    const v2 = await p2.getMatch(id);
    expect(v1.seat).toBe('p1');
    expect(v2.seat).toBe('p2');
    expect(p1.versionOf(id)).toBe(v1.version);
    // Each sees its own hand only.
    expect(v1.gameId === 'evons' && v1.game?.seats.p1.hand).toBeTruthy();
    expect(v1.gameId === 'evons' && v1.game?.seats.p2.hand).toBeNull();
    // A spectator client has no token for the match.
    const watcher = await new EvonsClient({ baseUrl: s.baseUrl }).getMatch(id);
    expect(watcher.seat).toBeNull();
  });

  it('act answers lean by default; { legal: true } adds the next legal actions, { view: true } the whole match view', async () => {
    const { id, clients } = await openAndJoin();
    const seat = (await clients.p1.getMatch(id)).game!.pending!.seat;
    const first = (await clients[seat].legalActions(id)).actions[0]!.action;
    const lean = await clients[seat].act(id, first, { legal: true });
    expect(lean).not.toHaveProperty('match');
    expect(lean.status).toBe('active');
    expect(lean.pending).not.toBeNull();
    const next = lean.pending!.seat;
    // The legal actions are this seat's: empty when the decision passed to the other seat.
    if (next === seat) expect(lean.legalActions!.length).toBeGreaterThan(0);
    else expect(lean.legalActions).toEqual([]);
    const again = (await clients[next].legalActions(id)).actions[0]!.action;
    const full = await clients[next].act(id, again, { view: true });
    expect(full.match.version).toBe(full.version);
    expect(full.match.seat).toBe(next);
    expect(clients[next].versionOf(id)).toBe(full.version);
  });

  it('a response lost on the way back is resent with the same Idempotency-Key and applied once', async () => {
    let dropped = 0;
    const spy = spyFetch(async (request, _n, real) => {
      if (request.method !== 'POST' || !request.url.endsWith('/actions') || dropped > 0) return undefined;
      dropped++;
      await real(); // the server applies the action…
      throw new TypeError('fetch failed: socket closed'); // …and its answer never arrives
    });
    const { id, clients } = await openAndJoin(
      new EvonsClient({ baseUrl: s.baseUrl, fetch: spy.fetch, retry: noWait }),
      new EvonsClient({ baseUrl: s.baseUrl, fetch: spy.fetch, retry: noWait }),
    );
    const view = await clients.p1.getMatch(id);
    const seat = view.game!.pending!.seat;
    const legal = await clients[seat].legalActions(id);
    const before = clients[seat].versionOf(id)!;

    const result = await clients[seat].act(id, legal.actions[0]!.action);

    const actions = spy.sent.filter((r) => r.path.endsWith('/actions'));
    expect(actions).toHaveLength(2);
    expect(actions[0]!.key).toBeTruthy();
    expect(actions[1]!.key).toBe(actions[0]!.key); // the same logical action
    expect(actions[0]!.ifMatch).toBe(`"${before}"`);
    expect(actions[0]!.status).toBe(200); // applied the first time
    expect(actions[1]!.replayed).toBe('true'); // the resend got the stored answer
    expect(result.replayed).toBe(true);
    // Applied once: the match is where the first send left it, and the log holds one decision.
    const after = await clients.p1.getMatch(id);
    expect(after.version).toBe(result.version);
    const log = await clients.p1.eventPage(id, { after: before });
    expect(log.events.map((e) => e.seq)).toEqual(result.events.map((e) => e.seq));
  });

  it('a request that never reached the server is resent and applied, not replayed', async () => {
    let refused = 0;
    const spy = spyFetch(async (request) => {
      if (request.method === 'POST' && request.url.endsWith('/actions') && refused++ === 0)
        throw new TypeError('fetch failed: ECONNREFUSED');
      return undefined;
    });
    const { id, clients } = await openAndJoin();
    const seat = (await clients.p1.getMatch(id)).game!.pending!.seat;
    const client = new EvonsClient({ baseUrl: s.baseUrl, fetch: spy.fetch, retry: noWait }).useSeat(id, clients[seat].tokenFor(id)!);
    const legal = await client.legalActions(id);
    const result = await client.act(id, legal.actions[0]!.action);
    const actions = spy.sent.filter((r) => r.path.endsWith('/actions'));
    expect(actions.map((a) => a.key)).toEqual([actions[0]!.key, actions[0]!.key]);
    expect(actions[1]!.status).toBe(200);
    expect(result.replayed).toBe(false);
    expect((await client.getMatch(id)).version).toBe(result.version);
  });

  it('a 503 with Retry-After is resent; one without it, or a 500, is not', async () => {
    const unavailable = (retryAfter: string | null, status = 503) =>
      new Response(
        JSON.stringify({
          type: 'urn:evons:problem:database-unavailable',
          title: 'Database unavailable',
          status,
          code: status === 503 ? 'database-unavailable' : 'internal',
        }),
        {
          status,
          headers: { 'content-type': 'application/problem+json', ...(retryAfter === null ? {} : { 'retry-after': retryAfter }) },
        },
      );
    let mode: { retryAfter: string | null; status?: number } = { retryAfter: '0' };
    let failed = 0;
    const spy = spyFetch(async (request) =>
      new URL(request.url).pathname.endsWith('/legal-actions') && failed++ === 0 ? unavailable(mode.retryAfter, mode.status) : undefined,
    );
    const { id, clients } = await openAndJoin();
    const client = new EvonsClient({ baseUrl: s.baseUrl, fetch: spy.fetch, retry: noWait }).useSeat(id, clients.p1.tokenFor(id)!);

    await expect(client.legalActions(id)).resolves.toMatchObject({ seat: 'p1' });
    expect(spy.sent.filter((r) => r.path.endsWith('/legal-actions'))).toHaveLength(2);

    for (const m of [{ retryAfter: null }, { retryAfter: '0', status: 500 }]) {
      mode = m;
      failed = 0;
      spy.sent.length = 0;
      const err = await client.legalActions(id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EvonsProblem);
      expect((err as EvonsProblem).status).toBe(m.status ?? 503);
      expect(spy.sent).toHaveLength(1);
    }
  });

  it('a create whose answer was lost is not resent (it has no idempotency key)', async () => {
    const spy = spyFetch(async (request, _n, real) => {
      if (request.method !== 'POST') return undefined;
      await real();
      throw new TypeError('fetch failed: socket closed');
    });
    const client = new EvonsClient({ baseUrl: s.baseUrl, fetch: spy.fetch, retry: noWait });
    await expect(client.createMatch({ handle: 'ann', openSeat: true, decks: { p1: { starter: STARTERS[0] } } })).rejects.toThrow(TypeError);
    expect(spy.sent).toHaveLength(1);
  });

  it('a stale If-Match is a typed 409 version-conflict carrying the current version, which the client then uses', async () => {
    const { id, clients } = await openAndJoin();
    const view = await clients.p1.getMatch(id);
    const seat = view.game!.pending!.seat;
    const me = clients[seat];
    await me.getMatch(id);
    const stale = me.versionOf(id)!;
    // The same seat acts from another device: the match moves on behind this client's back.
    const other = new EvonsClient({ baseUrl: s.baseUrl }).useSeat(id, me.tokenFor(id)!);
    const legal = await other.legalActions(id);
    const moved = await other.act(id, legal.actions[0]!.action);

    const err = await me.act(id, legal.actions[0]!.action).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvonsProblem);
    const p = err as EvonsProblem;
    const code: ProblemCode = p.code; // typed: the known codes autocomplete
    expect(code).toBe('version-conflict');
    expect(p.status).toBe(409);
    expect(p.conflict).toBe(true);
    expect(p.version).toBe(moved.version);
    expect(p.type).toBe('urn:evons:problem:version-conflict');
    expect(me.versionOf(id)).toBe(moved.version);
    expect(stale).toBeLessThan(moved.version);
  });

  it('an illegal action is a typed 422 whose code is the engine reason', async () => {
    const { id, clients } = await openAndJoin();
    const seat = (await clients.p1.getMatch(id)).game!.pending!.seat;
    const waiting = seat === 'p1' ? clients.p2 : clients.p1;
    const err = await waiting.act(id, { type: 'pass' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EvonsProblem);
    expect(err).toMatchObject({ status: 422, code: 'NOT_YOUR_DECISION', illegal: true, retryable: false });
  });

  it('unknown matches and missing tokens are typed problems too', async () => {
    const client = new EvonsClient({ baseUrl: s.baseUrl });
    await expect(client.getMatch('no-such-match')).rejects.toMatchObject({ status: 404, code: 'match-not-found' });
    const { id } = await openAndJoin();
    await expect(client.act(id, { type: 'pass' })).rejects.toMatchObject({ status: 401, code: 'missing-token' });
  });

  it('waitForMyTurn resolves at once on my turn, after the other seat moves otherwise, and with myTurn false at the end', async () => {
    const { id, clients } = await openAndJoin();
    const first = (await clients.p1.getMatch(id)).game!.pending!.seat;
    const second: Seat = first === 'p1' ? 'p2' : 'p1';

    const now = await clients[first].waitForMyTurn(id);
    expect(now.myTurn).toBe(true);

    const waiting = clients[second].waitForMyTurn(id);
    // The first seat plays until the decision passes (a turn can hold several decisions).
    let decisions = 0;
    for (;;) {
      const v = await clients[first].getMatch(id);
      if (v.game!.pending!.seat !== first) break;
      const legal = await clients[first].legalActions(id);
      const pass = legal.actions.find((a) => a.action.type === 'pass' || a.action.type === 'end-phase') ?? legal.actions[0]!;
      await clients[first].act(id, pass.action);
      decisions++;
    }
    const turn = await waiting;
    expect(decisions).toBeGreaterThan(0);
    expect(turn.myTurn).toBe(true);
    expect(turn.match.seat).toBe(second);
    expect(turn.match.game!.pending!.seat).toBe(second);

    // The first seat now waits; the second resigns, and the wait ends with the match.
    const ending = clients[first].waitForMyTurn(id);
    await clients[second].resign(id);
    const over = await ending;
    expect(over.myTurn).toBe(false);
    expect(over.match.status).toBe('finished');
    expect(over.match.winner).toBe(first);
  });

  it('issue 20: resign() concedes a UniVersus match, by the deciding seat at a block and by the other seat at an attack; the other seat wins', async () => {
    for (const [kind, who] of [
      ['AWAIT_BLOCK', 'deciding'],
      ['PLAY', 'other'],
    ] as const) {
      let reached: { id: string; clients: Record<Seat, EvonsClient>; deciding: Seat } | null = null;
      for (let tries = 0; tries < 5 && !reached; tries++) {
        const p1 = new EvonsClient({ baseUrl: s.baseUrl });
        const p2 = new EvonsClient({ baseUrl: s.baseUrl });
        const created = await p1.createMatch({ game: 'universus', handle: 'cy', openSeat: true, decks: { p1: { starter: 'scouts' } } });
        await p2.joinMatch(created.id, { handle: 'di', deck: { starter: 'shifters' } });
        const clients: Record<Seat, EvonsClient> = { p1, p2 };
        for (let n = 0; n < 200; n++) {
          const v = await p1.getMatch(created.id);
          if (v.status !== 'active' || v.gameId !== 'universus') break;
          const pending = v.game!.pending!;
          if (pending.kind === kind) {
            reached = { id: created.id, clients, deciding: pending.seat };
            break;
          }
          const legal = await clients[pending.seat].legalActions(created.id);
          await clients[pending.seat].act(created.id, legal.actions[n % legal.actions.length]!.action);
        }
      }
      if (!reached) throw new Error(`no ${kind} decision reached`);
      const resigner: Seat = who === 'deciding' ? reached.deciding : reached.deciding === 'p1' ? 'p2' : 'p1';
      const winner: Seat = resigner === 'p1' ? 'p2' : 'p1';
      const r = await reached.clients[resigner].resign(reached.id);
      expect(r).toMatchObject({ status: 'finished', winner, outcome: { winner, reason: 'resigned', seat: resigner }, pending: null });
      expect(r.events.map((e) => e.event.type)).toEqual(['MatchEnded']);
      const again = await reached.clients[winner].resign(reached.id).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(EvonsProblem);
      expect(again).toMatchObject({ status: 409, code: 'match-finished' });
    }
  });
});
