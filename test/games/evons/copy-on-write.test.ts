/**
 * Copy-on-write between states (src/core/copy-on-write.ts): a state shares its board cards and
 * card lists with the states made from it, so no later move, catch-up or in-place evolve may
 * change a state already handed out; evolving one in place (the public evolve) also forgets the
 * decision remembered for it. Rules exercised: a whole random game (R-TURN-1 onwards).
 */
import { describe, expect, it } from 'vitest';
import { expandDeck } from '../../../src/core/ruleset.js';
import {
  cloneState,
  evolve,
  evons,
  pendingDecision,
  randomPlayer,
  type GameEvent,
  type GameState,
} from '../../../src/games/evons/index.js';

const decks = { p1: expandDeck(evons.starterDecks[0]!.cards), p2: expandDeck(evons.starterDecks[1]!.cards) };
const snap = (s: GameState) => JSON.stringify({ ...s, cardSet: undefined });

describe('states handed out never change (copy-on-write)', () => {
  it('every state of a game serialises at the end as it did when apply returned it', () => {
    for (const seed of ['cow-1', 'cow-2']) {
      const created = evons.create({ config: evons.configSchema.parse({}), decks, seed });
      if (!created.ok) throw new Error(created.errors.join('; '));
      const states: [GameState, string][] = [[created.state, snap(created.state)]];
      const events: GameEvent[] = [...created.events];
      const choose = randomPlayer(`${seed}:player`);
      let s = created.state;
      while (!s.result) {
        const d = pendingDecision(s)!;
        const r = evons.apply(s, d.seat, choose(s));
        if (!r.ok) throw new Error(r.error.code);
        s = r.state;
        events.push(...r.events);
        states.push([s, snap(s)]);
      }
      for (const [state, text] of states) expect(snap(state)).toBe(text);
      // Catch-up folds newer events into a copy of the opening state, leaving that state alone.
      const [early, earlyText] = states[0]!;
      const caught = evons.evolve(early, events.slice(created.events.length));
      expect(snap(caught)).toBe(snap(s));
      expect(snap(early)).toBe(earlyText);
    }
  });

  it('evolving a copy in place leaves the state it was copied from as it was, and the other way round', () => {
    const created = evons.create({ config: evons.configSchema.parse({}), decks, seed: 'cow-inplace' });
    if (!created.ok) throw new Error(created.errors.join('; '));
    let s = created.state;
    const choose = randomPlayer('cow-inplace:player');
    for (let i = 0; i < 30 && !s.result; i++) {
      const d = pendingDecision(s)!;
      const r = evons.apply(s, d.seat, choose(s));
      if (!r.ok) throw new Error(r.error.code);
      const before = snap(s);
      const after = snap(r.state);
      // The move's events folded into a copy of the state before it: the copy becomes the new
      // state; the state it was copied from, and the one apply made, stay as they were.
      const copy = cloneState(s);
      for (const e of r.events) evolve(copy, e);
      expect(snap(copy)).toBe(after);
      expect(snap(s)).toBe(before);
      expect(snap(r.state)).toBe(after);
      // The other way round: the source evolved in place; the copy made earlier does not move.
      const again = cloneState(s);
      expect(pendingDecision(s)).toEqual(d);
      for (const e of r.events) evolve(s, e);
      expect(snap(s)).toBe(after);
      // Its pending decision is the new one, not the one remembered for it (decision-memo.ts).
      expect(pendingDecision(s)).toEqual(pendingDecision(r.state));
      expect(snap(again)).toBe(before);
      expect(snap(r.state)).toBe(after);
      s = r.state;
    }
  });
});
