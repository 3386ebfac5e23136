/**
 * The account feed (issue 23, item 4), on both databases and two nodes: the snapshot on connect,
 * live entries written by the database for every change (challenge received / accepted /
 * declined / canceled / expired, match started, your turn, match ended, rematch offered, seek
 * paired), each entry valid against its published schema, a resume after Last-Event-ID that
 * sends exactly the missed entries in order, SSE framing, and the limits and errors.
 */
import http from 'node:http';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { FeedEntrySchema, FeedSnapshotSchema } from '../../../src/http/feed-schemas.js';
import type { Client } from 'graphql-ws';
import { gqlWsClient, subscribe } from '../../../bench/lib/graphql-ws.js';
import {
  backends,
  bearer,
  expectProblem,
  type Http,
  nextMove,
  registerPlayer,
  STARTERS,
  useHarness,
  useSecondApp,
  waitFor,
} from '../helpers.js';

interface Msg {
  id?: string;
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads fields of every kind of message
  data: Record<string, any>;
}

/** An open feed: its messages as they arrive (NDJSON lines, or SSE messages parsed back), closed by close(). */
function openFeed(base: string, token: string, opts: { after?: string; lastEventId?: string; sse?: boolean } = {}) {
  const messages: Msg[] = [];
  const sseIds: (string | undefined)[] = [];
  let status = 0;
  let buf = '';
  let req: http.ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    const headers: Record<string, string> = { ...bearer(token) };
    if (opts.sse) headers.accept = 'text/event-stream';
    if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId;
    req = http.get(`${base}/v1/me/events${opts.after ? `?after=${opts.after}` : ''}`, { headers }, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        const sep = opts.sse ? '\n\n' : '\n';
        let i: number;
        while ((i = buf.indexOf(sep)) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + sep.length);
          if (block.trim() === '' || block.startsWith(':')) continue;
          if (!opts.sse) {
            messages.push(JSON.parse(block) as Msg);
            continue;
          }
          const fields = Object.fromEntries(block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
          const m = JSON.parse(fields.data!) as Msg;
          expect(fields.event).toBe(m.type ?? 'end');
          sseIds.push(fields.id);
          messages.push(m);
        }
      });
      resolve();
    });
    req.on('error', reject);
  });
  return {
    messages,
    sseIds,
    opened,
    status: () => status,
    entries: () => messages.filter((m) => m.type !== 'snapshot'),
    types: () => messages.filter((m) => m.type !== 'snapshot').map((m) => m.type),
    close: () => req.destroy(),
  };
}

