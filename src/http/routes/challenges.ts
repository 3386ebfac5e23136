/** /v1/challenges and /v1/me/challenges: a player invites another (or anyone) to a match. */
import { z } from 'zod';
import { register } from '../../contract/register.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { TimeControlSchema } from '../../core/clock.js';
import { MatchStatusSchema } from '../../contract/match-view.js';
import { ChallengeIdSchema } from '../../contract/ids.js';
import {
  AcceptChallengeBody,
  ChallengeListQuery,
  ChallengeStatusSchema,
  CreateChallengeBody,
  DeclineChallengeBody,
  DeclineReasonSchema,
  GameIdSchema,
} from '../../contract/requests.js';
import { problemResponses } from '../schemas.js';
import { PlayerAuth, PlayerAuthIdempotent } from '../player-schemas.js';

const PlayerRefSchema = z.object({ handle: z.string(), bot: z.boolean() });

export const ChallengeSchema = register(
  z.object({
    id: z.string(),
    status: ChallengeStatusSchema,
    challenger: PlayerRefSchema,
    to: PlayerRefSchema.nullable().describe('The challenged player; null for an open challenge.'),
    allowed: z.array(z.string()).describe('An open challenge only these handles (lower-cased) may accept; empty: anyone.'),
    game: GameIdSchema,
    timeControl: TimeControlSchema,
    rated: z.boolean(),
    seat: z.enum(['p1', 'p2', 'random']).describe("The challenger's seat as asked (random is drawn at the accept)."),
    settings: z.record(z.string(), z.unknown()).describe("The game's settings as sent."),
    declineReason: DeclineReasonSchema.nullable(),
    matchId: z.string().nullable().describe('The match an accepted challenge started.'),
    createdAt: z.string(),
    expiresAt: z.string().describe('An open challenge expires then (CHALLENGE_EXPIRY_LIVE_S, CHALLENGE_EXPIRY_CORRESPONDENCE_S).'),
    closedAt: z.string().nullable(),
  }),
  'Challenge',
  "A challenge as anyone may see it: never the challenger's deck, never a token.",
);

export const ChallengeListSchema = register(
  z.object({
    challenges: z.array(ChallengeSchema),
    nextCursor: z.string().nullable().describe('Send back as cursor for the next page; null after the last.'),
  }),
  'ChallengeList',
);

export const AcceptedChallengeSchema = register(
  z.object({
    challenge: ChallengeSchema,
    match: z.object({
      id: z.string(),
      seat: z.enum(['p1', 'p2']).describe('Your seat.'),
      token: z.string().describe('Your seat token (your player token works too).'),
      version: z.number().int(),
      status: MatchStatusSchema,
    }),
  }),
  'AcceptedChallenge',
);

const ChallengeParams = z.strictObject({ id: ChallengeIdSchema });

