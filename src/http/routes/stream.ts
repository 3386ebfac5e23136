/**
 * GET /v1/matches/{id}/stream: the match's events, redacted for the caller (the same objects as
 * GET …/events), first those after `after` (or Last-Event-ID), then each new one as it is
 * committed on any node, until the game ends. NDJSON by default, one event per line; Server-Sent
 * Events when the client asks for text/event-stream (`id:` = the seq, so EventSource resumes by
 * itself). The last message says why it ended ({"end":…} or {"error":…}) so that a client can
 * tell a finished game from a server going away. A keep-alive every 15 s (a blank line; an SSE
 * comment) keeps proxies from closing an idle stream, and each one also checks for events a lost
 * notification missed. Like the lichess game streams, for bots and live boards.
 */
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import type { Budgets } from '../budgets.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { problems } from '../../service/errors.js';
import { EventFollower } from '../../service/live/event-follower.js';
import { AuthHeaders, EventSchema, MAX_SEQ, MatchIdParams, SeqQuerySchema, StreamEndSchema, problemResponses } from '../schemas.js';
import { problemFromError } from '../problems.js';
import type { Problem } from '../problem-details.js';
import { NDJSON_CONTENT_TYPE, SSE_CONTENT_TYPE, SSE_EVENT, SSE_KEEP_ALIVE, prefersEventStream, sseMessage } from '../sse.js';
import { sendAsIs } from '../send-as-is.js';

const StreamQuery = z.strictObject({
  after: SeqQuerySchema.default(0).describe('Start with the events whose seq is greater than this.'),
});

const StreamHeaders = AuthHeaders.extend({
  'last-event-id': z
    .string()
    .regex(/^[0-9]{1,10}$/, 'a seq: digits only')
    .optional()
    .describe(
      'The seq of the last event received (EventSource sends it when it reconnects): start after it. Takes precedence over `after`.',
    ),
});

/** The last message of every stream says why it ended: `{"end":"finished"|"shutdown"}` or `{"error":problem}`. */
type FinalLine = { end: 'finished' | 'shutdown' } | { error: Problem };

/** How one form writes: NDJSON lines or SSE messages. */
interface Framing {
  contentType: string;
  event(e: { seq: number }): string;
  last(l: FinalLine): string;
  keepAlive: string;
}

const NDJSON: Framing = {
  contentType: NDJSON_CONTENT_TYPE,
  event: (e) => JSON.stringify(e) + '\n',
  last: (l) => JSON.stringify(l) + '\n',
  keepAlive: '\n',
};

const SSE: Framing = {
  contentType: SSE_CONTENT_TYPE,
  event: (e) => sseMessage(SSE_EVENT.matchEvent, e, e.seq),
  last: (l) => sseMessage(SSE_EVENT.end, l),
  keepAlive: SSE_KEEP_ALIVE,
};

const framings = new WeakMap<PassThrough, Framing>();

/** A stream's framing (NDJSON or SSE), for writing its last line; tests frame their own streams. */
export function frame(out: PassThrough, sse: boolean): void {
  framings.set(out, sse ? SSE : NDJSON);
}

/**
 * Bytes a stream may hold for a reader that does not read: past it the stream ends with
 * `slow-consumer` (retryable) instead of buffering without bound. A backlog is sent a page at a
 * time as the reader takes it, so only live events that the reader leaves unread count.
 */
export const STREAM_BUFFER_MAX_BYTES = 1024 * 1024;

/** How long a stream cut for its slow reader keeps its socket for the last line to go out. */
export const SLOW_CONSUMER_GRACE_MS = 10_000;

/**
 * Writes `chunks`, or, when more than `maxBytes` already wait unread, ends `out` with the
 * slow-consumer line instead (false). Measured before writing: a page of a backlog written at
 * once never counts against a reader that keeps up.
 */
export function writeOrCut(out: PassThrough, chunks: string[], problem: () => Problem, maxBytes = STREAM_BUFFER_MAX_BYTES): boolean {
  if (out.writableEnded) return false;
  if (out.writableLength > maxBytes) {
    finish(out, { error: problem() });
    return false;
  }
  for (const c of chunks) out.write(c);
  return true;
}

/** Resolves once `out` has room again (or is gone). */
export function drained(out: PassThrough): Promise<void> {
  if (out.writableLength < out.writableHighWaterMark || out.destroyed || out.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('finish', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('finish', done);
  });
}

function finish(out: PassThrough, last: FinalLine): void {
  if (out.writableEnded) return;
  out.end(framings.get(out)!.last(last));
}

