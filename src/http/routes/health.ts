/** Liveness and readiness probes. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchStore } from '../../persistence/types.js';
import type { LiveUpdates } from '../../service/live/live.js';
import { ServiceError } from '../../service/errors.js';
import { databaseUnavailable } from '../problems.js';
import { HealthResponse, ReadyResponse, problemResponses } from '../schemas.js';

export interface HealthOptions {
  store: MatchStore;
  live?: LiveUpdates;
  /** /readyz answers 503 when the database has not answered within this (default 2000 ms). */
  readyTimeoutMs?: number;
}

const healthRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, { store, live, readyTimeoutMs = 2_000 }) => {
  app.get(
    '/healthz',
    {
      config: { openapi: { probe: true } },
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
      config: { openapi: { probe: true } },
      schema: {
        tags: ['health'],
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers and live updates are subscribed',
        description:
          'Answers 200 when a cheap database query succeeds within READY_TIMEOUT_MS and the live-update listener ' +
          'is up; else 503 database-unavailable or live-updates-unavailable. Never rate-limited.',
        response: { 200: ReadyResponse, ...problemResponses(503) },
      },
    },
    async (req) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        // Any cheap query will do: the store has no dedicated ping. A hung database must not
        // hang the probe, hence its own deadline.
        await Promise.race([
          store.getMatch('readyz-probe'),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${readyTimeoutMs} ms`)), readyTimeoutMs);
          }),
        ]);
      } catch (err) {
        req.log.warn({ err }, 'readiness probe failed');
        throw databaseUnavailable('The database did not answer.');
      } finally {
        clearTimeout(timer);
      }
      if (live?.state === 'down') {
        req.log.warn({ downSince: live.downSince }, 'readiness probe failed: live updates down');
        throw new ServiceError({
          kind: 'unavailable',
          code: 'live-updates-unavailable',
          title: 'Live updates unavailable',
          detail: 'The live-update subscription is being re-established; event streams may lag.',
        });
      }
      return { status: 'ready' as const };
    },
  );
};

export default healthRoutes;
