/** /v1/seeks and /v1/me/seeks: standing offers to play anyone compatible (src/service/lobby/seeks.ts). */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { PlayerAuth, PlayerAuthIdempotent } from '../player-schemas.js';
import { problemResponses } from '../schemas.js';
import { OwnSeekListSchema, OwnSeekSchema, SeekBody, SeekListQuery, SeekListSchema, SeekParams } from '../seek-schemas.js';

const seekRoutes: FastifyPluginAsyncZod<{ service: MatchService }> = async (app, { service }) => {
  const seeks = service.seeks;
  const privateAnswer = { 'cache-control': 'private, no-store', vary: 'Authorization' };

  app.post(
    '/seeks',
    {
      config: { openapi: { credentials: 'player', idempotent: true } },
      schema: {
        tags: ['seeks'],
        operationId: 'postSeek',
        summary: 'Post a seek',
        description:
          'Pairs at once with the oldest compatible open seek (same game, time control and rated flag, another player, each ' +
          "within the other's rating range): the answer's status is then paired and matchId the match, already dealt; else the " +
          'seek stays open until it pairs, you cancel it or it expires: a correspondence seek whether you are connected or not, a ' +
          'live one only while your account feed (GET /v1/me/events) is connected (409 seek-needs-feed without one on this server; ' +
          'it expires SEEK_LIVE_LEASE_SECONDS after the feed closes). No clock: 400 seek-needs-correspondence. Needs match:create; ' +
          'more open seeks than the limit: 429 too-many-seeks. Send an Idempotency-Key to make a retry safe: the same key with ' +
          'the same body answers the stored answer (the seek as it was posted) with Idempotent-Replayed: true and posts no second ' +
          'seek; the same key with another body is 422 idempotency-key-reused.',
        headers: PlayerAuthIdempotent,
        body: SeekBody,
        response: { 201: OwnSeekSchema, ...problemResponses(400, 409, 413, 415, 422, 429) },
      },
    },
    async (req, reply) => {
      const { replayed, ...seek } = await seeks.post(bearerToken(req.headers.authorization), req.body, {
        idempotencyKey: req.headers['idempotency-key'],
      });
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).headers(privateAnswer).send(seek);
    },
  );

  app.get(
    '/seeks',
    {
      schema: {
        tags: ['seeks'],
        operationId: 'listSeeks',
        summary: 'Open seeks',
        description:
          'Public: the open seeks, oldest first (the order they pair in), without their decks. Paged like the other lists: ' +
          "`limit` (1..100, default 100) and `cursor` (the previous page's nextCursor; 400 invalid-cursor otherwise) → `nextCursor` " +
          '(null after the last page).',
        querystring: SeekListQuery,
        response: { 200: SeekListSchema, ...problemResponses(400, 429) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      return seeks.page({ game: req.query.game }, { limit: req.query.limit, cursor: req.query.cursor });
    },
  );

  app.get(
    '/me/seeks',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['seeks'],
        operationId: 'listMySeeks',
        summary: 'Your seeks',
        description: 'Newest first, with their status: open, paired (with matchId), cancelled or expired. Needs match:read.',
        headers: PlayerAuth,
        response: { 200: OwnSeekListSchema, ...problemResponses(429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      return { seeks: await seeks.mine(bearerToken(req.headers.authorization)) };
    },
  );

  app.delete(
    '/seeks/:seekId',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['seeks'],
        operationId: 'cancelSeek',
        summary: 'Cancel your seek',
        description:
          'Only an open seek of yours: one that paired, expired or was cancelled already is 409 seek-not-open. Needs match:create.',
        headers: PlayerAuth,
        params: SeekParams,
        response: { 200: OwnSeekSchema, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req, reply) => reply.headers(privateAnswer).send(await seeks.cancel(bearerToken(req.headers.authorization), req.params.seekId)),
  );
};

export default seekRoutes;
