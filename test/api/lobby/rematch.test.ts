/**
 * Issue 23, rematch: either seat of a finished match offers one, the other accepts (a new match,
 * seats swapped, same game, decks, settings, time control and rated flag) or declines; an offer
 * expires. Links both ways in the views; the database decides races (two accepts on two nodes:
 * one match; an accept and a decline: one outcome).
 */
import { describe, expect, it } from 'vitest';
import { verifyReplay } from '../../../src/replay/verify.js';
import { STARTERS, backends, bearer, expectProblem, graphqlRequest, useHarness, useSecondApp } from '../helpers.js';

const TTL_S = 600;
const CORRESPONDENCE = { kind: 'correspondence', daysPerMove: 3 } as const;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`rematch [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true, rematchOfferTtlSeconds: TTL_S });
    const other = useSecondApp(h);
    let n = 0;

    /** A hot-seat match between two fresh handles, ended by p1's resignation. */
    const finished = async (extra: Record<string, unknown> = {}) => {
      n++;
      const handles = { p1: `ann${n}`, p2: `bob${n}` };
      const c = await h.http
        .post('/v1/matches')
        .send({
          handle: handles.p1,
          opponentHandle: handles.p2,
          timeControl: CORRESPONDENCE,
          settings: { firstPlayer: 'p2' },
          decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } },
          ...extra,
        })
        .expect(201);
      const tokens = c.body.tokens as { p1: string; p2: string };
      await h.http
        .post(`/v1/matches/${c.body.id}/actions`)
        .set(bearer(tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      return { id: c.body.id as string, tokens, handles };
    };
    const post = (node: { http: typeof h.http }, id: string, what: '' | '/accept' | '/decline' | '/seat', token?: string) => {
      const req = node.http.post(`/v1/matches/${id}/rematch${what}`);
      return token ? req.set(bearer(token)) : req;
    };

    it('offer, accept: a new match with the seats swapped and everything else the same, linked both ways; each seat gets its new token once', async () => {
      const m = await finished();
      const before = (await h.http.get(`/v1/matches/${m.id}`).expect(200)).body;
      expect(before.rematch).toBeNull();
      expect(before.rematchOf).toBeNull();
      const offered = await post(h, m.id, '', m.tokens.p1).expect(200);
      expect(offered.body.rematch).toEqual({
        offeredBy: 'p1',
        status: 'offered',
        expiresAt: new Date(h.t.now + TTL_S * 1000).toISOString(),
        matchId: null,
      });
      const seen = await h.http.get(`/v1/matches/${m.id}`).expect(200);
      expect(seen.body.version).toBe(before.version + 1);
      expect(seen.body.rematch.status).toBe('offered');
      // Only the other seat answers; a spectator cannot.
      expectProblem(await post(h, m.id, '/accept', m.tokens.p1), 409, 'rematch-unavailable');
      expectProblem(await post(h, m.id, '/decline', m.tokens.p1), 409, 'rematch-unavailable');
      expectProblem(await post(h, m.id, '/accept'), 401, 'missing-token');
      expectProblem(await post(h, m.id, '', m.tokens.p2), 409, 'rematch-unavailable');

      const accepted = await post(h, m.id, '/accept', m.tokens.p2).expect(201);
      expect(accepted.body).toMatchObject({ seat: 'p1', status: 'active' });
      const newId = accepted.body.id as string;
      const old = (await h.http.get(`/v1/matches/${m.id}`).expect(200)).body;
      expect(old.rematch).toMatchObject({ offeredBy: 'p1', status: 'accepted', matchId: newId });
      const mine = (await h.http.get(`/v1/matches/${newId}`).set(bearer(accepted.body.token)).expect(200)).body;
      expect(mine).toMatchObject({
        seat: 'p1',
        rematchOf: m.id,
        rematch: null,
        timeControl: CORRESPONDENCE,
        rated: false,
        status: 'active',
      });
      expect(mine.seats.map((s: { handle: string }) => s.handle)).toEqual([m.handles.p2, m.handles.p1]);
      const [a, b] = [await h.store.getMatch(m.id), await h.store.getMatch(newId)];
      expect(b!.decks).toEqual({ p1: a!.decks!.p2, p2: a!.decks!.p1 });
      expect(b!.config).toEqual(a!.config);
      expect(b!.seed).not.toBe(a!.seed);
      expect(b!.seats.map((s) => s.deck)).toEqual([a!.seats[1]!.deck, a!.seats[0]!.deck]);

      // The offerer takes its seat once, with its old token; the accepter's came with the accept.
      expectProblem(await post(h, m.id, '/seat', m.tokens.p2), 409, 'rematch-seat-claimed');
      const claimed = await post(h, m.id, '/seat', m.tokens.p1).expect(200);
      expect(claimed.body).toMatchObject({ id: newId, seat: 'p2' });
      expectProblem(await post(h, m.id, '/seat', m.tokens.p1), 409, 'rematch-seat-claimed');
      expect((await h.http.get(`/v1/matches/${newId}`).set(bearer(claimed.body.token)).expect(200)).body.seat).toBe('p2');
      // The old tokens are of the old match only.
      expectProblem(await h.http.get(`/v1/matches/${newId}`).set(bearer(m.tokens.p1)), 401, 'invalid-token');
      // Nothing hidden in the spectator's view: no seed until the end, no deck lists.
      const spectator = (await h.http.get(`/v1/matches/${newId}`).expect(200)).body;
      expect(spectator.seed).toBeNull();
      expect(JSON.stringify(spectator)).not.toContain(b!.seed);
      // The rematch is played like any match.
      await h.http
        .post(`/v1/matches/${newId}/actions`)
        .set(bearer(claimed.body.token))
        .send({ action: { type: 'resign' } })
        .expect(200);
      expectProblem(await post(h, m.id, '', m.tokens.p1), 409, 'rematch-unavailable');
      // Both replay files carry the rematch records and still verify.
      for (const id of [m.id, newId]) {
        const file = (await h.http.get(`/v1/matches/${id}/export`).expect(200)).body;
        expect(
          file.events.some((e: { source: string; event: { type: string } }) => e.source === 'match' && e.event.type.startsWith('Rematch')),
        ).toBe(true);
        const report = verifyReplay(file);
        expect(report.ok, JSON.stringify(report.checks.filter((c) => !c.ok))).toBe(true);
      }
    });

    it('decline shows as declined, and either seat may offer again; an unanswered offer expires', async () => {
      const m = await finished();
      expectProblem(await post(h, m.id, '/decline', m.tokens.p1), 409, 'rematch-unavailable');
      await post(h, m.id, '', m.tokens.p2).expect(200);
      expect((await post(h, m.id, '/decline', m.tokens.p1).expect(200)).body.rematch).toMatchObject({
        offeredBy: 'p2',
        status: 'declined',
        matchId: null,
      });
      expect((await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.rematch.status).toBe('declined');
      expectProblem(await post(h, m.id, '/accept', m.tokens.p1), 409, 'rematch-unavailable');

      await post(h, m.id, '', m.tokens.p1).expect(200);
      h.t.now += TTL_S * 1000;
      expect((await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.rematch).toMatchObject({ offeredBy: 'p1', status: 'expired' });
      expectProblem(await post(h, m.id, '/accept', m.tokens.p2), 409, 'rematch-unavailable');
      expect((await post(h, m.id, '', m.tokens.p2).expect(200)).body.rematch.status).toBe('offered');
    });

    it('over GraphQL: offerRematch, acceptRematch, claimRematchSeat, and the rematch and rematchOf fields', async () => {
      const m = await finished();
      const gql = async (query: string, token?: string) => {
        const res = await graphqlRequest(h, query, {}, token).expect(200);
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers' shapes are the schema's
        return res.body as { data: Record<string, any> | null; errors?: { extensions: { code: string } }[] };
      };
      expect(
        (await gql(`mutation { offerRematch(matchId: "${m.id}") { offeredBy status matchId } }`, m.tokens.p2)).data!.offerRematch,
      ).toEqual({ offeredBy: 'p2', status: 'offered', matchId: null });
      const refused = await gql(`mutation { acceptRematch(matchId: "${m.id}") { id } }`, m.tokens.p2);
      expect(refused.errors?.[0]?.extensions.code).toBe('rematch-unavailable');
      const accepted = (
        await gql(
          `mutation { acceptRematch(matchId: "${m.id}") { id seat token match { seat rematchOf rematch { status } } } }`,
          m.tokens.p1,
        )
      ).data!.acceptRematch;
      expect(accepted).toMatchObject({ seat: 'p2', match: { seat: 'p2', rematchOf: m.id, rematch: null } });
      expect((await gql(`{ match(id: "${m.id}") { rematch { offeredBy status matchId } rematchOf } }`)).data!.match).toEqual({
        rematch: { offeredBy: 'p2', status: 'accepted', matchId: accepted.id },
        rematchOf: null,
      });
      const claimed = (await gql(`mutation { claimRematchSeat(matchId: "${m.id}") { id seat token } }`, m.tokens.p2)).data!
        .claimRematchSeat;
      expect(claimed).toMatchObject({ id: accepted.id, seat: 'p1' });
      expect((await gql(`mutation { claimRematchSeat(matchId: "${m.id}") { token } }`, m.tokens.p2)).errors?.[0]?.extensions.code).toBe(
        'rematch-seat-claimed',
      );
    });

    it('no rematch of a match that runs, or before it is dealt', async () => {
      const c = await h.http
        .post('/v1/matches')
        .send({ handle: 'runner', opponentHandle: 'walker', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } } })
        .expect(201);
      expectProblem(await post(h, c.body.id, '', c.body.tokens.p1), 409, 'rematch-unavailable');
      const open = await h.http
        .post('/v1/matches')
        .send({ openSeat: true, decks: { p1: { starter: STARTERS[0] } } })
        .expect(201);
      await h.http
        .post(`/v1/matches/${open.body.id}/actions`)
        .set(bearer(open.body.tokens.p1))
        .send({ action: { type: 'abort' } })
        .expect(200);
      expectProblem(await post(h, open.body.id, '', open.body.tokens.p1), 409, 'rematch-unavailable');
    });

    it('a rated match between players gives a rated rematch their player tokens play', async () => {
      const ann = await h.http
        .post('/v1/players')
        .send({ handle: `rated-ann-${backend.name}` })
        .expect(201);
      const bob = await h.http
        .post('/v1/players')
        .send({ handle: `rated-bob-${backend.name}` })
        .expect(201);
      const c = await h.http
        .post('/v1/matches')
        .set(bearer(ann.body.token))
        .send({ rated: true, openSeat: true, timeControl: CORRESPONDENCE, decks: { p1: { starter: STARTERS[0] } } })
        .expect(201);
      await h.http
        .post(`/v1/matches/${c.body.id}/join`)
        .set(bearer(bob.body.token))
        .send({ deck: { starter: STARTERS[1] } })
        .expect(200);
      await h.http
        .post(`/v1/matches/${c.body.id}/actions`)
        .set(bearer(bob.body.token))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await post(h, c.body.id, '', bob.body.token).expect(200);
      const accepted = await post(h, c.body.id, '/accept', ann.body.token).expect(201);
      const view = (await h.http.get(`/v1/matches/${accepted.body.id}`).set(bearer(bob.body.token)).expect(200)).body;
      expect(view).toMatchObject({ rated: true, seat: 'p1', rematchOf: c.body.id });
      expect(view.seats.map((s: { verified: boolean }) => s.verified)).toEqual([true, true]);
    });

    it('two accepts at once on two nodes start one match; an accept racing a decline has one outcome', async () => {
      for (let i = 0; i < 4; i++) {
        const m = await finished();
        await post(h, m.id, '', m.tokens.p1).expect(200);
        const answers = await Promise.all([post(h, m.id, '/accept', m.tokens.p2), post(other, m.id, '/accept', m.tokens.p2)]);
        expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
        const log = await h.store.loadEvents(m.id);
        expect(log.filter((e) => e.type === 'RematchAccepted')).toHaveLength(1);
        const list = await h.store.listMatches({ handle: m.handles.p1 }, { cursor: null, limit: 10 });
        expect(list.matches).toHaveLength(2);
      }
      for (let i = 0; i < 4; i++) {
        const m = await finished();
        await post(h, m.id, '', m.tokens.p1).expect(200);
        const [acc, dec] = await Promise.all([post(h, m.id, '/accept', m.tokens.p2), post(other, m.id, '/decline', m.tokens.p2)]);
        expect([acc.status, dec.status].sort()).toEqual(acc.status === 201 ? [201, 409] : [200, 409]);
        const view = (await h.http.get(`/v1/matches/${m.id}`).expect(200)).body;
        expect(view.rematch.status).toBe(acc.status === 201 ? 'accepted' : 'declined');
        const list = await h.store.listMatches({ handle: m.handles.p1 }, { cursor: null, limit: 10 });
        expect(list.matches).toHaveLength(acc.status === 201 ? 2 : 1);
      }
    });
  });
}
