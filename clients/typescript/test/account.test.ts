/**
 * Challenges, rematches, seeks and the account feed through the client, against the real service
 * (buildApp on PGlite, a free port): each method's answer and its typed problems, and the feed's
 * iterator resumed after the server cuts its connection (the entries delivered across the cut are
 * exactly the server's own replay of the feed: none lost, none twice). The reconnect rules are
 * also tested over a scripted transport.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EvonsClient,
  EvonsProblem,
  SseFeedTransport,
  type FeedItem,
  type FeedMessage,
  type FeedOpenRequest,
  type FeedTransport,
} from '../src/index.js';
import { serve, STARTERS, type Served } from './server.js';

const fast = { baseDelayMs: 5, maxDelayMs: 50 };
const CORRESPONDENCE = { kind: 'correspondence', daysPerMove: 3 } as const;
let n = 0;

/** A registered player's client (player token), and its handle. */
async function player(baseUrl: string, prefix: string, extra: { bot?: boolean; sse?: boolean } = {}) {
  const handle = `${prefix}${++n}`;
  const anon = new EvonsClient({ baseUrl });
  const { data, error } = await anon.api.POST('/v1/players', { body: { handle, ...(extra.bot ? { bot: true } : {}) } });
  if (!data) throw new Error(`register ${handle}: ${JSON.stringify(error)}`);
  const client = new EvonsClient({
    baseUrl,
    playerToken: data.token,
    retry: fast,
    ...(extra.sse ? { feedTransport: (api) => new SseFeedTransport(api) } : {}),
  });
  return { handle, token: data.token, client };
}

/** Reads the iterator until `done(received)` holds (or it ends). */
async function readUntil(it: AsyncIterator<FeedMessage>, into: FeedMessage[], done: (got: FeedMessage[]) => boolean): Promise<void> {
  while (!done(into)) {
    const r = await it.next();
    if (r.done) return;
    into.push(r.value);
  }
}

/** Resolves once `cond` holds (checked every few milliseconds). */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

const types = (ms: FeedMessage[]) => ms.map((m) => m.type);
const has =
  (type: string, count = 1) =>
  (ms: FeedMessage[]) =>
    ms.filter((m) => m.type === type).length >= count;

