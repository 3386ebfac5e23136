/**
 * Shipped card data. `set00` is a PLACEHOLDER for "Set 00 Initialization" (no official card list
 * is public); see the `notes` field of set00.json. Loading another set is a data change only.
 */
import raw from './set00.json' with { type: 'json' };
import { loadCardSet, type CardSet } from '../cards.js';

function load(input: unknown, label: string): CardSet {
  const result = loadCardSet(input);
  if (!result.ok) {
    throw new Error(`card set ${label} is invalid:\n  - ${result.errors.join('\n  - ')}`);
  }
  return result.cardSet;
}

/** The placeholder Set 00 card set, validated at module load. */
export const set00: CardSet = load(raw, 'set00.json');

/** The card set new matches use unless configured otherwise. */
export function defaultCardSet(): CardSet {
  return set00;
}
