/**
 * Block (any element), R-AB-BLK-1..10: on an empty target place a Block card from hand (face-up,
 * free); on a Block card remove it to its owner's graveyard; on a monster it does nothing, so it
 * is not offered there (R-ACT-7).
 */
import { instanceOf } from '../../../core/card-instances.js';
import { cellName } from '../board.js';
import { destroyAt, everyPair, kindAt } from './effects.js';
import type { AbilityResolver } from './types.js';

export const block: AbilityResolver = {
  options({ s, reach, seat }) {
    const blocks = s.hands[seat].filter((id) => s.cardSet.byId.get(instanceOf(s, id)!.def)?.kind === 'block');
    const out = everyPair(reach.passed, blocks);
    if (kindAt(s, reach.hit) === 'block') out.push({ target: reach.hit! });
    return out;
  },
  resolve(tx, { seat }, { target, card }) {
    if (card === undefined) {
      destroyAt(tx, target, 'block-ability');
      return;
    }
    tx.emit({ type: 'BlockPlaced', seat, card, defId: instanceOf(tx.s, card)!.def, cell: cellName(target) });
  },
};
