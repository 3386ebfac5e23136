/** Liveness and readiness probes. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchStore } from '../../persistence/types.js';
import { ServiceError } from '../../service/errors.js';
import { HealthResponse, ReadyResponse, problemResponses } from '../schemas.js';

const healthRoutes: FastifyPluginAsyncZod<{ store: MatchStore }> = async (app, { store }) => {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'Liveness: the process answers', response: { 200: HealthResponse } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers',
        response: { 200: ReadyResponse, ...problemResponses(503) },
      },
    },
    async (req) => {
      try {
        // Any cheap query will do: the store has no dedicated ping.
        await store.getMatch('readyz-probe');
      } catch (err) {
        req.log.warn({ err }, 'readiness probe failed');
        throw new ServiceError({ status: 503, code: 'database-unavailable', title: 'Database unavailable', detail: 'The database did not answer.' });
      }
      return { status: 'ready' as const };
    },
  );
};

export default healthRoutes;
