/**
 * Resurrection (Darkness), R-AB-RES-1..7: a monster from your own graveyard onto the empty
 * target, face-up, facing you, free; the costs revived in one activation add up to at most the
 * activating card's cost. The revived card activates at once (a chain link, R-ACT-14), so at
 * `maxChainDepth` there is nothing to revive.
 */
import { instanceOf } from '../../../core/card-instances.js';
import { cellName } from '../board.js';
import { chainDepthLimit } from '../config.js';
import { monsterOf } from '../stats.js';
import { everyPair } from './effects.js';
import type { AbilityResolver } from './types.js';

export const resurrection: AbilityResolver = {
  options({ s, reach, seat, card, frame }) {
    // The revived card activates as a new chain link: none at maxChainDepth.
    if (s.stack.length >= chainDepthLimit(s.config)) return [];
    const budget = (monsterOf(s, card)?.cost ?? 0) - frame.revivedCost;
    const candidates = s.graveyards[seat].filter((id) => {
      const m = monsterOf(s, id);
      return m !== null && m.cost <= budget;
    });
    return everyPair(reach.passed, candidates);
  },
  resolve(tx, { seat }, { target, card }) {
    const revived = card!;
    const cost = monsterOf(tx.s, revived)!.cost;
    tx.emit({ type: 'CardRevived', seat, card: revived, defId: instanceOf(tx.s, revived)!.def, cell: cellName(target), cost });
    tx.emit({ type: 'ActivationStarted', card: revived, cell: cellName(target), kind: 'activation' });
  },
};
