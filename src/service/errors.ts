/**
 * The service's domain errors: what went wrong, as a kind, a stable code and words, and nothing
 * about transport. REST maps the kind to an HTTP status and application/problem+json
 * (src/http/problem-details.ts), GraphQL to an error with extensions; the service never picks a
 * status code.
 */
import type { ErrorKind } from '../contract/errors.js';

export interface ServiceErrorInit {
  kind: ErrorKind;
  code: string;
  title: string;
  detail?: string;
  /** The match version now, when the error concerns a match that exists. */
  version?: number;
  errors?: string[];
  /** Problem type slug; defaults to the code (illegal actions share one type). */
  type?: string;
  /** Seconds to wait before retrying (sent as Retry-After), for refusals that pass with time. */
  retryAfterS?: number;
}

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly version: number | undefined;
  readonly errors: string[] | undefined;
  readonly type: string;
  readonly retryAfterS: number | undefined;

  constructor(init: ServiceErrorInit) {
    super(init.detail ?? init.title);
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.version = init.version;
    this.errors = init.errors;
    this.type = init.type ?? init.code;
    this.retryAfterS = init.retryAfterS;
  }
}

/** Seconds a client should wait before retrying an `overloaded` answer. */
export const OVERLOADED_RETRY_AFTER_S = 1;

