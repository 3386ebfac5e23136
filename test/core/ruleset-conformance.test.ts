/** Every registered game honours the Ruleset contract the same way (the checks: ruleset-conformance.ts). */
import { describe, expect, it } from 'vitest';
import { GAME_IDS, GAMES, rulesetOf } from '../../src/games/registry.js';
import type { AnyRuleset } from '../../src/core/ruleset.js';
import { conformance } from './ruleset-conformance.js';

describe('registry', () => {
  it('finds every game by id and nothing else', () => {
    for (const id of GAME_IDS) expect(rulesetOf(id)).toBe(GAMES[id]);
    expect(rulesetOf('toString')).toBeNull();
    expect(rulesetOf('chess')).toBeNull();
  });
});

for (const id of GAME_IDS) conformance(GAMES[id] as AnyRuleset);
