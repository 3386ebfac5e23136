/**
 * Remove — PROVISIONAL (OQ-20, R-AB-REM-1..3): destroys the monster the arrow points at
 * (face-up or covered, either player, whatever its DEF) to its owner's graveyard. Block cards
 * are immune (R-BLOCK-7).
 */
import { destroyAt, kindAt } from './effects.js';
import type { AbilityResolver } from './types.js';

export const remove: AbilityResolver = {
  options({ s, reach }) {
    return kindAt(s, reach.hit) === 'monster' ? [{ target: reach.hit! }] : [];
  },
  resolve(tx, _ctx, { target }) {
    destroyAt(tx, target, 'remove');
  },
};
