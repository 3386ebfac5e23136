/**
 * Issue 23: the creator of an open seat nobody has joined calls the match off with
 * `{"type":"abort"}` (it was a 409 match-not-started). The match ends in its own record
 * (MatchEnded, source 'match', no winner), a later join is a 409 match-finished, and the
 * database decides races: a cancel is written once, and a cancel racing a join has one outcome.
 */
import { describe, expect, it } from 'vitest';
import { STARTERS, backends, bearer, expectProblem, graphqlRequest, useHarness, useSecondApp } from '../helpers.js';

const OPEN = { handle: 'opener', openSeat: true, decks: { p1: { starter: STARTERS[0] } } };

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`cancelling an open seat [${backend.name}]`, () => {
    const h = useHarness(backend);
    const other = useSecondApp(h);
    const open = async (extra: Record<string, unknown> = {}) => {
      const c = await h.http
        .post('/v1/matches')
        .send({ ...OPEN, ...extra })
        .expect(201);
      return { id: c.body.id as string, token: c.body.tokens.p1 as string };
    };
    const abort = (node: { http: typeof h.http }, id: string, token: string) =>
      node.http
        .post(`/v1/matches/${id}/actions`)
        .set(bearer(token))
        .send({ action: { type: 'abort' } });

    it('the creator aborts a waiting match: finished, aborted by that seat, a MatchEnded of the match, and a later join is a 409 match-finished', async () => {
      const m = await open({ timeControl: { kind: 'correspondence', daysPerMove: 2 } });
      expectProblem(
        await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.token))
          .send({ action: { type: 'pass' } }),
        409,
        'match-not-started',
      );
      const res = await abort(h, m.id, m.token).expect(200);
      expect(res.body.version).toBe(2);
      expect(res.body.events).toEqual([
        {
          seq: 2,
          actingSeat: 'p1',
          source: 'match',
          event: expect.objectContaining({
            type: 'MatchEnded',
            end: expect.objectContaining({ reason: 'aborted', seat: 'p1', winner: null }),
          }),
        },
      ]);
      const view = await h.http.get(`/v1/matches/${m.id}`).expect(200);
      expect(view.body).toMatchObject({
        status: 'finished',
        winner: null,
        outcome: { reason: 'aborted', seat: 'p1', winner: null },
        game: null,
        clock: null,
      });
      expect(view.body.seats.map((s: { joined: boolean }) => s.joined)).toEqual([true, false]);
      const stored = await h.store.getMatch(m.id);
      expect(stored).toMatchObject({ status: 'finished', winner: null, ending: 'aborted', toMove: null, deadline: null });
      expectProblem(await h.http.post(`/v1/matches/${m.id}/join`).send({ deck: { starter: STARTERS[1] } }), 409, 'match-finished');
      expectProblem(await abort(h, m.id, m.token), 409, 'match-finished');
      expect((await h.store.loadEvents(m.id)).map((e) => [e.source, e.type])).toEqual([
        ['match', 'MatchOpened'],
        ['match', 'MatchEnded'],
      ]);
      // Its export says how it ended; nothing was dealt, so there is nothing to replay.
      const file = (await h.http.get(`/v1/matches/${m.id}/export`).set(bearer(m.token)).expect(200)).body;
      expect(file).toMatchObject({ outcome: { winner: null, reason: 'aborted', seat: 'p1' }, decks: null, actions: [] });
      expect(file.finishedAt).not.toBeNull();
    });

    it('only the seat holder may cancel; a spectator or a token of another match is refused and the seat stays open', async () => {
      const m = await open();
      const elsewhere = await open();
      expectProblem(await h.http.post(`/v1/matches/${m.id}/actions`).send({ action: { type: 'abort' } }), 401, 'missing-token');
      const wrong = await abort(h, m.id, elsewhere.token);
      expect([401, 403]).toContain(wrong.status);
      expect((await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.status).toBe('waiting');
    });

    it('over GraphQL too: submitAction with abort ends the waiting match', async () => {
      const m = await open();
      const res = await graphqlRequest(
        h,
        'mutation ($id: ID!) { submitAction(matchId: $id, action: { type: "abort" }) { version match { status outcome { reason seat } } } }',
        { id: m.id },
        m.token,
      ).expect(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.submitAction).toEqual({ version: 2, match: { status: 'finished', outcome: { reason: 'aborted', seat: 'p1' } } });
    });

    it('two cancels at once on two nodes: written once, the other a 409 (match-finished, or version-conflict when both read it waiting)', async () => {
      for (let i = 0; i < 5; i++) {
        const m = await open();
        const answers = await Promise.all([abort(h, m.id, m.token), abort(other, m.id, m.token)]);
        expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
        expect(['match-finished', 'version-conflict']).toContain(answers.find((a) => a.status === 409)!.body.code);
        expect((await h.store.loadEvents(m.id)).filter((e) => e.type === 'MatchEnded')).toHaveLength(1);
      }
    });

    it('a cancel racing a join on two nodes: one outcome, as the database ordered them', async () => {
      for (let i = 0; i < 6; i++) {
        const m = await open();
        const [cancel, join] = await Promise.all([
          abort(h, m.id, m.token),
          other.http.post(`/v1/matches/${m.id}/join`).send({ handle: `joiner${i}`, deck: { starter: STARTERS[1] } }),
        ]);
        const log = await h.store.loadEvents(m.id);
        const ended = log.filter((e) => e.type === 'MatchEnded');
        expect(ended).toHaveLength(cancel.status === 200 ? 1 : 0);
        if (join.status === 200) {
          // The join came first: the deal is stored; an abort after it calls off a match nobody has moved in yet.
          expect(log[1]!.type).not.toBe('MatchEnded');
          if (cancel.status === 200) expect(log.at(-1)!.type).toBe('MatchEnded');
        } else {
          // The cancel came first: nothing was dealt and the joiner is told the match is over.
          expectProblem(join, 409, 'match-finished');
          expect(cancel.status).toBe(200);
          expect(log.map((e) => e.type)).toEqual(['MatchOpened', 'MatchEnded']);
        }
      }
    });
  });
}
