/** Growth (Nature), R-AB-GRO-1..9: a hand monster, any cost, placed covered on an empty target; never paid for. */
import { instanceOf } from '../../../core/card-instances.js';
import { cellName } from '../board.js';
import { everyPair } from './effects.js';
import type { AbilityResolver } from './types.js';

export const growth: AbilityResolver = {
  options({ s, reach, seat }) {
    const monsters = s.hands[seat].filter((id) => s.cardSet.byId.get(instanceOf(s, id)!.def)?.kind === 'monster');
    return everyPair(reach.passed, monsters);
  },
  resolve(tx, { seat }, { target, card }) {
    tx.emit({ type: 'CardGrown', seat, card: card!, defId: instanceOf(tx.s, card!)!.def, cell: cellName(target) });
  },
};