export const problems = {
  validation: (detail: string, errors?: string[]) =>
    new ServiceError({ kind: 'invalid-request', code: 'validation-failed', title: 'Invalid request', detail, errors: errors ?? [detail] }),
  /** `detail` says what the route's cursor is (default: a list's nextCursor). */
  invalidCursor: (detail = 'Pass back a nextCursor value unchanged.') =>
    new ServiceError({ kind: 'invalid-request', code: 'invalid-cursor', title: 'Invalid cursor', detail }),
  missingToken: () =>
    new ServiceError({
      kind: 'unauthenticated',
      code: 'missing-token',
      title: 'Seat token required',
      detail: 'Send the seat token as "Authorization: Bearer <token>".',
    }),
  /** `detail` says which token the route wanted (default: a seat token of the match). */
  invalidToken: (detail = 'The token is malformed or is not a seat token of this match.') =>
    new ServiceError({ kind: 'unauthenticated', code: 'invalid-token', title: 'Invalid token', detail }),
  /** A seat token where only a player token will do. */
  playerTokenRequired: () =>
    new ServiceError({
      kind: 'unauthenticated',
      code: 'invalid-token',
      title: 'Invalid token',
      detail: 'This route takes a player token (evp_…, see POST /v1/players); a seat token works only on its own match.',
    }),
  invalidTicket: () =>
    new ServiceError({
      kind: 'unauthenticated',
      code: 'invalid-ticket',
      title: 'Invalid feed ticket',
      detail:
        'The ticket is unknown, used or expired: each is good for one connection within a minute. Get a new one (POST /v1/me/feed/tickets).',
    }),
  insufficientScope: (scope: string) =>
    new ServiceError({
      kind: 'forbidden',
      code: 'insufficient-scope',
      title: 'Insufficient scope',
      detail: `This token lacks the ${scope} scope.`,
    }),
  seatTokenRequired: () =>
    new ServiceError({
      kind: 'forbidden',
      code: 'seat-token-required',
      title: 'Seat token required',
      detail: "Only a seat token can be replaced here; a player's tokens are revoked under /v1/me/tokens.",
    }),
  noSeat: () =>
    new ServiceError({ kind: 'forbidden', code: 'no-seat', title: 'Not your match', detail: 'This token holds no seat in this match.' }),
  handleTaken: (handle: string) =>
    new ServiceError({
      kind: 'conflict',
      code: 'handle-taken',
      title: 'Handle taken',
      detail: `The handle "${handle}" is registered to a player already.`,
    }),
  handleReserved: (handle: string) =>
    new ServiceError({
      kind: 'conflict',
      code: 'handle-reserved',
      title: 'Handle reserved',
      detail: `The handle "${handle}" belongs to a registered player: play as that player with its token, or pick another handle.`,
    }),
  handleNotAllowed: (handle: string) =>
    new ServiceError({
      kind: 'conflict',
      code: 'handle-not-allowed',
      title: 'Handle not allowed',
      detail: `The handle "${handle}" is reserved by the service (see docs/api.md): pick another.`,
    }),
  ratedNeedsPlayer: () =>
    new ServiceError({
      kind: 'forbidden',
      code: 'rated-needs-player',
      title: 'Rated matches are between players',
      detail: 'Both seats of a rated match are registered players: create or join it with a player token.',
    }),
  ratedMatchInvalid: (detail: string) =>
    new ServiceError({
      kind: 'invalid-request',
      code: 'rated-match-invalid',
      title: 'This match cannot be rated',
      detail,
      errors: [`rated: ${detail}`],
    }),
  playerNotFound: (handle: string) =>
    new ServiceError({ kind: 'not-found', code: 'player-not-found', title: 'No such player', detail: `No registered player "${handle}".` }),
  tokenNotFound: (id: string) =>
    new ServiceError({ kind: 'not-found', code: 'token-not-found', title: 'No such token', detail: `No live token "${id}" of yours.` }),
  gameNotFound: (id: string) =>
    new ServiceError({
      kind: 'not-found',
      code: 'game-not-found',
      title: 'No such game',
      detail: `No hosted game with id "${id}" (see GET /v1/games).`,
    }),
  matchNotFound: (id: string) =>
    new ServiceError({ kind: 'not-found', code: 'match-not-found', title: 'No such match', detail: `No match with id "${id}".` }),
  versionConflict: (current: number, detail?: string) =>
    new ServiceError({
      kind: 'conflict',
      code: 'version-conflict',
      title: 'Version conflict',
      detail: detail ?? `The match is at version ${current}; reload it and retry.`,
      version: current,
    }),
  rematchUnavailable: (detail: string, version?: number) =>
    new ServiceError({
      kind: 'conflict',
      code: 'rematch-unavailable',
      title: 'No rematch possible now',
      detail,
      ...(version !== undefined ? { version } : {}),
    }),
  rematchSeatClaimed: () =>
    new ServiceError({
      kind: 'conflict',
      code: 'rematch-seat-claimed',
      title: 'Rematch seat already claimed',
      detail: 'The new seat token of this rematch was already returned (tokens are shown once).',
    }),
  seatTaken: () =>
    new ServiceError({ kind: 'conflict', code: 'seat-taken', title: 'No open seat', detail: 'This match has no open seat.' }),
  notActive: (status: 'waiting' | 'finished', version: number) =>
    new ServiceError({
      kind: 'conflict',
      code: status === 'finished' ? 'match-finished' : 'match-not-started',
      title: status === 'finished' ? 'Match finished' : 'Match not started',
      detail: status === 'finished' ? 'The match is over.' : 'The match is waiting for a second player.',
      version,
    }),
  idempotencyMismatch: () =>
    new ServiceError({
      kind: 'rejected',
      code: 'idempotency-key-reused',
      title: 'Idempotency key reused',
      detail: 'This Idempotency-Key was already used with a different request.',
    }),
  illegal: (code: string, message: string, version: number) =>
    new ServiceError({ kind: 'rejected', code, title: 'Illegal action', detail: message, version, type: 'illegal-action' }),
  invalidDeck: (errors: string[]) =>
    new ServiceError({ kind: 'rejected', code: 'invalid-deck', title: 'Invalid deck', detail: errors.join('; '), errors }),
  invalidSettings: (errors: string[]) =>
    new ServiceError({ kind: 'rejected', code: 'invalid-settings', title: 'Invalid settings', detail: errors.join('; '), errors }),
  invalidPosition: (errors: string[]) =>
    new ServiceError({ kind: 'rejected', code: 'invalid-position', title: 'Invalid position', detail: errors.join('; '), errors }),
  cardSetUnavailable: (cardSetId: string, hash: string) =>
    new ServiceError({
      kind: 'unavailable',
      code: 'card-set-unavailable',
      title: 'Card set unavailable',
      detail: `This match was played with card set ${cardSetId} (${hash.slice(0, 12)}), which this server does not have.`,
    }),
  gameUnavailable: (game: string) =>
    new ServiceError({
      kind: 'unavailable',
      code: 'game-unavailable',
      title: 'Game unavailable',
      detail: `This match is a game of "${game}", which this server does not host.`,
    }),
  /** A browser page on an origin CORS_ORIGINS does not list opened a WebSocket (browsers apply no CORS to WebSockets). */
  originNotAllowed: (origin: string) =>
    new ServiceError({
      kind: 'forbidden',
      code: 'origin-not-allowed',
      title: 'Origin not allowed',
      detail: `Pages on ${origin} may not open a WebSocket to this server (CORS_ORIGINS).`,
    }),
  tournamentNotFound: (id: string) =>
    new ServiceError({
      kind: 'not-found',
      code: 'tournament-not-found',
      title: 'No such tournament',
      detail: `No tournament with id "${id}".`,
    }),
  /** Entry or a change that the tournament's state no longer allows (started, finished, cancelled, entry closed). */
  tournamentClosed: (detail: string) =>
    new ServiceError({ kind: 'conflict', code: 'tournament-closed', title: 'Tournament closed', detail }),
  tournamentFull: (max: number) =>
    new ServiceError({
      kind: 'conflict',
      code: 'tournament-full',
      title: 'Tournament full',
      detail: `The tournament has its ${max} players.`,
    }),
  notInvited: () =>
    new ServiceError({
      kind: 'forbidden',
      code: 'not-invited',
      title: 'Not invited',
      detail: 'This tournament is open to the players it invited only.',
    }),
  notOrganizer: () =>
    new ServiceError({
      kind: 'forbidden',
      code: 'not-organizer',
      title: 'Not the organizer',
      detail: "Only the tournament's organizer may do this.",
    }),
  notEntered: () =>
    new ServiceError({
      kind: 'conflict',
      code: 'not-entered',
      title: 'Not entered',
      detail: 'You are not entered in this tournament (or have withdrawn).',
    }),
  alreadyEntered: () =>
    new ServiceError({
      kind: 'conflict',
      code: 'already-entered',
      title: 'Already entered',
      detail: 'You are entered in this tournament already.',
    }),
  tooFewPlayers: (n: number) =>
    new ServiceError({
      kind: 'conflict',
      code: 'too-few-players',
      title: 'Too few players',
      detail: `A tournament starts with at least 2 players; it has ${n}.`,
    }),
  bulkPairingNotFound: (id: string) =>
    new ServiceError({
      kind: 'not-found',
      code: 'bulk-pairing-not-found',
      title: 'No such bulk pairing',
      detail: `You have no bulk pairing with id "${id}".`,
    }),
  /** Over BULK_PAIRING_PER_MINUTE: matches one organizer may pair in any minute, over every node. */
  tooManyBulkPairings: (perMinute: number, retryAfterS: number) =>
    new ServiceError({
      kind: 'rate-limited',
      code: 'too-many-bulk-pairings',
      title: 'Too many bulk-paired matches',
      detail: `An organizer may pair ${perMinute} matches per minute (BULK_PAIRING_PER_MINUTE); retry after ${retryAfterS} s.`,
      retryAfterS,
    }),
  pairAtOutOfRange: (horizonDays: number) =>
    new ServiceError({
      kind: 'invalid-request',
      code: 'pair-at-out-of-range',
      title: 'pairAt out of range',
      detail: `pairAt is at most ${horizonDays} days ahead.`,
      errors: [`pairAt: at most ${horizonDays} days ahead`],
    }),
  bulkPairingClosed: (status: string) =>
    new ServiceError({
      kind: 'conflict',
      code: 'bulk-pairing-closed',
      title: 'Bulk pairing closed',
      detail: `This bulk pairing is ${status}; only a scheduled one can be cancelled.`,
    }),
  challengeNotFound: (id: string) =>
    new ServiceError({
      kind: 'not-found',
      code: 'challenge-not-found',
      title: 'No such challenge',
      detail: `No challenge with id "${id}".`,
    }),
  /** Accepted, declined, cancelled or expired already: a challenge has one outcome. */
  challengeClosed: (status: string) =>
    new ServiceError({
      kind: 'conflict',
      code: 'challenge-closed',
      title: 'Challenge closed',
      detail: `This challenge is ${status}; it can no longer be accepted, declined or cancelled.`,
    }),
  notYourChallenge: (detail: string) =>
    new ServiceError({ kind: 'forbidden', code: 'not-your-challenge', title: 'Not your challenge', detail }),
  tooManyChallenges: (perHour: number) =>
    new ServiceError({
      kind: 'rate-limited',
      code: 'too-many-challenges',
      title: 'Too many challenges',
      detail: `A player may create ${perHour} challenges per hour (CHALLENGES_PER_HOUR); wait before sending another.`,
      retryAfterS: 60,
    }),
  /** The challenged player has as many open challenges waiting as a player may have. */
  recipientChallengesFull: (handle: string, max: number) =>
    new ServiceError({
      kind: 'rate-limited',
      code: 'too-many-challenges',
      title: 'Too many challenges',
      detail: `${handle} has ${max} open challenges waiting, the most a player may have (CHALLENGE_MAX_PENDING_PER_RECIPIENT); try again once they answer some.`,
      retryAfterS: 60,
    }),
  rateLimited: (detail: string, retryAfterS: number) =>
    new ServiceError({ kind: 'rate-limited', code: 'rate-limited', title: 'Too many requests', detail, retryAfterS }),
  /** A live stream (NDJSON, SSE, GraphQL subscription) or WebSocket over the caller's cap: close one first. */
  tooManyFeeds: (max: number) =>
    new ServiceError({
      kind: 'rate-limited',
      code: 'too-many-feeds',
      title: 'Too many account feeds',
      detail: `At most ${max} account feeds open at once per player on one server (FEED_CONNECTIONS_PER_PLAYER): close one first.`,
    }),
  /** An address's costly requests past the one(s) it may run at once and the line behind them. */
  tooManyAtOnce: (atOnce: number, queue: number, retryAfterS: number) =>
    new ServiceError({
      kind: 'rate-limited',
      code: 'too-many-at-once',
      title: 'Too many costly requests at once',
      detail: `One address runs ${atOnce} costly request${atOnce === 1 ? '' : 's'} (time travel, exports, event pages, pictures, standings, tournaments, bulk pairing) at a time, with ${queue} more waiting (COSTLY_AT_ONCE_PER_ADDRESS): wait for an answer before sending the next.`,
      retryAfterS,
    }),
  tooManyRequestsAtOnce: (atOnce: number, queue: number, retryAfterS: number) =>
    new ServiceError({
      kind: 'rate-limited',
      code: 'too-many-at-once',
      title: 'Too many requests at once',
      detail: `One address has ${atOnce} requests answered at a time, with ${queue} more waiting (REQUESTS_AT_ONCE_PER_ADDRESS): wait for an answer before sending the next.`,
      retryAfterS,
    }),
  tooManyStreams: (detail: string) =>
    new ServiceError({ kind: 'rate-limited', code: 'too-many-streams', title: 'Too many live streams', detail }),
  serverBusy: (retryAfterS: number) =>
    new ServiceError({
      kind: 'unavailable',
      code: 'server-busy',
      title: 'Server busy',
      detail: 'This node is already drawing or building as many pictures and exports as it may; retry shortly.',
      retryAfterS,
    }),
  /** The field kept changing while a round was being paired (joins and withdrawals in a stream): nothing was started. */
  tournamentBusy: (retryAfterS: number) =>
    new ServiceError({
      kind: 'unavailable',
      code: 'tournament-busy',
      title: 'Tournament busy',
      detail: 'Players kept entering or withdrawing while the round was being paired; nothing was started. Retry shortly.',
      retryAfterS,
    }),
  seekNotFound: (id: string) =>
    new ServiceError({ kind: 'not-found', code: 'seek-not-found', title: 'No such seek', detail: `No seek "${id}" of yours.` }),
  seekNotOpen: (status: string) =>
    new ServiceError({
      kind: 'conflict',
      code: 'seek-not-open',
      title: 'Seek not open',
      detail: `This seek is ${status}: only an open seek can be cancelled.`,
    }),
  seekNeedsCorrespondence: () =>
    new ServiceError({
      kind: 'invalid-request',
      code: 'seek-needs-correspondence',
      title: 'A seek needs a clock',
      detail: 'A seek needs a correspondence or a live time control (see docs/api.md, Seeks).',
      errors: ['timeControl: a seek needs a correspondence or a live time control.'],
    }),
  seekNeedsFeed: () =>
    new ServiceError({
      kind: 'conflict',
      code: 'seek-needs-feed',
      title: 'A live seek needs your feed',
      detail: 'A live seek lives while your account feed is connected: open GET /v1/me/events (on this server) first, then post it.',
    }),
  tooManySeeks: (max: number) =>
    new ServiceError({
      kind: 'rate-limited',
      code: 'too-many-seeks',
      title: 'Too many open seeks',
      detail: `You have ${max} open seeks, the most a player may have: cancel one (DELETE /v1/seeks/{id}) or wait for one to pair or expire.`,
    }),
  databaseUnavailable: (detail = 'The database is not answering; retry shortly.') =>
    new ServiceError({ kind: 'unavailable', code: 'database-unavailable', title: 'Database unavailable', detail }),
  /** The database answers but has no room now (pool saturated, statement or lock timeout, out of connection slots). */
  /** A live stream's reader fell too far behind: the stream ends with this; reconnect from the last event read. */
  slowConsumer: (maxBytes: number) =>
    new ServiceError({
      kind: 'unavailable',
      code: 'slow-consumer',
      title: 'Slow consumer',
      detail: `More than ${maxBytes} bytes waited for this reader: the stream is closed. Reconnect with after=<the last seq or id received> and read as fast as it sends.`,
      retryAfterS: 1,
    }),
  overloaded: (detail = 'The service is busy; retry after Retry-After seconds.') =>
    new ServiceError({ kind: 'unavailable', code: 'overloaded', title: 'Overloaded', detail, retryAfterS: OVERLOADED_RETRY_AFTER_S }),
};
