/**
 * The games the service hosts, by id. Adding a game is one folder under src/games and one line
 * here; everything else (conformance tests, later the service and its APIs) reads this list.
 */
import type { AnyRuleset } from '../core/ruleset.js';
import { evons } from './evons/ruleset.js';
import { universus } from './universus/index.js';

export const GAMES = { evons, universus } as const satisfies Record<string, AnyRuleset>;

export type GameId = keyof typeof GAMES;
export const GAME_IDS = Object.keys(GAMES) as GameId[];

export function rulesetOf(id: string): AnyRuleset | null {
  return Object.hasOwn(GAMES, id) ? GAMES[id as GameId] : null;
}
