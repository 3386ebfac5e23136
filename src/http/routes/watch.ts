/**
 * GET /watch/{id}: a page to watch a match live and step through its history, for people (the API
 * is for programs). The page is a shell plus a small ES module (src/http/watch/) that reads the
 * public API from the browser: the view, the events and the NDJSON stream, and the board picture.
 * What differs by game is the game's own script (its module's `watch.script`, served as
 * /watch/games/{game}.js), which the page's script loads for the match's game.
 * HTML, so not in the OpenAPI document (like /docs and /graphiql).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { GAME_IDS, GAME_MODULES } from '../../games/registry.js';
import type { MatchService } from '../../service/match/match-service.js';
import { ServiceError } from '../../service/errors.js';
import { MAX_SEQ } from '../schemas.js';
import { MatchIdSchema } from '../../contract/ids.js';
import { notModified } from '../caching.js';
import { WATCH_CSP, notFoundPage, watchPage } from '../watch/page.js';

const HTML = 'text/html; charset=utf-8';
/** What a Host header may look like before it goes into a link: a name or address and a port. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

interface Asset {
  body: Buffer;
  type: string;
  /** The URL the page links, with a content hash: a new release never meets a cached old file. */
  url: string;
  etag: string;
}

const JS = 'text/javascript; charset=utf-8';

function asset(file: URL, type: string, path: string): Asset {
  const body = readFileSync(file);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { body, type, url: `${path}?v=${hash}`, etag: `"${hash}"` };
}

/** Read once at startup: the page's script modules and stylesheet (beside the code; `npm run build` copies them to dist/). */
function loadAssets(): Map<string, Asset> {
  const files: Record<string, string> = { 'watch.js': JS, 'words.js': JS, 'watch.css': 'text/css; charset=utf-8' };
  const out = new Map<string, Asset>();
  for (const [name, type] of Object.entries(files))
    out.set(name, asset(new URL(`../watch/${name}`, import.meta.url), type, `/watch/assets/${name}`));
  return out;
}

/** Read once at startup: each game's watch script (in its folder; `npm run build` copies them to dist/), by `{game id}.js`. */
function loadGameScripts(): Map<string, Asset> {
  return new Map(GAME_IDS.map((id) => [`${id}.js`, asset(GAME_MODULES[id].watch.script, JS, `/watch/games/${id}.js`)]));
}

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .type(HTML)
    .header('content-security-policy', WATCH_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache');
}

/** This server as the reader reached it, for the absolute URLs link previews need. */
function originOf(req: FastifyRequest): string {
  const host = HOST.test(req.host) ? req.host : 'localhost';
  return `${req.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

const watchRoutes: FastifyPluginAsync<{ service: MatchService }> = async (app, { service }) => {
  const assets = loadAssets();
  const gameScripts = loadGameScripts();
  const hide = { schema: { hide: true } };
  const url = (name: string) => (assets.get(name) as Asset).url;

  app.get<{ Params: { id: string }; Querystring: { at?: string } }>('/watch/:id', hide, async (req, reply) => {
    const { id } = req.params;
    const notFound = () => pageHeaders(reply).code(404).send(notFoundPage(id));
    if (!MatchIdSchema.safeParse(id).success) return notFound();
    let view;
    try {
      view = service.matchView(await service.load(id, undefined));
    } catch (err) {
      if (err instanceof ServiceError && err.kind === 'not-found') return notFound();
      throw err;
    }
    // ?at= only steers the preview picture here (the script reads it too); a bad one is ignored.
    const raw = typeof req.query.at === 'string' && /^\d{1,10}$/.test(req.query.at) ? Number(req.query.at) : null;
    const at = raw !== null && raw >= 1 && raw <= Math.min(view.version, MAX_SEQ) ? raw : null;
    const game = gameScripts.get(`${view.gameId}.js`)?.url ?? null;
    const html = watchPage({ view, origin: originOf(req), at, assets: { js: url('watch.js'), css: url('watch.css'), game } });
    return pageHeaders(reply).send(html);
  });

  const serve = (files: Map<string, Asset>) => async (req: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
    const a = files.get(req.params.name);
    if (!a) return reply.callNotFound();
    // Revalidated each time (words.js is imported without the page's ?v=): a 304 costs little.
    reply.type(a.type).header('x-content-type-options', 'nosniff').header('cache-control', 'public, no-cache').header('etag', a.etag);
    if (notModified(req, a.etag)) return reply.code(304).send();
    return reply.send(a.body);
  };
  app.get('/watch/assets/:name', hide, serve(assets));
  app.get('/watch/games/:name', hide, serve(gameScripts));
  // Every browser asks for it on every page: no icon, said once a day, rather than a 404 each time.
  app.get('/favicon.ico', hide, async (_req, reply) => reply.code(204).header('cache-control', 'public, max-age=86400').send());
};

export default watchRoutes;
