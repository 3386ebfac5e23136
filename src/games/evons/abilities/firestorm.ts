/**
 * Firestorm — PROVISIONAL (OQ-18 reading A, R-AB-FIRE-1..6; not sourced, replace when the page
 * is found): a damage pool equal to the activating card's current DEF travels along the arrow's
 * line from the first card; each opponent card takes damage up to its current DEF and the rest
 * goes on; own cards are skipped; a Block card or the grid edge stops it. A Growth-placed card
 * dealt any damage is destroyed (R-AB-FIRE-3).
 */
import { instanceOf } from '../../../core/card-instances.js';
import { cellName, step } from '../board.js';
import type { GameState } from '../state.js';
import { currentDef } from '../stats.js';
import { destroyAt } from './effects.js';
import type { AbilityContext, AbilityResolver } from './types.js';

interface Hit {
  cell: number;
  amount: number;
}

function plan(s: GameState, { cell, dir, reach, seat }: AbilityContext): Hit[] {
  const hits: Hit[] = [];
  let pool = currentDef(s, cell);
  let cur: number | null = reach.hit;
  const lineEnd = s.config.arrowReach === 'ADJACENT' ? reach.hit : null;
  while (cur !== null && pool > 0) {
    const bc = s.board[cur];
    if (bc) {
      if (s.cardSet.byId.get(instanceOf(s, bc.id)!.def)?.kind === 'block') break;
      if (bc.facing !== seat) {
        const amount = Math.min(pool, Math.max(currentDef(s, cur), 0));
        if (amount > 0) {
          hits.push({ cell: cur, amount });
          pool -= amount;
        }
      }
    }
    if (cur === lineEnd) break;
    cur = step(cur, dir);
  }
  return hits;
}

export const firestorm: AbilityResolver = {
  options(ctx) {
    if (ctx.reach.hit === null || plan(ctx.s, ctx).length === 0) return [];
    return [{ target: ctx.reach.hit }];
  },
  resolve(tx, ctx) {
    for (const { cell, amount } of plan(tx.s, ctx)) {
      const bc = tx.s.board[cell]!;
      const covered = bc.covered;
      tx.emit({
        type: 'FirestormDamage',
        card: bc.id,
        cell: cellName(cell),
        amount,
        ...(covered ? {} : { def: currentDef(tx.s, cell) - amount }),
      });
      if (bc.growth || currentDef(tx.s, cell) <= 0) destroyAt(tx, cell, 'firestorm');
    }
  },
};
