/** The rules a match is pinned to: its game's rules hash, with its time control when it has one. */
import type { TimeControl } from './clock.js';
import type { GeneratorId } from './random.js';
import type { AnyRuleset } from './ruleset.js';
import { canonicalJson, sha256Hex } from './hash.js';

export function matchRulesHash(
  ruleset: AnyRuleset,
  config: unknown,
  generator: GeneratorId | null | undefined,
  control: TimeControl,
): string {
  const game = ruleset.rulesHash(config, generator);
  // Matches without a clock keep the game's own hash (every match before time controls has it).
  return control.kind === 'none' ? game : sha256Hex(canonicalJson({ game, timeControl: control }));
}
