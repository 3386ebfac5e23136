/** /v1/tournaments: Swiss and round-robin tournaments that an organizer creates and players enter. */
import { z } from 'zod';
import { register } from '../../contract/register.js';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import type { Budgets } from '../budgets.js';
import { workCost } from '../../service/work-costs.js';
import { standingsCsv, type TournamentView } from '../../service/tournaments/tournament-views.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { TimeControlSchema } from '../../core/clock.js';
import { TournamentIdSchema } from '../../contract/ids.js';
import {
  CreateTournamentBody,
  GameIdSchema,
  JoinTournamentBody,
  StandingsPageQuery,
  TournamentFormatSchema,
  TournamentListQuery,
  TournamentStatusSchema,
} from '../../contract/requests.js';
import { problemResponses } from '../schemas.js';
import { PlayerAuth } from '../player-schemas.js';

const BoardResultSchema = z.enum(['p1', 'p2', 'draw', 'double-forfeit', 'bye']);

const TournamentBoardSchema = register(
  z.object({
    board: z.number().int().describe('The board number in its round (1 first).'),
    p1: z.string().describe("The first seat's handle (for a bye, the player who has it)."),
    p2: z.string().nullable().describe("The second seat's handle; null for a bye."),
    matchId: z
      .string()
      .nullable()
      .describe(
        'The match (watch it at /watch/{matchId}); null for a bye or a board scored without one (a withdrawn player in a round robin).',
      ),
    result: BoardResultSchema.nullable().describe('p1 or p2 (that seat won), draw, double-forfeit, or bye; null while the match runs.'),
    forfeit: z.boolean().describe('Scored by forfeit: a no-show (an aborted match) or a withdrawn opponent.'),
  }),
  'TournamentBoard',
);

export const TournamentSchema = register(
  z.object({
    id: z.string(),
    name: z.string(),
    organizer: z.string().describe("The organizer's handle."),
    game: GameIdSchema,
    format: TournamentFormatSchema,
    rounds: z
      .number()
      .int()
      .nullable()
      .describe(
        'How many rounds. A round robin: set at the start. A Swiss: from the start at most n - 1 for an even field of n, n for an odd one (the most it can pair without a repeat). Finished: the rounds played.',
      ),
    timeControl: TimeControlSchema,
    rated: z.boolean(),
    deckRule: z.enum(['starter', 'any']),
    maxPlayers: z.number().int(),
    invited: z.array(z.string()).describe('Only these handles (lower-cased) may enter; empty: anyone.'),
    entryClosesAt: z.string().nullable(),
    startsAt: z.string().nullable().describe('The scheduled start; null: the organizer starts it.'),
    roundHours: z.number().int().nullable().describe("A round's deadline in hours; null: a round lasts until its matches end."),
    status: TournamentStatusSchema,
    seed: z
      .string()
      .describe('Recorded at creation: with the ratings at entry it gives the initial order, from which every pairing follows.'),
    round: z.number().int().describe('The round running (0 before the start; the last round once finished).'),
    roundEndsAt: z.string().nullable().describe("The running round's deadline."),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    players: z.array(
      z.object({
        handle: z.string(),
        bot: z.boolean(),
        rating: z.number().int().describe('The rating at entry (the initial order sorts by it).'),
        withdrawn: z.boolean(),
      }),
    ),
    pairings: z
      .array(z.object({ round: z.number().int(), boards: z.array(TournamentBoardSchema) }))
      .describe('Every round started so far, its boards in order.'),
  }),
  'Tournament',
  'A tournament as anyone may see it: never a deck, never a token.',
);

export const TournamentListSchema = register(
  z.object({
    tournaments: z.array(TournamentSchema),
    nextCursor: z.string().nullable().describe('Send back as cursor for the next page; null after the last.'),
  }),
  'TournamentList',
);