describe('challenges, rematches and seeks through the client', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('challenges: create, get, list in and out, decline with a reason, cancel, accept (the seat token is kept); closed ones are typed 409s', async () => {
    const alice = await player(s.baseUrl, 'alice');
    const bob = await player(s.baseUrl, 'bob');

    const c1 = await alice.client.createChallenge({ to: bob.handle, seat: 'p1', deck: { starter: STARTERS[0] } });
    expect(c1).toMatchObject({
      status: 'open',
      challenger: { handle: alice.handle },
      to: { handle: bob.handle },
      game: 'evons',
      seat: 'p1',
    });
    expect(await new EvonsClient({ baseUrl: s.baseUrl }).getChallenge(c1.id)).toEqual(c1);
    expect((await bob.client.myChallenges()).challenges.map((c) => c.id)).toEqual([c1.id]);
    expect((await bob.client.myChallenges({ direction: 'out' })).challenges).toEqual([]);
    expect((await alice.client.myChallenges({ direction: 'out', status: 'open' })).challenges.map((c) => c.id)).toEqual([c1.id]);

    const declined = await bob.client.declineChallenge(c1.id, 'variant');
    expect(declined).toMatchObject({ id: c1.id, status: 'declined', declineReason: 'variant' });
    const plain = await alice.client.createChallenge({ to: bob.handle });
    expect(await bob.client.declineChallenge(plain.id)).toMatchObject({ status: 'declined', declineReason: 'generic' });

    const c2 = await alice.client.createChallenge({ to: bob.handle });
    expect(await alice.client.cancelChallenge(c2.id)).toMatchObject({ id: c2.id, status: 'canceled' });
    const late = await bob.client.acceptChallenge(c2.id, { deck: { starter: STARTERS[1] } }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(EvonsProblem);
    expect(late).toMatchObject({ status: 409, code: 'challenge-closed', conflict: true });
    await expect(bob.client.cancelChallenge(c2.id)).rejects.toMatchObject({
      code: expect.stringMatching(/^(not-your-challenge|challenge-closed)$/),
    });

    const c3 = await alice.client.createChallenge({ to: bob.handle, seat: 'p2', deck: { starter: STARTERS[0] } });
    const accepted = await bob.client.acceptChallenge(c3.id, { deck: { starter: STARTERS[1] } });
    expect(accepted.challenge).toMatchObject({ id: c3.id, status: 'accepted', matchId: accepted.match.id });
    expect(accepted.match).toMatchObject({ seat: 'p1', status: 'active' });
    expect(bob.client.tokenFor(accepted.match.id)).toBe(accepted.match.token);
    expect(bob.client.seatIn(accepted.match.id)).toBe('p1');
    // Alice plays her seat with her player token alone.
    expect((await alice.client.getMatch(accepted.match.id)).seat).toBe('p2');

    await expect(bob.client.getChallenge('ch_missing')).rejects.toMatchObject({ status: 404, code: 'challenge-not-found' });
    await expect(new EvonsClient({ baseUrl: s.baseUrl }).createChallenge({ to: bob.handle })).rejects.toMatchObject({
      status: 401,
      code: 'missing-token',
    });
  });

  it('rematch: offer, decline; offer, accept (the new match, seats swapped), the offerer claims its seat once', async () => {
    const alice = await player(s.baseUrl, 'alice');
    const bob = await player(s.baseUrl, 'bob');
    const start = async () => {
      const c = await alice.client.createChallenge({ to: bob.handle, seat: 'p1', deck: { starter: STARTERS[0] } });
      const { match } = await bob.client.acceptChallenge(c.id, { deck: { starter: STARTERS[1] } });
      await bob.client.resign(match.id);
      return match.id;
    };

    const first = await start();
    await expect(alice.client.offerRematch('no-such-match')).rejects.toMatchObject({ status: 404 });
    expect((await alice.client.offerRematch(first)).rematch).toMatchObject({ offeredBy: 'p1', status: 'offered', matchId: null });
    expect((await bob.client.declineRematch(first)).rematch).toMatchObject({ status: 'declined' });
    await expect(bob.client.acceptRematch(first)).rejects.toMatchObject({ status: 409, code: 'rematch-unavailable' });

    const second = await start();
    await alice.client.offerRematch(second);
    const joined = await bob.client.acceptRematch(second);
    expect(joined.seat).toBe('p1'); // bob was p2: seats swapped
    expect(bob.client.tokenFor(joined.id)).toBe(joined.token);
    const mine = await alice.client.claimRematchSeat(second);
    expect(mine).toMatchObject({ id: joined.id, seat: 'p2' });
    expect(alice.client.tokenFor(joined.id)).toBe(mine.token);
    expect((await alice.client.getMatch(joined.id)).seat).toBe('p2');
    await expect(alice.client.claimRematchSeat(second)).rejects.toMatchObject({ status: 409, code: 'rematch-seat-claimed' });
  });

  it('seeks: post (open), listed publicly and as mine, cancelled; two compatible seeks pair into a match', async () => {
    const cy = await player(s.baseUrl, 'cy');
    const di = await player(s.baseUrl, 'di');
    const open = await cy.client.postSeek({ game: 'universus', timeControl: CORRESPONDENCE, deck: { starter: 'scouts' } });
    expect(open).toMatchObject({ status: 'open', handle: cy.handle, game: 'universus', matchId: null });
    expect((await di.client.listSeeks({ game: 'universus' })).seeks.map((x) => x.id)).toContain(open.id);
    expect((await cy.client.mySeeks()).seeks.map((x) => [x.id, x.status])).toEqual([[open.id, 'open']]);
    expect(await cy.client.cancelSeek(open.id)).toMatchObject({ id: open.id, status: 'cancelled' });
    await expect(cy.client.cancelSeek(open.id)).rejects.toMatchObject({ status: 409, code: 'seek-not-open' });
    expect((await di.client.listSeeks({ game: 'universus' })).seeks.map((x) => x.id)).not.toContain(open.id);

    const a = await cy.client.postSeek({ timeControl: CORRESPONDENCE, deck: { starter: STARTERS[0] } });
    const b = await di.client.postSeek({ timeControl: CORRESPONDENCE, deck: { starter: STARTERS[1] } });
    expect(a.status).toBe('open');
    expect(b).toMatchObject({ status: 'paired', matchId: expect.any(String) });
    expect((await cy.client.mySeeks()).seeks.find((x) => x.id === a.id)).toMatchObject({ status: 'paired', matchId: b.matchId });
    await expect(cy.client.postSeek({ timeControl: { kind: 'none' }, deck: { starter: STARTERS[0] } })).rejects.toMatchObject({
      status: 400,
      code: 'seek-needs-correspondence',
    });
  });
});

