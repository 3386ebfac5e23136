/**
 * Service configuration, read once from the environment and validated with Zod at start-up.
 * A bad value stops the process with a message naming the variable (see docs/api.md for the table).
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { parseCorsOrigins, type CorsOrigins } from '../http/cors.js';
import { DEFAULT_WEBHOOK_LIMITS } from '../service/webhooks/limits.js';
import type { BudgetSettings } from '../http/budgets.js';
import { DEFAULT_RATED_MIN_DECISIONS } from '../service/accounts/ratings.js';
import { DEFAULT_CHALLENGE_SETTINGS } from '../service/lobby/challenges.js';
import { DEFAULT_SEEK_LIMITS } from '../service/lobby/seeks.js';
import { DEFAULT_FEED_SETTINGS } from '../service/live/account-feed.js';
import { DEFAULT_AI_SETTINGS, type AiSettings } from '../service/ai/settings.js';
import { DEFAULT_REMATCH_OFFER_TTL_SECONDS } from '../service/lobby/rematch.js';
import { DEFAULT_BULK_PAIRING_PER_MINUTE } from '../service/lobby/bulk-pairings.js';
import { issueLines } from '../core/issues.js';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const EnvSchema = z.object({
  /** TCP port the HTTP server listens on. */
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  /**
   * Interface to bind. 127.0.0.1 by default so a developer machine does not expose the service;
   * the Docker image sets 0.0.0.0.
   */
  HOST: z.preprocess(emptyToUndefined, z.string().min(1).default('127.0.0.1')),
  /** Directory of the embedded PGlite database (used when DATABASE_URL is not set). */
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default('./data')),
  /** PostgreSQL connection string; when set, PostgreSQL is used instead of PGlite. */
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(['development', 'production', 'test']).default('development')),
  /** Number of match states kept in the in-process LRU cache. */
  MATCH_CACHE_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(500)),
  /** Time-travel checkpoints kept (game states, one per 64 events of a match read with `at`); 0 turns them off. */
  TIME_TRAVEL_CHECKPOINTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(2000)),
  /**
   * Requests per minute per client (a seat token, else the IP address); 0 turns the limit off.
   * Counted per node: N nodes allow up to N times this.
   */
  RATE_LIMIT_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000_000).default(6000)),
  /**
   * Web pages on which origins may call the API (CORS): `*` (any, the default: tokens are bearer
   * headers, never cookies, so a page gets nothing its own script could not), `none`, or a
   * comma-separated list of origins.
   */
  CORS_ORIGINS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('*')
      .transform((s, ctx) => {
        const r = parseCorsOrigins(s);
        if (r.ok) return r.origins;
        ctx.addIssue({ code: 'custom', message: r.error });
        return z.NEVER;
      }),
  ),
  /**
   * Requests per minute per address, whatever credentials it uses (match creates, token minting and
   * GraphQL subscriptions over WebSocket included); 0 turns it off. Above the per-client budget:
   * minting credentials buys no budget.
   */
  RATE_LIMIT_PER_ADDRESS_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000_000).default(12_000)),
  /** Seconds of that ceiling an address may send at once (its bucket holds them; it refills at the minute's rate). */
  REQUEST_BURST_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(60).default(2)),
  /**
   * Work units (about a millisecond of server CPU each: time travel, exports, pictures, standings,
   * event pages, bulk pairing, the computer's decisions, large GraphQL documents, each charged by
   * the work it does) per minute per client; 0: off.
   */
  WORK_UNITS_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(100_000_000).default(6_000)),
  /** The same per address, over all its clients; 0: off. */
  WORK_UNITS_PER_ADDRESS_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(100_000_000).default(12_000)),
  /** Pictures and exports one node draws or builds at once; more wait in a short line, past it 503 server-busy (0: no bound). */
  EXPENSIVE_READS_AT_ONCE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000).default(2)),
  /** Live streams (NDJSON and SSE streams, GraphQL subscriptions) one address may hold open on a node; 0: no cap. */
  LIVE_STREAMS_PER_ADDRESS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(200)),
  /** Costly requests (time travel, exports, event pages, pictures, standings, tournaments, bulk pairing) one address runs at once on a node; 8 more wait, past them 429 too-many-at-once; 0: no bound. */
  COSTLY_AT_ONCE_PER_ADDRESS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000).default(1)),
  /** Requests of one address answered at once on a node (live streams and WebSockets aside); 256 more wait, past them 429 too-many-at-once; 0: no bound. */
  REQUESTS_AT_ONCE_PER_ADDRESS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000).default(8)),
  /** Seconds of its budget a work bucket holds: what a fresh client or address may spend at once. */
  WORK_BURST_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(60).default(2)),
  /** A limit's refusal (429, 413, a GraphQL document refused by its cost), past an address's 5 a second, is answered after this long (at most its Retry-After); 0: at once. */
  REFUSAL_PAUSE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(10_000).default(1000)),
  /** Addresses and CIDR ranges (comma-separated) that the request ceilings do not count: a trusted back end, a monitor. */
  RATE_LIMIT_EXEMPT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((s, ctx) => {
        const entries = (s ?? '')
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean);
        for (const entry of entries) {
          const [address, bits, extra] = entry.split('/');
          const family = isIP(address ?? '');
          const max = family === 6 ? 128 : 32;
          if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
            ctx.addIssue({ code: 'custom', message: `"${entry}" is not an address or a CIDR range` });
            return z.NEVER;
          }
        }
        return entries;
      }),
  ),
  /** WebSocket connections one address may hold open on a node; 0: no cap. */
  WEBSOCKETS_PER_ADDRESS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000_000).default(100)),
  /**
   * Whose X-Forwarded-For to believe for the client's address (which the per-address limits count):
   * unset/false: nobody's (the peer is the client); true: any proxy's; else a comma-separated list of
   * proxy addresses or CIDR ranges. Behind a load balancer, set it, or every client shares its address.
   */
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  /** PostgreSQL: give up opening a connection, or waiting for a pooled one while all are in use (then 503 overloaded), after this long. */
  DB_CONNECT_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(600_000).default(5_000)),
  /** PostgreSQL: statement_timeout; the client gives up one second later if the server cannot answer. */
  DB_STATEMENT_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(10_000)),
  /** PostgreSQL: connections this node's pool opens at most; nodes × this must stay below the server's max_connections (docs/operations.md). */
  DB_POOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000).default(10)),
  /** PostgreSQL: lock_timeout on pooled connections: a statement waiting longer on a row lock fails (503 overloaded); 0: no limit. */
  DB_LOCK_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3_600_000).default(5_000)),
  /** /readyz answers 503 when the database has not answered within this. */
  READY_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(600_000).default(2_000)),
  /** On SIGTERM, exit (code 1) if draining has not finished within this. */
  SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(600_000).default(8_000)),
  /**
   * On SIGTERM, open connections stay this long (less once every client has gone) so that requests
   * on kept-alive sockets get 503 shutting-down with Connection: close rather than a reset; 0: closed at once.
   */
  SHUTDOWN_DRAIN_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(600_000).default(2_000)),
  /** GraphiQL at /graphiql; defaults to on outside production. */
  GRAPHIQL: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).optional()),
  /** Active GraphQL subscriptions one WebSocket connection may hold; one more is refused (too-many-subscriptions). */
  GRAPHQL_MAX_SUBSCRIPTIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(20)),
  /** GraphQL queries and mutations one WebSocket connection may have in flight (sent, not yet answered); one more is refused (too-many-operations). */
  GRAPHQL_WS_MAX_OPERATIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(8)),
  /** Decisions each seat must make before a rated match's end moves ratings (0: every rated ending counts). */
  RATED_MIN_DECISIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(1_000).default(DEFAULT_RATED_MIN_DECISIONS)),
  /** Matches one organizer may bulk-pair in any minute (over every node); more is 429 too-many-bulk-pairings. */
  BULK_PAIRING_PER_MINUTE: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(100_000).default(DEFAULT_BULK_PAIRING_PER_MINUTE),
  ),
  /** Challenges one player may create per rolling hour; one more is 429 too-many-challenges. */
  CHALLENGES_PER_HOUR: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(10_000).default(DEFAULT_CHALLENGE_SETTINGS.perHour),
  ),
  /** Open challenges addressed to one player at once; one more to them is 429 too-many-challenges. */
  CHALLENGE_MAX_PENDING_PER_RECIPIENT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(10_000).default(DEFAULT_CHALLENGE_SETTINGS.maxPendingPerRecipient),
  ),
  /** Seconds a challenge without a clock or with a live one stays open before it expires (default 1 hour). */
  CHALLENGE_EXPIRY_LIVE_S: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(10)
      .max(30 * 86_400)
      .default(DEFAULT_CHALLENGE_SETTINGS.expiryMs.live / 1000),
  ),
  /** Seconds a correspondence challenge stays open before it expires (default 7 days). */
  CHALLENGE_EXPIRY_CORRESPONDENCE_S: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(10)
      .max(90 * 86_400)
      .default(DEFAULT_CHALLENGE_SETTINGS.expiryMs.correspondence / 1000),
  ),
  /** How long a rematch offer stays open before it shows as expired (default one day). */
  REMATCH_OFFER_TTL_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(1)
      .max(30 * 86_400)
      .default(DEFAULT_REMATCH_OFFER_TTL_SECONDS),
  ),
  /** How often each node ends matches whose clock ran out (0: only when read or moved). */
  SWEEP_INTERVAL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3_600_000).default(1_000)),
  /** Open seeks one player may have at once; one more is 429 too-many-seeks. */
  SEEK_MAX_OPEN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000).default(DEFAULT_SEEK_LIMITS.maxOpen)),
  /** Seconds a live seek stays open past its owner's feed's last renewal (renewed every third of it while connected). */
  SEEK_LIVE_LEASE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(3)
      .max(3_600)
      .default(DEFAULT_SEEK_LIMITS.liveLeaseMs / 1000),
  ),
  /** Child processes that think for the computer's seats on this node (0: this node plays none; others do). */
  AI_WORKERS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(64).default(DEFAULT_AI_SETTINGS.workers)),
  /** Seconds a node's claim on a computer decision holds (a killed node's decisions are taken again after it). */
  AI_LEASE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(2)
      .max(3_600)
      .default(DEFAULT_AI_SETTINGS.leaseMs / 1000),
  ),
  /** Claims of one computer decision (a worker crashed or hung each time) before the computer resigns the match. */
  AI_MAX_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10).default(DEFAULT_AI_SETTINGS.maxAttempts)),
  /** A module (file: URL) exporting decide(job) to play the computer's seats instead of the built-in levels: another engine, or a test's. */
  AI_DECIDER_MODULE: z.preprocess(emptyToUndefined, z.url({ protocol: /^file$/ }).optional()),
  /** Each computer process's heap cap in MB (a search past it ends the process; the decision is claimed again). */
  AI_MAX_HEAP_MB: z.preprocess(emptyToUndefined, z.coerce.number().int().min(32).max(16_384).default(DEFAULT_AI_SETTINGS.maxHeapMb)),
  /** Computer decisions of one player (or anonymous address) in flight at once, over all nodes. */
  AI_JOBS_PER_ACCOUNT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(1_000).default(DEFAULT_AI_SETTINGS.jobsPerAccount),
  ),
  /** The computer's processes' nice value (0: the same priority as requests; 19: the lowest). */
  AI_NICE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(19).default(DEFAULT_AI_SETTINGS.nice)),
  /** Account feeds (GET /v1/me/events, GraphQL myEvents) one player may hold open at once on one node; one more is 429 too-many-feeds (0: no cap). */
  FEED_CONNECTIONS_PER_PLAYER: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(10_000).default(DEFAULT_FEED_SETTINGS.perPlayer),
  ),
  /** Hours a seek stays open unpaired before it expires (default 168: a week). */
  SEEK_TTL_HOURS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(1)
      .max(8_760)
      .default(DEFAULT_SEEK_LIMITS.ttlMs / 3_600_000),
  ),
  /** Webhook endpoints may be private or loopback addresses: an explicit opt-in (development, tests), false everywhere by default. */
  WEBHOOK_ALLOW_PRIVATE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  /** Endpoints one seat of one match may hold; one more is 409 too-many-webhooks. */
  WEBHOOK_MAX_PER_SEAT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(DEFAULT_WEBHOOK_LIMITS.maxPerSeat)),
  /** Times one delivery may be sent again on request; one more is 409 redelivery-limit. */
  WEBHOOK_MAX_REDELIVERIES: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(0).max(100).default(DEFAULT_WEBHOOK_LIMITS.maxRedeliveries),
  ),
  /** Account webhooks one player may hold (every feed entry of theirs); one more is 409 too-many-webhooks. */
  WEBHOOK_MAX_PER_ACCOUNT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(100).default(DEFAULT_WEBHOOK_LIMITS.maxPerAccount),
  ),
  /** Webhook deliveries in flight at once on a node, all endpoints together (each endpoint has at most one). */
  WEBHOOK_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(64)),
  /** An attempt running this long moves its endpoint to the slow lane (WEBHOOK_SLOW_CONCURRENCY slots of its own). */
  WEBHOOK_SLOW_AFTER_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(60_000).default(1_000)),
  /** Deliveries to slow endpoints in flight at once on a node, besides WEBHOOK_CONCURRENCY. */
  WEBHOOK_SLOW_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(16)),
  /** How often each node looks for due webhook deliveries another node caused (0: only its own, at once). */
  WEBHOOK_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3_600_000).default(1_000)),
  /** off: this node delivers no webhooks (others do; the outbox keeps them). */
  WEBHOOK_WORKER: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  /** How long a claimed delivery stays invisible to other nodes' workers. */
  WEBHOOK_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(3_600_000).default(30_000)),
});

