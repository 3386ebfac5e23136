/**
 * The turn's bookkeeping that a seat's view leaves out, folded from its event log. Every event
 * read here is public (activations, phases, arrows used, conflicts, triggers, reveals, passes,
 * moves), so any seat or spectator computes the same facts.
 */
import type { MatchEvent } from '../../clients/typescript/src/index.js';
import type { SeatEvent } from '../../src/core/ruleset.js';
import { foldFacts, type Facts } from '../../src/games/evons/turn-facts.js';

/** The turn's bookkeeping, folded from public events (the parts of the state a view leaves out). */
export type TurnFacts = Omit<Facts, 'seen'>;

/**
 * Folds the public events of a seat's log into the turn's bookkeeping: the engine's own fold
 * (src/games/evons/turn-facts.ts, which the server's computer players use too), given the events
 * as the API sends them.
 */
export function turnFacts(events: readonly MatchEvent[]): TurnFacts {
  const { seen: _seen, ...facts } = foldFacts(events.map((e) => e.event as SeatEvent));
  return facts;
}
