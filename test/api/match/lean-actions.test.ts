/**
 * The lean action answer (issue 13; the default since issue 26): an action is answered with the
 * version, the caller's events, the status and the next decision instead of the whole match
 * view, which `Prefer: return=representation` (RFC 7240) asks for; `Prefer: return=minimal` asks
 * for the default. `?include=legal` adds the caller's legal actions for that decision, so a bot
 * plays with one request per move. Redaction and idempotent replays are the same in both forms.
 * Both databases.
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, createHotSeat, expectProblem, useHarness } from '../helpers.js';

type Seat = 'p1' | 'p2';
const MINIMAL = { prefer: 'return=minimal' };
const FULL = { prefer: 'return=representation' };

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`lean action answers [${backend.name}]`, () => {
    const h = useHarness(backend);

    it("one request per move: each answer carries the next decision and, when it is the caller's, exactly its legal actions", async () => {
      const c = await createHotSeat(h.http);
      const first = await h.http.get(`/v1/matches/${c.id}`).expect(200);
      let seat = first.body.game.pending.seat as Seat;
      let legal = (await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200)).body.actions as {
        action: unknown;
      }[];
      let sameSeatAnswers = 0;
      for (let i = 0; i < 25; i++) {
        const r = await h.http
          .post(`/v1/matches/${c.id}/actions?include=legal`)
          .set({ ...bearer(c.tokens[seat]), ...MINIMAL })
          .send({ action: legal[0]!.action })
          .expect(200);
        expect(r.headers['preference-applied']).toBe('return=minimal');
        expect(Object.keys(r.body).sort()).toEqual(['events', 'legalActions', 'outcome', 'pending', 'status', 'version', 'winner']);
        expect(r.body.match).toBeUndefined();
        if (r.body.status === 'finished') break;
        const next = r.body.pending.seat as Seat;
        // What the caller was told is what the legal-actions route says, for the caller.
        const mine = await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200);
        expect(r.body.legalActions).toEqual(mine.body.actions);
        if (next === seat) {
          sameSeatAnswers++;
          expect(r.body.legalActions.length).toBeGreaterThan(0);
          legal = r.body.legalActions;
        } else {
          expect(r.body.legalActions).toEqual([]);
          seat = next;
          legal = (await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200)).body.actions;
        }
      }
      // Evons seats make several decisions in a row: most moves needed no second request.
      expect(sameSeatAnswers).toBeGreaterThan(0);
    });

    it('the default answer is the lean one, with the same redacted events as the full one Prefer: return=representation asks for', async () => {
      const a = await createHotSeat(h.http);
      const b = await createHotSeat(h.http);
      const c = await createHotSeat(h.http);
      const seatOf = async (id: string) => (await h.http.get(`/v1/matches/${id}`).expect(200)).body.game.pending.seat as Seat;
      const sa = await seatOf(a.id);
      const sb = await seatOf(b.id);
      const sc = await seatOf(c.id);
      const full = await h.http
        .post(`/v1/matches/${a.id}/actions`)
        .set({ ...bearer(a.tokens[sa]), ...FULL })
        .send({ action: { type: 'resign' } })
        .expect(200);
      const lean = await h.http
        .post(`/v1/matches/${b.id}/actions`)
        .set(bearer(b.tokens[sb]))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const asked = await h.http
        .post(`/v1/matches/${c.id}/actions`)
        .set({ ...bearer(c.tokens[sc]), ...MINIMAL })
        .send({ action: { type: 'resign' } })
        .expect(200);
      expect(full.headers['preference-applied']).toBe('return=representation');
      expect(Object.keys(full.body).sort()).toEqual(['events', 'match', 'version']);
      // No preference sent, none applied: the default is the lean answer.
      expect(lean.headers['preference-applied']).toBeUndefined();
      expect(Object.keys(lean.body).sort()).toEqual(['events', 'outcome', 'pending', 'status', 'version', 'winner']);
      expect(lean.body).toMatchObject({ status: 'finished', pending: null, outcome: { reason: full.body.match.outcome.reason } });
      expect(lean.body.events.map((e: { event: { type: string } }) => e.event.type)).toEqual(
        full.body.events.map((e: { event: { type: string } }) => e.event.type),
      );
      expect(lean.body.version).toBe(full.body.version);
      expect(lean.body.legalActions).toBeUndefined();
      expect(asked.headers['preference-applied']).toBe('return=minimal');
      expect(Object.keys(asked.body).sort()).toEqual(Object.keys(lean.body).sort());
    });

    it('an idempotent retry gets the same lean answer; the hidden hand stays hidden; bad include is a 400', async () => {
      const c = await createHotSeat(h.http);
      const seat = (await h.http.get(`/v1/matches/${c.id}`).expect(200)).body.game.pending.seat as Seat;
      const legal = (await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200)).body.actions;
      const send = () =>
        h.http
          .post(`/v1/matches/${c.id}/actions?include=legal`)
          .set({ ...bearer(c.tokens[seat]), ...MINIMAL, 'idempotency-key': 'lean-1' })
          .send({ action: legal[0].action });
      const first = await send().expect(200);
      const again = await send().expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      // The opponent's hand appears nowhere in the lean answer.
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const theirs = (await h.http.get(`/v1/matches/${c.id}`).set(bearer(c.tokens[other])).expect(200)).body.game.seats[other].hand as {
        id: string;
      }[];
      const text = JSON.stringify(first.body);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.every((card) => typeof card.id === 'string' && card.id.length > 0)).toBe(true);
      for (const card of theirs) expect(text).not.toContain(card.id);
      expectProblem(
        await h.http.post(`/v1/matches/${c.id}/actions?include=view`).set(bearer(c.tokens[seat])).send({ action: legal[0].action }),
        400,
        'validation-failed',
      );
    });

    it("GraphQL: submitAction builds the match only when the query selects it, directly or through a fragment; its events are the log's either way", async () => {
      const a = await createHotSeat(h.http);
      const b = await createHotSeat(h.http);
      const seatOf = async (id: string) => (await h.http.get(`/v1/matches/${id}`).expect(200)).body.game.pending.seat as Seat;
      const mutate = async (c: typeof a, query: string) => {
        const seat = await seatOf(c.id);
        const legal = (await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200)).body.actions;
        const res = await h.http
          .post('/graphql')
          .set(bearer(c.tokens[seat]))
          .send({ query, variables: { id: c.id, action: legal[0].action } })
          .expect(200);
        expect(res.body.errors).toBeUndefined();
        const out = res.body.data.submitAction;
        // The events are the action's, as the caller reads them from the log.
        const log = (await h.http.get(`/v1/matches/${c.id}/events?after=${c.version}`).set(bearer(c.tokens[seat])).expect(200)).body.events;
        expect(out.events).toEqual(log.map((e: { seq: number; event: { type: string } }) => ({ seq: e.seq, type: e.event.type })));
        return out;
      };
      const lean = await mutate(
        a,
        'mutation ($id: ID!, $action: JSON) { submitAction(matchId: $id, action: $action) { version events { seq type } } }',
      );
      const viaFragment = await mutate(
        b,
        'mutation ($id: ID!, $action: JSON) { submitAction(matchId: $id, action: $action) { ...R } } fragment R on ActionResult { version events { seq type } ... on ActionResult { match { version status } } }',
      );
      expect(lean.match).toBeUndefined();
      expect(viaFragment.match).toEqual({ version: viaFragment.version, status: 'active' });
      expect(lean.events.length).toBeGreaterThan(0);
    });
  });
}
