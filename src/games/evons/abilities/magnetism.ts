/**
 * Magnetism (Electric), R-AB-MAG-1..11: the empty target pulls one non-Block card from a cell
 * orthogonally adjacent to the target (not to the activating card); the activating card cannot
 * pull itself unless the testing rule `magnetismSelfPull` is on.
 */
import { cellName, orthogonalNeighbours } from '../board.js';
import { kindAt, queueReactivationIfOwn } from './effects.js';
import type { AbilityOption, AbilityResolver } from './types.js';

export const magnetism: AbilityResolver = {
  options({ s, reach, cell }) {
    const out: AbilityOption[] = [];
    for (const target of reach.passed) {
      for (const pull of orthogonalNeighbours(target)) {
        if (kindAt(s, pull) !== 'monster') continue;
        if (pull === cell && !s.config.magnetismSelfPull) continue;
        out.push({ target, pull });
      }
    }
    return out;
  },
  resolve(tx, { card }, { target, pull }) {
    const moved = tx.s.board[pull!]!.id;
    tx.emit({ type: 'CardMoved', card: moved, from: cellName(pull!), to: cellName(target), cause: 'Magnetism' });
    // A self-pull repositions the activating card without a reactivation (R-AB-MAG-11).
    queueReactivationIfOwn(tx, target, card);
  },
};
