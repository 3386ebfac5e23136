/** Liveness and readiness probes. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchStore } from '../../persistence/types.js';
import { ServiceError } from '../../service/errors.js';
import { HealthResponse, ReadyResponse, problemResponses } from '../schemas.js';

const healthRoutes: FastifyPluginAsyncZod<{ store: MatchStore }> = async (app, { store }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        summary: 'Liveness: the process answers',
        description: 'Answers 200 while the process runs; never rate-limited, never touches the database.',
        response: { 200: HealthResponse },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers',
        description: 'Answers 200 when a cheap database query succeeds, else 503 database-unavailable. Never rate-limited.',
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
