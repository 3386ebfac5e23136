/**
 * The games the service hosts, by id: one module per game (game-module.ts). Adding a game is one
 * folder under src/games and one line here; REST, OpenAPI, GraphQL, pictures, the watch page and
 * the conformance tests are assembled from this list.
 */
import { defineRegistry } from './define-registry.js';
import type { ActionOfRuleset, ViewOfRuleset } from './game-module.js';
import { evonsGame } from './evons/module.js';
import { universusGame } from './universus/module.js';

const registry = defineRegistry({
  evons: evonsGame,
  universus: universusGame,
});

export const { GAME_MODULES, GAME_IDS, GAME_LIST, GAMES, moduleOf, rulesetOf } = registry;

export type GameId = keyof typeof GAME_MODULES;
/** What one game's per-seat view looks like (`GameViewOf<'evons'>`). */
export type GameViewOf<G extends GameId> = ViewOfRuleset<(typeof GAME_MODULES)[G]['ruleset']>;
/** An action of any hosted game. */
export type AnyAction = ActionOfRuleset<(typeof GAME_MODULES)[GameId]['ruleset']>;
