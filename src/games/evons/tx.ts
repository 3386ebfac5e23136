/**
 * A transaction over a draft state: every event goes through `emit`, which applies it with
 * evolve and records it. Once the game has ended, further events are dropped: nothing left on
 * the chain resolves (R-END-2, R-CHAIN-5).
 */
import type { GameEvent } from './events.js';
import { evolveOwned } from './evolve.js';
import type { Owned } from '../../core/copy-on-write.js';
import type { GameState } from './state.js';
import { mainZoneFull, scores, winnerOf } from './stats.js';

export interface Tx {
  readonly s: GameState;
  readonly events: GameEvent[];
  emit(e: GameEvent): void;
}

/** Event types that can put a card on a main-zone cell. A switch, not a Set: asked for every event emitted. */
function placing(type: GameEvent['type']): boolean {
  switch (type) {
    case 'CardPlayed':
    case 'CardGrown':
    case 'BlockPlaced':
    case 'CardRevived':
    case 'CardMoved':
    case 'CardsSwapped':
      return true;
    default:
      return false;
  }
}

/** A transaction over `s`; `owned`: what of it may change in place (core/copy-on-write.ts). */
export function openTx(s: GameState, owned: Owned): Tx {
  const events: GameEvent[] = [];
  const tx: Tx = {
    s,
    events,
    emit(e) {
      if (s.result && e.type !== 'GameEnded' && e.type !== 'SeedRevealed') return;
      evolveOwned(s, e, owned);
      events.push(e);
      if (placing(e.type) && !s.result && mainZoneFull(s)) {
        endGame(tx, 'main-zone-full');
      }
    },
  };
  return tx;
}

/** R-END-1..4: the game ends now; scores are read from the board as it stands. */
export function endGame(
  tx: Tx,
  reason: 'main-zone-full' | 'stalemate' | 'deck-out' | 'resignation' | 'turn-limit',
  winner?: 'p1' | 'p2' | null,
): void {
  const sc = scores(tx.s);
  tx.emit({ type: 'GameEnded', reason, winner: winner === undefined ? winnerOf(sc) : winner, scores: sc });
  const decks = tx.s.deckLists;
  tx.emit({ type: 'SeedRevealed', seed: tx.s.seed, decks: decks ? { p1: [...decks.p1], p2: [...decks.p2] } : null });
}
