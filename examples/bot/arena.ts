/**
 * Two strategies playing one Evons match directly against the engine, in process: the fast
 * way to measure a strategy over hundreds of matches. Each strategy gets exactly what the API
 * would give its seat (the engine's view for that seat, the legal actions, the events redacted
 * for that seat), so a result here is the result the same bot would get over HTTP.
 */
import { evons } from '../../src/games/evons/ruleset.js';
import { expandDeck } from '../../src/core/ruleset.js';
import {
  legalActions,
  pendingDecision,
  redactEvent,
  view,
  type GameEvent,
  type GameState,
  type Seat,
} from '../../src/games/evons/index.js';
import type { EvonsAction, GameView, MatchEvent } from '../../clients/typescript/src/index.js';
import type { AnyStrategy } from './strategy.js';

export const STARTER_IDS = evons.starterDecks.map((d) => d.id);

export interface ArenaResult {
  winner: Seat | null;
  reason: string;
  scores: Record<Seat, number>;
  decisions: number;
}

/** A safety net against a strategy pair that never ends a game (the rules end every game). */
const MAX_DECISIONS = 5_000;

export function playInEngine(players: Record<Seat, AnyStrategy>, opts: { seed: string; decks: Record<Seat, string> }): ArenaResult {
  const deck = (id: string) => expandDeck(evons.starterDecks.find((d) => d.id === id)!.cards);
  const created = evons.create({
    config: evons.configSchema.parse({}),
    decks: { p1: deck(opts.decks.p1), p2: deck(opts.decks.p2) },
    seed: opts.seed,
  });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state: GameState = created.state;
  // Each seat's log as the API would send it: seq from 1, redacted for that seat.
  /** A game event as a seat receives it (the game's envelope). */
  type GameEventBody = Extract<MatchEvent, { source: 'game' }>['event'];
  const logs: Record<Seat, MatchEvent[]> = { p1: [], p2: [] };
  let seq = 0;
  const record = (events: readonly GameEvent[], actingSeat: Seat | null) => {
    for (const e of events) {
      seq++;
      for (const seat of ['p1', 'p2'] as const) {
        const seen = redactEvent(e, seat);
        if (seen) logs[seat].push({ seq, actingSeat, source: 'game', event: seen as GameEventBody });
      }
    }
  };
  record(created.events, null);
  let decisions = 0;
  while (!state.result) {
    if (decisions++ > MAX_DECISIONS) throw new Error(`no end after ${MAX_DECISIONS} decisions (seed ${opts.seed})`);
    const seat = pendingDecision(state)!.seat;
    const legal = legalActions(state, seat) as EvonsAction[];
    const action = players[seat].choose({ game: 'evons', view: view(state, seat) as unknown as GameView, legal, events: logs[seat] });
    const r = evons.apply(state, seat, action as EvonsAction);
    if (!r.ok) throw new Error(`${players[seat].name} chose an illegal action: ${r.error.code} ${r.error.message}`);
    state = r.state;
    record(r.events, seat);
  }
  return { winner: state.result.winner, reason: state.result.reason, scores: state.result.scores, decisions };
}