const StandingSchema = register(
  z.object({
    rank: z.number().int(),
    handle: z.string(),
    points: z.number().describe('Win 1, draw ½, loss 0; a bye and a forfeit win 1, a forfeit loss 0.'),
    games: z.number().int().describe('Boards played against an opponent (forfeits included, byes not).'),
    byes: z.number().int(),
    buchholz: z.number().describe("The sum of the opponents' points."),
    sonnebornBerger: z.number().describe('The points of the opponents beaten, plus half of those drawn with.'),
    directEncounter: z.number().describe('Points scored against the players with the same points.'),
    withdrawn: z.boolean(),
  }),
  'TournamentStanding',
);

export const StandingsSchema = register(
  z.object({
    tournamentId: z.string(),
    status: TournamentStatusSchema,
    round: z.number().int(),
    final: z.boolean().describe('The tournament is finished: these are the final standings.'),
    standings: z
      .array(StandingSchema)
      .describe('Ranked by points, then direct encounter, Buchholz and Sonneborn-Berger: this page of them (at most 100 rows).'),
    nextCursor: z.string().nullable().describe('Send back as cursor for the next page of standings; null after the last.'),
    crosstable: z
      .object({
        players: z.array(z.string()).describe('Handles in standings order: row i and column i are the same player.'),
        points: z.array(z.number()),
        cells: z
          .array(z.array(z.array(z.string())))
          .describe(
            "cells[i][j]: player i's results against player j in round order (1, ½, 0, + forfeit win, - forfeit loss); [] if they never met.",
          ),
      })
      .nullable()
      .describe('Every result, player by player; null for a field of more than 100 players (the CSV export has every result).'),
  }),
  'TournamentStandings',
);

const Params = z.strictObject({ id: TournamentIdSchema });

