/**
 * The games the service hosts, by id. Adding a game is one folder under src/games and one line
 * here; everything else (conformance tests, later the service and its APIs) reads this list.
 */
import type { AnyRuleset, Ruleset } from '../core/ruleset.js';
import { evons } from './evons/ruleset.js';
import { universus } from './universus/index.js';

export const GAMES = { evons, universus } as const satisfies Record<string, AnyRuleset>;

export type GameId = keyof typeof GAMES;
export const GAME_IDS = Object.keys(GAMES) as GameId[];

export function rulesetOf(id: string): AnyRuleset | null {
  return Object.hasOwn(GAMES, id) ? GAMES[id as GameId] : null;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- inference over the contract's type parameters */
type ViewOf<R> = R extends Ruleset<any, any, any, infer V, any> ? V : never;
type ActionOf<R> = R extends Ruleset<any, infer A, any, any, any> ? A : never;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** What one game's per-seat view looks like (`GameViewOf<'evons'>`). */
export type GameViewOf<G extends GameId> = ViewOf<(typeof GAMES)[G]>;
/** An action of any hosted game. */
export type AnyAction = ActionOf<(typeof GAMES)[GameId]>;
