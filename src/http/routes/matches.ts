/** /v1/matches…: create, join, view, legal actions, actions, events, history. */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MatchService } from '../../service/match/match-service.js';
import { workCost } from '../../service/work-costs.js';
import type { Budgets } from '../budgets.js';
import { bearerToken } from '../../service/accounts/tokens.js';
import { problems } from '../../service/errors.js';
import { notModified, perCaller } from '../caching.js';
import { minimalResult, prefersRepresentation } from '../lean-results.js';
import {
  ActionHeaders,
  ActionResultSchema,
  ActionQuery,
  MinimalActionResultSchema,
  AuthHeaders,
  CreateMatchBody,
  CreateMatchResponse,
  EventPageSchema,
  EventsQuery,
  JoinBody,
  JoinResponse,
  LegalActionsQuery,
  LegalActionsSchema,
  ListQuery,
  MatchIdParams,
  MatchPageSchema,
  MatchReadHeaders,
  MatchReadQuery,
  PlayerAuthHeaders,
  MatchReplaySchema,
  MatchViewSchema,
  MyMatchesQuery,
  SubmitActionBody,
  problemResponses,
  SeatTokenResponse,
} from '../schemas.js';
import { sendAsIs } from '../send-as-is.js';

export interface MatchRoutesOptions {
  service: MatchService;
  budgets: Budgets;
}

/**
 * Parses If-Match: `*` (any current version: no precondition), `"12"`, `12`, an ETag we sent
 * (`"12.p1"`), or a weak tag `W/"12"`, which is well-formed but never matches: If-Match compares
 * strongly (RFC 9110 §13.1.1), so a weak one fails as a stale version does.
 */
export function parseIfMatch(v: string | undefined): { version: number; weak: boolean } | undefined {
  if (v === undefined || v.trim() === '*') return undefined;
  const m = /^\s*(W\/)?"?(\d{1,9})(?:\.(?:p1|p2|spectator))?"?\s*$/.exec(v);
  if (!m) throw problems.validation('If-Match must be a match version such as "12", or *.', [`headers.if-match: not a version: ${v}`]);
  return { version: Number(m[2]), weak: m[1] !== undefined };
}

