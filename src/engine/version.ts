/** The engine's identity. Bump RULES_VERSION whenever a rule's behaviour changes. */
import type { CardSet } from './cards.js';
import type { RulesConfig } from './config.js';
import { canonicalJson, sha256Hex } from './hash.js';

export const ENGINE_VERSION = '0.1.0';
/** The spec revision implemented (EVONS_RULES.md, Set 00 rulebook v1.0). */
export const RULES_VERSION = 'evons-set00-v1.0/r1';

/** Hash of (rules version, config, card set): pins a match to the exact rules that created it. */
export function rulesHash(config: RulesConfig, cardSet: CardSet): string {
  return sha256Hex(canonicalJson({ rules: RULES_VERSION, config, cardSet: cardSet.hash }));
}
