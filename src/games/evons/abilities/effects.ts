/** Effects shared by several abilities: destruction to the owner's graveyard, moves that trigger reactivation. */
import { instanceOf } from '../../../core/card-instances.js';
import { cellName } from '../board.js';
import type { DestroyCause } from '../events.js';
import type { GameState } from '../state.js';
import type { Tx } from '../tx.js';
import type { AbilityOption } from './types.js';

/**
 * Options placing one of `cards` on one of `targets`, targets first (nearest first), then cards
 * in order. Plain loops: placement options are listed for most ability decisions.
 */
export function everyPair(targets: readonly number[], cards: readonly string[]): AbilityOption[] {
  const out: AbilityOption[] = [];
  for (const target of targets) for (const card of cards) out.push({ target, card });
  return out;
}

/** What lies on a cell: a monster, a Block card, or nothing. */
export function kindAt(s: GameState, cell: number | null): 'monster' | 'block' | null {
  const bc = cell === null ? null : s.board[cell];
  return bc ? (s.cardSet.byId.get(instanceOf(s, bc.id)!.def)?.kind ?? null) : null;
}

export function destroyAt(tx: Tx, cell: number, cause: DestroyCause): void {
  const bc = tx.s.board[cell];
  if (!bc) return;
  const inst = instanceOf(tx.s, bc.id)!;
  tx.emit({ type: 'CardDestroyed', card: bc.id, defId: inst.def, owner: inst.owner, cell: cellName(cell), cause });
}

/**
 * R-ACT-11a: one of the active player's face-up cards moved during their turn reactivates.
 * `except` is the activating card of a Swap (R-ACT-13) or a Magnetism self-pull (R-AB-MAG-11).
 */
export function queueReactivationIfOwn(tx: Tx, cell: number, except?: string): void {
  const bc = tx.s.board[cell];
  if (!bc || bc.covered || bc.facing !== tx.s.active || bc.id === except) return;
  if (tx.s.cardSet.byId.get(instanceOf(tx.s, bc.id)!.def)?.kind !== 'monster') return;
  tx.emit({ type: 'TriggersQueued', cards: [bc.id] });
}
