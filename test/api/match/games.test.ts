/** The games catalogue (/v1/games …), read from the registry: both games, their cards and decks. */
import { describe, expect, it } from 'vitest';
import { GAMES } from '../../../src/games/registry.js';
import { expectProblem, useHarness, pglite } from '../helpers.js';

describe('games catalogue', () => {
  const h = useHarness(pglite);

  it('lists every registered game', async () => {
    const res = await h.http.get('/v1/games').expect(200);
    expect(res.headers['cache-control']).toMatch(/public/);
    const byId = Object.fromEntries((res.body.games as { id: string; cardSet: unknown }[]).map((g) => [g.id, g]));
    expect(Object.keys(byId).sort()).toEqual(Object.keys(GAMES).sort());
    expect(byId.evons).toMatchObject({ positionFormat: 'evons-position/1', rulesVersion: GAMES.evons.rulesVersion });
    expect(byId.universus).toMatchObject({ positionFormat: 'universus-position/1', name: GAMES.universus.name });
    expect(byId.universus?.cardSet).toMatchObject({ placeholder: true, hash: GAMES.universus.cardSet.hash });
  });

  it("serves each game's cards and starter decks; Evons's are those of /v1/cards and /v1/decks", async () => {
    for (const id of Object.keys(GAMES)) {
      const cards = await h.http.get(`/v1/games/${id}/cards`).expect(200);
      expect(cards.body.cards.length).toBe(GAMES[id as keyof typeof GAMES].cardSet.cards.length);
      const decks = await h.http.get(`/v1/games/${id}/decks`).expect(200);
      expect(decks.body.decks.length).toBeGreaterThan(0);
    }
    const legacyCards = await h.http.get('/v1/cards').expect(200);
    const evonsCards = await h.http.get('/v1/games/evons/cards').expect(200);
    expect(evonsCards.body.hash).toBe(legacyCards.body.hash);
    expect(evonsCards.body.cards.map((c: { id: string }) => c.id).sort()).toEqual(
      legacyCards.body.cards.map((c: { id: string }) => c.id).sort(),
    );
    const legacyDecks = await h.http.get('/v1/decks').expect(200);
    const evonsDecks = await h.http.get('/v1/games/evons/decks').expect(200);
    expect(evonsDecks.body.decks).toEqual(legacyDecks.body.decks);
  });

  it('an unknown game is a 404 game-not-found; a malformed id a 400', async () => {
    expectProblem(await h.http.get('/v1/games/chess/cards'), 404, 'game-not-found');
    expectProblem(await h.http.get('/v1/games/toString/decks'), 400, 'validation-failed');
    expectProblem(await h.http.get('/v1/games/constructor/decks'), 404, 'game-not-found');
  });
});
