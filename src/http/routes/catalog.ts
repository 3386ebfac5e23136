/**
 * The catalogue: /v1/games (every hosted game) with each game's cards and starter decks, and
 * /v1/cards, /v1/decks (Evons's, as before). Public, cacheable data.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { defaultCardSet } from '../../games/evons/index.js';
import { gameRuleset, listGames } from '../../service/match/games.js';
import {
  CardsResponse,
  DecksResponse,
  GameCardsResponse,
  GameDecksResponse,
  GameIdParams,
  GamesResponse,
  problemResponses,
} from '../schemas.js';

const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  // /v1/cards and /v1/decks predate the games catalogue: they serve Evons's, as before.
  const cs = defaultCardSet();
  app.get(
    '/games',
    {
      config: { openapi: { publicCache: true } },
      schema: {
        tags: ['catalogue'],
        operationId: 'listGames',
        summary: 'The hosted games',
        description: 'Every game of the registry, with its rules and engine versions, card set and starter decks.',
        response: { 200: GamesResponse, ...problemResponses(429) },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { games: listGames() };
    },
  );
  app.get(
    '/games/:game/cards',
    {
      config: { openapi: { publicCache: true } },
      schema: {
        tags: ['catalogue'],
        operationId: 'listGameCards',
        summary: "A game's card set",
        description: "Every card definition of the game's card set, in that game's own card shape.",
        params: GameIdParams,
        response: { 200: GameCardsResponse, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const r = gameRuleset(req.params.game);
      reply.header('cache-control', 'public, max-age=300');
      const { id, name, hash, placeholder, cards } = r.cardSet;
      return { game: r.id, id, name, hash, placeholder, cards: cards as { id: string; name: string }[] };
    },
  );
  app.get(
    '/games/:game/decks',
    {
      config: { openapi: { publicCache: true } },
      schema: {
        tags: ['catalogue'],
        operationId: 'listGameDecks',
        summary: "A game's starter decks",
        description: 'Ready-made decks of the game, as card ids with counts.',
        params: GameIdParams,
        response: { 200: GameDecksResponse, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const r = gameRuleset(req.params.game);
      reply.header('cache-control', 'public, max-age=300');
      return { game: r.id, cardSetId: r.cardSet.id, decks: r.starterDecks.map((d) => ({ id: d.id, name: d.name, cards: d.cards })) };
    },
  );
  app.get(
    '/cards',
    {
      config: { openapi: { publicCache: true } },
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
      config: { openapi: { publicCache: true } },
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
      return { cardSetId: cs.id, decks: cs.file.starterDecks.map((d) => ({ id: d.id, name: d.name, cards: d.cards })) };
    },
  );
};

export default catalogRoutes;