describe('feed(): the account feed, resumed', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  for (const sse of [false, true]) {
    it(`${sse ? 'SSE' : 'NDJSON'}: snapshot, then every entry once across a cut, resumed from the last id`, async () => {
      const alice = await player(s.baseUrl, 'alice');
      const bob = await player(s.baseUrl, 'bob', { sse });
      const pending = await alice.client.createChallenge({ to: bob.handle });
      const afters: (string | undefined)[] = [];
      const stream = bob.client.feed({ onConnect: (a) => afters.push(a) });
      const it = stream[Symbol.asyncIterator]();
      const got: FeedMessage[] = [];

      await readUntil(it, got, (g) => g.length >= 1);
      const snapshot = got[0]!;
      if (snapshot.type !== 'snapshot') throw new Error(`first message: ${snapshot.type}`);
      expect(snapshot.data.challenges.in.map((c) => c.id)).toEqual([pending.id]);
      expect(snapshot.data.matches).toEqual([]);

      const c = await alice.client.createChallenge({ to: bob.handle, seat: 'p1', deck: { starter: STARTERS[0] } });
      const received = (g: FeedMessage[]) => g.some((m) => m.type === 'challenge-received' && m.data.id === c.id);
      await readUntil(it, got, received);
      const cutAfter = stream.lastId;
      expect(cutAfter).toBe((got.at(-1) as { id: string }).id);

      // The server cuts every connection (the feed's and the idle ones in fetch's pool); once the
      // feed has reconnected, the challenge is accepted and a match starts.
      expect(s.dropConnections()).toBeGreaterThan(0);
      const reading = readUntil(it, got, (g) => has('match-started')(g) && has('challenge-canceled')(g));
      await until(() => afters.length >= 2);
      const { match } = await bob.client.acceptChallenge(c.id, { deck: { starter: STARTERS[1] } });
      await alice.client.cancelChallenge(pending.id);
      await reading;
      expect(stream.connections).toBeGreaterThanOrEqual(2);
      expect(afters[0]).toBeUndefined();
      expect(afters[1]).toBe(cutAfter);
      expect(got.find((m) => m.type === 'match-started')).toMatchObject({
        data: { matchId: match.id, seat: 'p2', opponent: alice.handle },
      });

      await alice.client.resign(match.id);
      await readUntil(it, got, has('match-ended'));
      await it.return?.();

      // Exactly the feed as the server itself replays it after the first entry: nothing lost at the cut, nothing twice.
      const entries = got.filter((m) => m.type !== 'snapshot');
      expect(got.filter((m) => m.type === 'snapshot')).toHaveLength(1);
      expect(new Set(entries.map((m) => m.id)).size).toBe(entries.length);
      const replay: FeedMessage[] = [];
      const again = bob.client.feed({ after: entries[0]!.id })[Symbol.asyncIterator]();
      await readUntil(again, replay, (r) => r.length >= entries.length - 1);
      await again.return?.();
      expect(replay).toEqual(entries.slice(1));
      expect(types(entries)).toEqual(expect.arrayContaining(['challenge-received', 'match-started', 'challenge-canceled', 'match-ended']));
    });
  }

  it('an aborted signal ends the iteration quietly; a refused feed is a typed problem', async () => {
    const eve = await player(s.baseUrl, 'eve');
    const ac = new AbortController();
    const got: FeedMessage[] = [];
    for await (const m of eve.client.feed({ signal: ac.signal })) {
      got.push(m);
      ac.abort();
    }
    expect(types(got)).toEqual(['snapshot']);

    const anon = new EvonsClient({ baseUrl: s.baseUrl });
    await expect(anon.feed()[Symbol.asyncIterator]().next()).rejects.toMatchObject({ status: 401, code: 'missing-token' });
    await expect(eve.client.feed({ after: '1-1' })[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      status: 400,
      code: 'invalid-cursor',
    });
  });

  it('a server shutting down ends each feed with {"end":"shutdown"}: reconnects by default, or ends when asked', async () => {
    const own = await serve();
    try {
      const fay = await player(own.baseUrl, 'fay');
      const stays = fay.client.feed({ onShutdown: 'end' })[Symbol.asyncIterator]();
      const reconnecting = new EvonsClient({ baseUrl: own.baseUrl, playerToken: fay.token, streamReconnects: 1, retry: fast }).feed();
      const again = reconnecting[Symbol.asyncIterator]();
      expect((await stays.next()).value?.type).toBe('snapshot');
      expect((await again.next()).value?.type).toBe('snapshot');
      await own.app.close(); // each open feed ends with {"end":"shutdown"}
      expect((await stays.next()).done).toBe(true);
      // The other one reconnects; nobody answers any more, so it gives up after its one reconnect.
      await expect(again.next()).rejects.toThrow();
      expect(reconnecting.connections).toBe(2);
    } finally {
      await own.close().catch(() => undefined);
    }
  });
});

