/**
 * Builds the Fastify application (no listening: see server.ts). Tests and scripts/openapi.ts call
 * buildApp with their own store.
 *
 * Layout (after fastify/demo): external plugins (swagger, docs), app plugins (problems = the
 * central error handler), then routes per resource under /v1, GraphQL at /graphql.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { MatchStore } from './persistence/types.js';
import { MatchService } from './service/match/match-service.js';
import problems, { sendProblem } from './http/problems.js';
import { clientErrorHandler, frameworkErrors } from './http/transport-errors.js';
import { closeIdleUntilStopped, drained, stopListeningOnceQueueEmpty } from './http/drain.js';
import { problem } from './http/problem-details.js';
import rateLimit from '@fastify/rate-limit';
import cors, { corsHeaders, type CorsOrigins } from './http/cors.js';
import { isProbe, rateLimitOptions } from './http/rate-limit.js';
import { Budgets, NO_BUDGETS, type BudgetSettings } from './http/budgets.js';
import matchRoutes from './http/routes/matches.js';
import rematchRoutes from './http/routes/rematch.js';
import streamRoutes from './http/routes/stream.js';
import catalogRoutes from './http/routes/catalog.js';
import webhookRoutes from './http/routes/webhooks.js';
import accountWebhookRoutes from './http/routes/account-webhooks.js';
import playerRoutes from './http/routes/players.js';
import challengeRoutes from './http/routes/challenges.js';
import tournamentRoutes from './http/routes/tournaments.js';
import bulkPairingRoutes from './http/routes/bulk-pairings.js';
import type { ChallengeSettings } from './service/lobby/challenges.js';
import seekRoutes from './http/routes/seeks.js';
import accountFeedRoutes from './http/routes/account-feed.js';
import healthRoutes from './http/routes/health.js';
import pictureRoutes from './http/routes/pictures.js';
import graphqlPlugin from './graphql/index.js';
import { refusedByLimits } from './graphql/errors.js';
import { Sweeper } from './service/match/sweeper.js';
import { WebhookWorker, type WorkerOptions } from './service/webhooks/worker.js';
import type { WebhookLimits } from './service/webhooks/limits.js';
import type { SeekLimits } from './service/lobby/seeks.js';
import type { FeedSettings } from './service/live/account-feed.js';
import { AiRunner } from './service/ai/runner.js';
import { WorkerPool } from './service/ai/pool.js';
import { DEFAULT_AI_SETTINGS, limitForLevel, type AiSettings } from './service/ai/settings.js';
import { hostname } from 'node:os';
import { openapiInfo, finishOpenapi } from './http/openapi.js';
import { collectOperationFacts, type OperationFactsMap } from './http/operation-facts.js';
import { declareCredentialProblems } from './http/schemas.js';
import watchRoutes from './http/routes/watch.js';
import tournamentPageRoutes from './http/routes/tournament-page.js';

/** Requests larger than this are refused with 413 before they are parsed. */
export const BODY_LIMIT = 256 * 1024;

