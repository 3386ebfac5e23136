import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Sends a body past the route's response serializer: a stream written as it is made (NDJSON, SSE)
 * or text already in the shape its schema describes (a replay file). The schema still documents
 * the answer; the route's typed reply would want that shape as an object, so the reply is taken as
 * Fastify's plain one, whose send takes any body.
 */
export function sendAsIs(reply: FastifyReply, body: Readable | string): FastifyReply {
  return reply.send(body);
}
