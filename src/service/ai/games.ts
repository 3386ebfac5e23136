/**
 * The registered games the computer plays: the registry's rulesets that src/ai can play (those
 * with hiddenInformation). The lookup is here, not in src/ai, which knows no game.
 */
import { playable, type PlayableRuleset } from '../../ai/index.js';
import { GAME_LIST } from '../../games/registry.js';

/** The registered game `id` when the computer can play it, else null. */
export function playableGame(id: string): PlayableRuleset<unknown, { type: string }, unknown> | null {
  const m = GAME_LIST.find((g) => g.ruleset.id === id);
  return m ? playable(m.ruleset) : null;
}

/** Every registered game the computer can play, by id. */
export function playableGames(): string[] {
  return GAME_LIST.filter((g) => playable(g.ruleset) !== null).map((g) => g.ruleset.id);
}
