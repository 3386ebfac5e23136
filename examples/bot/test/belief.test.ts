/**
 * The greedy bot's belief (examples/bot/belief.ts) against the real engine state, at every
 * decision of seeded random games: built only from the deciding seat's view and its redacted
 * events, it must agree with the real state on everything that seat may know (the pending
 * decision, the legal actions, the turn's bookkeeping) and know nothing it may not (hidden
 * cards are stand-ins, not the real cards).
 */
import { describe, expect, it } from 'vitest';
import { evons } from '../../../src/games/evons/ruleset.js';
import { expandDeck } from '../../../src/core/ruleset.js';
import {
  defaultCardSet,
  legalActions,
  pendingDecision,
  randomPlayer,
  redactEvent,
  view,
  type GameEvent,
  type GameState,
  type Seat,
} from '../../../src/games/evons/index.js';
import type { GameView, MatchEvent } from '../../../clients/typescript/src/index.js';
import { beliefState, standIn } from '../belief.js';

const cardSet = defaultCardSet();
const GAMES = 12;

/** Every decision of a seeded random game, with the deciding seat's observation. */
function* decisions(game: number): Generator<{ state: GameState; seat: Seat; seen: MatchEvent[] }> {
  const starters = evons.starterDecks;
  const decks = { p1: expandDeck(starters[game % 3]!.cards), p2: expandDeck(starters[(game + 1) % 3]!.cards) };
  const created = evons.create({ config: evons.configSchema.parse({}), decks, seed: `belief-${game}` });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const log: GameEvent[] = [...created.events];
  const choose = randomPlayer(`belief-player-${game}`);
  while (!state.result) {
    const seat = pendingDecision(state)!.seat;
    const seen = log.flatMap((e, i) => {
      const r = redactEvent(e, seat);
      return r
        ? [{ seq: i + 1, actingSeat: null, source: 'game' as const, event: r as Extract<MatchEvent, { source: 'game' }>['event'] }]
        : [];
    });
    yield { state, seat, seen };
    const r = evons.apply(state, seat, choose(state, legalActions(state, seat)));
    if (!r.ok) throw new Error(r.error.message);
    state = r.state;
    log.push(...r.events);
  }
}

const onBoard = (s: GameState) => new Set(s.board.flatMap((b) => (b ? [b.id] : [])));

describe('belief state (built from a seat’s view and redacted events only)', () => {
  it('agrees with the real state on the decision, the legal actions and the turn bookkeeping', () => {
    let n = 0;
    let chains = 0;
    for (let g = 0; g < GAMES; g++) {
      for (const { state, seat, seen } of decisions(g)) {
        const b = beliefState(view(state, seat) as unknown as GameView, seen, cardSet);
        const where = `game ${g}, decision ${n}`;
        expect(pendingDecision(b), where).toEqual(pendingDecision(state));
        expect(legalActions(b, seat), where).toEqual(legalActions(state, seat));
        // Frames whose card has left the board end at the next automatic step; the belief drops them.
        const here = onBoard(state);
        expect(b.stack, where).toEqual(state.stack.filter((f) => here.has(f.card)));
        expect(
          { revealDue: b.revealDue, played: b.played, stalled: b.stalled, credits: b.credits, step: b.step, turn: b.turn },
          where,
        ).toEqual({
          revealDue: state.revealDue,
          played: state.played,
          stalled: state.stalled,
          credits: state.credits,
          step: state.step,
          turn: state.turn,
        });
        expect(b.board, where).toEqual(state.board);
        expect(b.hands[seat], where).toEqual(state.hands[seat]);
        if (state.stack.length > 1) chains++;
        n++;
      }
    }
    expect(n).toBeGreaterThan(GAMES * 50); // the games were played
    expect(chains).toBeGreaterThan(0); // and reached chains of activations
  });

  it('holds stand-ins, never the real cards, where the seat may not look', () => {
    const unknown = standIn(cardSet);
    let hiddenOnBoard = 0;
    let differs = 0;
    for (let g = 0; g < 4; g++) {
      for (const { state, seat, seen } of decisions(g)) {
        const other: Seat = seat === 'p1' ? 'p2' : 'p1';
        const b = beliefState(view(state, seat) as unknown as GameView, seen, cardSet);
        // The other hand and both decks: as many cards as there are, none of them real.
        expect(b.hands[other]).toHaveLength(state.hands[other].length);
        for (const id of [...b.hands[other], ...b.decks.p1, ...b.decks.p2]) {
          expect(state.cards[id]).toBeUndefined();
          expect(b.cards[id]!.def).toBe(unknown);
        }
        // The other seat's covered cards: the real id (public) with the stand-in's face.
        for (const bc of state.board) {
          if (!bc?.covered || state.cards[bc.id]!.owner === seat) continue;
          hiddenOnBoard++;
          expect(b.cards[bc.id]!.def).toBe(unknown);
          if (state.cards[bc.id]!.def !== unknown) differs++;
        }
      }
    }
    expect(hiddenOnBoard).toBeGreaterThan(0);
    expect(differs).toBeGreaterThan(0); // the check above could have caught a leak
  });

  it('is a seat’s: a spectator’s view has no belief', () => {
    const { state, seen } = decisions(0).next().value!;
    expect(() => beliefState(view(state, 'spectator') as unknown as GameView, seen, cardSet)).toThrow(/spectator/);
  });
});
