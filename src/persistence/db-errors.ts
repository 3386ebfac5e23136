import { Prisma } from '../generated/prisma/client.js';
/**
 * Which failures mean "the database is unreachable or not answering" (a 503 the client may
 * retry) rather than a bug (a 500). Errors arrive raw from pg, wrapped by Prisma's adapter
 * (DriverAdapterError with `cause`, PrismaClientKnownRequestError with meta.driverAdapterError),
 * or as pg-pool's own Errors, so the check walks causes and looks at codes, then messages.
 */

/** SQLSTATEs: admin/crash shutdown, cannot connect now, connection exceptions, statement timeout. */
const UNAVAILABLE_SQLSTATE = /^(57P0[123]|08...|57014)$/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Prisma's own codes for "can't reach / timed out / connection closed". */
const UNAVAILABLE_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** pg and pg-pool messages that carry no code. */
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error|connection timeout|Connection ended|Cannot use a pool after calling end|the database system is (shutting down|starting up|in recovery)|terminating connection|canceling statement due to statement timeout/i;
/** Prisma adapter error kinds that are connection-level. */
const UNAVAILABLE_KIND = new Set(['DatabaseNotReachable', 'DatabaseAccessDenied', 'SocketTimeout', 'ConnectionClosed']);

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): boolean => {
    if (!e || typeof e !== 'object' || seen.has(e) || depth > 8) return false;
    seen.add(e);
    const o = e as Record<string, unknown>;
    for (const key of ['code', 'originalCode', 'errno']) {
      const c = o[key];
      if (typeof c === 'string' && (UNAVAILABLE_SQLSTATE.test(c) || UNAVAILABLE_ERRNO.has(c) || UNAVAILABLE_PRISMA.has(c))) return true;
    }
    if (typeof o.kind === 'string' && UNAVAILABLE_KIND.has(o.kind)) return true;
    if (typeof o.message === 'string' && UNAVAILABLE_MESSAGE.test(o.message)) return true;
    const meta = o.meta as Record<string, unknown> | undefined;
    if (Array.isArray(o.errors) && o.errors.some((x) => visit(x, depth + 1))) return true; // AggregateError
    return visit(o.cause, depth + 1) || visit(meta?.driverAdapterError, depth + 1) || visit(o.originalError, depth + 1);
  };
  return visit(err, 0);
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
