/** The contract each ability resolver fulfils: its legal options and how it resolves (one file per ability). */
import type { Direction } from '../board.js';
import type { Reach } from '../geometry.js';
import type { Frame, GameState, Seat } from '../state.js';
import type { Tx } from '../tx.js';

export interface AbilityContext {
  readonly s: GameState;
  readonly frame: Frame;
  /** The activating card's cell and id. */
  readonly cell: number;
  readonly card: string;
  readonly arrow: number;
  /** The arrow's board direction and what it reaches (R-ARROW-5/6). */
  readonly dir: Direction;
  readonly reach: Reach;
  /** The active player, who controls the activating card. */
  readonly seat: Seat;
}

/** One way to use the ability: a target cell, plus a chosen card (hand / graveyard) or a pull cell. */
export interface AbilityOption {
  target: number;
  card?: string;
  pull?: number;
}

export interface AbilityResolver {
  options(ctx: AbilityContext): AbilityOption[];
  /** Emits the ability's events; the option has been checked against options(). */
  resolve(tx: Tx, ctx: AbilityContext, option: AbilityOption): void;
}