const tournamentRoutes: FastifyPluginAsyncZod<{ service: MatchService; budgets: Budgets }> = async (app, { service, budgets }) => {
  const { players, tournaments } = service;
  const privateAnswer = { 'cache-control': 'private, no-store', vary: 'Authorization' };
  const player = (auth: string | undefined) => players.player(bearerToken(auth), 'match:create');

  app.post(
    '/tournaments',
    {
      config: { openapi: { credentials: 'player', location: true } },
      schema: {
        tags: ['tournaments'],
        operationId: 'createTournament',
        summary: 'Create a tournament (you organize it)',
        description:
          'Swiss (rounds paired by the Monrad system) or round robin (Berger tables), with one time control, deck rule and field cap for ' +
          'all. Players enter until the start; the first round starts at startsAt or when you start it, each next one when the last match ' +
          'of the round before ends (or its deadline passes). Needs match:create.',
        headers: PlayerAuth,
        body: CreateTournamentBody,
        response: { 201: TournamentSchema, ...problemResponses(400, 404, 413, 415, 422, 429) },
      },
    },
    async (req, reply) => {
      const t = await tournaments.create(await player(req.headers.authorization), req.body);
      return reply.code(201).headers(privateAnswer).header('location', `/v1/tournaments/${t.id}`).send(t);
    },
  );

  app.get(
    '/tournaments',
    {
      schema: {
        tags: ['tournaments'],
        operationId: 'listTournaments',
        summary: 'Tournaments, newest first',
        description: 'Public. Paged (cursor + limit → nextCursor); status filters.',
        querystring: TournamentListQuery,
        response: { 200: TournamentListSchema, ...problemResponses(400, 429) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      return tournaments.list({ status: req.query.status, limit: req.query.limit, cursor: req.query.cursor });
    },
  );

  app.get(
    '/tournaments/:id',
    {
      schema: {
        tags: ['tournaments'],
        operationId: 'getTournament',
        summary: 'A tournament: its settings, players and every round’s pairings',
        description: 'Public. The page for people is /tournament/{id}.',
        params: Params,
        response: { 200: TournamentSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      await budgets.costly(req);
      const view = await tournaments.get(req.params.id);
      budgets.work(req)(workCost.tournamentView(view));
      return view;
    },
  );

  app.get(
    '/tournaments/:id/standings',
    {
      schema: {
        tags: ['tournaments'],
        operationId: 'getTournamentStandings',
        summary: 'Standings and crosstable (JSON)',
        description:
          'Public. Updated as each match ends; final once the tournament is finished. At most 100 rows per page (cursor, limit → ' +
          'nextCursor); the crosstable only when the field fits one page. Every row and result at once: /standings.csv.',
        params: Params,
        querystring: StandingsPageQuery,
        response: { 200: StandingsSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      await budgets.costly(req);
      const page = await tournaments.standings(req.params.id, { cursor: req.query.cursor, limit: req.query.limit });
      // Computed once per change and kept: what a page costs is its rows, sent.
      budgets.work(req)(workCost.standings(page.standings.length));
      return page;
    },
  );

  app.get(
    '/tournaments/:id/standings.csv',
    {
      config: { openapi: { media: 'csv' } },
      schema: {
        tags: ['tournaments'],
        operationId: 'exportTournamentStandingsCsv',
        summary: 'Standings as CSV',
        description:
          'Public. RFC 4180, one row per player in standings order: rank, handle, points, the tiebreaks, games, byes, withdrawn, then one ' +
          'column per round: the result symbol (1, ½, 0, + forfeit win, - forfeit loss, * running) and the opponent, or bye.',
        params: Params,
        response: { 200: z.string().describe('The standings as CSV.'), ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      // Every row and result at once (a 1,000-player field's is megabytes): charged by its cells.
      await budgets.costly(req);
      const { tournament, standings } = await tournaments.withStandings(req.params.id);
      budgets.work(req)(workCost.standingsCsv(standings.standings.length, tournament.rounds ?? tournament.pairings.length));
      return (reply as FastifyReply)
        .header('cache-control', 'no-cache')
        .header('content-disposition', `attachment; filename="${req.params.id}-standings.csv"`)
        .type('text/csv; charset=utf-8')
        .send(standingsCsv(standings, tournament));
    },
  );

  const action = (
    path: string,
    operationId: string,
    summary: string,
    description: string,
    run: (me: Awaited<ReturnType<typeof player>>, id: string, body: unknown) => Promise<TournamentView>,
    body?: z.ZodType,
  ) =>
    app.post(
      `/tournaments/:id/${path}`,
      {
        config: { openapi: { credentials: 'player' } },
        schema: {
          tags: ['tournaments'],
          operationId,
          summary,
          description: `${description} Needs match:create.`,
          headers: PlayerAuth,
          params: Params,
          ...(body ? { body } : {}),
          response: { 200: TournamentSchema, ...problemResponses(400, 403, 404, 409, 413, 415, 422, 429) },
        },
      },
      async (req, reply) => {
        reply.headers(privateAnswer);
        return run(await player(req.headers.authorization), (req.params as { id: string }).id, req.body);
      },
    );

  action(
    'join',
    'joinTournament',
    'Enter a tournament',
    "With the deck you will play every round (checked now against the tournament's deck rule; never shown). While it is open, its entry window open, " +
      'you are invited (if it has a list) and its field is not full (409 tournament-full).',
    (me, id, body) => tournaments.join(me, id, body as z.infer<typeof JoinTournamentBody>),
    JoinTournamentBody,
  );
  action(
    'withdraw',
    'withdrawFromTournament',
    'Withdraw from a tournament',
    'Before the start you leave the field. After it you are not paired again from the next round on (a match you are playing goes on; your ' +
      'results stay, and in a round robin your remaining boards are forfeits).',
    (me, id) => tournaments.withdraw(me, id),
  );
  action(
    'start',
    'startTournament',
    'Start your tournament now',
    'The organizer only, while it is open, with at least 2 players: the first round is paired and its matches start.',
    (me, id) => tournaments.start(me, id),
  );
  action('cancel', 'cancelTournament', 'Cancel your tournament', 'The organizer only, before the start.', (me, id) =>
    tournaments.cancel(me, id),
  );
};

export default tournamentRoutes;
