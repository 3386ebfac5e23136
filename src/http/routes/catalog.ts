/** /v1/cards and /v1/decks: the card set and its starter decks. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match-service.js';
import { CardsResponse, DecksResponse, problemResponses } from '../schemas.js';

const catalogRoutes: FastifyPluginAsyncZod<{ service: MatchService }> = async (app, { service }) => {
  const cs = service.cardSet;
  app.get(
    '/cards',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'listCards',
        summary: 'The card set',
        description: 'Every card definition of the card set new matches use (a placeholder set for now).',
        response: { 200: CardsResponse, ...problemResponses(429) },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { id: cs.id, name: cs.name, version: cs.version, placeholder: cs.placeholder, hash: cs.hash, cards: cs.file.cards };
    },
  );
  app.get(
    '/decks',
    {
      schema: {
        tags: ['catalogue'],
        operationId: 'listDecks',
        summary: 'Starter decks',
        description: 'Deck ids usable as {"starter": id} in POST /v1/matches and join.',
        response: { 200: DecksResponse, ...problemResponses(429) },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { cardSetId: cs.id, decks: service.starterDecks().map((d) => ({ id: d.id, name: d.name, cards: d.cards })) };
    },
  );
};

export default catalogRoutes;
