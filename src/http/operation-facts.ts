/**
 * What the OpenAPI document says of an operation beyond its Zod schemas (the credentials it takes,
 * the headers it answers with, media types Zod cannot describe), declared by the route itself in
 * its `config.openapi` and read by the document's last pass (openapi.ts): no fact is inferred
 * from the shape of a URL.
 */
import type { RouteOptions } from 'fastify';

export interface OperationFacts {
  /**
   * Whose token the route takes, for a route that reads Authorization (ignored otherwise):
   * `any` (default): none (a spectator), a seat's or a player's; `seat-or-player`: one of those;
   * `player`: a player's only; `optional-player`: none or a player's.
   */
  credentials?: 'any' | 'seat-or-player' | 'player' | 'optional-player';
  /**
   * Answers about one match carry its ETag (successes, 304, and the 409/422 whose body has the
   * version): `true` the view's `"<version>.<viewer>"`; `picture` a picture's, which also names
   * its format and renderer; `event-page` an event page's, the view's tag (not a validator of the page).
   */
  etag?: boolean | 'picture' | 'event-page';
  /** The 201 carries Location (the new resource). */
  location?: boolean;
  /** The success (200 or 201) may be the stored answer of an earlier request with the same Idempotency-Key. */
  idempotent?: boolean;
  /** A public, cacheable read (Cache-Control: public). */
  publicCache?: boolean;
  /**
   * The 200 body is not JSON: an SVG or PNG picture, an NDJSON export, a match's event stream or the
   * account feed (each NDJSON or SSE), or a CSV table.
   */
  media?: 'svg' | 'png' | 'ndjson-export' | 'event-stream' | 'account-feed' | 'csv';
  /** The 200 is one part of a longer answer: a `Link` header with `rel="next"` names the rest. */
  paged?: boolean;
  /** A health probe: never rate-limited, so no rate-limit headers. */
  probe?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the OpenAPI document says of this route beyond its schemas (operation-facts.ts). */
    openapi?: OperationFacts;
  }
}

/** The facts of every route, by `method path` as the document writes them (`get /v1/matches/{id}`). */
export type OperationFactsMap = Map<string, OperationFacts>;

export const operationKey = (method: string, url: string): string => `${method.toLowerCase()} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

/** An `onRoute` hook that records each route's declared facts into `map`. */
export function collectOperationFacts(map: OperationFactsMap) {
  return (route: RouteOptions): void => {
    const facts = (route.config as { openapi?: OperationFacts } | undefined)?.openapi ?? {};
    for (const method of [route.method].flat()) map.set(operationKey(method, route.url), facts);
  };
}
