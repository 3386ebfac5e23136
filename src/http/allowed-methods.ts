/**
 * 405 Method Not Allowed with an `Allow` header. Fastify answers an unknown method on a known path
 * with its 404, so every route is also registered (as it is added) in a shadow router of the same
 * kind (find-my-way, Fastify's own router); the not-found handler asks it which methods the path
 * does have.
 */
import type { FastifyInstance } from 'fastify';
import Router from 'find-my-way';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The methods any route may answer; a request with another is refused with 405 on a known path. */
export const ROUTED_METHODS: ReadonlySet<string> = new Set(METHODS);

export class AllowedMethods {
  private readonly router = Router({ maxParamLength: 16_384 });

  /** Records every route registered on `app` from now on (call before the routes). */
  track(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (!(METHODS as readonly string[]).includes(method)) continue;
        try {
          this.router.on(method as (typeof METHODS)[number], route.url, () => undefined);
        } catch {
          // The same method and path seen twice (e.g. an automatic HEAD route): already known.
        }
      }
    });
  }

  /** The methods the path answers to; empty when no route has this path. */
  for(path: string): string[] {
    return METHODS.filter((m) => this.router.find(m, path) !== null);
  }
}
