/**
 * Rate limits, as the lichess API does them: a clear 429 (problem+json, code `rate-limited`, with
 * Retry-After) instead of a slow or failing server. A client is its credential when that
 * credential is known to be valid (so two players behind one address do not share a budget), else
 * its address: random bearer strings, respellings of a token and failed authentications all
 * count against the address. Health probes are never limited. Counters live in each node's memory.
 */
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../service/errors.js';
import type { KnownCredentials } from '../service/accounts/credentials.js';
import { bearerToken, hashToken } from '../service/accounts/tokens.js';

const PROBES = new Set(['/healthz', '/readyz']);

/** Health probes are never limited, whatever their query string. */
export function isProbe(req: FastifyRequest): boolean {
  return PROBES.has(req.url.split('?', 1)[0] ?? '');
}

/** The limiter's key: `cred:<hash>` for a verified token, `ip:<address>` otherwise. */
export function clientKey(req: FastifyRequest, known: KnownCredentials): string {
  return clientKeyOf(bearerToken(req.headers.authorization), req.ip, known);
}

/** The same key from a credential and an address (a WebSocket's, which has no request per operation). */
export function clientKeyOf(token: string | null | undefined, address: string, known: KnownCredentials): string {
  if (token) {
    const h = hashToken(token);
    if (known.has(h)) return `cred:${h.slice(0, 32)}`;
  }
  return `ip:${address}`;
}

/**
 * The plugin's options: `perMinute` per client on every route (0: no per-client limit, only the
 * limiters of ./budgets.ts); `exempt` addresses are not counted.
 */
export function rateLimitOptions(
  perMinute: number,
  known: KnownCredentials,
  exempt: (address: string) => boolean = () => false,
): RateLimitPluginOptions {
  return {
    global: perMinute > 0,
    max: perMinute,
    timeWindow: 60_000,
    allowList: (req) => isProbe(req) || exempt(req.ip),
    keyGenerator: (req) => clientKey(req, known),
    errorResponseBuilder: (_req, ctx) =>
      new ServiceError({
        kind: 'rate-limited',
        code: 'rate-limited',
        title: 'Too many requests',
        detail: `At most ${ctx.max} requests per minute; try again in ${Math.ceil(ctx.ttl / 1000)} s.`,
      }),
  };
}
