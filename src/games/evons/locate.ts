/** Where a card instance is on the board: board lookups shared by the turn, flow and activation code. */
import type { GameState } from './state.js';

/**
 * The last card found and its cell. One move asks for the same card's cell many times (the
 * activating card at every automatic step); a card is on one cell at most, so when that cell of
 * the board asked about holds the card, it is the answer, whatever state or board it came from.
 */
let lastCard: string | null = null;
let lastCell = -1;

/** The cell index holding the card, or -1 when it is not on the board. */
export function cellOf(s: GameState, cardId: string): number {
  const board = s.board;
  if (cardId === lastCard && board[lastCell]?.id === cardId) return lastCell;
  for (let i = 0; i < board.length; i++) {
    if (board[i]?.id === cardId) {
      lastCard = cardId;
      lastCell = i;
      return i;
    }
  }
  return -1;
}
