/** The engine's identity. Bump RULES_VERSION whenever a rule's behaviour changes. */
import type { CardSet } from './cards.js';
import type { RulesConfig } from './config.js';
import type { GeneratorId } from '../../core/random.js';
import { canonicalJson, sha256Hex } from '../../core/hash.js';

/** 0.2.0: new matches are dealt from keyed ChaCha20 streams (ids, deal:p1, deal:p2, first). */
export const ENGINE_VERSION = '0.2.0';
/** The generator new matches are dealt with; older ones keep the one their MatchCreated names. */
export const CURRENT_GENERATOR: GeneratorId = 'chacha20';
/** The spec revision implemented (EVONS_RULES.md, Set 00 rulebook v1.0). */
export const RULES_VERSION = 'evons-set00-v1.0/r1';

/**
 * Hash of (rules version, config, card set, generator): pins a match to the exact rules that
 * created it. The generator is hashed only when it is not the legacy sfc32 (or none, for a
 * position), so every match created before keyed streams keeps its hash.
 */
export function rulesHash(config: RulesConfig, cardSet: CardSet, rng: GeneratorId | null = null): string {
  // Every new match and every view asks; configs are few, so the answers are remembered by
  // the config's JSON (equal JSON means equal canonical JSON, hence the same hash).
  const key = `${cardSet.hash} ${rng} ${JSON.stringify(config)}`;
  let hash = KNOWN_HASHES.get(key);
  if (hash === undefined) {
    const base = { rules: RULES_VERSION, config, cardSet: cardSet.hash };
    hash = sha256Hex(canonicalJson(rng === null || rng === 'sfc32' ? base : { ...base, rng }));
    if (KNOWN_HASHES.size >= MAX_KNOWN_HASHES) KNOWN_HASHES.clear();
    KNOWN_HASHES.set(key, hash);
  }
  return hash;
}

/** rulesHash answers by (card set, generator, config JSON); bounded, since configs come from callers. */
const KNOWN_HASHES = new Map<string, string>();
const MAX_KNOWN_HASHES = 256;
