/**
 * Errors as the service reports them: RFC 9457 problem details with a stable `code`, thrown as
 * one class whose `code` is typed. The OpenAPI document declares `code` as a plain string (it
 * lists the codes in words), so the known codes are spelled out here; a test compares this list
 * with the codes the server and its rules engines can send, so it cannot fall behind silently.
 */
import type { components } from './generated/openapi.js';

export type Problem = components['schemas']['Problem'];

/** Codes of the service itself (lower-kebab), whatever the game. */
export const SERVICE_CODES = [
  // 400
  'validation-failed',
  'invalid-json',
  'invalid-cursor',
  'pair-at-out-of-range',
  'invalid-content-length',
  'bad-request',
  'bad-url',
  'rated-match-invalid',
  'seek-needs-correspondence',
  'graphql-validation-failed',
  // 401, 403
  'missing-token',
  'invalid-token',
  'invalid-ticket',
  'insufficient-scope',
  'no-seat',
  'rated-needs-player',
  'seat-token-required',
  'not-your-challenge',
  'not-invited',
  'not-organizer',
  'origin-not-allowed',
  // GraphQL over WebSocket: one subscription more than a connection may hold
  'too-many-subscriptions',
  // 404, 405
  'not-found',
  'match-not-found',
  'game-not-found',
  'player-not-found',
  'token-not-found',
  'webhook-not-found',
  'seek-not-found',
  'delivery-not-found',
  'challenge-not-found',
  'tournament-not-found',
  'bulk-pairing-not-found',
  'method-not-allowed',
  // 408, 413, 414, 415, 431
  'request-timeout',
  'body-too-large',
  'uri-too-long',
  'unsupported-media-type',
  'headers-too-large',
  // 409: reload and decide again
  'version-conflict',
  'seat-taken',
  'match-not-started',
  'match-finished',
  'rematch-unavailable',
  'rematch-seat-claimed',
  'handle-taken',
  'handle-reserved',
  'handle-not-allowed',
  'too-many-webhooks',
  'delivery-pending',
  'redelivery-limit',
  'challenge-closed',
  'seek-not-open',
  'seek-needs-feed',
  'tournament-closed',
  'tournament-full',
  'not-entered',
  'already-entered',
  'too-few-players',
  'bulk-pairing-closed',
  // 422
  'idempotency-key-reused',
  'invalid-deck',
  'invalid-settings',
  'invalid-position',
  // 429, 500, 503
  'rate-limited',
  'too-many-at-once',
  'too-many-streams',
  'too-many-challenges',
  'too-many-bulk-pairings',
  'too-many-seeks',
  'too-many-feeds',
  'too-many-operations',
  'internal',
  'database-unavailable',
  'overloaded',
  'slow-consumer',
  'tournament-busy',
  'live-updates-unavailable',
  'shutting-down',
  'server-busy',
  'card-set-unavailable',
  'game-unavailable',
  'export-unavailable',
] as const;

/**
 * Why an action was illegal (422, problem type urn:evons:problem:illegal-action): the rules
 * engine's own code (UPPER_SNAKE), Evons' and UniVersus', plus the match's own ABORT_TOO_LATE.
 */
export const RULE_CODES = [
  // Both games
  'INVALID_ACTION',
  'GAME_OVER',
  'NOT_YOUR_DECISION',
  'WRONG_DECISION',
  'CARD_NOT_IN_HAND',
  // Evons
  'CELL_OCCUPIED',
  'UNKNOWN_CELL',
  'INSUFFICIENT_CREDITS',
  'BLOCK_PLAY_NOT_ALLOWED',
  'NOT_AN_ABILITY_ARROW',
  'ARROW_ALREADY_USED',
  'INVALID_TARGET',
  'INVALID_CHOICE',
  'RESURRECTION_COST_EXCEEDED',
  'NOT_A_CANDIDATE',
  // UniVersus
  'DUPLICATE_ATTACK',
  'DUPLICATE_FOUNDATION',
  'FOUNDATION_NOT_READY',
  'NOTHING_PENDING',
  'NOT_MOMENTUM_ELIGIBLE',
  'NOT_PLAYABLE',
  'NO_ATTACK',
  'NO_BLOCK_ZONE',
  'WRONG_COMMIT_COUNT',
  'ZONE_NOT_ADJACENT',
  // Any match
  'ABORT_TOO_LATE',
] as const;

export type ServiceCode = (typeof SERVICE_CODES)[number];
export type RuleCode = (typeof RULE_CODES)[number];
/**
 * A problem code: the known ones autocomplete, and a newer server's code still type-checks
 * (`string & {}` keeps the literals from collapsing into `string`).
 */
export type ProblemCode = ServiceCode | RuleCode | (string & {});

/** Problems a client may retry unchanged after waiting (they come with Retry-After). */
const RETRYABLE: ReadonlySet<string> = new Set([
  'database-unavailable',
  'overloaded',
  'tournament-busy',
  'live-updates-unavailable',
  'shutting-down',
]);

/** An error answer of the service (application/problem+json), or an answer that was not one. */
export class EvonsProblem extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly type: string;
  readonly detail: string | undefined;
  /** The match version now, when the problem concerns a match (409, 422 on actions). */
  readonly version: number | undefined;
  /** Individual validation messages, "path: message". */
  readonly errors: readonly string[] | undefined;
  /** Seconds to wait before retrying (the Retry-After header), when the server said. */
  readonly retryAfter: number | undefined;
  /** The X-Request-Id of the answer: quote it when reporting a 500. */
  readonly requestId: string | undefined;

  constructor(problem: Problem, meta: { retryAfter?: number | undefined; requestId?: string | undefined } = {}) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`);
    this.name = 'EvonsProblem';
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.type = problem.type;
    this.detail = problem.detail;
    this.version = problem.version;
    this.errors = problem.errors;
    this.retryAfter = meta.retryAfter;
    this.requestId = meta.requestId;
  }

  /** An illegal action: `code` is the rules engine's reason. */
  get illegal(): boolean {
    return this.type.endsWith(':illegal-action');
  }

  /** The match moved on (or the seat is gone): reload the view and decide again. */
  get conflict(): boolean {
    return this.status === 409;
  }

  /** Safe to send again unchanged after `retryAfter` seconds. */
  get retryable(): boolean {
    return this.status === 503 && RETRYABLE.has(this.code);
  }

  /** Builds the error from a fetch Response and its parsed body (whatever it was). */
  static from(response: Response, body: unknown): EvonsProblem {
    const retry = Number(response.headers.get('retry-after') ?? NaN);
    const meta = { retryAfter: Number.isFinite(retry) ? retry : undefined, requestId: response.headers.get('x-request-id') ?? undefined };
    if (isProblem(body)) return new EvonsProblem(body, meta);
    // A proxy's error page, or an answer this client does not know: still one error type.
    return new EvonsProblem(
      {
        type: 'about:blank',
        title: response.statusText || 'Unexpected response',
        status: response.status,
        code: 'unexpected-response',
        detail: `HTTP ${response.status} without a problem body`,
      },
      meta,
    );
  }
}

export function isProblem(body: unknown): body is Problem {
  const b = body as Partial<Problem> | null;
  return typeof b === 'object' && b !== null && typeof b.status === 'number' && typeof b.code === 'string' && typeof b.title === 'string';
}
