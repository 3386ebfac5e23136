/**
 * Swap — PROVISIONAL (OQ-19, R-AB-SWAP-1..4): the activating card and the monster the arrow
 * points at (face-up or covered, either player) exchange cells. The activating card carries on
 * from its new cell without reactivating (R-ACT-13); the other card reactivates if it is one of
 * the active player's face-up cards (R-ACT-11a).
 */
import { cellName } from '../board.js';
import { kindAt, queueReactivationIfOwn } from './effects.js';
import type { AbilityResolver } from './types.js';

export const swap: AbilityResolver = {
  options({ s, reach }) {
    return kindAt(s, reach.hit) === 'monster' ? [{ target: reach.hit! }] : [];
  },
  resolve(tx, { card, cell }, { target }) {
    const other = tx.s.board[target]!.id;
    tx.emit({ type: 'CardsSwapped', card, other, from: cellName(cell), to: cellName(target) });
    queueReactivationIfOwn(tx, cell, card);
  },
};
