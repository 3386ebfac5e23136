/** What every part of the GraphQL SDL is written from: the hosted games, in registry order. */
import type { AnyGameModule } from '../../games/game-module.js';

export interface SdlContext {
  games: readonly AnyGameModule[];
  /** The games' ids (the first is the default game, as in the registry). */
  ids: string[];
  /** One name per game: its type prefix and `suffix` (`EvonsAction`, `UniversusAction`, …). */
  named: (suffix: string) => string[];
  /** Each game's Match type. */
  matchTypes: string[];
}

export function sdlContext(games: readonly AnyGameModule[]): SdlContext {
  return {
    games,
    ids: games.map((m) => m.ruleset.id),
    named: (suffix) => games.map((m) => `${m.typePrefix}${suffix}`),
    matchTypes: games.map((m) => m.graphql.matchType),
  };
}