export interface BuildAppOptions {
  store: MatchStore;
  /** Pino options or `false`; ignored when loggerInstance is given. */
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** States kept in the in-process LRU cache (default 500). */
  matchCacheSize?: number;
  /** Time-travel checkpoints kept (default 2,000; 0: every past read replays from event 1). */
  timeTravelCheckpoints?: number;
  /** Requests per minute per client (seat token, else IP); 0 or absent: no limit. */
  rateLimitPerMinute?: number;
  /** Web origins allowed to call the API from a browser (CORS; default `*`). */
  corsOrigins?: CorsOrigins;
  /** The other budgets and caps (src/http/budgets.ts); each absent or 0: none. */
  budgets?: Partial<BudgetSettings>;
  /** Fastify's trustProxy: whose X-Forwarded-For names the client's address (default: nobody's, the peer is the client). */
  trustProxy?: boolean | string | string[];
  graphiql?: boolean;
  /** Active GraphQL subscriptions per WebSocket connection (default 20). */
  maxSubscriptionsPerConnection?: number;
  /** GraphQL queries and mutations one WebSocket may have in flight (GRAPHQL_WS_MAX_OPERATIONS, default 8). */
  maxOperationsPerConnection?: number;
  /** /readyz deadline for the database (default 2000 ms). */
  readyTimeoutMs?: number;
  /** How often this node ends matches whose clock ran out; 0 or absent: never (reads and moves still do). */
  sweepIntervalMs?: number;
  /** Decisions each seat must make before a rated match moves ratings (default 3; RATED_MIN_DECISIONS). */
  ratedMinDecisions?: number;
  /** Challenges per player per hour and their expiry (CHALLENGES_PER_HOUR, CHALLENGE_EXPIRY_*_S). */
  challenges?: Partial<ChallengeSettings>;
  /** Matches one organizer may bulk-pair per minute (BULK_PAIRING_PER_MINUTE; default DEFAULT_BULK_PAIRING_PER_MINUTE). */
  bulkPairingsPerMinute?: number;
  /** How long a rematch offer stays open (default one day; REMATCH_OFFER_TTL_SECONDS). */
  rematchOfferTtlSeconds?: number;
  /** Epoch ms for every clock (tests pass their own; default Date.now). */
  now?: () => number;
  /**
   * How long close() keeps open connections after it stops listening, answering requests on them
   * with 503 shutting-down + Connection: close (it ends early once they are all gone); 0 or
   * absent: idle ones are closed at once.
   */
  shutdownDrainMs?: number;
  /**
   * Webhooks: whether endpoints may be private/loopback addresses (default false), how many a seat
   * may hold and how often a delivery may be sent again, and the delivery worker (false: none on
   * this node).
   */
  /** Open seeks per player and how long a seek stays open (defaults: DEFAULT_SEEK_LIMITS). */
  seeks?: Partial<SeekLimits>;
  /** Account feed connections per player on this node (default DEFAULT_FEED_SETTINGS). */
  feeds?: Partial<FeedSettings>;
  /** The computer's seats on this node (default DEFAULT_AI_SETTINGS; false or 0 workers: this node plays none). */
  ai?: Partial<AiSettings> | false;
  webhooks?: { allowPrivate?: boolean; worker?: Omit<WorkerOptions, 'allowPrivate'> | false } & Partial<WebhookLimits>;
}

export type App = FastifyInstance & { service: MatchService; webhookWorker: WebhookWorker | null; ai: AiRunner | null; budgets: Budgets };

