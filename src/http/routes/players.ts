/** /v1/players and /v1/me: registered players, their profiles and personal API tokens. */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import type { Budgets } from '../budgets.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { Readable } from 'node:stream';
import { MatchReplaySchema, MatchSummarySchema, problemResponses } from '../schemas.js';
import {
  NewTokenBody,
  NewTokenSchema,
  PlayerAuth,
  PlayerParams,
  PlayerExportQuery,
  PlayerSchema,
  ProfileSchema,
  LeaderboardQuery,
  LeaderboardSchema,
  RegisterPlayerBody,
  RegisteredSchema,
  TokenListSchema,
  TokenParams,
} from '../player-schemas.js';
import { sendAsIs } from '../send-as-is.js';

const playerRoutes: FastifyPluginAsyncZod<{ service: MatchService; budgets: Budgets }> = async (app, { service, budgets }) => {
  const players = service.players;
  const privateAnswer = { 'cache-control': 'private, no-store', vary: 'Authorization' };

  app.post(
    '/players',
    {
      schema: {
        tags: ['players'],
        operationId: 'registerPlayer',
        summary: 'Register a player',
        description:
          'Reserves the handle (case-insensitively) and returns a personal API token with every scope, once. With it you create, ' +
          "join and play as that player (your seats are verified), without handling seat tokens. The service's own words " +
          '(p1, p2, spectator, admin, system, ai-…; the list is in docs/api.md) cannot be registered: 409 handle-not-allowed.',
        body: RegisterPlayerBody,
        response: { 201: RegisteredSchema, ...problemResponses(400, 409, 413, 415, 429) },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .headers(privateAnswer)
        .send(await players.register(req.body)),
  );

  app.get(
    '/players/:handle',
    {
      schema: {
        tags: ['players'],
        operationId: 'getPlayer',
        summary: "A player's profile",
        description:
          'Public: the handle as registered, whether it is a bot, since when; ratings per game and time-control family (with RD); ' +
          'results per game (played, won, lost, drawn, timed out, aborted); favourite decks.',
        params: PlayerParams,
        response: { 200: ProfileSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      return service.ratings.profile(req.params.handle);
    },
  );

  app.get(
    '/leaderboard',
    {
      schema: {
        tags: ['players'],
        operationId: 'getLeaderboard',
        summary: 'Leaderboard',
        description:
          'The highest ratings of one game and time-control family (default evons, correspondence). Provisional ratings ' +
          '(RD above 110: too few rated games) are left out, as on lichess.',
        querystring: LeaderboardQuery,
        response: { 200: LeaderboardSchema, ...problemResponses(400, 429) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      const { game, timeControl, limit } = req.query;
      return service.ratings.leaderboard(game, timeControl, limit);
    },
  );

  app.get(
    '/players/:handle/matches/export',
    {
      config: { openapi: { media: 'ndjson-export', paged: true } },
      schema: {
        tags: ['players', 'history'],
        operationId: 'exportPlayerMatches',
        summary: "A player's whole history (NDJSON)",
        description:
          'Every match of the registered player, newest first, streamed as NDJSON (application/x-ndjson): one MatchSummary per ' +
          'line, or with ?events=true the full public record (the spectator MatchReplay file) per line, at most 20 per answer: ' +
          'the `Link` header (rel="next") names the next part. Public, like the history.',
        params: PlayerParams,
        querystring: PlayerExportQuery,
        response: {
          200: z.union([MatchSummarySchema, MatchReplaySchema]).describe('NDJSON: one object per line.'),
          ...problemResponses(400, 404, 429),
        },
      },
    },
    async (req, reply) => {
      // With events each file is charged by its events, and those not in the cache are built a few at a time per node.
      if (req.query.events) await budgets.costly(req);
      const { lines, next } = await service.playerExport(req.params.handle, {
        events: req.query.events,
        cursor: req.query.cursor,
        run: (work) => budgets.gate.run(work, { wait: true }),
        charge: budgets.work(req),
      });
      if (next !== null) {
        const q = new URLSearchParams({ events: 'true', cursor: next });
        reply.header('link', `</v1/players/${encodeURIComponent(req.params.handle)}/matches/export?${q.toString()}>; rel="next"`);
      }
      reply.header('content-type', 'application/x-ndjson; charset=utf-8').header('cache-control', 'no-cache');
      reply.header('content-disposition', `attachment; filename="${req.params.handle}-matches.ndjson"`);
      // Sent as it is made, not through the response schema's serializer.
      return sendAsIs(reply, Readable.from(lines));
    },
  );

  app.get(
    '/me',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['players'],
        operationId: 'getMe',
        summary: 'The player of this token',
        description: 'Needs a player token (match:read).',
        headers: PlayerAuth,
        response: { 200: PlayerSchema, ...problemResponses(429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      const p = await players.player(bearerToken(req.headers.authorization), 'match:read');
      return { handle: p.handle, bot: p.bot, createdAt: p.createdAt.toISOString() };
    },
  );

  app.get(
    '/me/tokens',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['players'],
        operationId: 'listMyTokens',
        summary: 'Your API tokens',
        description: 'Their ids, labels, scopes and state; never the tokens themselves.',
        headers: PlayerAuth,
        response: { 200: TokenListSchema, ...problemResponses(429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      return { tokens: await players.tokens(bearerToken(req.headers.authorization)) };
    },
  );

  app.post(
    '/me/tokens',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['players'],
        operationId: 'createMyToken',
        summary: 'A new API token',
        description:
          'With the scopes you choose (e.g. a bot that may only play: match:read and match:play); shown once. Needs token:write.',
        headers: PlayerAuth,
        body: NewTokenBody,
        response: { 201: NewTokenSchema, ...problemResponses(400, 413, 415, 429) },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .headers(privateAnswer)
        .send(await players.addToken(bearerToken(req.headers.authorization), req.body)),
  );

  app.delete(
    '/me/tokens/:tokenId',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['players'],
        operationId: 'revokeMyToken',
        summary: 'Revoke an API token',
        description: 'It stops working at once. Needs token:write.',
        headers: PlayerAuth,
        params: TokenParams,
        response: { 204: z.null().describe('Revoked.'), ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      await players.revokeToken(bearerToken(req.headers.authorization), req.params.tokenId);
      return reply.code(204).headers(privateAnswer).send(null);
    },
  );
};

export default playerRoutes;
