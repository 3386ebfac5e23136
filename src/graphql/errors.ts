/**
 * GraphQL errors as clients see them: every error carries a stable `extensions.code`, and nothing
 * internal (driver messages, file paths, stack traces) leaves the server. Service errors keep
 * their REST code and status; request errors (parse, validation, variables, limits) get a code;
 * an unreachable or hung database is `database-unavailable` (status 503, retry), a saturated one
 * (pool wait, statement or lock timeout, out of connection slots) `overloaded` (503, with
 * extensions.retryAfter); anything else
 * becomes `internal` with the request id, and is logged in full.
 */
import { GraphQLError, type ExecutionResult } from 'graphql';
import mercurius, { type MercuriusContext } from 'mercurius';
import { OVERLOADED_RETRY_AFTER_S, ServiceError, problems } from '../service/errors.js';
import { STATUS_OF_KIND } from '../contract/errors.js';
import { DATABASE_RETRY_AFTER_S, databaseFailure } from '../persistence/db-errors.js';
import { LIMIT_CODES, tokenLimitOf, tooManyTokens } from './limits.js';

/** Requests whose document a limit refused whole (its depth, aliases, cost, tokens or size): the app pauses such refusals as it does 429s. */
const REFUSED_BY_LIMITS = new WeakSet<object>();
const LIMIT_CODE_SET = new Set<unknown>(Object.values(LIMIT_CODES));

/** Whether `req`'s GraphQL document was refused by the query limits (nothing executed). */
export function refusedByLimits(req: object): boolean {
  return REFUSED_BY_LIMITS.has(req);
}

export const GRAPHQL_CODES = {
  parse: 'graphql-parse-failed',
  validation: 'graphql-validation-failed',
  internal: 'internal',
  databaseUnavailable: 'database-unavailable',
  overloaded: 'overloaded',
} as const;

/** A service error's GraphQL extensions: { code, status, version?, errors?, retryAfter? (seconds) }. */
function extensionsOf(e: ServiceError): Record<string, unknown> {
  const ext: Record<string, unknown> = { code: e.code, status: STATUS_OF_KIND[e.kind] };
  if (e.version !== undefined) ext.version = e.version;
  if (e.errors !== undefined) ext.errors = e.errors;
  if (e.retryAfterS !== undefined) ext.retryAfter = e.retryAfterS;
  return ext;
}

/** A service error as a GraphQL error with its extensions (extensionsOf). */
export function gqlError(e: unknown): Error {
  if (e instanceof ServiceError) return new mercurius.ErrorWithProps(e.detail ?? e.title, extensionsOf(e));
  return e as Error;
}

/**
 * What fastify.graphql threw for an operation over a WebSocket (Mercurius sends it as it is thrown,
 * unformatted), coded as the same refusal over HTTP: its variables or document refused
 * (Mercurius's wrapper holding the list), a limit or a service error. Anything else is left as is.
 */
export function wsRequestError(e: unknown): unknown {
  const inner = (e as { errors?: unknown } | null)?.errors;
  if (Array.isArray(inner) && inner[0] instanceof Error) return requestError(inner[0] as AnyError);
  if (e instanceof ServiceError || (e instanceof GraphQLError && typeof e.extensions.code === 'string')) return requestError(e as AnyError);
  return e;
}

/** Runs a resolver body and turns service errors into coded GraphQL errors. */
export async function guard<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw gqlError(e);
  }
}

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

type AnyError = Error & {
  path?: unknown;
  extensions?: Record<string, unknown>;
  originalError?: (Error & { errors?: unknown[]; extensions?: Record<string, unknown> }) | null;
  locations?: unknown;
};