const challengeRoutes: FastifyPluginAsyncZod<{ service: MatchService }> = async (app, { service }) => {
  const { players, challenges } = service;
  const privateAnswer = { 'cache-control': 'private, no-store', vary: 'Authorization' };
  const player = (auth: string | undefined, scope: 'match:read' | 'match:create') => players.player(bearerToken(auth), scope);

  app.post(
    '/challenges',
    {
      config: { openapi: { credentials: 'player', location: true } },
      schema: {
        tags: ['challenges'],
        operationId: 'createChallenge',
        summary: 'Challenge a player (or anyone)',
        description:
          'With `to`, the named player may accept (with a deck) or decline; without it the challenge is open: anyone, or only the ' +
          '`allowed` handles, may accept. It stays open until accepted, declined, cancelled or expired, whichever is written first. ' +
          'Needs match:create. A player may create CHALLENGES_PER_HOUR per hour: one more is 429 too-many-challenges; so is a ' +
          'challenge to a player who already has CHALLENGE_MAX_PENDING_PER_RECIPIENT open challenges waiting.',
        headers: PlayerAuth,
        body: CreateChallengeBody,
        response: { 201: ChallengeSchema, ...problemResponses(400, 404, 413, 415, 422, 429) },
      },
    },
    async (req, reply) => {
      const c = await challenges.create(await player(req.headers.authorization, 'match:create'), req.body);
      return reply.code(201).headers(privateAnswer).header('location', `/v1/challenges/${c.id}`).send(c);
    },
  );

  app.get(
    '/challenges/:id',
    {
      schema: {
        tags: ['challenges'],
        operationId: 'getChallenge',
        summary: 'A challenge',
        description: 'Public (a link to an open challenge is shared): who, which game, time control, rated, seat, settings, status.',
        params: ChallengeParams,
        response: { 200: ChallengeSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-cache');
      return challenges.get(req.params.id);
    },
  );

  app.get(
    '/me/challenges',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['challenges'],
        operationId: 'listMyChallenges',
        summary: 'Your challenges, incoming or outgoing',
        description:
          'direction=in: sent to you by handle; out: yours. Newest first, paged (cursor + limit → nextCursor). Needs match:read.',
        headers: PlayerAuth,
        querystring: ChallengeListQuery,
        response: { 200: ChallengeListSchema, ...problemResponses(400, 429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      const me = await player(req.headers.authorization, 'match:read');
      return challenges.list(me, req.query.direction, { status: req.query.status, limit: req.query.limit, cursor: req.query.cursor });
    },
  );

  app.post(
    '/challenges/:id/accept',
    {
      config: { openapi: { credentials: 'player', idempotent: true } },
      schema: {
        tags: ['challenges'],
        operationId: 'acceptChallenge',
        summary: 'Accept a challenge: the match starts',
        description:
          "With your deck. The match is created with the challenge's game, time control, rated flag and settings, and the challenge " +
          'is marked accepted in the same transaction: a challenge cancelled, declined, expired or accepted first is 409 challenge-closed ' +
          'and starts no match. Needs match:create. Send an Idempotency-Key to make a retry safe: the same key with the same ' +
          'request (challenge and deck) answers the stored answer with Idempotent-Replayed: true, the same match, and a new seat ' +
          'token (tokens are stored hashed, so the lost one cannot be sent again: the replay replaces it, and the one sent before ' +
          'stops working; your player token plays the seat too); the same key with another request is 422 idempotency-key-reused.',
        headers: PlayerAuthIdempotent,
        params: ChallengeParams,
        body: AcceptChallengeBody,
        response: { 200: AcceptedChallengeSchema, ...problemResponses(400, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      const { replayed, ...answer } = await challenges.accept(
        await player(req.headers.authorization, 'match:create'),
        req.params.id,
        req.body,
        {
          idempotencyKey: req.headers['idempotency-key'],
        },
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return answer;
    },
  );

  app.post(
    '/challenges/:id/decline',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['challenges'],
        operationId: 'declineChallenge',
        summary: 'Decline a challenge sent to you',
        description: 'With a reason key (default generic). Only the challenged player of a challenge by handle. Needs match:create.',
        headers: PlayerAuth,
        params: ChallengeParams,
        body: DeclineChallengeBody,
        response: { 200: ChallengeSchema, ...problemResponses(400, 404, 409, 413, 415, 429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      return challenges.decline(await player(req.headers.authorization, 'match:create'), req.params.id, req.body.reason);
    },
  );

  app.post(
    '/challenges/:id/cancel',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['challenges'],
        operationId: 'cancelChallenge',
        summary: 'Cancel your challenge',
        description: 'Only its challenger, while it is open. Needs match:create.',
        headers: PlayerAuth,
        params: ChallengeParams,
        response: { 200: ChallengeSchema, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      reply.headers(privateAnswer);
      return challenges.cancel(await player(req.headers.authorization, 'match:create'), req.params.id);
    },
  );
};

export default challengeRoutes;