const matchRoutes: FastifyPluginAsyncZod<MatchRoutesOptions> = async (app, { service, budgets }) => {
  app.post(
    '/matches',
    {
      config: { openapi: { credentials: 'optional-player', etag: true, location: true } },
      schema: {
        tags: ['matches'],
        operationId: 'createMatch',
        summary: 'Create a match',
        description:
          'Creates a match from two decks (starter deck ids or explicit 60-card lists), rules settings and, for a ' +
          'sandbox, a starting position. With openSeat the second seat stays open for POST /v1/matches/{id}/join and ' +
          "only the creator's token is returned; without it both seat tokens are returned (hot-seat or bot play). " +
          "With a player token (scope match:create) the creator's seat is that player's, its handle verified.",
        headers: PlayerAuthHeaders,
        body: CreateMatchBody,
        response: { 201: CreateMatchResponse, ...problemResponses(400, 409, 413, 415, 422, 429) },
      },
    },
    async (req, reply) => {
      // Against the computer: its first decision may be due at once (charged whichever seat it takes).
      if (req.body.ai) budgets.work(req)(workCost.aiDecision(req.body.ai.level));
      const r = await service.createMatch(req.body, bearerToken(req.headers.authorization), req.ip);
      perCaller(reply, { version: r.version, viewer: r.seat, cache: 'no-store' });
      reply.header('location', `/v1/matches/${r.id}`);
      return reply.code(201).send({ ...r, token: r.tokens[r.seat] as string });
    },
  );

  app.post(
    '/matches/:id/join',
    {
      config: { openapi: { credentials: 'optional-player', etag: true } },
      schema: {
        tags: ['matches'],
        operationId: 'joinMatch',
        summary: 'Take the open seat',
        description:
          'Takes the seat left open at creation, with a deck (unless the match is a sandbox) and an optional handle. ' +
          "Returns that seat's token, once. 409 seat-taken when nobody may join any more; 409 match-finished when the creator cancelled the match (abort) before anyone joined.",
        params: MatchIdParams,
        headers: PlayerAuthHeaders,
        body: JoinBody,
        response: { 200: JoinResponse, ...problemResponses(400, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (req, reply) => {
      const r = await service.joinMatch(req.params.id, req.body, bearerToken(req.headers.authorization));
      perCaller(reply, { version: r.version, viewer: r.seat, cache: 'no-store' });
      return r;
    },
  );

  app.post(
    '/matches/:id/seat-token',
    {
      schema: {
        tags: ['matches'],
        operationId: 'replaceSeatToken',
        summary: 'Replace your seat token',
        description:
          'With a seat token: a new token for the same seat, returned once; the old one stops working at once on every node ' +
          '(401 invalid-token for reads and moves; its open streams and subscriptions end with invalid-token). For a token that ' +
          "leaked. 403 seat-token-required for a player token (a player's tokens are revoked under /v1/me/tokens).",
        params: MatchIdParams,
        headers: AuthHeaders,
        response: { 200: SeatTokenResponse, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const r = await service.replaceSeatToken(req.params.id, bearerToken(req.headers.authorization));
      reply.header('cache-control', 'no-store');
      return r;
    },
  );

  app.get(
    '/matches/:id',
    {
      config: { openapi: { etag: true } },
      schema: {
        tags: ['matches'],
        operationId: 'getMatch',
        summary: "The caller's view of a match",
        description:
          "With a seat token: that seat's view (own hand). Without: the spectator view. ETag = version: " +
          'poll with If-None-Match and get 304 (no body) until the match moves. With ?at=SEQ: the view as it was after event SEQ.',
        params: MatchIdParams,
        headers: MatchReadHeaders,
        querystring: MatchReadQuery,
        response: {
          200: MatchViewSchema,
          304: z.null().describe('Not modified: the match is still at the version given in If-None-Match.'),
          ...problemResponses(400, 404, 429),
        },
      },
    },
    async (req, reply) => {
      const token = bearerToken(req.headers.authorization);
      const at = req.query.at;
      if (at !== undefined) await budgets.costly(req);
      const m =
        at === undefined ? await service.load(req.params.id, token) : await service.loadAt(req.params.id, token, at, budgets.work(req));
      const tag = perCaller(reply, { version: m.version, viewer: m.viewer, cache: at === undefined ? 'no-cache' : 'immutable' });
      if (notModified(req, tag)) return reply.code(304).send(null);
      return service.matchView(m);
    },
  );

  app.get(
    '/matches/:id/legal-actions',
    {
      config: { openapi: { etag: true } },
      schema: {
        tags: ['matches'],
        operationId: 'listLegalActions',
        summary: 'Legal actions of the caller',
        description:
          "Every action the seat of the token may take now (empty when it is not that seat's decision, and for a " +
          'spectator). With ?text=true each carries a description naming only what that seat may see.',
        params: MatchIdParams,
        querystring: LegalActionsQuery,
        headers: AuthHeaders,
        response: { 200: LegalActionsSchema, ...problemResponses(400, 404, 429) },
      },
      // The list is the engine's own typed output for the caller (hundreds of entries at a
      // play decision); validating it again on the way out cost more than building it.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (req, reply) => {
      const m = await service.load(req.params.id, bearerToken(req.headers.authorization));
      perCaller(reply, { version: m.version, viewer: m.viewer, cache: 'no-store' });
      return {
        version: m.version,
        seat: m.seat,
        actions: service.legal(m, { text: req.query.text }),
        note: 'Empty when it is not your decision. "resign" is not listed but always accepted while the match runs, in every game.',
      };
    },
  );

  app.post(
    '/matches/:id/actions',
    {
      config: { openapi: { credentials: 'seat-or-player', etag: true, idempotent: true } },
      schema: {
        tags: ['matches'],
        operationId: 'submitAction',
        summary: 'Submit one action',
        description:
          'Applies one action for the seat of the token. Send If-Match with the version you saw (stale → 409 with ' +
          'the current version) and an Idempotency-Key to make retries safe (same key + same body → the stored ' +
          'response, byte for byte; same key + another body → 422). An illegal action is a 422 whose code is the ' +
          'engine\'s reason. Resigning is an action in every game ({"type":"resign"}), accepted from either seat while the match runs. ' +
          'The answer is lean (MinimalActionResult: version, your events, status, outcome, the next decision; with ' +
          '?include=legal your legal actions for it); send Prefer: return=representation for the whole match view (ActionResult).',
        params: MatchIdParams,
        headers: ActionHeaders,
        querystring: ActionQuery,
        body: SubmitActionBody,
        response: {
          200: z
            .union([MinimalActionResultSchema, ActionResultSchema])
            .describe(
              'MinimalActionResult (the default), or with Prefer: return=representation the ActionResult with the whole match view.',
            ),
          ...problemResponses(400, 404, 409, 413, 415, 422, 429),
        },
      },
      // The result is the service's typed output (and an idempotent retry gets the same data
      // back, so the same bytes); checking it again on the way out would cost more than the move.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (req, reply) => {
      const ifMatch = parseIfMatch(req.headers['if-match']);
      const full = prefersRepresentation(req.headers.prefer);
      const out = await service.submitAction(req.params.id, bearerToken(req.headers.authorization), req.body.action, {
        idempotencyKey: req.headers['idempotency-key'],
        expectedVersion: ifMatch?.version,
        ...(ifMatch?.weak ? { weakPrecondition: true } : {}),
        includeLegal: req.query.include === 'legal',
        representation: full ? 'full' : 'minimal',
        charge: budgets.work(req),
      });
      perCaller(reply, { version: out.summary.version, viewer: out.seat, cache: 'no-store' });
      if (out.replayed) reply.header('idempotent-replayed', 'true');
      const legal = out.legal ? { legalActions: out.legal } : {};
      if (!full || !out.result) {
        if (req.headers.prefer !== undefined) reply.header('preference-applied', 'return=minimal');
        return { ...minimalResult(out.summary), ...legal };
      }
      reply.header('preference-applied', 'return=representation');
      return { ...out.result, ...legal };
    },
  );

  app.get(
    '/matches/:id/export',
    {
      schema: {
        tags: ['history'],
        operationId: 'exportMatch',
        summary: 'The match as a replay file',
        description:
          'A match-replay/1 file (docs/replay-format.md): rules id, version and hash, settings, time control, players, and every ' +
          'event as you may see it; once the match is over also the seed, the deck lists and the actions, so that anyone can ' +
          're-deal and replay it: `npm run verify -- file.json`.',
        params: MatchIdParams,
        headers: AuthHeaders,
        response: { 200: MatchReplaySchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const m = await service.load(req.params.id, bearerToken(req.headers.authorization));
      // A finished match's file is built once per node and viewer; building one is charged by its events.
      let text = service.cachedExport(m);
      if (text === undefined) {
        await budgets.costly(req);
        budgets.work(req)(workCost.export(m.version));
        text = await budgets.gate.run(() => service.exportText(m));
      }
      reply.header('vary', 'Authorization').header('cache-control', 'private, no-cache');
      reply.header('content-disposition', `attachment; filename="match-${req.params.id}.json"`);
      // Already JSON (the file the schema describes): sent as it is, not serialised again.
      return sendAsIs(reply.type('application/json; charset=utf-8'), text);
    },
  );

  app.get(
    '/matches/:id/events',
    {
      config: { openapi: { etag: 'event-page' } },
      schema: {
        tags: ['matches'],
        operationId: 'listEvents',
        summary: 'Event log, redacted for the caller',
        description: 'Events with seq > after, oldest first. Events the caller may not see are left out (seq has gaps).',
        params: MatchIdParams,
        headers: AuthHeaders,
        querystring: EventsQuery,
        response: { 200: EventPageSchema, ...problemResponses(400, 404, 429) },
      },
    },
    async (req, reply) => {
      const m = await service.load(req.params.id, bearerToken(req.headers.authorization));
      perCaller(reply, { version: m.version, viewer: m.viewer, cache: 'no-cache' });
      await budgets.costly(req);
      budgets.work(req)(workCost.eventPage(req.query.limit, req.query.after, m.version));
      const page = await service.events(m, req.query.after, req.query.limit);
      return { ...page, version: m.version };
    },
  );

  app.get(
    '/matches',
    {
      schema: {
        tags: ['history'],
        operationId: 'listMatches',
        summary: 'Match history',
        description:
          'Newest first, cursor-paginated. Filter by player handle (the label chosen at create/join; handles are ' +
          "not authenticated), opponent, game, status, result (from the handle's side), time control and creation time.",
        querystring: ListQuery,
        response: { 200: MatchPageSchema, ...problemResponses(400, 429) },
      },
    },
    async (req, reply) => {
      // The same list for everyone who asks: no Vary, but always fresh.
      reply.header('cache-control', 'no-cache');
      const { cursor, limit, ...filter } = req.query;
      return service.listMatches(filter, cursor, limit);
    },
  );

  app.get(
    '/me/matches',
    {
      schema: {
        tags: ['history'],
        operationId: 'listMyMatches',
        summary: 'My matches',
        description:
          "With a seat token: every match of that seat's handle (or only that match when the seat has no handle). " +
          'Without a token, pass ?handle=. Newest first. ?turn=mine: only the matches waiting for your decision.',
        headers: AuthHeaders,
        querystring: MyMatchesQuery,
        response: { 200: MatchPageSchema, ...problemResponses(400, 429) },
      },
    },
    async (req, reply) => {
      reply.header('vary', 'Authorization').header('cache-control', 'private, no-store');
      return service.myMatches({
        token: bearerToken(req.headers.authorization),
        handle: req.query.handle,
        status: req.query.status,
        turn: req.query.turn,
        cursor: req.query.cursor,
        limit: req.query.limit,
      });
    },
  );
};

export default matchRoutes;
