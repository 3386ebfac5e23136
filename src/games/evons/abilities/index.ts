/** Ability arrow types → resolvers. A rule change to one ability touches one file. */
import type { Ability } from '../cards.js';
import { block } from './block.js';
import { firestorm } from './firestorm.js';
import { growth } from './growth.js';
import { magnetism } from './magnetism.js';
import { remove } from './remove.js';
import { resurrection } from './resurrection.js';
import { shockwave } from './shockwave.js';
import { swap } from './swap.js';
import type { AbilityResolver } from './types.js';

export const RESOLVERS: Record<Ability, AbilityResolver> = {
  Block: block,
  Firestorm: firestorm,
  Growth: growth,
  Magnetism: magnetism,
  Remove: remove,
  Resurrection: resurrection,
  Shockwave: shockwave,
  Swap: swap,
};

const BY_TYPE = new Map<Ability, AbilityResolver>(Object.entries(RESOLVERS) as [Ability, AbilityResolver][]);

/**
 * RESOLVERS[type], from a Map: arrow types are card data, and a record read by a varying name
 * is a megamorphic keyed load on the path that lists every ability decision's choices.
 */
export function resolverOf(type: Ability): AbilityResolver {
  return BY_TYPE.get(type) ?? RESOLVERS[type];
}

export type { AbilityContext, AbilityOption, AbilityResolver } from './types.js';
