/** replay: a match's state rebuilt from its events alone (how every match is loaded). */
import type { CardSet } from './cards.js';
import type { GameEvent } from './events.js';
import { evolveOwned, marksCards } from './evolve.js';
import { stateFromPosition } from './position.js';
import { stateFromMatchCreated } from './setup.js';
import type { GameState } from './state.js';

export function replay(events: readonly GameEvent[], cardSet: CardSet): GameState {
  const first = events[0];
  if (!first) throw new Error('a match starts with MatchCreated or PositionLoaded');
  let s: GameState;
  if (first.type === 'MatchCreated') s = stateFromMatchCreated(first, cardSet);
  else if (first.type === 'PositionLoaded') {
    const r = stateFromPosition(first.position, cardSet, first.seed, { stored: true });
    if (!r.ok) throw new Error(`stored position is invalid: ${r.errors.join('; ')}`);
    s = r.state;
  } else throw new Error(`a match starts with MatchCreated or PositionLoaded, not ${first.type}`);
  // An index loop, not `[first, ...rest]`: no copy of a log of a thousand events per load.
  // The state is this replay's own (nothing shared with another state): no ownership checks.
  // Most turns mark no card (no conflict, no move): their TurnEnded needs no scan of the board.
  // A position may start with marked cards, so the first TurnEnded always scans.
  let marked = true;
  for (let i = 1; i < events.length; i++) {
    const e = events[i]!;
    if (marksCards(e.type)) marked = true;
    evolveOwned(s, e, undefined, marked);
    if (e.type === 'TurnEnded') marked = false;
  }
  return s;
}
