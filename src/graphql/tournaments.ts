/**
 * Tournaments and bulk pairings over GraphQL (issue 25): the same service calls, request schemas,
 * scopes and problem codes as /v1/tournaments and /v1/bulk-pairings (src/http/routes/). The views are the REST answers, so a
 * field both APIs have holds the same value. The checks run in REST's order: the id, then the
 * input, then the player token (match:create), then the service.
 */
import type { MercuriusContext } from 'mercurius';
import { BulkPairingIdSchema, TournamentIdSchema } from '../contract/ids.js';
import {
  CreateBulkPairingBody,
  CreateTournamentBody,
  JoinTournamentBody,
  StandingsPageQuery,
  TournamentListQuery,
} from '../contract/requests.js';
import { problems } from '../service/errors.js';
import type { MatchService } from '../service/match/match-service.js';
import type { TournamentView } from '../service/tournaments/tournament-views.js';
import { workCost, type ChargeWork } from '../service/work-costs.js';
import { guard } from './errors.js';
import { parseInput, restBody } from './inputs.js';

/** An id GraphQL's ID type let through that the REST route's path parameter would refuse: 400, as there. */
function checkTournamentId(id: string): void {
  if (!TournamentIdSchema.safeParse(id).success)
    throw problems.validation('id: not a tournament id', ['id: tn_ and letters, digits, "_" and "-"']);
}

function checkBulkPairingId(id: string): void {
  if (!BulkPairingIdSchema.safeParse(id).success)
    throw problems.validation('id: not a bulk pairing id', ['id: bp_ and letters, digits, "_" and "-"']);
}

const tokenOf = (c: MercuriusContext) => c.token;

/** `chargeOf`: what a request's costly fields are charged to (its work budgets). */
export function tournamentResolvers(service: MatchService, chargeOf: (c: MercuriusContext) => ChargeWork) {
  const { tournaments, players, bulkPairings } = service;
  const player = (c: MercuriusContext) => players.player(tokenOf(c), 'match:create');
  /** A mutation on one tournament: the id checked first, then the token, as POST /v1/tournaments/{id}/…. */
  const action =
    (run: (me: Awaited<ReturnType<typeof player>>, id: string) => Promise<TournamentView>) =>
    (_root: unknown, args: { id: string }, c: MercuriusContext) =>
      guard(async () => {
        checkTournamentId(args.id);
        return run(await player(c), args.id);
      });

  return {
    Query: {
      tournament: (_root: unknown, args: { id: string }, c: MercuriusContext) =>
        guard(async () => {
          checkTournamentId(args.id);
          const view = await tournaments.get(args.id);
          chargeOf(c)(workCost.tournamentView(view));
          return view;
        }),
      tournaments: (_root: unknown, args: { status?: string | null; cursor?: string | null; limit?: number | null }) =>
        guard(() => {
          const q = parseInput(
            TournamentListQuery,
            restBody({ status: args.status, cursor: args.cursor, limit: args.limit }),
            'tournament list query',
          );
          return tournaments.list({ status: q.status, limit: q.limit, cursor: q.cursor });
        }),
      tournamentStandings: (_root: unknown, args: { id: string; cursor?: string | null; limit?: number | null }, c: MercuriusContext) =>
        guard(async () => {
          checkTournamentId(args.id);
          const q = parseInput(StandingsPageQuery, restBody({ cursor: args.cursor, limit: args.limit }), 'standings query');
          const page = await tournaments.standings(args.id, q);
          chargeOf(c)(workCost.standings(page.standings.length));
          return page;
        }),
      myBulkPairings: (_root: unknown, _args: unknown, c: MercuriusContext) => guard(async () => bulkPairings.list(await player(c))),
      bulkPairing: (_root: unknown, args: { id: string }, c: MercuriusContext) =>
        guard(async () => {
          checkBulkPairingId(args.id);
          return bulkPairings.get(await player(c), args.id);
        }),
    },
    Mutation: {
      createTournament: (_root: unknown, args: { input: Record<string, unknown> }, c: MercuriusContext) =>
        guard(async () => {
          const body = parseInput(CreateTournamentBody, restBody(args.input), 'tournament');
          return tournaments.create(await player(c), body);
        }),
      joinTournament: (_root: unknown, args: { id: string; deck?: unknown }, c: MercuriusContext) =>
        guard(async () => {
          checkTournamentId(args.id);
          const body = parseInput(JoinTournamentBody, restBody({ deck: args.deck }), 'entry');
          return tournaments.join(await player(c), args.id, body);
        }),
      withdrawFromTournament: action((me, id) => tournaments.withdraw(me, id)),
      startTournament: action((me, id) => tournaments.start(me, id)),
      cancelTournament: action((me, id) => tournaments.cancel(me, id)),
      createBulkPairing: (_root: unknown, args: { input: Record<string, unknown> }, c: MercuriusContext) =>
        guard(async () => {
          const body = parseInput(CreateBulkPairingBody, restBody(args.input), 'bulk pairing');
          const me = await player(c);
          chargeOf(c)(workCost.bulkPairing(body.pairs.length));
          return bulkPairings.create(me, body);
        }),
      cancelBulkPairing: (_root: unknown, args: { id: string }, c: MercuriusContext) =>
        guard(async () => {
          checkBulkPairingId(args.id);
          return bulkPairings.cancel(await player(c), args.id);
        }),
    },
  };
}
