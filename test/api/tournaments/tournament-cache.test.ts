/**
 * Each node caches a tournament's view, standings and rendered page by the tournament's version
 * (src/service/tournaments/tournaments.ts, src/http/tournament-page/cache.ts). Two apps on one database: one
 * reads (its caches warm), the other writes (a join, a withdrawal, the start, a result, the next
 * round); every read on the first after each write shows the change.
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, registerPlayer, useHarness, useSecondApp } from '../helpers.js';

const CORR = { kind: 'correspondence', daysPerMove: 3 };

interface View {
  status: string;
  round: number;
  players: { handle: string; withdrawn: boolean }[];
  pairings: { round: number; boards: { p1: string; p2: string | null; matchId: string | null; result: string | null }[] }[];
}
interface Standings {
  round: number;
  standings: { handle: string; points: number; withdrawn: boolean }[];
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(
    `tournament reads cached per node stay true after a write on another [${backend.name}]`,
    () => {
      const h = useHarness(backend, { clock: true });
      const reader = useSecondApp(h);

      const read = async (id: string) => {
        const view = (await reader.http.get(`/v1/tournaments/${id}`).expect(200)).body as View;
        const standings = (await reader.http.get(`/v1/tournaments/${id}/standings`).expect(200)).body as Standings;
        const page = await reader.http.get(`/tournament/${id}`).expect(200);
        return { view, standings, html: page.text, etag: page.headers.etag as string };
      };

      it('a join, a withdrawal, the start, a result and the next round on one node: the other node shows each at once', async () => {
        const org = await registerPlayer(h.http, 'corg');
        const t = (
          await h.http
            .post('/v1/tournaments')
            .set(bearer(org.token))
            .send({ name: 'Cache Cup', format: 'swiss', rounds: 2, timeControl: CORR })
            .expect(201)
        ).body as { id: string };
        const ps = await Promise.all(Array.from({ length: 5 }, () => registerPlayer(h.http, 'cp')));
        const token = new Map(ps.map((p) => [p.handle, p.token]));
        for (const p of ps.slice(0, 4)) await h.http.post(`/v1/tournaments/${t.id}/join`).set(bearer(p.token)).send({}).expect(200);

        const first = await read(t.id);
        expect(first.view.players).toHaveLength(4);
        // Read again, unchanged: the same answers (the page's tag too).
        const again = await read(t.id);
        expect(again.view).toEqual(first.view);
        expect(again.etag).toBe(first.etag);

        // A join on the writer.
        await h.http.post(`/v1/tournaments/${t.id}/join`).set(bearer(ps[4]!.token)).send({}).expect(200);
        const joined = await read(t.id);
        expect(joined.view.players.map((p) => p.handle)).toContain(ps[4]!.handle);
        expect(joined.standings.standings).toHaveLength(5);
        expect(joined.html).toContain(ps[4]!.handle);
        expect(joined.etag).not.toBe(first.etag);

        // A withdrawal before the start: the player leaves the field.
        await h.http.post(`/v1/tournaments/${t.id}/withdraw`).set(bearer(ps[0]!.token)).send({}).expect(200);
        const left = await read(t.id);
        expect(left.view.players.map((p) => p.handle)).not.toContain(ps[0]!.handle);
        expect(left.standings.standings.map((r) => r.handle)).not.toContain(ps[0]!.handle);

        // The start: round 1 is paired.
        await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
        const started = await read(t.id);
        expect(started.view.status).toBe('running');
        expect(started.view.round).toBe(1);
        const boards = started.view.pairings[0]!.boards.filter((b) => b.matchId !== null);
        expect(boards).toHaveLength(2);
        expect(started.html).toContain('Round 1');

        // A result on the writer (its sweep scores it): the reader's standings count it.
        const b = boards[0]!;
        await h.http
          .post(`/v1/matches/${b.matchId}/actions`)
          .set(bearer(token.get(b.p2!)!))
          .send({ action: { type: 'resign' } })
          .expect(200);
        await h.app.service.tournaments.sweep();
        const scored = await read(t.id);
        expect(scored.view.pairings[0]!.boards.find((x) => x.matchId === b.matchId)!.result).toBe('p1');
        expect(scored.standings.standings.find((r) => r.handle === b.p1)!.points).toBe(1);
        expect(scored.etag).not.toBe(started.etag);

        // The round's last result: the writer starts round 2, and the reader shows it.
        const last = boards[1]!;
        await h.http
          .post(`/v1/matches/${last.matchId}/actions`)
          .set(bearer(token.get(last.p1)!))
          .send({ action: { type: 'resign' } })
          .expect(200);
        await h.app.service.tournaments.sweep();
        const next = await read(t.id);
        expect(next.view.round).toBe(2);
        expect(next.view.pairings.map((r) => r.round)).toEqual([1, 2]);
        expect(next.standings.standings.find((r) => r.handle === last.p2)!.points).toBeGreaterThanOrEqual(1);
        expect(next.html).toContain('Round 2');
      });
    },
  );
}
