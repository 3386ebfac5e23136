/**
 * GET /v1/me/events: the caller's account feed (src/service/live/account-feed.ts) as NDJSON, or as
 * Server-Sent Events when asked for (resumable: each entry's id is sent back as Last-Event-ID).
 * Like the lichess event stream (GET /api/stream/event): one connection tells a bot or an app
 * everything around its matches.
 */
import { PassThrough } from 'node:stream';
import { SLOW_CONSUMER_GRACE_MS, STREAM_BUFFER_MAX_BYTES } from './stream.js';
import type { FastifyRequest } from 'fastify';
import type { PlayerRow } from '../../persistence/types.js';
import { problems } from '../../service/errors.js';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import type { FeedMessage } from '../../service/live/account-feed.js';
import type { Budgets } from '../budgets.js';
import { bearerToken, hashToken } from '../../service/accounts/tokens.js';
import { PlayerAuth } from '../player-schemas.js';
import { problemResponses } from '../schemas.js';
import { FeedMessageSchema } from '../feed-schemas.js';
import { problemFromError } from '../problems.js';
import { NDJSON_CONTENT_TYPE, SSE_CONTENT_TYPE, SSE_KEEP_ALIVE, prefersEventStream, sseMessage } from '../sse.js';
import { sendAsIs } from '../send-as-is.js';

const POSITION = z.string().regex(/^[0-9]{1,20}-[0-9]{1,20}$/, 'an entry id as the feed sent it (<digits>-<digits>)');

const FeedQuery = z.strictObject({
  after: POSITION.optional().describe(
    'Resume after this entry id (the id of the last entry received): its successors come first, no snapshot.',
  ),
  ticket: z
    .string()
    .max(200)
    .optional()
    .describe(
      "In place of Authorization (a browser's EventSource cannot send it): a ticket from POST /v1/me/feed/tickets, good for one connection within a minute.",
    ),
});

const FeedTicketSchema = z
  .object({
    ticket: z.string().describe('Pass it as ?ticket= to GET /v1/me/events, once.'),
    expiresAt: z.string().describe('It cannot be used from then on (a minute after it was made).'),
  })
  .meta({
    id: 'FeedTicket',
    description: 'A single-use ticket for one account feed connection, standing for the token that asked for it.',
  });

const FeedHeaders = PlayerAuth.extend({
  'last-event-id': POSITION.optional().describe(
    'The id of the last entry received (EventSource sends it when it reconnects): like ?after=, which it overrides.',
  ),
});

type End = { end: 'shutdown' } | { error: unknown };

