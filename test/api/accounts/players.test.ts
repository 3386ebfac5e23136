/**
 * Players and credentials (issue 10): registered handles (reserved case-insensitively), personal
 * API tokens with scopes (401 / 403 with stable codes), seats bound to players (verified handles,
 * bot accounts) in every view and history entry, on both databases.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RESERVED_HANDLES } from '../../../src/service/accounts/reserved-handles.js';
import { backends, bearer, expectProblem, nextMove, STARTERS, useHarness } from '../helpers.js';

const DECKS = { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } };

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`players and tokens [${backend.name}]`, () => {
    const h = useHarness(backend);
    const tag = Math.random().toString(36).slice(2, 7);
    const register = async (handle: string, bot = false) => {
      const r = await h.http.post('/v1/players').send({ handle, bot }).expect(201);
      return r.body as { player: { handle: string; bot: boolean }; token: string; tokenInfo: { id: string; scopes: string[] } };
    };

    it('registers a handle once, case-insensitively, with a token of every scope shown once', async () => {
      const ann = await register(`Ann-${tag}`);
      expect(ann.token).toMatch(/^evp_[A-Za-z0-9_-]{43}$/);
      expect(ann.tokenInfo.scopes.sort()).toEqual(['match:create', 'match:play', 'match:read', 'token:write', 'webhook:write']);
      expectProblem(await h.http.post('/v1/players').send({ handle: `ann-${tag}` }), 409, 'handle-taken');
      expect((await h.http.get(`/v1/players/ANN-${tag}`).expect(200)).body).toMatchObject({ handle: `Ann-${tag}`, bot: false });
      expectProblem(await h.http.get(`/v1/players/nobody-${tag}`), 404, 'player-not-found');
      expect((await h.http.get('/v1/me').set(bearer(ann.token)).expect(200)).body.handle).toBe(`Ann-${tag}`);
      const listed = await h.http.get('/v1/me/tokens').set(bearer(ann.token)).expect(200);
      expect(JSON.stringify(listed.body)).not.toContain(ann.token);
    });

    it('reserved handles (p1, p2, spectator, admin, ai-…, …) cannot be registered, in any case; lookalikes can', async () => {
      const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
      for (const word of RESERVED_HANDLES) {
        expect(doc, `docs/api.md lists the reserved handle ${word}`).toContain(`\`${word}\``);
        const upper = word.toUpperCase();
        for (const handle of [word, upper]) {
          const r = await h.http.post('/v1/players').send({ handle });
          expectProblem(r, 409, 'handle-not-allowed');
          expect(r.body.detail).toContain(handle);
        }
      }
      for (const handle of ['ai-bot', 'AI_Deep', 'Ai.9'])
        expectProblem(await h.http.post('/v1/players').send({ handle }), 409, 'handle-not-allowed');
      // Only the words themselves and the ai- family: names that merely contain them are free.
      for (const handle of [`admin-${tag}`, `p1${tag}`, `aidan${tag}`, `spectators${tag}`]) await register(handle);
      // Nothing was stored for a refused handle.
      expectProblem(await h.http.get('/v1/players/admin'), 404, 'player-not-found');
    });

    it('a registered handle is reserved: anonymous create, opponent and join under it are refused', async () => {
      await register(`res-${tag}`);
      expectProblem(await h.http.post('/v1/matches').send({ handle: `RES-${tag}`, decks: DECKS }), 409, 'handle-reserved');
      expectProblem(
        await h.http.post('/v1/matches').send({ handle: 'someone', opponentHandle: `res-${tag}`, decks: DECKS }),
        409,
        'handle-reserved',
      );
      const open = await h.http
        .post('/v1/matches')
        .send({ openSeat: true, decks: { p1: DECKS.p1 } })
        .expect(201);
      expectProblem(
        await h.http.post(`/v1/matches/${open.body.id}/join`).send({ handle: `res-${tag}`, deck: DECKS.p2 }),
        409,
        'handle-reserved',
      );
      // Nothing was taken by the refused join.
      expect((await h.http.get(`/v1/matches/${open.body.id}`).expect(200)).body.status).toBe('waiting');
    });

    it('a player creates and plays without seat tokens; its seat is verified everywhere', async () => {
      const bo = await register(`bo-${tag}`);
      const c = await h.http
        .post('/v1/matches')
        .set(bearer(bo.token))
        .send({ opponentHandle: `anon-${tag}`, decks: DECKS })
        .expect(201);
      const view = await h.http.get(`/v1/matches/${c.body.id}`).set(bearer(bo.token)).expect(200);
      expect(view.body.seat).toBe('p1');
      expect(view.body.seats).toEqual([
        { seat: 'p1', handle: `bo-${tag}`, joined: true, verified: true, bot: false },
        { seat: 'p2', handle: `anon-${tag}`, joined: true, verified: false, bot: false },
      ]);
      expect(view.body.game.seats.p1.hand.length).toBeGreaterThan(0);
      // Act on p1 with the player token, on p2 with its seat token.
      for (let i = 0; i < 6; i++) {
        const mv = await nextMove(h, c.body.id, c.body.tokens);
        const token = mv.seat === 'p1' ? bo.token : c.body.tokens.p2;
        await h.http.post(`/v1/matches/${c.body.id}/actions`).set(bearer(token)).send({ action: mv.action }).expect(200);
      }
      const history = await h.http.get(`/v1/matches?handle=bo-${tag}`).expect(200);
      expect(history.body.matches[0].seats[0]).toMatchObject({ verified: true, handle: `bo-${tag}` });
      const mine = await h.http.get('/v1/me/matches').set(bearer(bo.token)).expect(200);
      expect(mine.body.matches.map((m: { id: string }) => m.id)).toContain(c.body.id);
      expectProblem(
        await h.http.post('/v1/matches').set(bearer(bo.token)).send({ handle: 'other', decks: DECKS }),
        400,
        'validation-failed',
      );
    });

    it('a bot joins as itself (verified, bot), and may not take both seats', async () => {
      const cy = await register(`cy-${tag}`);
      const bot = await register(`bot-${tag}`, true);
      const open = await h.http
        .post('/v1/matches')
        .set(bearer(cy.token))
        .send({ openSeat: true, decks: { p1: DECKS.p1 } })
        .expect(201);
      expectProblem(
        await h.http.post(`/v1/matches/${open.body.id}/join`).set(bearer(cy.token)).send({ deck: DECKS.p2 }),
        400,
        'validation-failed',
      );
      await h.http.post(`/v1/matches/${open.body.id}/join`).set(bearer(bot.token)).send({ deck: DECKS.p2 }).expect(200);
      const v = await h.http.get(`/v1/matches/${open.body.id}`).expect(200);
      expect(v.body.seats[1]).toEqual({ seat: 'p2', handle: `bot-${tag}`, joined: true, verified: true, bot: true });
      const gql = await h.http
        .post('/graphql')
        .send({ query: `{ match(id: "${open.body.id}") { seats { handle verified bot } } }` })
        .expect(200);
      expect(gql.body.data.match.seats[1]).toEqual({ handle: `bot-${tag}`, verified: true, bot: true });
    });

    it('scopes: 403 insufficient-scope; a player without a seat is a spectator and cannot act (403 no-seat)', async () => {
      const di = await register(`di-${tag}`);
      const ro = await h.http
        .post('/v1/me/tokens')
        .set(bearer(di.token))
        .send({ label: 'read only', scopes: ['match:read'] })
        .expect(201);
      expect(ro.body.tokenInfo.scopes).toEqual(['match:read']);
      const c = await h.http
        .post('/v1/matches')
        .set(bearer(di.token))
        .send({ decks: DECKS, opponentHandle: `x-${tag}` })
        .expect(201);
      const mv = await nextMove(h, c.body.id, { p1: di.token, p2: c.body.tokens.p2 });
      const actor = mv.seat === 'p1' ? ro.body.token : null;
      if (actor)
        expectProblem(
          await h.http.post(`/v1/matches/${c.body.id}/actions`).set(bearer(actor)).send({ action: mv.action }),
          403,
          'insufficient-scope',
        );
      expectProblem(await h.http.post('/v1/matches').set(bearer(ro.body.token)).send({ decks: DECKS }), 403, 'insufficient-scope');
      expectProblem(
        await h.http
          .post('/v1/me/tokens')
          .set(bearer(ro.body.token))
          .send({ scopes: ['match:play'] }),
        403,
        'insufficient-scope',
      );
      expectProblem(
        await h.http
          .post(`/v1/matches/${c.body.id}/webhooks`)
          .set(bearer(ro.body.token))
          .send({ url: 'https://example.com/h', events: ['your-turn'] }),
        403,
        'insufficient-scope',
      );
      // The read-only token still sees its own seat.
      expect((await h.http.get(`/v1/matches/${c.body.id}`).set(bearer(ro.body.token)).expect(200)).body.seat).toBe('p1');
      // Another player: a spectator here, and no seat to act on.
      const ed = await register(`ed-${tag}`);
      const seen = await h.http.get(`/v1/matches/${c.body.id}`).set(bearer(ed.token)).expect(200);
      expect(seen.body.seat).toBeNull();
      expect(seen.body.game.seats.p1.hand).toBeNull();
      expectProblem(
        await h.http
          .post(`/v1/matches/${c.body.id}/actions`)
          .set(bearer(ed.token))
          .send({ action: { type: 'resign' } }),
        403,
        'no-seat',
      );
    });

    it('a revoked token stops at once (401 invalid-token); unknown tokens and seat tokens on /v1/me are refused', async () => {
      const fa = await register(`fa-${tag}`);
      const extra = await h.http
        .post('/v1/me/tokens')
        .set(bearer(fa.token))
        .send({ scopes: ['match:read'] })
        .expect(201);
      await h.http.get('/v1/me').set(bearer(extra.body.token)).expect(200);
      await h.http.delete(`/v1/me/tokens/${extra.body.tokenInfo.id}`).set(bearer(fa.token)).expect(204);
      expectProblem(await h.http.get('/v1/me').set(bearer(extra.body.token)), 401, 'invalid-token');
      expectProblem(await h.http.delete(`/v1/me/tokens/${extra.body.tokenInfo.id}`).set(bearer(fa.token)), 404, 'token-not-found');
      expectProblem(await h.http.get('/v1/me').set(bearer('evp_' + 'A'.repeat(43))), 401, 'invalid-token');
      expectProblem(await h.http.get('/v1/me'), 401, 'missing-token');
      const c = await h.http.post('/v1/matches').send({ decks: DECKS }).expect(201);
      expectProblem(await h.http.get('/v1/me').set(bearer(c.body.tokens.p1)), 401, 'invalid-token');
      const tokens = await h.http.get('/v1/me/tokens').set(bearer(fa.token)).expect(200);
      expect(tokens.body.tokens.find((t: { id: string }) => t.id === extra.body.tokenInfo.id).revokedAt).not.toBeNull();
    });
  });
}
