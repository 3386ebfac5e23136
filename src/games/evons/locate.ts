/** Where a card instance is on the board: board lookups shared by the turn, flow and activation code. */
import type { GameState } from './state.js';

/** The cell index holding the card, or -1 when it is not on the board. */
export function cellOf(s: GameState, cardId: string): number {
  for (let i = 0; i < s.board.length; i++) if (s.board[i]?.id === cardId) return i;
  return -1;
}