export interface AppConfig {
  port: number;
  host: string;
  logLevel: string;
  production: boolean;
  graphiql: boolean;
  graphqlMaxSubscriptions: number;
  graphqlWsMaxOperations: number;
  matchCacheSize: number;
  timeTravelCheckpoints: number;
  rateLimitPerMinute: number;
  corsOrigins: CorsOrigins;
  budgets: BudgetSettings;
  trustProxy: boolean | string[];
  readyTimeoutMs: number;
  shutdownTimeoutMs: number;
  shutdownDrainMs: number;
  ratedMinDecisions: number;
  challenges: { perHour: number; maxPendingPerRecipient: number; expiryMs: { live: number; correspondence: number } };
  rematchOfferTtlSeconds: number;
  sweepIntervalMs: number;
  seekMaxOpen: number;
  bulkPairingsPerMinute: number;
  feedConnectionsPerPlayer: number;
  ai: AiSettings;
  seekTtlMs: number;
  seekLiveLeaseMs: number;
  webhookAllowPrivate: boolean;
  webhookMaxPerSeat: number;
  webhookMaxRedeliveries: number;
  webhookMaxPerAccount: number;
  webhookConcurrency: number;
  webhookSlowAfterMs: number;
  webhookSlowConcurrency: number;
  webhookPollMs: number;
  webhookWorker: boolean;
  webhookLeaseMs: number;
  database:
    | { kind: 'pglite'; dataDir: string }
    | {
        kind: 'postgres';
        url: string;
        connectTimeoutMs: number;
        statementTimeoutMs: number;
        maxConnections: number;
        lockTimeoutMs: number;
      };
}

