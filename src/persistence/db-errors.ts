import { Prisma } from '../generated/prisma/client.js';
/**
 * Which failures mean "the database is unreachable or not answering" (a 503 the client may
 * retry) rather than a bug (a 500). Errors arrive raw from pg, wrapped by Prisma's adapter
 * (DriverAdapterError with `cause`, PrismaClientKnownRequestError with meta.driverAdapterError),
 * or as pg-pool's own Errors, so the check walks causes and looks at codes, then messages.
 */

/** SQLSTATEs: admin/crash shutdown, cannot connect now, connection exceptions. */
const UNAVAILABLE_SQLSTATE = /^(57P0[123]|08...)$/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** Prisma's own codes for "can't reach / timed out / connection closed". */
const UNAVAILABLE_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017']);
/** pg and pg-pool messages that carry no code. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|Query read timeout|Client has encountered a connection error|connection timeout|Connection ended|Cannot use a pool after calling end|the database system is (shutting down|starting up|in recovery)|terminating connection/i;
/** Prisma adapter error kinds that are connection-level. */
const UNAVAILABLE_KIND = new Set(['DatabaseNotReachable', 'DatabaseAccessDenied', 'SocketTimeout', 'ConnectionClosed']);

/**
 * The database answers but has no room for more work now: statement timeout (57014), lock
 * timeout (55P03), out of connection slots (53300 too_many_connections, 53400), Prisma's pool
 * timeout (P2024), and pg-pool's "timeout exceeded when trying to connect", which pg-pool 3
 * raises only for a request that waited for a pooled connection while every one was in use
 * (a new connection that fails to open within the timeout is "Connection terminated due to
 * connection timeout", an outage).
 */
const OVERLOADED_SQLSTATE = /^(57014|55P03|53300|53400)$/;
const OVERLOADED_PRISMA = new Set(['P2024']);
const OVERLOADED_MESSAGE =
  /timeout exceeded when trying to connect|canceling statement due to (statement|lock) timeout|could not obtain lock|sorry, too many clients already|remaining connection slots are reserved|too many connections for (role|database)/i;
const OVERLOADED_KIND = new Set(['TooManyConnections']);

/** What a database failure means to a client: both are 503 with Retry-After. */
export type DatabaseFailure = 'overloaded' | 'unavailable';

/**
 * `overloaded` (the database or the pool is saturated: retry soon, elsewhere is no better),
 * `unavailable` (unreachable, shutting down or hung), or null (a bug, or a constraint: not
 * retryable). An error chain that carries both signs is overloaded: the database answered.
 */
export function databaseFailure(err: unknown): DatabaseFailure | null {
  const seen = new Set<unknown>();
  let unavailable = false;
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 8) return false;
    seen.add(e);
    const o = e as Record<string, unknown>;
    for (const key of ['code', 'originalCode', 'errno']) {
      const c = o[key];
      if (typeof c !== 'string') continue;
      if (OVERLOADED_SQLSTATE.test(c) || OVERLOADED_PRISMA.has(c)) return true;
      if (UNAVAILABLE_SQLSTATE.test(c) || UNAVAILABLE_ERRNO.has(c) || UNAVAILABLE_PRISMA.has(c)) unavailable = true;
    }
    if (typeof o.kind === 'string') {
      if (OVERLOADED_KIND.has(o.kind)) return true;
      if (UNAVAILABLE_KIND.has(o.kind)) unavailable = true;
    }
    if (typeof o.message === 'string') {
      if (OVERLOADED_MESSAGE.test(o.message)) return true;
      if (UNAVAILABLE_MESSAGE.test(o.message)) unavailable = true;
    }
    const meta = o.meta as Record<string, unknown> | undefined;
    if (Array.isArray(o.errors) && o.errors.some((x) => visit(x, depth + 1))) return true; // AggregateError
    return visit(o.cause, depth + 1) || visit(meta?.driverAdapterError, depth + 1) || visit(o.originalError, depth + 1);
  };
  if (visit(err, 0)) return 'overloaded';
  return unavailable ? 'unavailable' : null;
}

/** The database is unreachable or not answering (a 503 database-unavailable the client may retry). */
export function isDatabaseUnavailable(err: unknown): boolean {
  return databaseFailure(err) === 'unavailable';
}

/** The database or this node's pool is saturated (a 503 overloaded the client may retry). */
export function isDatabaseOverloaded(err: unknown): boolean {
  return databaseFailure(err) === 'overloaded';
}

/** Seconds a client should wait before retrying while the database is unavailable. */
export const DATABASE_RETRY_AFTER_S = 2;

/**
 * Unique violation, however it arrives: Prisma's P2002 for query-API writes; for raw queries a
 * P2010 whose meta.driverAdapterError carries { kind: 'UniqueConstraintViolation' } (adapter-pg)
 * or { kind: 'postgres', code: '23505' } (pglite-prisma-adapter 0.6, also for non-raw writes).
 */
export function isUniqueViolation(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') return true;
  const o = e as { code?: unknown; kind?: unknown; cause?: unknown; meta?: unknown; driverAdapterError?: unknown };
  if (o.code === '23505' || o.kind === 'UniqueConstraintViolation') return true;
  return [o.cause, o.meta, o.driverAdapterError].some((c) => isUniqueViolation(c, depth + 1));
}