export async function buildApp(opts: BuildAppOptions): Promise<App> {
  const corsOrigins = opts.corsOrigins ?? '*';
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    bodyLimit: BODY_LIMIT,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // While closing we answer problem+json ourselves (below), not Fastify's default body.
    return503OnClosing: false,
    // Keep-alive sockets with no request in flight are closed as soon as close() starts.
    forceCloseConnections: 'idle',
    trustProxy: opts.trustProxy ?? false,
    clientErrorHandler,
    // The router's rejections skip every hook, the CORS one included: they add its headers here.
    frameworkErrors: (err, req, reply) => {
      reply.headers(corsHeaders(corsOrigins, req.headers.origin));
      // Nor the onSend hook that names the request: every answer carries X-Request-Id.
      reply.header('x-request-id', req.id);
      frameworkErrors(err, req, reply);
    },
  }).withTypeProvider<ZodTypeProvider>();

  const allowPrivate = opts.webhooks?.allowPrivate ?? false;
  const service = new MatchService({
    store: opts.store,
    cacheSize: opts.matchCacheSize,
    ...(opts.timeTravelCheckpoints !== undefined ? { timeTravelCheckpoints: opts.timeTravelCheckpoints } : {}),
    webhooksAllowPrivate: allowPrivate,
    webhookLimits: {
      ...(opts.webhooks?.maxPerSeat !== undefined ? { maxPerSeat: opts.webhooks.maxPerSeat } : {}),
      ...(opts.webhooks?.maxRedeliveries !== undefined ? { maxRedeliveries: opts.webhooks.maxRedeliveries } : {}),
      ...(opts.webhooks?.maxPerAccount !== undefined ? { maxPerAccount: opts.webhooks.maxPerAccount } : {}),
    },
    ...(opts.ratedMinDecisions !== undefined ? { ratedMinDecisions: opts.ratedMinDecisions } : {}),
    ...(opts.challenges !== undefined ? { challenges: opts.challenges } : {}),
    ...(opts.bulkPairingsPerMinute !== undefined ? { bulkPairingsPerMinute: opts.bulkPairingsPerMinute } : {}),
    ...(opts.rematchOfferTtlSeconds !== undefined ? { rematchOfferTtlSeconds: opts.rematchOfferTtlSeconds } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.seeks ? { seekLimits: opts.seeks } : {}),
    ...(opts.feeds ? { feeds: opts.feeds } : {}),
  });
  app.decorate('service', service);
  service.live.log = app.log;
  service.feeds.hub.log = app.log;
  const sweeper = new Sweeper(service, opts.sweepIntervalMs ?? 0, app.log);
  const workerOpts = opts.webhooks?.worker;
  const worker =
    workerOpts === false
      ? null
      : new WebhookWorker(opts.store.webhooks, (d) => service.webhooks.bodyOf(d), { ...workerOpts, allowPrivate }, app.log);
  // A delivery queued here (an append's outbox rows, a redelivery) goes out at once; the poll
  // picks up those other nodes queued. Nothing else wakes the worker (a claim query per move would be waste).
  if (worker) opts.store.onDeliveriesQueued(() => worker.kick());
  app.decorate('webhookWorker', worker);
  const aiSettings = opts.ai === false ? null : { ...DEFAULT_AI_SETTINGS, ...opts.ai };
  const ai =
    aiSettings && aiSettings.workers > 0
      ? new AiRunner(
          {
            ai: opts.store.ai,
            loader: service.loader,
            live: service.live,
            jobFor: (entry, seat, level) => service.aiJob(entry, seat, level),
            play: (id, seat, action, version) => service.playAsComputer(id, seat, action, version),
          },
          new WorkerPool({
            size: aiSettings.workers,
            maxHeapMb: aiSettings.maxHeapMb,
            limitMs: (job) => aiSettings.limitMs ?? limitForLevel(job.level),
            nice: aiSettings.nice,
            ...(aiSettings.deciderUrl ? { deciderUrl: aiSettings.deciderUrl } : {}),
          }),
          {
            node: `${hostname()}:${process.pid}`,
            concurrency: aiSettings.workers,
            leaseMs: aiSettings.leaseMs,
            maxAttempts: aiSettings.maxAttempts,
            pollMs: aiSettings.pollMs ?? 1_000,
            perOwner: aiSettings.jobsPerAccount,
          },
          app.log,
        )
      : null;
  app.decorate('ai', ai);
  // An account webhook's deliveries are queued by the database with the feed entry (a trigger),
  // which no append result reports: the feed's notification wakes the worker instead, so the
  // node that wrote the entry sends it at once (while any account webhook exists at all).
  let unwatchFeed = () => {};
  app.addHook('onReady', async () => {
    sweeper.start();
    worker?.start();
    if (worker) unwatchFeed = await service.live.watchFeed(() => service.accountWebhooks.onFeed(() => worker.kick()));
    await ai?.start();
  });
  app.addHook('onClose', async () => {
    stopIdleSweep();
    unwatchFeed();
    await sweeper.stop();
    await worker?.stop();
    await ai?.stop();
    service.feeds.close();
    await service.feeds.hub.close();
    await service.live.close();
  });

  // CORS first: its onRequest hook runs before every other (the 503 below, the rate limit), so
  // a page on another origin can read every answer, problems included.
  await app.register(cors, { origins: corsOrigins });

  // Shutdown: in-flight requests finish, but their sockets close after the response (a socket
  // that turns idle after SIGTERM must not hold the process open), and new requests on open
  // keep-alive sockets are refused with a 503 the client may retry elsewhere. With a drain
  // window, listening stops here, once the connections queued in the listening socket have been
  // accepted (they get that 503 too, not a reset), and the open sockets stay for the window (see
  // the last plugin).
  let closing = false;
  const drainMs = opts.shutdownDrainMs ?? 0;
  let stopIdleSweep = () => {};
  app.addHook('preClose', async () => {
    closing = true;
    if (drainMs > 0) await stopListeningOnceQueueEmpty(app.server, drainMs);
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return sendProblem(
      reply,
      problem({
        status: 503,
        code: 'shutting-down',
        title: 'Shutting down',
        detail: 'This server is stopping; retry (another node will answer).',
      }),
    );
  });
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    if (closing) reply.header('connection', 'close');
    // A 304 has no body (RFC 9110 §15.4.5): not the serialised `null`, nor its Content-Length or type.
    if (reply.statusCode === 304) {
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return null;
    }
    return payload;
  });

  await app.register(problems);
  const budgetSettings: BudgetSettings = { ...NO_BUDGETS, ...opts.budgets };
  if ((opts.rateLimitPerMinute ?? 0) > 0)
    await app.register(
      rateLimit,
      rateLimitOptions(opts.rateLimitPerMinute ?? 0, service.credentials, (ip) => budgets.isExempt(ip)),
    );
  const budgets = new Budgets(service.credentials, budgetSettings, opts.now);
  app.decorate('budgets', budgets);
  // A limit's refusal, past an address's few a second, waits before it is sent (./http/refusal-pauses.ts).
  app.addHook('onSend', async (req, reply, payload) => {
    if (budgets.refusals.pauseMs > 0 && (reply.statusCode === 429 || reply.statusCode === 413 || refusedByLimits(req))) {
      const retryAfter = Number(reply.getHeader('retry-after'));
      await budgets.refusals.hold(req.ip, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null, (opts.now ?? Date.now)());
    }
    return payload;
  });
  // Before the per-client budget (a route hook, run after this one): an address over its ceiling
  // spends no client's budget. Thrown, so /graphql answers it in GraphQL's shape (with 429).
  app.addHook('onRequest', async (req, reply) => {
    if (isProbe(req)) return;
    budgets.request(req, reply);
    // Its turn among its address's requests; a WebSocket's upgrade is counted by the socket cap instead.
    if (req.headers.upgrade === undefined) await budgets.enterRequest(req);
  });
  // A request's turns of its address's lanes (Budgets.enterRequest, Budgets.costly) end with its answer or its abort.
  app.addHook('onResponse', async (req) => {
    budgets.releaseTurns(req);
  });
  app.addHook('onRequestAbort', async (req) => {
    budgets.releaseTurns(req);
  });
  // A WebSocket upgrade answered with an error (a limit refused it before @fastify/websocket's own
  // hook saw it) still holds its socket, which no HTTP parser reads any more: close it with the answer.
  app.addHook('onResponse', async (req) => {
    if (req.headers.upgrade !== undefined && !req.raw.socket.destroyed) req.raw.socket.destroy();
  });

  // Each route's own OpenAPI facts (config.openapi), read by the document's last pass.
  const operationFacts: OperationFactsMap = new Map();
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: openapiInfo,
      tags: [
        { name: 'matches', description: 'Create, join, view and play matches.' },
        { name: 'history', description: 'Lists of matches by player handle.' },
        { name: 'catalogue', description: 'Cards and starter decks.' },
        { name: 'players', description: 'Registered players (verified handles, bot accounts) and their personal API tokens with scopes.' },
        {
          name: 'challenges',
          description:
            'A player invites another by handle (or anyone) to a match: accept with a deck and it starts; decline with a reason, cancel, or let it expire.',
        },
        { name: 'seeks', description: 'Standing offers to play anyone compatible, paired by the database, kept while you are offline.' },
        {
          name: 'tournaments',
          description:
            'Swiss and round-robin tournaments: an organizer creates one, players enter with a deck, rounds start by themselves; standings, crosstable and CSV.',
        },
        {
          name: 'webhooks',
          description:
            "Standard Webhooks endpoints and their delivery logs: a seat's (your turn, opponent joined, match ended, deadline near) and an account's (every entry of the player's account feed).",
        },
        { name: 'health', description: 'Probes.' },
      ],
      components: {
        securitySchemes: {
          seatToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'The seat token returned by create/join. Only its sha256 is stored.',
          },
          playerToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              "A registered player's personal API token (evp_…, POST /v1/players, /v1/me/tokens), limited by its scopes. Only its sha256 is stored.",
          },
        },
      },
    },
    // Only the Zod-typed routes are documented; GraphQL and the docs UI carry plain JSON schemas.
    transform: (input) =>
      /^\/(graphql|graphiql|docs)(\/|$)/.test(input.url) ? { schema: { hide: true }, url: input.url } : jsonSchemaTransform(input),
    transformObject: (input) => finishOpenapi(jsonSchemaTransformObject(input), operationFacts),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  // Zod validates and serialises in this scope only (Mercurius and the docs UI bring JSON schemas).
  await app.register(async (api) => {
    api.setValidatorCompiler(validatorCompiler);
    api.setSerializerCompiler(serializerCompiler);
    // The API speaks JSON only: anything else is a 415.
    api.removeContentTypeParser(['text/plain']);
    api.addHook('onRoute', declareCredentialProblems);
    api.addHook('onRoute', collectOperationFacts(operationFacts));
    await api.register(healthRoutes, { store: opts.store, live: service.live, readyTimeoutMs: opts.readyTimeoutMs });
    await api.register(
      async (v1) => {
        await v1.register(matchRoutes, { service, budgets });
        await v1.register(rematchRoutes, { service });
        await v1.register(streamRoutes, { service, budgets });
        await v1.register(pictureRoutes, { service, budgets });
        await v1.register(catalogRoutes);
        await v1.register(webhookRoutes, { service });
        await v1.register(accountWebhookRoutes, { service });
        await v1.register(playerRoutes, { service, budgets });
        await v1.register(challengeRoutes, { service });
        await v1.register(seekRoutes, { service });
        await v1.register(tournamentRoutes, { service, budgets });
        await v1.register(bulkPairingRoutes, { service, budgets });
        await v1.register(accountFeedRoutes, { service, budgets });
      },
      { prefix: '/v1' },
    );
  });
  await app.register(graphqlPlugin, {
    service,
    budgets,
    graphiql: opts.graphiql ?? false,
    maxSubscriptionsPerConnection: opts.maxSubscriptionsPerConnection,
    maxOperationsPerConnection: opts.maxOperationsPerConnection,
  });
  // The watch page (HTML for people, outside the JSON API's scope).
  await app.register(watchRoutes, { service });
  await app.register(tournamentPageRoutes, { service, budgets });
  // Registered last, so its preClose runs after every other plugin's: the event streams and
  // WebSockets have been told to end, and their sockets count as gone once they are.
  await app.register(async (last) => {
    last.addHook('preClose', async () => {
      if (drainMs > 0) await drained(app.server, drainMs);
      stopIdleSweep = closeIdleUntilStopped(app.server);
    });
  });

  if (!isApp(app)) throw new Error('the app lacks a decoration App names');
  return app;
}

/** The decorations buildApp adds are there (Fastify's decorate does not widen the instance's type). */
function isApp(app: FastifyInstance): app is App {
  return (['service', 'webhookWorker', 'ai', 'budgets'] as const).every((name) => app.hasDecorator(name));
}
