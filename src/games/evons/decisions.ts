/** The decision the game waits for: who must act and what kind of choice it is. Public data. */
import type { CellName } from './board.js';
import type { Seat } from './state.js';

export type Decision =
  /** R-FACE-5: several covered cards are due; pick which to reveal next. */
  | { kind: 'reveal-order'; seat: Seat; cards: string[] }
  /** The pass point and step 4: play one card or pass (R-TURN-1/2). */
  | { kind: 'play'; seat: Seat }
  /** Ability Phase 1 or 2 of `card`: use an ability arrow or end the phase (R-ACT-1/2). */
  | { kind: 'ability'; seat: Seat; card: string; cell: CellName; phase: 1 | 2 }
  /** R-CONF-4: several defenders; pick the next conflict. */
  | { kind: 'conflict-order'; seat: Seat; card: string; defenders: string[] }
  /** R-ACT-17: several cards triggered at once; pick the next to (re)activate. */
  | { kind: 'trigger-order'; seat: Seat; cards: string[] }
  /** R-HAND-2: discard one card; repeated until the hand is at the limit. */
  | { kind: 'discard'; seat: Seat; count: number };
