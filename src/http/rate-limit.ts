/**
 * Rate limits, as the lichess API does them: a clear 429 (problem+json, code `rate-limited`, with
 * Retry-After) instead of a slow or failing server. A client is its seat token when it sends one
 * (so two players behind one address do not share a budget), else its address. Health probes are
 * never limited. Counters live in each node's memory.
 */
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { ServiceError } from '../service/errors.js';
import { hashToken } from '../service/tokens.js';

export function rateLimitOptions(perMinute: number): RateLimitPluginOptions {
  return {
    max: perMinute,
    timeWindow: 60_000,
    allowList: (req) => req.url === '/healthz' || req.url === '/readyz',
    keyGenerator: (req) => {
      const auth = req.headers.authorization;
      return auth ? `seat:${hashToken(auth).slice(0, 32)}` : `ip:${req.ip}`;
    },
    errorResponseBuilder: (_req, ctx) =>
      new ServiceError({
        status: 429,
        code: 'rate-limited',
        title: 'Too many requests',
        detail: `At most ${ctx.max} requests per minute; try again in ${Math.ceil(ctx.ttl / 1000)} s.`,
      }),
  };
}
