/**
 * HTTP caching for bodies that depend on who asks. A seat and a spectator see different
 * representations of the same match version, so the entity tag names both (`"12.p1"`,
 * `"12.spectator"`: nothing secret), every such response varies on Authorization, and none may
 * sit in a shared cache (`private`). Polling clients revalidate with If-None-Match.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export type ViewerTag = 'p1' | 'p2' | 'spectator';

/** `variant` names one of several representations of the same view (a picture: `png-800.r1`). */
export function viewerEtag(version: number, viewer: ViewerTag, variant?: string): string {
  return variant === undefined ? `"${version}.${viewer}"` : `"${version}.${viewer}.${variant}"`;
}

export interface PerCallerCaching {
  version: number;
  viewer: ViewerTag;
  /** no-cache: store privately but revalidate (views, event pages); no-store: never keep; immutable: a past version, never changes. */
  cache: 'no-cache' | 'no-store' | 'immutable';
  /** Another representation of the same view (see viewerEtag). */
  variant?: string;
}

/** Sets ETag, Vary and Cache-Control for a response whose body depends on the caller. */
export function perCaller(reply: FastifyReply, c: PerCallerCaching): string {
  const tag = viewerEtag(c.version, c.viewer, c.variant);
  const cache = c.cache === 'immutable' ? 'max-age=31536000, immutable' : c.cache;
  reply.header('etag', tag).header('vary', 'Authorization').header('cache-control', `private, ${cache}`);
  return tag;
}

/** RFC 9110 §13.1.2 weak comparison of If-None-Match against the current tag ("*" matches). */
export function notModified(req: FastifyRequest, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
