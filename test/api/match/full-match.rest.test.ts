/**
 * A whole match through REST: two seats (one joins an open seat) choose random legal actions
 * until the game ends, and every response and every event any party receives is checked for
 * leaks (other hand, deck cards, covered identities, seed).
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, prng, STARTERS, useHarness } from '../helpers.js';
import { assertNoLeak, secretsFor } from '../secrecy/secrecy.js';
import type { GameState, Seat, Viewer } from '../../../src/games/evons/index.js';

const MAX_ACTIONS = 600;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`REST full random match [${backend.name}]`, () => {
    const h = useHarness(backend);

    it('plays a match to the end with random legal actions and never leaks a secret', async () => {
      const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);
      const rand = prng(seed);
      const label = `seed ${seed}`;

      // p1 creates with an open seat; p2 joins with an explicit 60-card list.
      const decks = (await h.http.get('/v1/decks').expect(200)).body.decks as { id: string; cards: { card: string; count: number }[] }[];
      const created = await h.http
        .post('/v1/matches')
        .send({ handle: 'ann', openSeat: true, decks: { p1: { starter: STARTERS[1] } } })
        .expect(201);
      expect(created.body.status).toBe('waiting');
      expect(created.body.tokens.p2).toBeUndefined();
      const id: string = created.body.id;
      const joined = await h.http
        .post(`/v1/matches/${id}/join`)
        .send({ handle: 'ben', deck: { cards: decks.find((d) => d.id === STARTERS[0])!.cards } })
        .expect(200);
      expect(joined.body.seat).toBe('p2');
      expect(joined.body.status).toBe('active');
      const tokens: Record<Seat, string> = { p1: created.body.token, p2: joined.body.token };
      await h.http
        .post(`/v1/matches/${id}/join`)
        .send({ handle: 'eve', deck: { starter: STARTERS[2] } })
        .expect(409);

      const truth = async () => (await h.app.service.load(id, undefined)).state as GameState;
      const get = (path: string, viewer: Viewer) => {
        const r = h.http.get(path);
        return viewer === 'spectator' ? r : r.set(bearer(tokens[viewer]));
      };

      let version: number = joined.body.version;
      let actions = 0;
      let status = 'active';
      while (status === 'active' && actions < MAX_ACTIONS) {
        const spectator = await get(`/v1/matches/${id}`, 'spectator').expect(200);
        expect(spectator.headers.etag).toBe(`"${version}.spectator"`);
        const seat = spectator.body.game.pending.seat as Seat;
        const other: Seat = seat === 'p1' ? 'p2' : 'p1';
        const legal = await get(`/v1/matches/${id}/legal-actions?text=true`, seat).expect(200);
        const none = await get(`/v1/matches/${id}/legal-actions`, other).expect(200);
        expect(none.body.actions).toEqual([]);
        const options = legal.body.actions as { action: unknown; text: string }[];
        expect(options.length, `${label}: the deciding seat has no legal action`).toBeGreaterThan(0);
        for (const o of options) expect(o.text.length).toBeGreaterThan(0);
        const choice = options[Math.floor(rand() * options.length)]!;

        const res = await h.http
          .post(`/v1/matches/${id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(tokens[seat]))
          .set('if-match', `"${version}"`)
          .set('idempotency-key', `a-${actions}`)
          .send({ action: choice.action });
        expect(res.status, `${label}: ${choice.text} → ${JSON.stringify(res.body)}`).toBe(200);
        const before = version;
        version = res.body.version;
        expect(version).toBeGreaterThan(before);
        expect(res.headers.etag).toBe(`"${version}.${seat}"`);
        status = res.body.match.status;
        actions++;

        const state = await truth();
        assertNoLeak(res.text, secretsFor(state, seat), `${label} action ${actions} response`);
        for (const viewer of [other, 'spectator'] as const) {
          const s = secretsFor(state, viewer);
          const v = await get(`/v1/matches/${id}`, viewer).expect(200);
          expect(v.body.version).toBe(version);
          if (viewer !== 'spectator') expect(v.body.game.seats[seat].hand).toBeNull();
          expect(v.body.game.seats[seat].hand ?? null).toBeNull();
          assertNoLeak(v.text, s, `${label} action ${actions} view for ${viewer}`);
          const ev = await get(`/v1/matches/${id}/events?after=${before}&limit=500`, viewer).expect(200);
          assertNoLeak(ev.text, s, `${label} action ${actions} events for ${viewer}`);
        }
        const actorView = await get(`/v1/matches/${id}`, seat).expect(200);
        expect(actorView.body.game.seats[other].hand).toBeNull();
        assertNoLeak(actorView.text, secretsFor(state, seat), `${label} action ${actions} view for ${seat}`);
      }

      if (status === 'active') {
        // Safety net for a pathological random game: end it by resignation (an action like any other).
        const r = await h.http
          .post(`/v1/matches/${id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(tokens.p1))
          .send({ action: { type: 'resign' } })
          .expect(200);
        status = r.body.match.status;
        version = r.body.version;
      }
      expect(status).toBe('finished');
      const final = await h.http.get(`/v1/matches/${id}`).expect(200);
      expect(final.body.status).toBe('finished');
      expect(final.body.game.result).not.toBeNull();
      expect(final.body.winner).toBe(final.body.game.result.winner);
      console.info(`[${backend.name}] ${label}: ${actions} actions, ${version} events, ended by ${final.body.game.result.reason}`);

      // After the end: the seed is published and the history lists the match as finished.
      const state = await truth();
      expect(final.body.game.seed).toBe(state.seed);
      const hist = await h.http.get('/v1/matches?handle=ben&status=finished').expect(200);
      expect(hist.body.matches.map((m: { id: string }) => m.id)).toContain(id);

      // The whole log, paginated, for every party: still no deck cards or other hand.
      for (const viewer of ['p1', 'p2', 'spectator'] as const) {
        let after = 0;
        let seen = 0;
        for (;;) {
          const page = await get(`/v1/matches/${id}/events?after=${after}&limit=37`, viewer).expect(200);
          assertNoLeak(page.text, secretsFor(state, viewer), `${label} log for ${viewer}`);
          seen += page.body.events.length;
          for (const e of page.body.events) {
            if (e.event.type === 'MatchCreated') {
              expect(e.event.decks).toBeUndefined();
              expect(e.event.seed).toBeUndefined();
            }
          }
          after = page.body.next;
          if (!page.body.hasMore) break;
        }
        expect(seen).toBeGreaterThan(0);
        expect(after).toBe(version);
      }
      // Playing on after the end is refused.
      const late = await h.http
        .post(`/v1/matches/${id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(tokens.p2))
        .send({ action: { type: 'pass' } });
      expect(late.status).toBe(409);
      expect(late.body.code).toBe('match-finished');
    });
  });
}