const streamRoutes: FastifyPluginAsyncZod<{ service: MatchService; budgets: Budgets }> = async (app, { service, budgets }) => {
  const open = new Set<PassThrough>();
  // Streams never finish on their own before the game does: end them when the server stops,
  // saying so, so that a client reconnects (elsewhere) instead of taking it for the game's end.
  app.addHook('preClose', async () => {
    for (const s of open) finish(s, { end: 'shutdown' });
  });

  app.get(
    '/matches/:id/stream',
    {
      config: { openapi: { media: 'event-stream' } },
      schema: {
        tags: ['matches'],
        operationId: 'streamEvents',
        summary: 'Live event stream (NDJSON or Server-Sent Events)',
        description:
          'Content-Type application/x-ndjson (the default). Each line is one event as the caller may see it (seat token → that seat; ' +
          'none → spectator), in seq order: first the stored ones after `after`, then new ones as they are committed, ' +
          'on any node. Blank lines are keep-alives. The last line says why the stream ended: {"end":"finished"} (the game ' +
          'is over), {"end":"shutdown"} (this server is stopping) or {"error":{problem}}; after the last two, reconnect ' +
          'with ?after=<seq of the last event received>. A stream that closes without such a line was cut: reconnect likewise.\n\n' +
          'With `Accept: text/event-stream` the same stream is sent as Server-Sent Events: each event as `id: <seq>`, ' +
          '`event: match-event`, `data: <the same JSON object>`; the last message is `event: end` whose data is the NDJSON ' +
          "form's last line; keep-alives are `: keep-alive` comments. An EventSource resumes by itself: its `Last-Event-ID` " +
          'header starts the stream after that seq. Reconnecting with Last-Event-ID to a finished match that has nothing ' +
          'newer answers 204, which tells EventSource to stop.',
        params: MatchIdParams,
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: z.union([EventSchema, StreamEndSchema]).describe('NDJSON: one object per line (or SSE with Accept: text/event-stream).'),
          204: z
            .null()
            .describe(
              'Server-Sent Events only: a reconnect (Last-Event-ID) to a finished match with nothing newer. EventSource stops reconnecting.',
            ),
          ...problemResponses(400, 404, 429),
        },
      },
    },
    async (req, reply) => {
      const id = req.params.id;
      const token = bearerToken(req.headers.authorization);
      const lastEventId = req.headers['last-event-id'];
      const resumeAt = lastEventId === undefined ? undefined : Number(lastEventId);
      if (resumeAt !== undefined && resumeAt > MAX_SEQ)
        throw problems.validation(`Last-Event-ID must be at most ${MAX_SEQ}.`, [`headers.last-event-id: at most ${MAX_SEQ}`]);
      const m = await service.load(id, token); // 404 and token errors before the stream starts
      const sse = prefersEventStream(req.headers.accept);
      const after = resumeAt ?? req.query.after;
      reply.header('cache-control', 'private, no-store').header('vary', 'Authorization, Accept');
      // An EventSource reconnects whenever a stream closes; a 204 is the one answer that stops it.
      if (sse && resumeAt !== undefined && service.outcome(m) && m.version <= resumeAt) return reply.code(204).send(null);

      // One of the address's live streams until it closes (429 too-many-streams over the cap).
      const address = req.ip;
      budgets.streams.take(address);
      // From here the stream cap counts it, not the line of the address's requests.
      budgets.releaseRequest(req);
      const framing = sse ? SSE : NDJSON;
      const out = new PassThrough();
      framings.set(out, framing);
      open.add(out);
      const follower = new EventFollower(
        service,
        { id, token, after },
        {
          events: (events) => {
            if (
              !writeOrCut(
                out,
                events.map((e) => framing.event(e)),
                () => problemFromError(problems.slowConsumer(STREAM_BUFFER_MAX_BYTES), req),
              )
            ) {
              follower.stop();
              // Its last line waits for a reader that may never come: the socket goes after a grace.
              setTimeout(() => reply.raw.destroy(), SLOW_CONSUMER_GRACE_MS).unref();
            }
          },
          ready: () => drained(out),
          finished: () => finish(out, { end: 'finished' }),
          failed: (err) => {
            req.log.warn({ err }, 'event stream stopped');
            // A problem the client can act on (database-unavailable: reconnect with ?after=).
            finish(out, { error: problemFromError(err, req) });
          },
          heartbeat: () => out.write(framing.keepAlive),
        },
      );
      const stop = () => {
        follower.stop();
        if (open.delete(out)) budgets.streams.give(address);
      };
      out.on('close', stop);
      out.on('finish', stop);
      req.raw.on('close', () => {
        if (!out.writableEnded) out.end();
      });
      // A keep-alive at once, so the status line and headers leave now even when there is
      // nothing to send yet (an open seat, or `after` at the current version).
      out.write(framing.keepAlive);
      try {
        await follower.start();
      } catch (err) {
        stop();
        throw err;
      }
      reply.header('content-type', framing.contentType);
      // nginx buffers proxied responses unless told not to; a live stream must not wait in a buffer.
      if (sse) reply.header('x-accel-buffering', 'no');
      // A stream is sent as it is, not through the response schema's serializer.
      return sendAsIs(reply, out);
    },
  );
};

export default streamRoutes;