const accountFeedRoutes: FastifyPluginAsyncZod<{ service: MatchService; budgets: Budgets }> = async (app, { service, budgets }) => {
  const open = new Map<PassThrough, (last: End) => void>();
  app.addHook('preClose', async () => {
    for (const finish of [...open.values()]) finish({ end: 'shutdown' });
  });

  app.post(
    '/me/feed/tickets',
    {
      config: { openapi: { credentials: 'player' } },
      schema: {
        tags: ['players'],
        operationId: 'createFeedTicket',
        summary: 'A single-use ticket to open your account feed without Authorization (EventSource)',
        description:
          "A player token (match:read). A browser's EventSource cannot send Authorization: open " +
          "`new EventSource('/v1/me/events?ticket=<ticket>')` instead. The ticket stands for the token that asked for it " +
          '(its player and scopes; the feed ends when that token is revoked), opens one connection, and expires a minute after ' +
          'it was made: a used or expired one is 401 invalid-ticket. Tickets are kept in the database (any server takes them), ' +
          'only as hashes, and are never logged. EventSource reconnects by itself with the same URL: a reconnect needs a new ' +
          'ticket (and sends Last-Event-ID itself), so on its error event close it and open a new one with a fresh ticket and ' +
          '?after=<the last id received>.',
        headers: PlayerAuth,
        response: { 201: FeedTicketSchema, ...problemResponses(413, 415, 429) },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .headers({ 'cache-control': 'private, no-store', vary: 'Authorization' })
        .send(await service.feeds.mintTicket(bearerToken(req.headers.authorization))),
  );

  app.get(
    '/me/events',
    {
      config: { openapi: { media: 'account-feed', credentials: 'optional-player' } },
      // The URL may hold a ticket: logged without its query.
      logSerializers: {
        req: (req: FastifyRequest) => ({ method: req.method, url: req.url.split('?', 1)[0], host: req.host, remoteAddress: req.ip }),
      },
      schema: {
        tags: ['players'],
        operationId: 'streamAccountEvents',
        summary: 'Your account feed: challenges, seeks, match starts, turns and ends (NDJSON or Server-Sent Events)',
        description:
          "A player token (match:read), or ?ticket= (POST /v1/me/feed/tickets) for a browser's EventSource. Content-Type application/x-ndjson (the default), one JSON object per line. A fresh " +
          'connection starts with a `snapshot` (your open challenges both ways, your open seeks, your running and waiting ' +
          'matches with whose decision each waits for), then each entry as it is committed, on any node: match-started, ' +
          'your-turn, match-ended, challenge-received / -accepted / -declined (with the reason) / -canceled / -expired, ' +
          'rematch-offered, seek-paired. Entries hold public facts only (ids, handles, seats, status); read a match with ' +
          'your token for its position. Blank lines are keep-alives (one at once when a resume has nothing to send yet, then every 15 s). The last line says why the feed ended: ' +
          '{"end":"shutdown"} or {"error":{problem}}; a feed that closes without one was cut. Reconnect with ?after=<id of ' +
          'the last entry received>: the entries you missed come first, in order, none twice, and no snapshot.\n\n' +
          'With `Accept: text/event-stream` the same messages are Server-Sent Events named by their type (`event: your-turn`, ' +
          '`event: snapshot`, `event: end`), each entry with `id:`, so an EventSource resumes by itself with Last-Event-ID. ' +
          'Entry ids are opaque and not increasing; pass them back unchanged. At most FEED_CONNECTIONS_PER_PLAYER feeds per ' +
          "player on one server (429 too-many-feeds); each is also one of the address's live streams (LIVE_STREAMS_PER_ADDRESS).",
        querystring: FeedQuery,
        headers: FeedHeaders,
        response: {
          200: FeedMessageSchema.describe('NDJSON: one message per line (or SSE with Accept: text/event-stream).'),
          ...problemResponses(400, 401, 403, 429),
        },
      },
    },
    async (req, reply) => {
      let me: PlayerRow;
      let tokenHash: string | null;
      if (req.query.ticket !== undefined) {
        if (req.headers.authorization !== undefined) throw problems.validation('Send a ticket or Authorization, not both.');
        ({ me, tokenHash } = await service.feeds.redeemTicket(req.query.ticket));
      } else {
        const token = bearerToken(req.headers.authorization);
        me = await service.feeds.player(token);
        tokenHash = token ? hashToken(token) : null;
      }
      const resumeAfter = req.headers['last-event-id'] ?? req.query.after;
      const releaseFeed = await service.feeds.admit(me, resumeAfter);
      // Also one of the address's live streams (429 too-many-streams over LIVE_STREAMS_PER_ADDRESS).
      const address = req.ip;
      try {
        budgets.streams.take(address);
      } catch (err) {
        releaseFeed();
        throw err;
      }
      // From here the stream cap counts it, not the line of the address's requests.
      budgets.releaseRequest(req);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        releaseFeed();
        budgets.streams.give(address);
      };
      const sse = prefersEventStream(req.headers.accept);
      const out = new PassThrough();
      let wrote = false;
      const write = (m: FeedMessage) => {
        if (out.writableEnded) return;
        // A reader that leaves this much unread is cut (slow-consumer) rather than buffered for.
        if (out.writableLength > STREAM_BUFFER_MAX_BYTES) {
          finish({ error: problems.slowConsumer(STREAM_BUFFER_MAX_BYTES) });
          setTimeout(() => reply.raw.destroy(), SLOW_CONSUMER_GRACE_MS).unref();
          return;
        }
        wrote = true;
        // SSE: the event is named by the type; data is the same object as the NDJSON line.
        out.write(sse ? sseMessage(m.type, m, 'id' in m ? m.id : undefined) : JSON.stringify(m) + '\n');
      };
      let stop: () => void = () => {};
      let keepAlive: NodeJS.Timeout | null = null;
      const cleanup = () => {
        if (keepAlive) clearInterval(keepAlive);
        keepAlive = null;
        stop();
        release();
        open.delete(out);
      };
      const finish = (last: End) => {
        if (out.writableEnded) return;
        const body = 'end' in last ? last : { error: problemFromError(last.error, req) };
        out.end(sse ? sseMessage('end', body) : JSON.stringify(body) + '\n');
        cleanup();
      };
      open.set(out, finish);
      out.on('close', cleanup);
      req.raw.on('close', () => {
        if (!out.writableEnded) out.end();
        cleanup();
      });
      try {
        stop = await service.feeds.connect(me, tokenHash, resumeAfter, {
          send: (messages) => {
            for (const m of messages) write(m);
          },
          failed: (err) => finish({ error: err }),
        });
      } catch (err) {
        cleanup();
        throw err;
      }
      keepAlive = setInterval(() => {
        if (!out.writableEnded) out.write(sse ? SSE_KEEP_ALIVE : '\n');
      }, service.feeds.keepAliveMs);
      keepAlive.unref();
      // Node sends the status line and headers with the first bytes: a resumed feed with nothing
      // new starts with a keep-alive, or the client would see nothing until the first interval.
      if (!wrote) out.write(sse ? SSE_KEEP_ALIVE : '\n');
      reply.header('cache-control', 'private, no-store').header('vary', 'Authorization, Accept');
      reply.header('content-type', sse ? SSE_CONTENT_TYPE : NDJSON_CONTENT_TYPE);
      if (sse) reply.header('x-accel-buffering', 'no');
      return sendAsIs(reply, out);
    },
  );
};

export default accountFeedRoutes;
