/**
 * GET /tournament/{id}: the public page of a tournament for people (the API is for programs):
 * standings, crosstable and every round's boards with a link to watch each match, rendered on the
 * server with no script; it reloads itself while the tournament runs. A large one is paged
 * (?standings=, ?round=, ?boards=: 100 rows each; page.ts). Its stylesheet is served
 * under /tournament/assets/ with a content hash in the URL. HTML, so not in the OpenAPI document
 * (like /watch and /docs).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { MatchService } from '../../service/match/match-service.js';
import { ServiceError } from '../../service/errors.js';
import { notModified } from '../caching.js';
import { TournamentIdSchema } from '../../contract/ids.js';
import { PAGE_ROWS, TOURNAMENT_CSP, tournamentNotFoundPage, type PagePart } from '../tournament-page/page.js';
import { TournamentPageCache } from '../tournament-page/cache.js';
import type { Budgets } from '../budgets.js';
import { workCost } from '../../service/work-costs.js';

const HTML = 'text/html; charset=utf-8';

/** Read once at startup (beside the code; `npm run build` copies it to dist/). */
function loadCss(): { body: Buffer; url: string; etag: string } {
  const body = readFileSync(new URL('../tournament-page/tournament.css', import.meta.url));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { body, url: `/tournament/assets/tournament.css?v=${hash}`, etag: `"${hash}"` };
}

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .type(HTML)
    .header('content-security-policy', TOURNAMENT_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache');
}

const tournamentPageRoutes: FastifyPluginAsync<{ service: MatchService; budgets: Budgets }> = async (app, { service, budgets }) => {
  const css = loadCss();
  const pages = new TournamentPageCache();
  const hide = { schema: { hide: true } };

  /** A page number from the query: a positive integer, else the first page (a page past the last shows the last). */
  const pageOf = (v: unknown): number => (typeof v === 'string' && /^[1-9]\d{0,5}$/.test(v) ? Number(v) : 1);

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>('/tournament/:id', hide, async (req, reply) => {
    const { id } = req.params;
    const notFound = () => pageHeaders(reply).code(404).send(tournamentNotFoundPage(id, css.url));
    if (!TournamentIdSchema.safeParse(id).success) return notFound();
    // A page holds at most PAGE_ROWS standings rows (and as many boards): charged as a standings page.
    await budgets.costly(req);
    budgets.work(req)(workCost.standings(PAGE_ROWS));
    let page;
    try {
      page = await service.tournaments.versioned(id);
    } catch (err) {
      if (err instanceof ServiceError && err.kind === 'not-found') return notFound();
      throw err;
    }
    const q = req.query ?? {};
    const part: PagePart = {
      standings: pageOf(q.standings),
      round: typeof q.round === 'string' && /^[1-9]\d{0,3}$/.test(q.round) ? Number(q.round) : null,
      boards: pageOf(q.boards),
    };
    // The page is the same for everyone: rendered once per version and part (cache.ts), its hash is
    // its tag, and a reload that finds nothing new costs a 304.
    const { html, etag } = pages.render(page.version, { tournament: page.tournament, standings: page.standings, css: css.url, part });
    pageHeaders(reply).header('etag', etag);
    if (notModified(req, etag)) return reply.code(304).send();
    return reply.send(html);
  });

  app.get<{ Params: { name: string } }>('/tournament/assets/:name', hide, async (req, reply) => {
    if (req.params.name !== 'tournament.css') return reply.callNotFound();
    reply
      .type('text/css; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, no-cache')
      .header('etag', css.etag);
    if (notModified(req, css.etag)) return reply.code(304).send();
    return reply.send(css.body);
  });
};

export default tournamentPageRoutes;
