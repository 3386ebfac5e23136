/**
 * The computer player (issue 24): pure, game-agnostic, and fed only what one seat may know.
 * `decide` picks an action; `BUDGETS` says what each level spends; `playable` says whether the
 * computer can play a ruleset (one that has hiddenInformation). It knows no game: the caller
 * passes the ruleset (the registered games it plays are listed by src/service/ai/games.ts).
 */
import type { AnyRuleset, Seat } from '../core/ruleset.js';
import type { PlayableRuleset } from './decide.js';

export { checkInput, decide, decideWithBudget, type AiInput, type PlayableRuleset } from './decide.js';
export { BUDGETS, LEVELS, isLevel, type Level, type LevelBudget } from './levels.js';

/** The ruleset as one the computer can play when it has hiddenInformation, else null. */
export function playable(ruleset: AnyRuleset): PlayableRuleset<unknown, { type: string }, unknown> | null {
  return isPlayable(ruleset) ? ruleset : null;
}

export type { Seat };

/** A ruleset with hiddenInformation: what the computer needs to play it. */
function isPlayable(r: AnyRuleset): r is PlayableRuleset<unknown, { type: string }, unknown> {
  return Boolean(r.hiddenInformation);
}
