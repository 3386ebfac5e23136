/**
 * The random player's list-free path (called without `actions`, what bench:engine and bots use)
 * makes exactly the choice it makes from `legalActions`, for every hosted game: same seeds,
 * same games. Also the Evons index decoder behind it (pickLegalAction) against the full list.
 */
import { describe, expect, it } from 'vitest';
import { GAME_IDS, GAMES } from '../../src/games/registry.js';
import { expandDeck, type AnyRuleset, type Seat } from '../../src/core/ruleset.js';
import { pickLegalAction } from '../../src/games/evons/legal.js';
import { legalActions, pendingDecision, type GameState } from '../../src/games/evons/index.js';

function decks(r: AnyRuleset): Record<Seat, string[]> {
  const [a, b] = [r.starterDecks[0], r.starterDecks[1] ?? r.starterDecks[0]];
  return { p1: expandDeck(a!.cards), p2: expandDeck(b!.cards) };
}

describe('random player without an action list', () => {
  for (const id of GAME_IDS) {
    it(`${id}: picks what it picks from legalActions, all game long`, () => {
      const r = GAMES[id] as AnyRuleset;
      for (const seed of ['lf-1', 'lf-2', 'lf-3']) {
        const created = r.create({ config: r.configSchema.parse({}), decks: decks(r), seed });
        if (!created.ok) throw new Error(created.errors.join('; '));
        const listed = r.randomPlayer(`${seed}:player`);
        const listFree = r.randomPlayer(`${seed}:player`);
        let state = created.state;
        for (let i = 0; i < 3000 && !r.outcome(state); i++) {
          const d = r.pending(state)!;
          const a = listed(state, r.legalActions(state, d.seat));
          expect(listFree(state)).toEqual(a);
          const res = r.apply(state, d.seat, a);
          if (!res.ok) throw new Error(res.error.code);
          state = res.state;
        }
        expect(r.outcome(state)).not.toBeNull();
      }
    });
  }

  it('evons: pickLegalAction(k) is legalActions()[k] for every k', () => {
    const r = GAMES.evons as AnyRuleset;
    const created = r.create({ config: r.configSchema.parse({}), decks: decks(r), seed: 'lf-index' });
    if (!created.ok) throw new Error(created.errors.join('; '));
    let state = created.state as GameState;
    const choose = r.randomPlayer('lf-index:player');
    let checked = 0;
    while (!state.result) {
      const d = pendingDecision(state)!;
      const all = legalActions(state, d.seat);
      for (let k = 0; k < all.length; k++) {
        expect(pickLegalAction(state, d, (n) => (expect(n).toBe(all.length), k))).toEqual(all[k]);
        checked++;
      }
      const res = r.apply(state, d.seat, choose(state, all));
      if (!res.ok) throw new Error(res.error.code);
      state = res.state as GameState;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
