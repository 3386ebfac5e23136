/**
 * Copy-on-write between states (src/core/copy-on-write.ts): a UniVersus state shares its card
 * lists and pool / stage entries with the states made from it, so no later move may change a
 * state already handed out. Rules exercised: whole random games (U-TURN-1 onwards).
 */
import { describe, expect, it } from 'vitest';
import { expandDeck } from '../../../src/core/ruleset.js';
import { universus, type UniversusState } from '../../../src/games/universus/index.js';

const decks = {
  p1: expandDeck(universus.starterDecks[0]!.cards),
  p2: expandDeck((universus.starterDecks[1] ?? universus.starterDecks[0])!.cards),
};

describe('states handed out never change (copy-on-write)', () => {
  it('every state of a game serialises at the end as it did when apply returned it; catch-up leaves its source alone', () => {
    for (const seed of ['ucow-1', 'ucow-2', 'ucow-3']) {
      const created = universus.create({ config: universus.configSchema.parse({}), decks, seed });
      if (!created.ok) throw new Error(created.errors.join('; '));
      const states: [UniversusState, string][] = [[created.state, JSON.stringify(created.state)]];
      const events = [...created.events];
      const choose = universus.randomPlayer(`${seed}:player`);
      let s = created.state;
      for (let i = 0; i < 3000 && !universus.outcome(s); i++) {
        const d = universus.pending(s)!;
        const r = universus.apply(s, d.seat, choose(s));
        if (!r.ok) throw new Error(r.error.code);
        s = r.state;
        events.push(...r.events);
        states.push([s, JSON.stringify(s)]);
      }
      for (const [state, text] of states) expect(JSON.stringify(state)).toBe(text);
      const caught = universus.evolve(created.state, events.slice(created.events.length));
      expect(JSON.stringify(caught)).toBe(JSON.stringify(s));
      expect(JSON.stringify(created.state)).toBe(states[0]![1]);
      expect(universus.replay(events)).toEqual(s);
    }
  });
});