describe('FeedStream over a scripted transport', () => {
  const entry = (i: number): FeedMessage => ({
    id: `9-${i}`,
    type: 'challenge-expired',
    at: '2026-01-01T00:00:00.000Z',
    data: {} as never,
  });
  const snapshot: FeedMessage = { type: 'snapshot', data: { challenges: { in: [], out: [] }, seeks: [], matches: [] } };

  function scripted(scripts: (FeedItem | 'hang' | 'throw' | { refuse: string })[][]) {
    const opened: FeedOpenRequest[] = [];
    const transport: FeedTransport = {
      async *open(req) {
        opened.push(req);
        for (const step of scripts[opened.length - 1] ?? ['hang' as const]) {
          if (step === 'throw') throw new TypeError('fetch failed');
          if (step === 'hang')
            await new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason), { once: true }));
          else if ('refuse' in step)
            throw new EvonsProblem({ type: `urn:evons:problem:${step.refuse}`, title: step.refuse, status: 429, code: step.refuse });
          else yield step;
        }
      },
    };
    return { transport, opened };
  }
  const client = (transport: FeedTransport, extra: { streamIdleTimeoutMs?: number; streamReconnects?: number } = {}) =>
    new EvonsClient({
      baseUrl: 'http://unused.invalid',
      playerToken: 'evp_x',
      feedTransport: () => transport,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      ...extra,
    });
  const msg = (m: FeedMessage): FeedItem => ({ kind: 'message', message: m });

  it('resumes after silence, a network error, a shutdown, a retryable problem and a busy reconnect; skips repeats', async () => {
    const retryable = {
      type: 'urn:evons:problem:database-unavailable',
      title: 'Database unavailable',
      status: 503,
      code: 'database-unavailable',
    };
    const { transport, opened } = scripted([
      [msg(snapshot), msg(entry(1)), { kind: 'keep-alive' }, msg(entry(2)), 'hang'],
      [msg(entry(2)), msg(entry(3)), 'throw'],
      [msg(entry(4)), { kind: 'end', reason: 'shutdown' }],
      [{ refuse: 'too-many-feeds' }],
      [msg(entry(5)), { kind: 'error', problem: retryable }],
      [
        msg(entry(6)),
        { kind: 'error', problem: { type: 'urn:evons:problem:invalid-token', title: 'Invalid token', status: 401, code: 'invalid-token' } },
      ],
    ]);
    const got: string[] = [];
    const err = await (async () => {
      for await (const m of client(transport, { streamIdleTimeoutMs: 30 }).feed()) got.push(m.type === 'snapshot' ? 'snapshot' : m.id);
    })().catch((e: unknown) => e);
    expect(got).toEqual(['snapshot', '9-1', '9-2', '9-3', '9-4', '9-5', '9-6']);
    expect(opened.map((o) => o.after)).toEqual([undefined, '9-2', '9-3', '9-4', '9-4', '9-5']);
    expect(opened.every((o) => o.token === 'evp_x')).toBe(true);
    // A revoked token is not retried.
    expect(err).toMatchObject({ code: 'invalid-token' });
  });

  it('gives up after the configured reconnects; a first connection refused as busy is not retried', async () => {
    const dead = scripted([['throw'], ['throw'], ['throw']]);
    await expect(client(dead.transport, { streamReconnects: 2 }).feed()[Symbol.asyncIterator]().next()).rejects.toThrow('fetch failed');
    expect(dead.opened).toHaveLength(3);
    const busy = scripted([[{ refuse: 'too-many-feeds' }]]);
    await expect(client(busy.transport).feed()[Symbol.asyncIterator]().next()).rejects.toMatchObject({ code: 'too-many-feeds' });
    expect(busy.opened).toHaveLength(1);
  });
});
