/**
 * Errors the match service reports to clients. REST turns them into application/problem+json,
 * GraphQL into errors with extensions { code, status, version?, errors? }.
 */

export type ProblemKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'unprocessable'
  | 'unavailable';

export interface ProblemInit {
  status: number;
  code: string;
  title: string;
  detail?: string;
  version?: number;
  errors?: string[];
  /** Problem type slug; defaults to the code. */
  type?: string;
}

export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly version: number | undefined;
  readonly errors: string[] | undefined;
  readonly type: string;

  constructor(init: ProblemInit) {
    super(init.detail ?? init.title);
    this.name = 'ServiceError';
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.version = init.version;
    this.errors = init.errors;
    this.type = init.type ?? init.code;
  }
}

/** Problem types are URNs (RFC 9457 allows any URI); the code after the prefix is stable. */
export const PROBLEM_TYPE_BASE = 'urn:evons:problem:';

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  version?: number;
  errors?: string[];
}

export function toProblem(e: ServiceError): Problem {
  const p: Problem = { type: PROBLEM_TYPE_BASE + e.type, title: e.title, status: e.status, code: e.code };
  if (e.detail !== undefined) p.detail = e.detail;
  if (e.version !== undefined) p.version = e.version;
  if (e.errors !== undefined) p.errors = e.errors;
  return p;
}

export const problems = {
  validation: (detail: string, errors?: string[]) =>
    new ServiceError({ status: 400, code: 'validation-failed', title: 'Invalid request', detail, errors: errors ?? [detail] }),
  missingToken: () =>
    new ServiceError({
      status: 401,
      code: 'missing-token',
      title: 'Seat token required',
      detail: 'Send the seat token as "Authorization: Bearer <token>".',
    }),
  invalidToken: () =>
    new ServiceError({
      status: 401,
      code: 'invalid-token',
      title: 'Invalid seat token',
      detail: 'The token is malformed or is not a seat token of this match.',
    }),
  gameNotFound: (id: string) =>
    new ServiceError({ status: 404, code: 'game-not-found', title: 'No such game', detail: `No hosted game with id "${id}" (see GET /v1/games).` }),
  matchNotFound: (id: string) =>
    new ServiceError({ status: 404, code: 'match-not-found', title: 'No such match', detail: `No match with id "${id}".` }),
  versionConflict: (current: number, detail?: string) =>
    new ServiceError({
      status: 409,
      code: 'version-conflict',
      title: 'Version conflict',
      detail: detail ?? `The match is at version ${current}; reload it and retry.`,
      version: current,
    }),
  seatTaken: () =>
    new ServiceError({ status: 409, code: 'seat-taken', title: 'No open seat', detail: 'This match has no open seat.' }),
  notActive: (status: string, version: number) =>
    new ServiceError({
      status: 409,
      code: status === 'finished' ? 'match-finished' : 'match-not-started',
      title: status === 'finished' ? 'Match finished' : 'Match not started',
      detail: status === 'finished' ? 'The match is over.' : 'The match is waiting for a second player.',
      version,
    }),
  idempotencyMismatch: () =>
    new ServiceError({
      status: 422,
      code: 'idempotency-key-reused',
      title: 'Idempotency key reused',
      detail: 'This Idempotency-Key was already used with a different request.',
    }),
  illegal: (code: string, message: string, version: number) =>
    new ServiceError({ status: 422, code, title: 'Illegal action', detail: message, version, type: 'illegal-action' }),
  invalidDeck: (errors: string[]) =>
    new ServiceError({ status: 422, code: 'invalid-deck', title: 'Invalid deck', detail: errors.join('; '), errors }),
  invalidSettings: (errors: string[]) =>
    new ServiceError({ status: 422, code: 'invalid-settings', title: 'Invalid settings', detail: errors.join('; '), errors }),
  invalidPosition: (errors: string[]) =>
    new ServiceError({ status: 422, code: 'invalid-position', title: 'Invalid position', detail: errors.join('; '), errors }),
};
