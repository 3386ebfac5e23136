/**
 * GET /v1/matches/{id}/board.svg and /board.png: the position as a picture, for chat bots, link
 * previews and the watch page. Drawn from exactly the view GET /v1/matches/{id} returns to the
 * same caller (spectator without a token, the seat with one; `?at=SEQ` for a past version), so a
 * picture never shows what the JSON would not. Cached like that view, with the format, the PNG
 * size and the renderer's version in the ETag; PNGs are also kept in memory by that key.
 */
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import type { MatchService } from '../../service/match/match-service.js';
import type { Budgets } from '../budgets.js';
import { workCost } from '../../service/work-costs.js';
import type { LoadedMatch } from '../../service/match/types.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { PICTURE_VERSION } from '../../pictures/index.js';
import { renderBoardSvg } from '../board-picture.js';
import { PNG_SIZE, svgToPng } from '../../pictures/png.js';
import { notModified, perCaller } from '../caching.js';
import { MatchIdParams, MatchReadHeaders, MatchReadQuery, problemResponses } from '../schemas.js';

/** Rendered PNGs kept by (match, version, viewer, size, renderer version): at most this many bytes. */
const PNG_CACHE_BYTES = 32 * 1024 * 1024;

const PngQuery = MatchReadQuery.extend({
  size: z.coerce
    .number()
    .int()
    .min(PNG_SIZE.min)
    .max(PNG_SIZE.max)
    .default(PNG_SIZE.default)
    .describe(`Width of the PNG in pixels (${PNG_SIZE.min}–${PNG_SIZE.max}); the height keeps the picture's proportions.`),
});

const NOT_MODIFIED = z.null().describe('Not modified: the picture is still the one of the ETag in If-None-Match.');

// The body is not JSON: the OpenAPI document gets the image media types (src/http/openapi.ts).
const SvgBody = z.string().describe('The position as a self-contained SVG document (no external fonts or images).');
const PngBody = z.string().describe('The position as a PNG image.');

const PICTURE_DOC =
  "With a seat or player token: that seat's view (its own hand, its own covered cards named); without: the spectator " +
  'view. Exactly what GET /v1/matches/{id} shows the same caller, drawn: a picture never shows what the JSON would not. ' +
  '`<title>` and `<desc>` say the position in words. ETag = `"<version>.<viewer>.<format>.r<renderer>"`: poll with ' +
  'If-None-Match for a 304 until the match moves. With ?at=SEQ: the position right after event SEQ, sent with ' +
  'Cache-Control immutable.';

export interface PictureRoutesOptions {
  service: MatchService;
  budgets: Budgets;
}

const pictureRoutes: FastifyPluginAsyncZod<PictureRoutesOptions> = async (app, { service, budgets }) => {
  const pngs = new LRUCache<string, Buffer>({ maxSize: PNG_CACHE_BYTES, sizeCalculation: (b) => b.length });

  /** The caller's match (now or at `at`) and the caching headers of this picture; `tag` null means 304 sent. */
  async function prepare(
    req: FastifyRequest,
    reply: FastifyReply,
    id: string,
    at: number | undefined,
    variant: string,
  ): Promise<{ m: LoadedMatch; tag: string } | null> {
    // The same credential resolution and loading as GET /v1/matches/{id}.
    const token = bearerToken(req.headers.authorization);
    if (at !== undefined) await budgets.costly(req);
    const m = at === undefined ? await service.load(id, token) : await service.loadAt(id, token, at, budgets.work(req));
    const tag = perCaller(reply, {
      version: m.version,
      viewer: m.viewer,
      cache: at === undefined ? 'no-cache' : 'immutable',
      variant: `${variant}.r${PICTURE_VERSION}`,
    });
    if (notModified(req, tag)) return null;
    return { m, tag };
  }

  app.get(
    '/matches/:id/board.svg',
    {
      config: { openapi: { etag: 'picture', media: 'svg' } },
      schema: {
        tags: ['matches'],
        operationId: 'getBoardSvg',
        summary: 'The position as an SVG picture',
        description: `Content-Type image/svg+xml. ${PICTURE_DOC}`,
        params: MatchIdParams,
        headers: MatchReadHeaders,
        querystring: MatchReadQuery,
        response: { 200: SvgBody, 304: NOT_MODIFIED, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const p = await prepare(req, reply, req.params.id, req.query.at, 'svg');
      if (!p) return reply.code(304).send(null);
      // Scripts and remote loads are off even when the document is opened directly.
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'").header('x-content-type-options', 'nosniff');
      return (reply as FastifyReply).type('image/svg+xml; charset=utf-8').send(renderBoardSvg(service.matchView(p.m)));
    },
  );

  app.get(
    '/matches/:id/board.png',
    {
      config: { openapi: { etag: 'picture', media: 'png' } },
      schema: {
        tags: ['matches'],
        operationId: 'getBoardPng',
        summary: 'The position as a PNG picture',
        description: `Content-Type image/png: the SVG picture rendered server-side, \`size\` pixels wide. ${PICTURE_DOC}`,
        params: MatchIdParams,
        headers: MatchReadHeaders,
        querystring: PngQuery,
        response: { 200: PngBody, 304: NOT_MODIFIED, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const size = req.query.size;
      const p = await prepare(req, reply, req.params.id, req.query.at, `png-${size}`);
      if (!p) return reply.code(304).send(null);
      const key = `${p.m.row.id}|${p.tag}`;
      let png = pngs.get(key);
      if (!png) {
        // Drawing one costs hundreds of ms of CPU at the largest size: charged by its pixels, and a few at a time.
        await budgets.costly(req);
        budgets.work(req)(workCost.png(size));
        const m = p.m;
        png = await budgets.gate.run(() => svgToPng(renderBoardSvg(service.matchView(m)), size));
        pngs.set(key, png);
      }
      reply.header('x-content-type-options', 'nosniff');
      return (reply as FastifyReply).type('image/png').send(png);
    },
  );
};

export default pictureRoutes;
