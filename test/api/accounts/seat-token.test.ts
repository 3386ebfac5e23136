/**
 * A seat token can be replaced (issue 21, item 8): POST /v1/matches/{id}/seat-token with the seat
 * token returns a new one for the same seat, and the old one stops working at once on every node:
 * for reads and moves on a node that had the match cached (the seat epoch it checks with the
 * version), and for a stream it holds on another node (the revocation signal). The new token
 * plays on. A player token is refused (its tokens are revoked under /v1/me/tokens).
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, createHotSeat, expectProblem, nextMove, openStream, useHarness, useSecondApp } from '../helpers.js';
import { waitFor } from '../../../bench/lib/graphql-ws.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`replacing a seat token [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });
    /** Node B: a second app on the same database. */
    const b = useSecondApp(h);

    it('the old token stops working on the other node at once (reads, moves, its stream); the new one plays', async () => {
      const m = await createHotSeat(h.http);
      // Node B has the match cached, read with p1's old token; a stream with it is open on B.
      await b.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).expect(200);
      const s = openStream(b.baseUrl(), `/v1/matches/${m.id}/stream`, m.tokens.p1);
      await waitFor(() => s.lines.length > 0, 'the stored events');

      const r = await h.http.post(`/v1/matches/${m.id}/seat-token`).set(bearer(m.tokens.p1)).expect(200);
      expect(r.body.seat).toBe('p1');
      expect(r.body.token).not.toBe(m.tokens.p1);
      expect(r.headers['cache-control']).toBe('no-store');
      const fresh = r.body.token as string;

      await s.ended;
      expect(s.lines.at(-1)).toMatchObject({ error: { code: 'invalid-token', status: 401 } });
      for (const node of [h.http, b.http]) {
        expectProblem(await node.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)), 401, 'invalid-token');
        expectProblem(await node.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens.p1)), 401, 'invalid-token');
        expectProblem(await node.post(`/v1/matches/${m.id}/seat-token`).set(bearer(m.tokens.p1)), 401, 'invalid-token');
        const mine = await node.get(`/v1/matches/${m.id}`).set(bearer(fresh)).expect(200);
        expect(mine.body.game.viewer).toBe('p1');
      }
      const tokens = { p1: fresh, p2: m.tokens.p2 };
      // Moves: p1's old token is refused even for its own decision; the new one plays.
      let next = await nextMove(h, m.id, tokens);
      while (next.seat !== 'p1') {
        await b.http.post(`/v1/matches/${m.id}/actions`).set(bearer(tokens[next.seat])).send({ action: next.action }).expect(200);
        next = await nextMove(h, m.id, tokens);
      }
      expectProblem(
        await b.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens.p1)).send({ action: next.action }),
        401,
        'invalid-token',
      );
      await b.http.post(`/v1/matches/${m.id}/actions`).set(bearer(fresh)).send({ action: next.action }).expect(200);
    });

    it('refuses a player token, no token, and a seat token of another match', async () => {
      const m = await createHotSeat(h.http);
      const other = await createHotSeat(h.http);
      const reg = await h.http
        .post('/v1/players')
        .send({ handle: `rotator-${backend.name}` })
        .expect(201);
      expectProblem(await h.http.post(`/v1/matches/${m.id}/seat-token`).set(bearer(reg.body.token)), 403, 'seat-token-required');
      expectProblem(await h.http.post(`/v1/matches/${m.id}/seat-token`), 401, 'missing-token');
      expectProblem(await h.http.post(`/v1/matches/${m.id}/seat-token`).set(bearer(other.tokens.p1)), 401, 'invalid-token');
      // Nothing changed: both of the match's tokens still work.
      for (const t of [m.tokens.p1, m.tokens.p2]) await h.http.get(`/v1/matches/${m.id}`).set(bearer(t)).expect(200);
    });
  });
}
