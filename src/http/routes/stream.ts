/**
 * GET /v1/matches/{id}/stream: the match's events as NDJSON, one redacted event per line (the
 * same objects as GET …/events), first those after `after`, then each new one as it is
 * committed on any node, until the game ends. The last line says why it ended ({"end":…} or
 * {"error":…}) so that a client can tell a finished game from a server going away. A blank line every 15 s keeps proxies from
 * closing an idle stream, and each one also checks for events a lost notification missed. Like the lichess game streams, for bots and live boards.
 */
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match-service.js';
import { bearerToken } from '../../service/tokens.js';
import { AuthHeaders, EventSchema, MatchIdParams, SeqQuerySchema, StreamEndSchema, problemResponses } from '../schemas.js';
import { problemFromError } from '../problems.js';
import type { Problem } from '../problem-details.js';

const HEARTBEAT_MS = 15_000;
const PAGE = 500;

const StreamQuery = z.strictObject({
  after: SeqQuerySchema.default(0).describe('Start with the events whose seq is greater than this.'),
});

/** The last line of every stream says why it ended: `{"end":"finished"|"shutdown"}` or `{"error":problem}`. */
type FinalLine = { end: 'finished' | 'shutdown' } | { error: Problem };

function finish(out: PassThrough, last: FinalLine): void {
  if (out.writableEnded) return;
  out.end(JSON.stringify(last) + '\n');
}

const streamRoutes: FastifyPluginAsyncZod<{ service: MatchService }> = async (app, { service }) => {
  const open = new Set<PassThrough>();
  // Streams never finish on their own before the game does: end them when the server stops,
  // saying so, so that a client reconnects (elsewhere) instead of taking it for the game's end.
  app.addHook('preClose', async () => {
    for (const s of open) finish(s, { end: 'shutdown' });
  });

  app.get(
    '/matches/:id/stream',
    {
      schema: {
        tags: ['matches'],
        operationId: 'streamEvents',
        summary: 'Live event stream (NDJSON)',
        description:
          'Content-Type application/x-ndjson. Each line is one event as the caller may see it (seat token → that seat; ' +
          'none → spectator), in seq order: first the stored ones after `after`, then new ones as they are committed, ' +
          'on any node. Blank lines are keep-alives. The last line says why the stream ended: {"end":"finished"} (the game ' +
          'is over), {"end":"shutdown"} (this server is stopping) or {"error":{problem}}; after the last two, reconnect ' +
          'with ?after=<seq of the last event received>. A stream that closes without such a line was cut: reconnect likewise.',
        params: MatchIdParams,
        querystring: StreamQuery,
        headers: AuthHeaders,
        response: { 200: z.union([EventSchema, StreamEndSchema]).describe('NDJSON: one object per line.'), ...problemResponses(400, 401, 404, 429) },
      },
    },
    async (req, reply) => {
      const id = req.params.id;
      const token = bearerToken(req.headers.authorization);
      await service.load(id, token); // 404 and token errors before the stream starts
      const out = new PassThrough();
      open.add(out);
      let after = req.query.after;
      let running = false;
      let again = false;

      // Sends everything after `after`; serialised, so lines never interleave or repeat.
      const pump = async (): Promise<void> => {
        if (running) {
          again = true;
          return;
        }
        running = true;
        try {
          do {
            again = false;
            const m = await service.load(id, token);
            const page = await service.events(m, after, PAGE);
            for (const e of page.events) out.write(JSON.stringify(e) + '\n');
            after = page.next;
            if (page.hasMore) again = true;
            else if (service.outcome(m)) finish(out, { end: 'finished' });
          } while (again && !out.writableEnded);
        } catch (err) {
          req.log.warn({ err }, 'event stream stopped');
          // A problem the client can act on (database-unavailable: reconnect with ?after=).
          finish(out, { error: problemFromError(err, req) });
        } finally {
          running = false;
        }
      };

      const unwatch = await service.live.watch(id, () => void pump());
      // The keep-alive also catches up, in case a notification was lost (they are best-effort).
      const heartbeat = setInterval(() => {
        out.write('\n');
        void pump();
      }, HEARTBEAT_MS);
      heartbeat.unref();
      const stop = () => {
        clearInterval(heartbeat);
        unwatch();
        open.delete(out);
      };
      out.on('close', stop);
      out.on('finish', stop);
      req.raw.on('close', () => {
        if (!out.writableEnded) out.end();
      });
      // A keep-alive at once, so the status line and headers leave now even when there is
      // nothing to send yet (an open seat, or `after` at the current version).
      out.write('\n');
      void pump();
      reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('vary', 'Authorization');
      // A stream is sent as it is, not through the response schema's serializer.
      return reply.send(out as unknown as z.infer<typeof StreamEndSchema>);
    },
  );
};

export default streamRoutes;
