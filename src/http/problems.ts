/**
 * One error shape everywhere: application/problem+json (RFC 9457) with a stable `code`.
 * Service errors keep their status; Fastify's own 4xx errors (bad JSON, body too large, schema
 * validation, unsupported media type) are mapped to codes; anything else is a logged 500 that
 * reveals nothing.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AllowedMethods, ROUTED_METHODS } from './allowed-methods.js';
import { OVERLOADED_RETRY_AFTER_S, ServiceError, problems } from '../service/errors.js';
import { problem, toProblem, type Problem } from './problem-details.js';
import { validationLine } from '../contract/errors.js';
import { DATABASE_RETRY_AFTER_S, databaseFailure } from '../persistence/db-errors.js';
import { drainRefusedBody } from './refused-body.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** Seconds to wait before retrying, for the 503s a client should retry. */
export const RETRY_AFTER_S: Record<string, number> = {
  'database-unavailable': DATABASE_RETRY_AFTER_S,
  overloaded: OVERLOADED_RETRY_AFTER_S,
  'live-updates-unavailable': DATABASE_RETRY_AFTER_S,
  'shutting-down': 1,
};

export const databaseUnavailable = problems.databaseUnavailable;

/**
 * The challenge of a 401 (RFC 9110 §11.6.1, RFC 6750 §3): `Bearer` when no credential was sent,
 * with `error="invalid_token"` when the one sent is malformed, unknown or revoked.
 */
export function bearerChallenge(code: string): string {
  return code === 'missing-token' ? 'Bearer' : 'Bearer error="invalid_token"';
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  if (problem.version !== undefined) reply.header('etag', `"${problem.version}"`);
  if (problem.status === 401) reply.header('www-authenticate', bearerChallenge(problem.code));
  const retryAfter = RETRY_AFTER_S[problem.code];
  if (problem.status === 503 && retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

const FASTIFY_CODES: Record<string, { code: string; title: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid-json', title: 'Malformed JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid-json', title: 'Empty JSON body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body-too-large', title: 'Request body too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported-media-type', title: 'Unsupported media type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid-content-length', title: 'Invalid Content-Length' },
  FST_ERR_VALIDATION: { code: 'validation-failed', title: 'Invalid request' },
};

export function problemFromError(err: unknown, req: FastifyRequest): Problem {
  if (err instanceof ServiceError) return toProblem(err);
  if (hasZodFastifySchemaValidationErrors(err)) {
    const where = (err as { validationContext?: string }).validationContext ?? 'request';
    const errors = err.validation.map((v) => {
      const path = (v.instancePath ?? '').replace(/^\/+/, '');
      return validationLine(where, path ? path.split('/') : [], v.message ?? 'invalid');
    });
    return problem({
      status: 400,
      code: 'validation-failed',
      title: 'Invalid request',
      detail: `The ${where} does not match the schema.`,
      errors,
    });
  }
  const e = err as FastifyError;
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const known = e.code ? FASTIFY_CODES[e.code] : undefined;
    let code = known?.code;
    if (!code) {
      if (status === 400 && e instanceof SyntaxError) code = 'invalid-json';
      else
        code = status === 404 ? 'not-found' : status === 413 ? 'body-too-large' : status === 415 ? 'unsupported-media-type' : 'bad-request';
    }
    return problem({ status, code, title: known?.title ?? 'Bad request', detail: e.message });
  }
  const failure = databaseFailure(err);
  if (failure === 'overloaded') {
    // Saturated, not down: pool wait, statement or lock timeout, out of connection slots.
    req.log.warn({ err }, 'database overloaded');
    return toProblem(problems.overloaded());
  }
  if (failure === 'unavailable') {
    // Connection-level: the client may retry. Logged without the driver's message details leaking out.
    req.log.warn({ err }, 'database unavailable');
    return toProblem(databaseUnavailable());
  }
  req.log.error({ err }, 'unhandled error');
  return problem({
    status: 500,
    code: 'internal',
    title: 'Internal server error',
    detail: `Something went wrong on our side (request ${req.id}).`,
  });
}

async function problemsPlugin(app: FastifyInstance) {
  const allowed = new AllowedMethods();
  allowed.track(app);
  app.setErrorHandler(async (err, req, reply) => {
    // A body refused as too large is read to its end (bounded) first: the client sees the 413, not a reset.
    if ((err as FastifyError | undefined)?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') await drainRefusedBody(req.raw);
    const problem = problemFromError(err, req);
    if (err instanceof ServiceError && err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
    if (problem.status < 500) req.log.info({ code: problem.code, status: problem.status }, problem.title);
    return sendProblem(reply, problem);
  });
  const refuseMethod = (req: FastifyRequest, reply: FastifyReply, methods: string[]) => {
    const path = req.url.split('?')[0] ?? '/';
    reply.header('allow', methods.join(', '));
    return sendProblem(
      reply,
      problem({
        status: 405,
        code: 'method-not-allowed',
        title: 'Method not allowed',
        detail: `${path} answers to ${methods.join(', ')}, not ${req.method}.`,
      }),
    );
  };
  // A method no route answers anywhere (QUERY, PROPFIND…) would have its body parsed by the
  // not-found route first (a 400 for its missing Content-Type): it is refused before that.
  app.addHook('onRequest', async (req, reply) => {
    if (ROUTED_METHODS.has(req.method)) return;
    const methods = allowed.for(req.url.split('?')[0] ?? '/');
    if (methods.length > 0) return refuseMethod(req, reply, methods);
  });
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const methods = allowed.for(path);
    // A route that answers this method and still says "not found" means the resource is missing.
    if (methods.length > 0 && !methods.includes(req.method)) return refuseMethod(req, reply, methods);
    return sendProblem(reply, problem({ status: 404, code: 'not-found', title: 'Not found', detail: `No route ${req.method} ${path}.` }));
  });
}

export default fp(problemsPlugin, { name: 'problems' });
