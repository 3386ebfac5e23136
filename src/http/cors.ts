/**
 * CORS (the Fetch standard's protocol) for web apps on other origins, with @fastify/cors: a
 * preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered 204 with the
 * methods the routes answer and the request headers the API reads; every other response carries
 * Access-Control-Allow-Origin and exposes the headers a client acts on. Errors included: the
 * hook runs first on every request, so a 4xx/5xx problem (and a 429 or a 503 while closing) can
 * be read by the page. Tokens are bearer headers, never cookies: credentials mode is never
 * allowed. A plain OPTIONS (no preflight headers) is not CORS and gets the 405/404 problem.
 */
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { problems } from '../service/errors.js';

/** `*`: any origin; `none`: no CORS at all; else the allowed origins, exactly as browsers send them. */
export type CorsOrigins = '*' | 'none' | readonly string[];

/** Request headers the API reads, beyond those CORS always allows (Accept, …). */
export const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'Idempotency-Key',
  'Prefer',
  'Last-Event-ID',
  'X-Request-Id',
] as const;

/**
 * Response headers a client acts on, beyond those always readable (Cache-Control, Content-Type,
 * …): the rate-limit headers are @fastify/rate-limit's, Idempotent-Replayed marks a replayed action.
 */
export const CORS_EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Preference-Applied',
  'Idempotent-Replayed',
  'X-Request-Id',
  'Allow',
] as const;

/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
export const CORS_MAX_AGE_S = 7200;

/** The CORS_ORIGINS setting read, or what is wrong with it. */
export function parseCorsOrigins(value: string): { ok: true; origins: CorsOrigins } | { ok: false; error: string } {
  const v = value.trim();
  if (v === '*' || v === 'none') return { ok: true, origins: v };
  const origins: string[] = [];
  for (const item of v.split(',').map((s) => s.trim())) {
    if (!item) continue;
    let url: URL | null = null;
    try {
      url = new URL(item);
    } catch {
      // not a URL at all: reported below
    }
    // Browsers send `scheme://host[:port]`, lower case, no default port, no path: compare that.
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== item) {
      const hint = url && url.origin !== 'null' ? ` (did you mean ${url.origin}?)` : '';
      return {
        ok: false,
        error: `"${item}" is not an origin such as https://app.example.com${hint}; use *, none or a comma-separated list of origins`,
      };
    }
    origins.push(item);
  }
  if (origins.length === 0) return { ok: false, error: 'no origin given; use *, none or a comma-separated list of origins' };
  return { ok: true, origins };
}

/**
 * The CORS headers of an answer (not a preflight) to a page on `origin`, as @fastify/cors writes
 * them, for the answers no hook sees: the router's own rejections (bad URL encoding, a path
 * segment too long) never reach onRequest.
 */
export function corsHeaders(origins: CorsOrigins, origin: string | undefined): Record<string, string> {
  if (origins === 'none') return {};
  const allowed = origins === '*' ? '*' : origin !== undefined && origins.includes(origin) ? origin : undefined;
  if (allowed === undefined) return { vary: 'Origin' };
  return { vary: 'Origin', 'access-control-allow-origin': allowed, 'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', ') };
}

function addVaryOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const names = (Array.isArray(vary) ? vary.join(',') : String(vary ?? '')).split(',').map((s) => s.trim().toLowerCase());
  if (names.includes('origin') || names.includes('*')) return;
  reply.header('vary', vary ? `${Array.isArray(vary) ? vary.join(', ') : String(vary)}, Origin` : 'Origin');
}

/**
 * Whether a WebSocket upgrade may open. Browsers apply no CORS to WebSockets but always send the
 * page's Origin, so the server checks it against the same setting: a page on an origin fetch may
 * not call may not open a socket either. No Origin (a bot, a server) and the server's own origin
 * (GraphiQL, the watch page) are always allowed.
 */
export function websocketOriginAllowed(origins: CorsOrigins, origin: string | undefined, host: string | undefined): boolean {
  if (origins === '*' || origin === undefined) return true;
  if (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)) return true;
  return origins !== 'none' && origins.includes(origin);
}

async function corsPlugin(app: FastifyInstance, opts: { origins: CorsOrigins }) {
  app.addHook('onRequest', async (req) => {
    if (req.headers.upgrade?.toLowerCase() !== 'websocket') return;
    const origin = req.headers.origin;
    if (!websocketOriginAllowed(opts.origins, origin, req.headers.host)) throw problems.originNotAllowed(origin!);
  });
  if (opts.origins === 'none') return;
  // The methods are the routes' own (one source): collected as routes are added, read at the first request.
  const methods = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const m of [route.method].flat()) if (m !== 'OPTIONS') methods.add(m);
  });
  let options: FastifyCorsOptions | undefined;
  const optionsFor = (): FastifyCorsOptions =>
    (options ??= {
      origin: opts.origins === '*' ? '*' : [...opts.origins],
      credentials: false,
      methods: [...methods].sort(),
      allowedHeaders: [...CORS_ALLOWED_HEADERS],
      exposedHeaders: [...CORS_EXPOSED_HEADERS],
      maxAge: CORS_MAX_AGE_S,
    });
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (req, cb) => {
      const preflight =
        req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
      // origin false: no CORS headers, and the OPTIONS route falls through to the not-found handler (405 with Allow, or 404).
      if (req.method === 'OPTIONS' && !preflight) return cb(null, { origin: false });
      cb(null, optionsFor());
    },
  });
  // Answers differ by Origin (a list reflects it): routes that set their own Vary must not drop it.
  app.addHook('onSend', async (_req, reply) => {
    addVaryOrigin(reply);
  });
}

export default fp(corsPlugin, { name: 'cors' });