const CORRESPONDENCE = { kind: 'correspondence', daysPerMove: 3 };

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`account feed [${backend.name}]`, () => {
    const LEASE = 30_000;
    // Keep-alives every hour: a feed's headers must not wait for one (issue 34, item 4).
    const h = useHarness(backend, {
      clock: true,
      challenges: { perHour: 20 },
      feeds: { perPlayer: 3, keepAliveMs: 3_600_000 },
      seeks: { liveLeaseMs: LEASE },
    });
    const other = useSecondApp(h, { challenges: { perHour: 20 }, feeds: { perPlayer: 3 }, seeks: { liveLeaseMs: LEASE } });

    it('tells both players, on two nodes, everything from the challenge to the rematch offer; a resume sends exactly what was missed', async () => {
      const alice = await registerPlayer(h.http, 'alice');
      const bob = await registerPlayer(h.http, 'bob');
      const bobFeed = openFeed(h.baseUrl(), bob.token);
      const aliceFeed = openFeed(other.baseUrl(), alice.token);
      await Promise.all([bobFeed.opened, aliceFeed.opened]);
      await waitFor(() => bobFeed.messages.length === 1 && aliceFeed.messages.length === 1, 'the snapshots');
      expect(FeedSnapshotSchema.parse(bobFeed.messages[0])).toEqual({
        type: 'snapshot',
        data: { challenges: { in: [], out: [] }, seeks: [], matches: [] },
      });

      // Alice challenges Bob on the second node: Bob's feed on the first hears it.
      const c = (
        await other.http
          .post('/v1/challenges')
          .set(bearer(alice.token))
          .send({ to: bob.handle, seat: 'p1', timeControl: CORRESPONDENCE, deck: { starter: STARTERS[0] } })
          .expect(201)
      ).body;
      await waitFor(() => bobFeed.types().includes('challenge-received'), 'challenge-received');
      const received = bobFeed.entries()[0]!;
      expect(received.data).toEqual(c);

      const acc = (
        await h.http
          .post(`/v1/challenges/${c.id}/accept`)
          .set(bearer(bob.token))
          .send({ deck: { starter: STARTERS[1] } })
          .expect(200)
      ).body;
      const matchId = acc.match.id as string;
      await waitFor(() => aliceFeed.types().includes('match-started') && bobFeed.types().includes('match-started'), 'the start');
      const started = aliceFeed.entries()[1]!;
      expect(started.data).toMatchObject({ matchId, seat: 'p1', opponent: bob.handle, status: 'active' });
      // The seat to move hears that it is its turn, the other does not.
      const tokens = { p1: alice.token, p2: bob.token };
      const feeds = { p1: aliceFeed, p2: bobFeed };
      const first = started.data.toMove as 'p1' | 'p2';
      const second = first === 'p1' ? 'p2' : 'p1';
      await waitFor(() => feeds[first].types().includes('your-turn'), 'your-turn');
      expect(aliceFeed.types().slice(0, 2)).toEqual(['challenge-accepted', 'match-started']);
      expect(bobFeed.types().slice(0, 2)).toEqual(['challenge-received', 'match-started']);
      expect(feeds[second].types()).not.toContain('your-turn');

      // Decisions until the turn passes: then the other seat hears it.
      while (!feeds[second].types().includes('your-turn')) {
        const mv = await nextMove(h, matchId, tokens);
        await h.http
          .post(`/v1/matches/${matchId}/actions`)
          .set(bearer(tokens[mv.seat]))
          .set('if-match', `"${mv.version}"`)
          .send({ action: mv.action })
          .expect(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      await h.http
        .post(`/v1/matches/${matchId}/actions`)
        .set(bearer(alice.token))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await waitFor(() => bobFeed.types().includes('match-ended') && aliceFeed.types().includes('match-ended'), 'the end');
      await other.http.post(`/v1/matches/${matchId}/rematch`).set(bearer(alice.token)).send({}).expect(200);
      await waitFor(() => bobFeed.types().includes('rematch-offered'), 'the rematch offer');
      const offer = bobFeed.entries().find((m) => m.type === 'rematch-offered')!;
      expect(offer.data).toMatchObject({ matchId, seat: 'p2', opponent: alice.handle, status: 'finished' });

      // Every entry matches its published schema, and no id repeats.
      for (const f of [bobFeed, aliceFeed]) {
        for (const m of f.entries()) FeedEntrySchema.parse(m);
        const ids = f.entries().map((m) => m.id);
        expect(new Set(ids).size).toBe(ids.length);
      }

      // A resume after the first entry sends the rest, in order, and no snapshot; SSE names events and carries ids.
      const all = bobFeed.entries();
      bobFeed.close();
      const again = openFeed(other.baseUrl(), bob.token, { lastEventId: all[0]!.id!, sse: true });
      await again.opened;
      await waitFor(() => again.messages.length === all.length - 1, 'the missed entries');
      expect(again.messages).toEqual(all.slice(1));
      expect(again.sseIds).toEqual(all.slice(1).map((m) => m.id));
      again.close();
      aliceFeed.close();

      // A fresh connection's snapshot: Bob's finished match is not listed; a new challenge and the rematch's match are.
      const fresh = openFeed(h.baseUrl(), bob.token);
      await fresh.opened;
      await waitFor(() => fresh.messages.length === 1, 'the snapshot');
      expect(fresh.messages[0]!.data.matches).toEqual([]);
      fresh.close();
    });

    it('declines with a reason, cancels, expiries and seek pairings reach the players concerned; the snapshot lists open challenges, seeks and turns', async () => {
      const ann = await registerPlayer(h.http, 'ann');
      const ben = await registerPlayer(h.http, 'ben');
      const annFeed = openFeed(h.baseUrl(), ann.token);
      const benFeed = openFeed(other.baseUrl(), ben.token);
      await Promise.all([annFeed.opened, benFeed.opened]);
      await waitFor(() => annFeed.messages.length === 1 && benFeed.messages.length === 1, 'the snapshots');

      const c1 = (await h.http.post('/v1/challenges').set(bearer(ann.token)).send({ to: ben.handle }).expect(201)).body;
      await other.http.post(`/v1/challenges/${c1.id}/decline`).set(bearer(ben.token)).send({ reason: 'later' }).expect(200);
      const c2 = (await h.http.post('/v1/challenges').set(bearer(ann.token)).send({ to: ben.handle }).expect(201)).body;
      await h.http.post(`/v1/challenges/${c2.id}/cancel`).set(bearer(ann.token)).send({}).expect(200);
      const c3 = (await h.http.post('/v1/challenges').set(bearer(ann.token)).send({ to: ben.handle }).expect(201)).body;
      await waitFor(() => annFeed.types().includes('challenge-declined') && benFeed.types().length === 4, 'the challenge entries').catch(
        (e) => {
          throw new Error(e.message + JSON.stringify([annFeed.types(), benFeed.types()]));
        },
      );
      expect(annFeed.types()).toEqual(['challenge-declined']);
      expect(annFeed.entries()[0]!.data).toMatchObject({ id: c1.id, status: 'declined', declineReason: 'later' });
      expect(benFeed.types()).toEqual(
        ['challenge-received', 'challenge-received', 'challenge-canceled', 'challenge-received'].concat(benFeed.types().slice(4)),
      );

      // The snapshot of a fresh connection lists c3 (open) both ways.
      const snap = openFeed(other.baseUrl(), ann.token);
      await snap.opened;
      await waitFor(() => snap.messages.length === 1, 'the snapshot');
      expect(snap.messages[0]!.data.challenges.out.map((x: { id: string }) => x.id)).toEqual([c3.id]);
      snap.close();

      // The expiry (the clock moves past it; the sweep on any node writes it once) reaches both.
      h.t.now += 8 * 86_400_000;
      await other.http.get('/v1/me/challenges?direction=out').set(bearer(ann.token)).expect(200);
      await waitFor(() => annFeed.types().includes('challenge-expired') && benFeed.types().includes('challenge-expired'), 'the expiry');
      expect(annFeed.types().filter((t) => t === 'challenge-expired')).toHaveLength(1);

      // Two seeks pair: both owners hear seek-paired and match-started.
      await h.http
        .post('/v1/seeks')
        .set(bearer(ann.token))
        .send({ timeControl: CORRESPONDENCE, deck: { starter: STARTERS[0] } })
        .expect(201);
      const paired = (
        await other.http
          .post('/v1/seeks')
          .set(bearer(ben.token))
          .send({ timeControl: CORRESPONDENCE, deck: { starter: STARTERS[1] } })
          .expect(201)
      ).body;
      await waitFor(() => annFeed.types().includes('match-started') && benFeed.types().includes('match-started'), 'the pairing');
      for (const f of [annFeed, benFeed]) {
        const seek = f.entries().find((m) => m.type === 'seek-paired')!;
        expect(seek.data.matchId).toBe(paired.matchId);
        for (const m of f.entries()) FeedEntrySchema.parse(m);
      }
      const toMove = annFeed.entries().find((m) => m.type === 'match-started')!.data.toMove as string;
      const mover = annFeed.entries().find((m) => m.type === 'match-started')!.data.seat === toMove ? annFeed : benFeed;
      expect(mover.types()).toContain('your-turn');

      const snap2 = openFeed(h.baseUrl(), ann.token);
      await snap2.opened;
      await waitFor(() => snap2.messages.length === 1, 'the snapshot');
      const mine = snap2.messages[0]!.data.matches as { matchId: string; yourTurn: boolean; seat: string; toMove: string }[];
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ matchId: paired.matchId, yourTurn: mine[0]!.seat === mine[0]!.toMove });
      FeedSnapshotSchema.parse(snap2.messages[0]);
      snap2.close();
      annFeed.close();
      benFeed.close();
    });

    it('GraphQL myEvents sends the same messages as the REST feed, on another node, and resumes after an id', async () => {
      const dee = await registerPlayer(h.http, 'dee');
      const eve = await registerPlayer(h.http, 'eve');
      const clients: Client[] = [];
      const client = (token: string) => {
        const c = gqlWsClient(other.baseUrl(), token);
        clients.push(c);
        return c;
      };
      try {
        const MY_EVENTS = 'subscription($after: String) { myEvents(after: $after) { id type at data } }';
        const gql = subscribe<{ myEvents: Msg & { at: string | null } }>(client(eve.token), MY_EVENTS);
        const rest = openFeed(h.baseUrl(), eve.token);
        await rest.opened;
        await waitFor(() => gql.results.length === 1 && rest.messages.length === 1, 'the snapshots');
        expect(gql.results[0]!.data!.myEvents).toEqual({ id: null, type: 'snapshot', at: null, data: rest.messages[0]!.data });
        const c1 = (await h.http.post('/v1/challenges').set(bearer(dee.token)).send({ to: eve.handle }).expect(201)).body;
        await h.http.post(`/v1/challenges/${c1.id}/cancel`).set(bearer(dee.token)).send({}).expect(200);
        await waitFor(() => gql.results.length === 3 && rest.entries().length === 2, 'two entries both ways');
        expect(gql.results.slice(1).map((r) => r.data!.myEvents)).toEqual(rest.entries());
        const resumed = subscribe<{ myEvents: Msg }>(client(eve.token), MY_EVENTS, { after: rest.entries()[0]!.id });
        await waitFor(() => resumed.results.length === 1, 'the missed entry');
        expect(resumed.results[0]!.data!.myEvents).toEqual(rest.entries()[1]);
        const bad = subscribe<{ myEvents: Msg }>(client(eve.token), MY_EVENTS, { after: '1-1' });
        await bad.done;
        expect(JSON.stringify(bad.error())).toContain('invalid-cursor');
        for (const after of ['1-9223372036854775808', '99999999999999999999-1']) {
          const huge = subscribe<{ myEvents: Msg }>(client(eve.token), MY_EVENTS, { after });
          await huge.done;
          expect(huge.error()).toMatchObject([{ extensions: { code: 'invalid-cursor' } }]);
        }
        rest.close();
      } finally {
        for (const c of clients) await c.dispose();
      }
    });

    it("a live seek lives while its owner's feed is connected: renewed while it is, expired a lease after it closes, then never paired", async () => {
      const LIVE = { timeControl: { kind: 'live', initialSeconds: 300, incrementSeconds: 2 } };
      const fay = await registerPlayer(h.http, 'fay');
      const gus = await registerPlayer(h.http, 'gus');
      const fayId = (await h.store.players.byHandle(fay.handle))!.id;
      const post = (node: { http: Http }, token: string, deck: string) =>
        node.http
          .post('/v1/seeks')
          .set(bearer(token))
          .send({ ...LIVE, deck: { starter: deck } });
      expectProblem(await post(h, fay.token, STARTERS[0]), 409, 'seek-needs-feed');

      const fayFeed = openFeed(h.baseUrl(), fay.token);
      await fayFeed.opened;
      await waitFor(() => fayFeed.messages.length === 1, 'the snapshot');
      // A feed on another server does not count: the lease is renewed by the server holding the feed.
      expectProblem(await post(other, fay.token, STARTERS[0]), 409, 'seek-needs-feed');
      const s = (await post(h, fay.token, STARTERS[0]).expect(201)).body;
      expect(s).toMatchObject({ status: 'open', expiresAt: new Date(h.t.now + LEASE).toISOString() });
      h.t.now += LEASE - 1_000;
      expect(await h.app.service.feeds.renewLeases()).toBe(1);
      h.t.now += LEASE - 1_000;
      const mine = async () =>
        (await h.http.get('/v1/me/seeks').set(bearer(fay.token)).expect(200)).body.seeks as { id: string; status: string }[];
      expect((await mine())[0]).toMatchObject({ id: s.id, status: 'open' });

      fayFeed.close();
      await waitFor(() => !h.app.service.feeds.connected(fayId), 'the feed closed');
      expect(await h.app.service.feeds.renewLeases()).toBe(0);
      h.t.now += LEASE;
      expect((await mine())[0]).toMatchObject({ id: s.id, status: 'expired' });

      // Gus, connected on the other server, is not paired with Fay's expired seek; Fay comes back and they are.
      const gusFeed = openFeed(other.baseUrl(), gus.token);
      await gusFeed.opened;
      await waitFor(() => gusFeed.messages.length === 1, 'the snapshot');
      expect((await post(other, gus.token, STARTERS[1]).expect(201)).body.status).toBe('open');
      const back = openFeed(h.baseUrl(), fay.token);
      await back.opened;
      await waitFor(() => back.messages.length === 1, 'the snapshot');
      const paired = (await post(h, fay.token, STARTERS[2]).expect(201)).body;
      expect(paired.status).toBe('paired');
      await waitFor(() => back.types().includes('match-started') && gusFeed.types().includes('match-started'), 'the pairing on both feeds');
      expect(back.entries().find((m) => m.type === 'seek-paired')!.data.matchId).toBe(paired.matchId);
      const match = (await h.http.get(`/v1/matches/${paired.matchId}`).expect(200)).body;
      expect(match.timeControl).toMatchObject({ kind: 'live' });
      back.close();
      gusFeed.close();
    });

    it('a fresh connection gets what happened before it in its snapshot, never as entries, even after the node sat idle', async () => {
      const hal = await registerPlayer(h.http, 'hal');
      const ida = await registerPlayer(h.http, 'ida');
      // The node's feed reader has run and gone idle (no one connected).
      const brief = openFeed(h.baseUrl(), hal.token);
      await brief.opened;
      await waitFor(() => brief.messages.length === 1, 'the snapshot');
      brief.close();
      await waitFor(() => h.app.service.feeds.hub.size === 0, 'nobody connected');
      const c = (await h.http.post('/v1/challenges').set(bearer(hal.token)).send({ to: ida.handle }).expect(201)).body;
      const feed = openFeed(h.baseUrl(), ida.token);
      await feed.opened;
      await waitFor(() => feed.messages.length >= 1, 'the snapshot');
      expect(feed.messages[0]!.data.challenges.in.map((x: { id: string }) => x.id)).toEqual([c.id]);
      // The next entry is the cancel: the challenge's receipt was not sent as if it were new.
      await h.http.post(`/v1/challenges/${c.id}/cancel`).set(bearer(hal.token)).send({}).expect(200);
      await waitFor(() => feed.types().includes('challenge-canceled'), 'the cancel');
      expect(feed.types()).toEqual(['challenge-canceled']);
      feed.close();
    });

    it.skipIf(backend.name !== 'postgres')(
      'a fresh connection gets no entry its snapshot already shows, even while a writer elsewhere holds the horizon back',
      async () => {
        const kim = await registerPlayer(h.http, 'kim');
        const lee = await registerPlayer(h.http, 'lee');
        // Another session's write transaction, begun before the challenge and open across the
        // connect: the hub starts below the challenge's entry and delivers it once the writer ends.
        const url = (h.config as { url: string }).url;
        const writer = new pg.Client({ connectionString: url });
        await writer.connect();
        try {
          await writer.query('BEGIN');
          await writer.query('SELECT pg_current_xact_id()');
          const c = (await h.http.post('/v1/challenges').set(bearer(kim.token)).send({ to: lee.handle }).expect(201)).body;
          const feed = openFeed(h.baseUrl(), lee.token);
          await feed.opened;
          await waitFor(() => feed.messages.length >= 1, 'the snapshot');
          expect(feed.messages[0]!.data.challenges.in.map((x: { id: string }) => x.id)).toEqual([c.id]);
          await writer.query('ROLLBACK');
          await h.http.post(`/v1/challenges/${c.id}/cancel`).set(bearer(kim.token)).send({}).expect(200);
          await waitFor(() => feed.types().includes('challenge-canceled'), 'the cancel');
          expect(feed.types()).toEqual(['challenge-canceled']);
          feed.close();
        } finally {
          await writer.end();
        }
      },
    );

    it('a resumed feed with nothing new sends its status and headers at once, not with the first keep-alive', async () => {
      const gus = await registerPlayer(h.http, 'gus');
      const hal = await registerPlayer(h.http, 'hal');
      const first = openFeed(h.baseUrl(), gus.token);
      await first.opened;
      await h.http.post('/v1/challenges').set(bearer(hal.token)).send({ to: gus.handle }).expect(201);
      await waitFor(() => first.entries().length === 1, 'an entry to resume after');
      first.close();
      const last = first.entries()[0]!.id!;
      // Nothing comes after `last` and keep-alives are an hour apart: before the fix the response
      // head waited for the first keep-alive, so these never opened within the test's timeout.
      for (const opts of [{ after: last }, { lastEventId: last, sse: true }]) {
        const resumed = openFeed(h.baseUrl(), gus.token, opts);
        await resumed.opened;
        expect(resumed.status()).toBe(200);
        expect(resumed.messages).toEqual([]);
        resumed.close();
      }
    });

    it('refuses with stable codes: no token, a seat token, an unknown resume id, one feed too many', async () => {
      const cy = await registerPlayer(h.http, 'cy');
      expectProblem(await h.http.get('/v1/me/events'), 401, 'missing-token');
      expectProblem(await h.http.get('/v1/me/events?after=nope').set(bearer(cy.token)), 400, 'validation-failed');
      expectProblem(await h.http.get('/v1/me/events?after=1-1').set(bearer(cy.token)), 400, 'invalid-cursor');
      // Ids past the database's integers (bigint ids, xid8 transaction ids): the same answer, not a 500.
      for (const after of ['1-9223372036854775808', '1-99999999999999999999', '18446744073709551616-1', '99999999999999999999-1']) {
        expectProblem(await h.http.get(`/v1/me/events?after=${after}`).set(bearer(cy.token)), 400, 'invalid-cursor');
        expectProblem(await h.http.get('/v1/me/events').set(bearer(cy.token)).set('last-event-id', after), 400, 'invalid-cursor');
      }
      const feeds = [openFeed(h.baseUrl(), cy.token), openFeed(h.baseUrl(), cy.token), openFeed(h.baseUrl(), cy.token)];
      await Promise.all(feeds.map((f) => f.opened));
      await waitFor(() => feeds.every((f) => f.messages.length === 1), 'three feeds');
      expectProblem(await h.http.get('/v1/me/events').set(bearer(cy.token)), 429, 'too-many-feeds');
      // The cap is per node: the second node has its own.
      const elsewhere = openFeed(other.baseUrl(), cy.token);
      await elsewhere.opened;
      expect(elsewhere.status()).toBe(200);
      feeds[0]!.close();
      await waitFor(() => true, 'tick');
      elsewhere.close();
      for (const f of feeds) f.close();
    });
  });
}
