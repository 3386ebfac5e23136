/**
 * Process entry point: read the environment, open the store (runs migrations), build the app,
 * listen. SIGINT/SIGTERM: stop accepting connections, answer requests on open ones 503 for the
 * drain window, let in-flight requests (and their writes) finish, then close the store and exit 0;
 * SHUTDOWN_TIMEOUT_MS bounds it.
 */
import pino from 'pino';
import { buildApp } from './app.js';
import { loadEnv } from './config/env.js';
import { openStore } from './persistence/index.js';

const env = loadEnv();
if (!env.ok) {
  console.error(`Invalid configuration:\n  - ${env.errors.join('\n  - ')}`);
  process.exit(1);
}
const config = env.config;

const logger = pino({
  level: config.logLevel,
  base: { service: 'evons-match' },
  redact: { paths: ['req.headers.authorization'], censor: '[redacted]' },
});

const dbLabel = config.database.kind === 'postgres' ? 'postgres' : `pglite:${config.database.dataDir}`;
let opened;
try {
  opened = await openStore(config.database);
} catch (err) {
  logger.fatal({ err, database: dbLabel }, 'could not open the database');
  process.exit(1);
}
const { store, close: closeStore } = opened;
logger.info({ database: dbLabel }, 'database ready (migrations applied)');

const app = await buildApp({
  store,
  loggerInstance: logger,
  matchCacheSize: config.matchCacheSize,
  timeTravelCheckpoints: config.timeTravelCheckpoints,
  rateLimitPerMinute: config.rateLimitPerMinute,
  corsOrigins: config.corsOrigins,
  budgets: config.budgets,
  trustProxy: config.trustProxy,
  graphiql: config.graphiql,
  maxSubscriptionsPerConnection: config.graphqlMaxSubscriptions,
  maxOperationsPerConnection: config.graphqlWsMaxOperations,
  sweepIntervalMs: config.sweepIntervalMs,
  webhooks: {
    allowPrivate: config.webhookAllowPrivate,
    maxPerSeat: config.webhookMaxPerSeat,
    maxRedeliveries: config.webhookMaxRedeliveries,
    maxPerAccount: config.webhookMaxPerAccount,
    worker: config.webhookWorker
      ? {
          pollMs: config.webhookPollMs,
          leaseMs: config.webhookLeaseMs,
          concurrency: config.webhookConcurrency,
          slowAfterMs: config.webhookSlowAfterMs,
          slowConcurrency: config.webhookSlowConcurrency,
        }
      : false,
  },
  readyTimeoutMs: config.readyTimeoutMs,
  shutdownDrainMs: config.shutdownDrainMs,
  ratedMinDecisions: config.ratedMinDecisions,
  challenges: config.challenges,
  bulkPairingsPerMinute: config.bulkPairingsPerMinute,
  seeks: { maxOpen: config.seekMaxOpen, ttlMs: config.seekTtlMs, liveLeaseMs: config.seekLiveLeaseMs },
  feeds: { perPlayer: config.feedConnectionsPerPlayer },
  ai: config.ai,
  rematchOfferTtlSeconds: config.rematchOfferTtlSeconds,
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: draining requests');
  const timer = setTimeout(() => {
    logger.error({ shutdownTimeoutMs: config.shutdownTimeoutMs }, 'shutdown took longer than SHUTDOWN_TIMEOUT_MS; exiting');
    process.exit(1);
  }, config.shutdownTimeoutMs);
  timer.unref();
  try {
    // Stops listening, ends event streams ({"end":"shutdown"}), answers requests on open
    // keep-alive sockets with 503 + Connection: close for SHUTDOWN_DRAIN_MS (or until every client
    // has gone), waits for in-flight requests (their sockets close after the response), then
    // closes what is left (src/http/drain.ts).
    await app.close();
    await closeStore();
    logger.info('bye');
    process.exit(0);
  } catch (err) {
    logger.error({ err }, 'error during shutdown');
    process.exit(1);
  }
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  logger.fatal({ err }, 'could not listen');
  await closeStore();
  process.exit(1);
}