/** TRUST_PROXY as Fastify's trustProxy: false, true, or the trusted proxies' addresses and ranges. */
function trustProxyOf(v: string | undefined): boolean | string[] {
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  return v
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
}

export type EnvResult = { ok: true; config: AppConfig } | { ok: false; errors: string[] };

export function loadEnv(env: NodeJS.ProcessEnv = process.env): EnvResult {
  const r = EnvSchema.safeParse(env);
  if (!r.success) {
    return { ok: false, errors: issueLines(r.error.issues, '', '') };
  }
  const e = r.data;
  // The drain must leave time for the requests in flight before the timeout ends the process.
  if (e.SHUTDOWN_DRAIN_MS >= e.SHUTDOWN_TIMEOUT_MS) {
    return { ok: false, errors: [`SHUTDOWN_DRAIN_MS: must be below SHUTDOWN_TIMEOUT_MS (${e.SHUTDOWN_TIMEOUT_MS})`] };
  }
  const production = e.NODE_ENV === 'production';
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      logLevel: e.LOG_LEVEL,
      production,
      graphiql: e.GRAPHIQL === undefined ? !production : e.GRAPHIQL === 'true',
      graphqlMaxSubscriptions: e.GRAPHQL_MAX_SUBSCRIPTIONS,
      graphqlWsMaxOperations: e.GRAPHQL_WS_MAX_OPERATIONS,
      matchCacheSize: e.MATCH_CACHE_SIZE,
      timeTravelCheckpoints: e.TIME_TRAVEL_CHECKPOINTS,
      rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
      corsOrigins: e.CORS_ORIGINS,
      budgets: {
        perAddressPerMinute: e.RATE_LIMIT_PER_ADDRESS_PER_MINUTE,
        requestBurstSeconds: e.REQUEST_BURST_SECONDS,
        workPerMinute: e.WORK_UNITS_PER_MINUTE,
        workPerAddressPerMinute: e.WORK_UNITS_PER_ADDRESS_PER_MINUTE,
        expensiveAtOnce: e.EXPENSIVE_READS_AT_ONCE,
        streamsPerAddress: e.LIVE_STREAMS_PER_ADDRESS,
        socketsPerAddress: e.WEBSOCKETS_PER_ADDRESS,
        costlyAtOncePerAddress: e.COSTLY_AT_ONCE_PER_ADDRESS,
        requestsAtOncePerAddress: e.REQUESTS_AT_ONCE_PER_ADDRESS,
        workBurstSeconds: e.WORK_BURST_SECONDS,
        refusalPauseMs: e.REFUSAL_PAUSE_MS,
        exempt: e.RATE_LIMIT_EXEMPT,
      },
      trustProxy: trustProxyOf(e.TRUST_PROXY),
      readyTimeoutMs: e.READY_TIMEOUT_MS,
      shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
      shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
      ratedMinDecisions: e.RATED_MIN_DECISIONS,
      challenges: {
        perHour: e.CHALLENGES_PER_HOUR,
        maxPendingPerRecipient: e.CHALLENGE_MAX_PENDING_PER_RECIPIENT,
        expiryMs: { live: e.CHALLENGE_EXPIRY_LIVE_S * 1000, correspondence: e.CHALLENGE_EXPIRY_CORRESPONDENCE_S * 1000 },
      },
      rematchOfferTtlSeconds: e.REMATCH_OFFER_TTL_SECONDS,
      sweepIntervalMs: e.SWEEP_INTERVAL_MS,
      seekMaxOpen: e.SEEK_MAX_OPEN,
      bulkPairingsPerMinute: e.BULK_PAIRING_PER_MINUTE,
      feedConnectionsPerPlayer: e.FEED_CONNECTIONS_PER_PLAYER,
      ai: {
        workers: e.AI_WORKERS,
        leaseMs: e.AI_LEASE_SECONDS * 1000,
        maxAttempts: e.AI_MAX_ATTEMPTS,
        maxHeapMb: e.AI_MAX_HEAP_MB,
        jobsPerAccount: e.AI_JOBS_PER_ACCOUNT,
        nice: e.AI_NICE,
        ...(e.AI_DECIDER_MODULE ? { deciderUrl: e.AI_DECIDER_MODULE } : {}),
      },
      seekTtlMs: e.SEEK_TTL_HOURS * 3_600_000,
      seekLiveLeaseMs: e.SEEK_LIVE_LEASE_SECONDS * 1000,
      webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      webhookMaxPerSeat: e.WEBHOOK_MAX_PER_SEAT,
      webhookMaxRedeliveries: e.WEBHOOK_MAX_REDELIVERIES,
      webhookMaxPerAccount: e.WEBHOOK_MAX_PER_ACCOUNT,
      webhookConcurrency: e.WEBHOOK_CONCURRENCY,
      webhookSlowAfterMs: e.WEBHOOK_SLOW_AFTER_MS,
      webhookSlowConcurrency: e.WEBHOOK_SLOW_CONCURRENCY,
      webhookPollMs: e.WEBHOOK_POLL_MS,
      webhookWorker: e.WEBHOOK_WORKER === 'on',
      webhookLeaseMs: e.WEBHOOK_LEASE_MS,
      database: e.DATABASE_URL
        ? {
            kind: 'postgres',
            url: e.DATABASE_URL,
            connectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
            statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
            maxConnections: e.DB_POOL_SIZE,
            lockTimeoutMs: e.DB_LOCK_TIMEOUT_MS,
          }
        : // As written: the store knows memory:// from a directory and resolves the latter (database.ts).
          { kind: 'pglite', dataDir: e.DATA_DIR },
    },
  };
}
