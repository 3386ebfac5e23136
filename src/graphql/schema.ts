/**
 * GraphQL schema (SDL). Same data and semantics as the REST API; see docs/api.md. Written by
 * resource in ./sdl/ and assembled here; the games' parts (each game's Match type and own types,
 * its fields of PendingDecision and ActionInput) come from the registry: no game is named here.
 * test/graphql/contract-agreement.test.ts checks every type that has a Zod twin against it.
 */
import type { AnyGameModule } from '../games/game-module.js';
import { GAME_LIST } from '../games/registry.js';
import { subscriptionTypeDefs } from './subscriptions.js';
import { sdlContext } from './sdl/context.js';
import { challengesSdl, seeksSdl } from './sdl/lobby.js';
import { matchBasicsSdl, matchClockSdl, matchCreateSdl, matchPageSdl, matchViewSdl } from './sdl/match.js';
import { playersSdl } from './sdl/players.js';
import { mutationSdl, querySdl } from './sdl/root.js';
import { tournamentsSdl } from './sdl/tournaments.js';
import { webhooksSdl } from './sdl/webhooks.js';

/** The whole schema for these games (the first is the default game, as in the registry). */
export function buildTypeDefs(games: readonly AnyGameModule[]): string {
  const c = sdlContext(games);
  // In the order the schema has always been printed in (printSchema follows the definitions' order).
  const parts = [
    matchBasicsSdl,
    querySdl,
    tournamentsSdl,
    challengesSdl,
    seeksSdl,
    matchClockSdl,
    mutationSdl,
    matchCreateSdl,
    webhooksSdl,
    matchViewSdl,
    playersSdl,
    matchPageSdl,
  ];
  return `${parts.map((part) => part(c)).join('')}
${games.map((m) => m.graphql.typeDefs).join('\n')}
${subscriptionTypeDefs}
`;
}

export const typeDefs = buildTypeDefs(GAME_LIST);
