/**
 * Issue 34, item 2: a Swiss asked for more rounds than its field can play without a repeat
 * (3–5 players, rounds: 30) says how many it will play: from the start, `rounds` is at most n − 1
 * for an even field and n for an odd one (every pair met, one bye each), in REST, GraphQL, the
 * public page and the round-started feed entries; at the finish `rounds` is the rounds played.
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, graphqlRequest, openStream, registerPlayer, useHarness, waitFor } from '../helpers.js';
import { TournamentSchema } from '../../../src/http/routes/tournaments.js';

const CORR = { kind: 'correspondence', daysPerMove: 3 };

interface Board {
  p1: string;
  p2: string | null;
  matchId: string | null;
  result: string | null;
}
interface View {
  status: string;
  round: number;
  rounds: number | null;
  pairings: { round: number; boards: Board[] }[];
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`a Swiss capped below its rounds [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });
    const get = async (id: string) => TournamentSchema.parse((await h.http.get(`/v1/tournaments/${id}`).expect(200)).body) as View;
    const gqlRounds = async (id: string) => {
      const res = await graphqlRequest(h, 'query ($id: ID!) { tournament(id: $id) { rounds round status } }', { id });
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      return res.body.data.tournament as { rounds: number; round: number; status: string };
    };

    for (const size of [3, 4, 5]) {
      const cap = size % 2 === 0 ? size - 1 : size;
      it(`${size} players, rounds: 30: ${cap} rounds planned from the start, the rounds played at the finish`, async () => {
        const org = await registerPlayer(h.http, 'corg');
        const ps = await Promise.all(Array.from({ length: size }, () => registerPlayer(h.http, 'cp')));
        const t = (
          await h.http
            .post('/v1/tournaments')
            .set(bearer(org.token))
            .send({ name: 'Long Cup', format: 'swiss', rounds: 30, timeControl: CORR })
            .expect(201)
        ).body as { id: string; rounds: number };
        // Before the start the field is not known: the organizer's number stands.
        expect(t.rounds).toBe(30);
        for (const p of ps) await h.http.post(`/v1/tournaments/${t.id}/join`).set(bearer(p.token)).send({}).expect(200);
        const feed = openStream<{ type: string; data: { tournamentId?: string; rounds?: number } }>(
          h.baseUrl(),
          '/v1/me/events',
          ps[0]!.token,
        );
        await waitFor(() => feed.lines.length >= 1, 'the snapshot');
        await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
        let v = await get(t.id);
        expect(v.rounds).toBe(cap);
        expect((await gqlRounds(t.id)).rounds).toBe(cap);
        const page = await h.http.get(`/tournament/${t.id}`).expect(200);
        expect(page.text).toContain(`Round 1 of ${cap}`);
        expect(page.text).not.toContain('of 30');
        // The round-started entry of the player's feed says the same.
        const started = () => feed.lines.filter((e) => e.type === 'tournament-round-started' && e.data.tournamentId === t.id);
        await waitFor(() => started().length >= 1, 'round 1 on the feed');
        feed.close();
        expect(started().map((e) => e.data.rounds)).toEqual([cap]);
        const token = new Map(ps.map((p) => [p.handle, p.token]));
        for (let guard = 0; guard < 40 && v.status === 'running'; guard++) {
          const round = v.pairings.find((r) => r.round === v.round)!;
          for (const b of round.boards) {
            if (b.matchId === null || b.result !== null) continue;
            await h.http
              .post(`/v1/matches/${b.matchId}/actions`)
              .set(bearer(token.get(b.p2!)!))
              .send({ action: { type: 'resign' } })
              .expect(200);
          }
          await h.app.service.tournaments.sweep();
          v = await get(t.id);
          if (v.status === 'running') expect(v.rounds).toBe(cap);
        }
        expect(v.status).toBe('finished');
        expect(v.pairings.length).toBeLessThanOrEqual(cap);
        expect(v.rounds).toBe(v.pairings.length);
        expect(v.round).toBe(v.pairings.length);
        expect((await gqlRounds(t.id)).rounds).toBe(v.pairings.length);
      });
    }

    it('a Swiss that runs out of pairings early (withdrawals) finishes with rounds = the rounds played', async () => {
      const org = await registerPlayer(h.http, 'corg');
      const ps = await Promise.all(Array.from({ length: 4 }, () => registerPlayer(h.http, 'cw')));
      const t = (
        await h.http
          .post('/v1/tournaments')
          .set(bearer(org.token))
          .send({ name: 'Short Cup', format: 'swiss', rounds: 3, timeControl: CORR })
          .expect(201)
      ).body as { id: string };
      for (const p of ps) await h.http.post(`/v1/tournaments/${t.id}/join`).set(bearer(p.token)).send({}).expect(200);
      await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
      let v = await get(t.id);
      expect(v.rounds).toBe(3);
      // The two players of one board withdraw: the two left have met, so no round 2 can be paired.
      const [gone, stay] = v.pairings[0]!.boards;
      const token = new Map(ps.map((p) => [p.handle, p.token]));
      for (const who of [gone!.p1, gone!.p2!])
        await h.http
          .post(`/v1/tournaments/${t.id}/withdraw`)
          .set(bearer(token.get(who)!))
          .send({})
          .expect(200);
      for (const b of [gone!, stay!])
        await h.http
          .post(`/v1/matches/${b.matchId}/actions`)
          .set(bearer(token.get(b.p2!)!))
          .send({ action: { type: 'resign' } })
          .expect(200);
      await h.app.service.tournaments.sweep();
      v = await get(t.id);
      expect(v.status).toBe('finished');
      expect(v.pairings).toHaveLength(1);
      expect(v.rounds).toBe(1);
      expect((await gqlRounds(t.id)).rounds).toBe(1);
    });
  });
}