function codeOf(e: AnyError): string | undefined {
  const code = e.extensions?.code ?? e.originalError?.extensions?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Request-level errors (no field path): the document or its variables were refused, or the request
 * was, before it ran (a rate limit: the service error's own code and status).
 */
function requestError(e: AnyError): GraphQLError {
  // graphql-js stops parsing at the token cap with a syntax error: given its own code and words.
  const tokenCap = tokenLimitOf(e.message);
  if (tokenCap !== null) return tooManyTokens(tokenCap);
  const service = e.originalError instanceof ServiceError ? e.originalError : e instanceof ServiceError ? e : null;
  if (service) return new GraphQLError(service.detail ?? service.title, { extensions: extensionsOf(service) });
  const code = codeOf(e) ?? (/^Syntax Error/.test(e.message) ? GRAPHQL_CODES.parse : GRAPHQL_CODES.validation);
  const locations = Array.isArray(e.locations) ? e.locations : undefined;
  // A 4xx of its own (a document too large: 413) stays; every other refusal is a 400.
  const own = e.extensions?.status;
  const status = typeof own === 'number' && own >= 400 && own < 500 ? own : 400;
  const out = new GraphQLError(e.message, { extensions: { ...(e.extensions ?? {}), code, status } });
  if (locations) (out as { locations?: unknown }).locations = locations;
  return out;
}

function classify(e: AnyError, log: Logger, requestId: string | undefined): GraphQLError {
  // Mercurius wraps request-level failures (validation, method) in one error holding a list.
  if (e.path === undefined) return requestError(e);
  if (codeOf(e)) return e instanceof GraphQLError ? e : new GraphQLError(e.message, { extensions: e.extensions ?? {} });
  const failure = databaseFailure(e.originalError ?? e);
  if (failure === 'overloaded') {
    log.info({ err: e.originalError ?? e, path: e.path }, 'database overloaded');
    const o = problems.overloaded();
    return new GraphQLError(o.detail ?? o.title, {
      path: e.path as ReadonlyArray<string | number>,
      extensions: { ...extensionsOf(o), requestId },
    });
  }
  if (failure === 'unavailable') {
    log.info({ err: e.originalError ?? e, path: e.path }, 'database unavailable');
    return new GraphQLError('The database is not answering; retry shortly.', {
      path: e.path as ReadonlyArray<string | number>,
      extensions: { code: GRAPHQL_CODES.databaseUnavailable, status: 503, requestId },
    });
  }
  log.error({ err: e.originalError ?? e, path: e.path }, 'unhandled GraphQL resolver error');
  return new GraphQLError(`Something went wrong on our side (request ${requestId ?? 'unknown'}).`, {
    path: e.path as ReadonlyArray<string | number>,
    extensions: { code: GRAPHQL_CODES.internal, status: 500, requestId },
  });
}

/** Mercurius's errorFormatter: flattens, codes and masks; the status follows Mercurius's rules. */
export function errorFormatter(
  execution: ExecutionResult & { errors: ReadonlyArray<GraphQLError>; statusCode?: number },
  context: MercuriusContext,
): { statusCode: number; response: ExecutionResult } {
  const reply = (context as { reply?: { log: Logger; request: { id: string }; header(name: string, value: string): unknown } }).reply;
  const log: Logger = reply?.log ?? context.app.log;
  const requestId = reply?.request.id;
  const flat = (execution.errors as ReadonlyArray<AnyError>).flatMap((e) =>
    Array.isArray(e.originalError?.errors) ? (e.originalError.errors as AnyError[]) : [e],
  );
  const errors = flat.map((e) => classify(e, log, requestId));
  if (reply && !execution.data && errors.length > 0 && errors.every((e) => LIMIT_CODE_SET.has(e.extensions.code)))
    REFUSED_BY_LIMITS.add(reply.request);
  for (const e of errors) {
    if (e.extensions.code !== GRAPHQL_CODES.internal) log.info({ code: e.extensions.code }, e.message);
  }

  // A refused document (nothing executed) is a 400 (a 413 when it is too large), a refused request
  // (a rate limit: 429) its own status; otherwise Mercurius's rules apply.
  let statusCode = execution.data ? 200 : (execution.statusCode ?? 200);
  if (!execution.data && flat.every((e) => e.path === undefined)) {
    const statuses = new Set(errors.map((e) => e.extensions.status));
    const only = statuses.size === 1 ? [...statuses][0] : undefined;
    statusCode = typeof only === 'number' && only !== 500 ? only : 400;
  } else if (!execution.data && execution.statusCode === undefined && errors.length === 1) {
    const original = (execution.errors[0] as AnyError | undefined)?.originalError as { statusCode?: unknown } | undefined;
    if (typeof original?.statusCode === 'number') statusCode = original.statusCode;
  }
  // An outage or overload answers as on REST: 503 with Retry-After, so HTTP clients and proxies back off.
  const retryable: Record<string, number> = {
    [GRAPHQL_CODES.databaseUnavailable]: DATABASE_RETRY_AFTER_S,
    [GRAPHQL_CODES.overloaded]: OVERLOADED_RETRY_AFTER_S,
  };
  if (errors.length > 0 && errors.every((e) => typeof e.extensions.code === 'string' && retryable[e.extensions.code] !== undefined)) {
    statusCode = 503;
    reply?.header('retry-after', String(Math.max(...errors.map((e) => retryable[e.extensions.code as string]!))));
  } else if (!execution.data && errors.length > 0 && errors.every((e) => e.extensions.code === 'rate-limited')) {
    // Every error a budget's refusal (a field over the work budget, with no data left): a 429, as on REST.
    statusCode = 429;
  }
  if (statusCode === 429) {
    // A refusal over a budget: its wait in Retry-After too, as on REST.
    const waits = errors.map((e) => e.extensions.retryAfter).filter((w): w is number => typeof w === 'number');
    if (waits.length > 0) reply?.header('retry-after', String(Math.max(...waits)));
  }
  return { statusCode, response: { data: execution.data ?? null, errors } };
}
