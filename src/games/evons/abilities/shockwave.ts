/**
 * Shockwave (Earth), R-AB-SHK-1..9: push the card the arrow points at one cell further in the
 * arrow's direction. The landing cell's occupant is destroyed whatever it is; a push off the
 * grid (only possible from the out zone) removes the card from the game (OQ-32).
 */
import { instanceOf } from '../../../core/card-instances.js';
import { cellName, step } from '../board.js';
import { destroyAt, kindAt, queueReactivationIfOwn } from './effects.js';
import type { AbilityResolver } from './types.js';

export const shockwave: AbilityResolver = {
  options({ s, reach }) {
    // Face-up, covered and Growth-placed cards of either player; never Block cards (R-AB-SHK-2/3).
    return kindAt(s, reach.hit) === 'monster' ? [{ target: reach.hit! }] : [];
  },
  resolve(tx, { dir }, { target }) {
    const s = tx.s;
    const pushed = s.board[target]!;
    const landing = step(target, dir);
    if (landing === null) {
      const inst = instanceOf(s, pushed.id)!;
      tx.emit({ type: 'CardRemovedFromGame', card: pushed.id, defId: inst.def, owner: inst.owner, cell: cellName(target) });
      return;
    }
    if (s.board[landing]) destroyAt(tx, landing, 'shockwave-landing');
    tx.emit({ type: 'CardMoved', card: pushed.id, from: cellName(target), to: cellName(landing), cause: 'Shockwave' });
    queueReactivationIfOwn(tx, landing);
  },
};
