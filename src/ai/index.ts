/**
 * The computer player (issue 24): pure, game-agnostic, and fed only what one seat may know.
 * `decide` picks an action; `BUDGETS` says what each level spends; `playableGame` finds a
 * registered game the computer can play (one whose ruleset has hiddenInformation).
 */
import type { AnyRuleset, Seat } from '../core/ruleset.js';
import { GAME_LIST } from '../games/registry.js';
import type { PlayableRuleset } from './decide.js';

export { checkInput, decide, decideWithBudget, type AiInput, type PlayableRuleset } from './decide.js';
export { BUDGETS, LEVELS, isLevel, type Level, type LevelBudget } from './levels.js';

/** The registered game `id` when the computer can play it, else null. */
export function playableGame(id: string): PlayableRuleset<unknown, { type: string }, unknown> | null {
  const ruleset = GAME_LIST.find((g) => g.ruleset.id === id)?.ruleset;
  return ruleset && isPlayable(ruleset) ? ruleset : null;
}

/** A ruleset with hiddenInformation: what the computer needs to play it. */
function isPlayable(r: AnyRuleset): r is PlayableRuleset<unknown, { type: string }, unknown> {
  return Boolean(r.hiddenInformation);
}

/** Every registered game the computer can play, by id. */
export function playableGames(): string[] {
  return GAME_LIST.filter((g) => g.ruleset.hiddenInformation).map((g) => g.ruleset.id);
}

export type { Seat };
