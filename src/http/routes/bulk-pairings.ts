/** /v1/bulk-pairings: an organizer's many matches between listed pairs of players, created together at a set time. */
import { z } from 'zod';
import { register } from '../../contract/register.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import { workCost } from '../../service/work-costs.js';
import type { Budgets } from '../budgets.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { TimeControlSchema } from '../../core/clock.js';
import { BulkPairingIdSchema } from '../../contract/ids.js';
import { CreateBulkPairingBody, GameIdSchema } from '../../contract/requests.js';
import { problemResponses } from '../schemas.js';
import { PlayerAuth } from '../player-schemas.js';

export const BulkPairingSchema = register(
  z.object({
    id: z.string(),
    game: GameIdSchema,
    timeControl: TimeControlSchema,
    rated: z.boolean(),
    pairAt: z.string().describe('When the matches are (or were) created.'),
    status: z
      .enum(['scheduled', 'created', 'canceled'])
      .describe('scheduled until pairAt; then created (once, whichever node gets there); canceled by you before.'),
    createdAt: z.string(),
    pairedAt: z.string().nullable(),
    pairs: z.array(
      z.object({
        board: z.number().int(),
        p1: z.string().describe('Handle.'),
        p2: z.string().describe('Handle.'),
        matchId: z.string().nullable().describe('The match, once created.'),
        unpairedReason: z
          .enum(['consent-revoked'])
          .nullable()
          .describe(
            'Why the board has no match although the pairing was created: consent-revoked, a player revoked the token given for it before pairAt. Null otherwise.',
          ),
      }),
    ),
  }),
  'BulkPairing',
  'A bulk pairing as its organizer sees it: the pairs by handle and their matches. No token, no deck.',
);

const Params = z.strictObject({ id: BulkPairingIdSchema });

const bulkPairingRoutes: FastifyPluginAsyncZod<{ service: MatchService; budgets: Budgets }> = async (app, { service, budgets }) => {
  const { players, bulkPairings } = service;
  const privateAnswer = { 'cache-control': 'private, no-store', vary: 'Authorization' };
  const organizer = (auth: string | undefined) => players.player(bearerToken(auth), 'match:create');

  app.post(
    '/bulk-pairings',
    {
      config: { openapi: { credentials: 'player', location: true } },
      schema: {
        tags: ['tournaments'],
        operationId: 'createBulkPairing',
        summary: 'Create many matches between listed pairs of players',
        description:
          "lichess's bulk pairing: each pair names its two players by player tokens with pairing:play (and no other scope) that they gave you. " +
          "Each token is bound to this pairing when it is created: it reads and acts in the pairing's matches only, and no other pairing takes it. Every token is checked " +
          'now (400 validation-failed names each unusable entry, never the token) and none is stored. The matches are created together at ' +
          "pairAt (now by default), in one transaction, once, whichever node gets there; each player's account feed hears match-started; a board whose " +
          'player revoked the token before then gets no match (unpairedReason consent-revoked). pairAt is at most 30 days ahead (400 pair-at-out-of-range); ' +
          'an organizer pairs at most BULK_PAIRING_PER_MINUTE matches a minute (429 too-many-bulk-pairings, Retry-After). Needs match:create.',
        headers: PlayerAuth,
        body: CreateBulkPairingBody,
        response: { 201: BulkPairingSchema, ...problemResponses(400, 404, 413, 415, 422, 429) },
      },
    },
    async (req, reply) => {
      const who = await organizer(req.headers.authorization);
      // Each match is dealt and written when the pairing comes due: charged now, by the matches.
      await budgets.costly(req);
      budgets.work(req)(workCost.bulkPairing(req.body.pairs.length));
      const b = await bulkPairings.create(who, req.body);
      return reply.code(201).headers(privateAnswer).header('location', `/v1/bulk-pairings/${b.id}`).send(b);
    },
  );

  app.get(
    '/bulk-pairings',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['tournaments'],
        operationId: 'listBulkPairings',
        summary: 'Your bulk pairings, newest first (the last 100)',
        description: 'Each with its pairs by handle, its status and its matches once created. Needs match:create.',
        headers: PlayerAuth,
        response: { 200: z.object({ bulkPairings: z.array(BulkPairingSchema) }), ...problemResponses(429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      return { bulkPairings: await bulkPairings.list(await organizer(req.headers.authorization)) };
    },
  );

  app.get(
    '/bulk-pairings/:id',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['tournaments'],
        operationId: 'getBulkPairing',
        summary: 'One of your bulk pairings',
        description: "Its organizer's only: anyone else gets 404.",
        headers: PlayerAuth,
        params: Params,
        response: { 200: BulkPairingSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      return bulkPairings.get(await organizer(req.headers.authorization), req.params.id);
    },
  );

  app.post(
    '/bulk-pairings/:id/cancel',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['tournaments'],
        operationId: 'cancelBulkPairing',
        summary: 'Cancel a scheduled bulk pairing',
        description: 'Before pairAt only (409 bulk-pairing-closed once its matches exist).',
        headers: PlayerAuth,
        params: Params,
        response: { 200: BulkPairingSchema, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      return bulkPairings.cancel(await organizer(req.headers.authorization), req.params.id);
    },
  );
};

export default bulkPairingRoutes;
