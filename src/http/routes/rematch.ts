/** /v1/matches/{id}/rematch…: offer, accept, decline a rematch of a finished match; the offerer's new seat. */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { AuthHeaders, JoinResponse, MatchIdParams, problemResponses } from '../schemas.js';
import { RematchViewSchema } from '../../contract/match-view.js';
import { SeatSchema } from '../../core/seat-schema.js';

export interface RematchRoutesOptions {
  service: MatchService;
}

const RematchAnswer = z
  .object({ rematch: RematchViewSchema })
  .meta({ id: 'RematchAnswer', description: 'The rematch offer as it is now.' });
export const RematchSeat = z
  .object({
    id: z.string().describe('The rematch.'),
    seat: SeatSchema,
    token: z.string().describe('Your seat token in the rematch (shown once).'),
  })
  .meta({ id: 'RematchSeat', description: "The offerer's seat in the accepted rematch." });

const SEAT = 'With a seat token of the finished match (or a player token of its player).';

const rematchRoutes: FastifyPluginAsyncZod<RematchRoutesOptions> = async (app, { service }) => {
  app.post(
    '/matches/:id/rematch',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['matches'],
        operationId: 'offerRematch',
        summary: 'Offer a rematch',
        description:
          `${SEAT} Either seat of a finished match offers a rematch: seats swapped, same game, decks, settings, time control and rated flag. ` +
          'The offer expires after REMATCH_OFFER_TTL_SECONDS (default one day) unless answered. ' +
          '409 rematch-unavailable: the match is not over, is a sandbox, already has an open or accepted offer.',
        params: MatchIdParams,
        headers: AuthHeaders,
        response: { 200: RematchAnswer, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req) => service.offerRematch(req.params.id, bearerToken(req.headers.authorization)),
  );

  app.post(
    '/matches/:id/rematch/accept',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['matches'],
        operationId: 'acceptRematch',
        summary: 'Accept the rematch',
        description:
          `${SEAT} The seat that did not offer accepts: the new match starts, and the answer holds your seat token in it (shown once). ` +
          'The offerer takes its own with POST /v1/matches/{id}/rematch/seat. Of two accepts, or an accept and a decline, one is written; ' +
          'the other is a 409 rematch-unavailable.',
        params: MatchIdParams,
        headers: AuthHeaders,
        response: { 201: JoinResponse, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const r = await service.acceptRematch(req.params.id, bearerToken(req.headers.authorization));
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(r);
    },
  );

  app.post(
    '/matches/:id/rematch/decline',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['matches'],
        operationId: 'declineRematch',
        summary: 'Decline the rematch',
        description: `${SEAT} The seat that did not offer declines; the match view shows the offer as declined.`,
        params: MatchIdParams,
        headers: AuthHeaders,
        response: { 200: RematchAnswer, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req) => service.declineRematch(req.params.id, bearerToken(req.headers.authorization)),
  );

  app.post(
    '/matches/:id/rematch/seat',
    {
      config: { openapi: { credentials: 'seat-or-player' } },
      schema: {
        tags: ['matches'],
        operationId: 'claimRematchSeat',
        summary: "The offerer's seat token in the rematch",
        description:
          `${SEAT} Once the offer is accepted, the offering seat gets its token in the new match, once ` +
          '(409 rematch-seat-claimed after, or for the accepting seat, whose token came with the accept).',
        params: MatchIdParams,
        headers: AuthHeaders,
        response: { 200: RematchSeat, ...problemResponses(400, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const r = await service.claimRematchSeat(req.params.id, bearerToken(req.headers.authorization));
      reply.header('cache-control', 'no-store');
      return r;
    },
  );
};

export default rematchRoutes;
