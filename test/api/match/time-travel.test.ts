/**
 * Time travel (issue 10): GET /v1/matches/{id}?at=SEQ and GraphQL match(id, at:) show the match as
 * it was right after event SEQ, redacted for the caller exactly as the live view was then: a seat
 * never learns more by looking back than it knew at the time (its own hand then, never the other
 * seat's; no seed before the end). Evons and UniVersus, on both databases.
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, createHotSeat, expectProblem, graphqlRequest, nextMove, useHarness } from '../helpers.js';

type Viewer = 'p1' | 'p2' | 'spectator';
const VIEWERS: Viewer[] = ['p1', 'p2', 'spectator'];

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`time travel [${backend.name}]`, () => {
    const h = useHarness(backend);

    const view = (id: string, tokens: Record<'p1' | 'p2', string>, viewer: Viewer, at?: number) => {
      const req = h.http.get(`/v1/matches/${id}${at === undefined ? '' : `?at=${at}`}`);
      return viewer === 'spectator' ? req : req.set(bearer(tokens[viewer]));
    };

    it('every past version shows each viewer exactly the view it had then (Evons, R-HAND hidden hands)', async () => {
      const m = await createHotSeat(h.http);
      const seen = new Map<number, Record<Viewer, unknown>>();
      for (let i = 0; i < 12; i++) {
        const live = {} as Record<Viewer, unknown>;
        let version = 0;
        for (const v of VIEWERS) {
          const r = await view(m.id, m.tokens, v).expect(200);
          live[v] = r.body;
          version = r.body.version;
        }
        seen.set(version, live);
        const mv = await nextMove(h, m.id, m.tokens);
        await h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[mv.seat])).send({ action: mv.action }).expect(200);
      }
      for (const [version, live] of seen) {
        for (const v of VIEWERS) {
          const past = await view(m.id, m.tokens, v, version).expect(200);
          expect(past.body, `at=${version} as ${v}`).toEqual(live[v]);
          expect(past.headers['cache-control']).toBe('private, max-age=31536000, immutable');
          expect(past.headers.etag).toBe(`"${version}.${v}"`);
        }
      }
      // The other seat's hand is never in a past view either.
      const first = [...seen.keys()][0]!;
      const p1Past = await view(m.id, m.tokens, 'p1', first).expect(200);
      expect(p1Past.body.game.seats.p2.hand).toBeNull();
      expect(p1Past.body.game.seats.p1.hand.length).toBeGreaterThan(0);
    });

    it('a finished match looked at before its end shows no seed and no outcome', async () => {
      const m = await createHotSeat(h.http);
      const before = (await view(m.id, m.tokens, 'spectator').expect(200)).body.version as number;
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const end = (await view(m.id, m.tokens, 'spectator').expect(200)).body;
      expect(end.status).toBe('finished');
      expect(end.seed).toMatch(/^[0-9a-f]{64}$/);
      const past = (await view(m.id, m.tokens, 'spectator', before).expect(200)).body;
      expect(past.status).toBe('active');
      expect(past.outcome).toBeNull();
      expect(past.seed).toBeNull();
      expect(past.game.seed).toBeNull();
      expect(JSON.stringify(past)).not.toContain(end.seed);
    });

    it('an open seat before the join: no game, only the creator seated', async () => {
      const c = await h.http
        .post('/v1/matches')
        .send({ handle: 'ann', openSeat: true, decks: { p1: { starter: 'starter-verdant-quake' } } })
        .expect(201);
      await h.http
        .post(`/v1/matches/${c.body.id}/join`)
        .send({ handle: 'ben', deck: { starter: 'starter-ember-tide' } })
        .expect(200);
      const past = await h.http.get(`/v1/matches/${c.body.id}?at=1`).set(bearer(c.body.token)).expect(200);
      expect(past.body.status).toBe('waiting');
      expect(past.body.game).toBeNull();
      expect(past.body.seats).toEqual([
        { seat: 'p1', handle: 'ann', joined: true, verified: false, bot: false },
        { seat: 'p2', handle: null, joined: false, verified: false, bot: false },
      ]);
    });

    it("UniVersus: a past view is that viewer's view then (U-CHECK-1 reveals stay as they were)", async () => {
      const c = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } })
        .expect(201);
      const tokens = c.body.tokens as Record<'p1' | 'p2', string>;
      const snapshots: { version: number; body: Record<Viewer, unknown> }[] = [];
      for (let i = 0; i < 8; i++) {
        const body = {} as Record<Viewer, unknown>;
        let version = 0;
        for (const v of VIEWERS) {
          const r = await view(c.body.id, tokens, v).expect(200);
          body[v] = r.body;
          version = r.body.version;
        }
        snapshots.push({ version, body });
        const pending = (body.spectator as { game: { pending: { seat: 'p1' | 'p2' } | null }; status: string }).game.pending;
        if (!pending) break;
        const legal = await h.http.get(`/v1/matches/${c.body.id}/legal-actions`).set(bearer(tokens[pending.seat])).expect(200);
        await h.http
          .post(`/v1/matches/${c.body.id}/actions`)
          .set(bearer(tokens[pending.seat]))
          .send({ action: legal.body.actions[0].action })
          .expect(200);
      }
      for (const s of snapshots)
        for (const v of VIEWERS) expect((await view(c.body.id, tokens, v, s.version).expect(200)).body).toEqual(s.body[v]);
    });

    it('GraphQL match(id, at:) is the same past view', async () => {
      const m = await createHotSeat(h.http);
      const live = (await view(m.id, m.tokens, 'p1').expect(200)).body;
      const mv = await nextMove(h, m.id, m.tokens);
      await h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[mv.seat])).send({ action: mv.action }).expect(200);
      const q = 'query ($id: ID!, $at: Int) { match(id: $id, at: $at) { version status pending ... on EvonsMatch { hand { id } turn } } }';
      const r = await graphqlRequest(h, q, { id: m.id, at: live.version }, m.tokens.p1).expect(200);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.match.version).toBe(live.version);
      expect(r.body.data.match.pending).toEqual(live.game.pending);
      expect(r.body.data.match.hand.map((c: { id: string }) => c.id)).toEqual(live.game.seats.p1.hand.map((c: { id: string }) => c.id));
    });

    it('GraphQL match(id, at: N) lists the events up to N only, as the view at N has version N', async () => {
      const m = await createHotSeat(h.http);
      for (let i = 0; i < 4; i++) {
        const mv = await nextMove(h, m.id, m.tokens);
        await h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[mv.seat])).send({ action: mv.action }).expect(200);
      }
      const now = (await view(m.id, m.tokens, 'spectator').expect(200)).body.version as number;
      expect(now).toBeGreaterThan(4);
      const q =
        'query ($id: ID!, $at: Int, $after: Int) { match(id: $id, at: $at) { version events(after: $after, limit: 500) { events { seq } next hasMore } } }';
      const r = await graphqlRequest(h, q, { id: m.id, at: 3 }, m.tokens.p1).expect(200);
      expect(r.body.errors).toBeUndefined();
      const page = r.body.data.match.events;
      expect(r.body.data.match.version).toBe(3);
      expect(page.events.map((e: { seq: number }) => e.seq).every((seq: number) => seq <= 3)).toBe(true);
      expect(page.next).toBe(3);
      expect(page.hasMore).toBe(false);
      const beyond = await graphqlRequest(h, q, { id: m.id, at: 3, after: 3 }, m.tokens.p1).expect(200);
      expect(beyond.body.data.match.events).toEqual({ events: [], next: 3, hasMore: false });
    });

    it('refuses a version the match does not have (400), and at=0 or not a number (400)', async () => {
      const m = await createHotSeat(h.http);
      const version = (await view(m.id, m.tokens, 'spectator').expect(200)).body.version as number;
      expectProblem(await h.http.get(`/v1/matches/${m.id}?at=${version + 1}`), 400, 'validation-failed');
      expectProblem(await h.http.get(`/v1/matches/${m.id}?at=0`), 400, 'validation-failed');
      expectProblem(await h.http.get(`/v1/matches/${m.id}?at=abc`), 400, 'validation-failed');
      expectProblem(await h.http.get(`/v1/matches/nope-${m.id}?at=1`), 404, 'match-not-found');
      const gql = await graphqlRequest(h, 'query ($id: ID!) { match(id: $id, at: 0) { version } }', { id: m.id });
      expect(gql.body.errors[0].extensions.code).toBe('validation-failed');
    });
  });
}
