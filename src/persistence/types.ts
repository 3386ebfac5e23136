/**
 * The match store: what the service needs from the database. Implemented with Prisma over
 * PGlite (embedded) or PostgreSQL (production). The database is the only source of truth.
 */
import type { EventSource } from '../core/match-records.js';

export type SeatName = 'p1' | 'p2';
export type MatchStatus = 'waiting' | 'active' | 'finished';
/** Who may read an event: everyone, one seat, or the server only (seed, deck lists). */
export type EventVisibility = 'public' | 'p1' | 'p2' | 'server';

export interface SeatRecord {
  seat: SeatName;
  /** sha256 of the seat token; the token itself is never stored. Null while the seat is open. */
  tokenHash: string | null;
  handle: string | null;
  /** The registered player holding the seat (its handle verified); null or absent for anonymous play. */
  playerId?: string | null;
  /** Read side: whether that player is a bot. */
  bot?: boolean;
  /** The deck the seat brought (a starter deck's id, or custom-<hash>); null for a sandbox or before the join. */
  deck?: string | null;
}

export interface NewMatch {
  id: string;
  /** The hosted game's ruleset id ('evons', 'universus'). */
  game: string;
  /** That ruleset's rules version when the match was created. */
  rulesVersion: string;
  engineVersion: string;
  rulesHash: string;
  config: unknown;
  cardSetId: string;
  cardSetHash: string;
  /** Kept server-side; published only when the game ends. */
  seed: string;
  seedCommitment: string;
  status: MatchStatus;
  seats: SeatRecord[];
  /** The seat whose decision the game waits for; null (the default) when nobody's. */
  toMove?: SeatName | null;
  /** When the running clock runs out; null (the default) without one. */
  deadline?: Date | null;
  /** Endpoints registered with the match, in the same transaction. */
  webhooks?: NewWebhook[];
  /** The time control's kind (default none), for history search. */
  timeControl?: string;
  /** The deck lists as dealt (secret until the end, like the seed); null before the deal or for a sandbox. */
  decks?: Record<SeatName, string[]> | null;
  /** A rated match: its end updates both players' ratings (default false). */
  rated?: boolean;
  /** Against the computer: who asked for it (`player:<id>` or `address:<hash>`), its fair share's key. */
  aiOwner?: string | null;
}

/** How a finished match ended: by its game's rules, a seat's clock, a resignation the match recorded (games without their own), or an abort. */
export type MatchEnding = 'game' | 'timed-out' | 'resigned' | 'aborted';

/** Ratings are kept per game and per time-control family. */
export type RatingFamily = 'correspondence' | 'live';

/** A Glicko-2 rating as stored (unrounded). */
export interface RatingValue {
  rating: number;
  rd: number;
  volatility: number;
}

/**
 * The rating update a rated match's final append carries. The store locks both players' ratings,
 * calls `rate` with them, and writes the result in the append's own transaction: once per match.
 */
export interface RatedEnding {
  game: string;
  family: RatingFamily;
  players: Record<SeatName, string>;
  /** p1's score: 1 win, 0.5 draw, 0 loss. */
  score: 0 | 0.5 | 1;
  /** A player's rating before their first rated game here. */
  initial: RatingValue;
  /** Both new ratings from both ratings before the match (pure). */
  rate(before: Record<SeatName, RatingValue>): Record<SeatName, RatingValue>;
}

export interface RatingRow extends RatingValue {
  playerId: string;
  game: string;
  family: RatingFamily;
  games: number;
  updatedAt: Date;
}

export interface RatingChangeRow {
  matchId: string;
  playerId: string;
  game: string;
  family: RatingFamily;
  score: number;
  before: RatingValue;
  after: RatingValue;
  createdAt: Date;
}

export interface LeaderboardRow extends RatingValue {
  handle: string;
  bot: boolean;
  games: number;
}

/** A player's results in one game (finished matches of their seats). */
export interface PlayerGameStats {
  game: string;
  /** Finished, not aborted. */
  played: number;
  won: number;
  lost: number;
  drawn: number;
  /** Lost on time. */
  timedOut: number;
  aborted: number;
}

export interface DeckUsage {
  game: string;
  deck: string;
  matches: number;
}

/** Ratings, their history, and the results they come from. */
export interface RatingStore {
  ofPlayer(playerId: string): Promise<RatingRow[]>;
  /** Highest first, only ratings with rd <= maxRd (the others are provisional). */
  leaderboard(game: string, family: RatingFamily, maxRd: number, limit: number): Promise<LeaderboardRow[]>;
  /** The rating changes a match made (none, or one per seat). */
  changesOfMatch(matchId: string): Promise<RatingChangeRow[]>;
  /** Per game, from the player's finished matches. */
  stats(playerId: string): Promise<PlayerGameStats[]>;
  /** The decks the player brought most often to finished matches, per game, most used first (at most `perGame` each). */
  favouriteDecks(playerId: string, perGame: number): Promise<DeckUsage[]>;
}

export type WebhookKind = 'your-turn' | 'opponent-joined' | 'match-ended' | 'deadline-near';

export interface NewWebhook {
  id: string;
  seat: SeatName;
  url: string;
  kinds: WebhookKind[];
  secret: string;
  deadlineLeadMs: number;
}

export interface WebhookRow extends NewWebhook {
  matchId: string;
  previousSecret: string | null;
  previousUntil: Date | null;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
}

/** What an append notifies: the seats' endpoints that asked for these kinds get an outbox row. */
export interface Notification {
  seat: SeatName;
  kind: WebhookKind;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'superseded';

export interface DeliveryRow {
  id: string;
  webhookId: string;
  matchId: string;
  seat: SeatName;
  kind: WebhookKind;
  version: number;
  fromSeq: number;
  toMove: SeatName | null;
  deadline: Date | null;
  status: DeliveryStatus;
  attempts: number;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  /** How many times its seat asked for it again (each a single attempt). */
  redeliveries: number;
}

/** What sending needs of an endpoint, a seat's or an account's. */
export interface WebhookTarget {
  id: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: Date | null;
  failingSince: Date | null;
  disabledAt: Date | null;
}

/** A player's account endpoint: every feed entry of theirs of these kinds. */
export interface NewAccountWebhook {
  id: string;
  url: string;
  kinds: string[];
  secret: string;
}

export interface AccountWebhookRow extends NewAccountWebhook, WebhookTarget {
  playerId: string;
  disabledReason: string | null;
  createdAt: Date;
}

/** A delivery of an account webhook: one feed entry (its position `<xid>-<id>`). */
export interface AccountDeliveryRow {
  id: string;
  webhookId: string;
  kind: string;
  entryId: string;
  status: DeliveryStatus;
  attempts: number;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  redeliveries: number;
}

/** A claimed account delivery with its stored feed entry (the body is built from it alone). */
export interface ClaimedAccountDelivery extends AccountDeliveryRow {
  of: 'account';
  webhook: WebhookTarget;
  entry: FeedRow;
}

/** A claimed delivery with what sending it needs: a seat's, or an account's. */
export type ClaimedDelivery = ClaimedMatchDelivery | ClaimedAccountDelivery;

/** A claimed delivery of a seat's webhook. */
export interface ClaimedMatchDelivery extends DeliveryRow {
  of: 'match';
  webhook: WebhookTarget;
  /** The match's version now (a deadline-near for an older version is superseded). */
  matchVersion: number;
  /** The match's game (its rules redact the body). */
  game: string;
  /** The stored events the notification is about (from_seq … version), unredacted. */
  events: { seq: number; source: EventSource; type: string; payload: unknown; actingSeat: SeatName | null }[];
}

export interface MatchRow extends NewMatch {
  decks: Record<SeatName, string[]> | null;
  rated: boolean;
  /** Null while the match runs. */
  ending: MatchEnding | null;
  toMove: SeatName | null;
  deadline: Date | null;
  timeControl: string;
  version: number;
  /** Bumped by every seat-token replacement (cached copies compare it with the version). */
  seatEpoch: number;
  createdAt: Date;
  updatedAt: Date;
  winner: SeatName | null;
}

/** The envelope of a stored event: the game's own, or a record of the match itself (never told apart by `type`). */
export type { EventSource };

export interface NewEvent {
  source: EventSource;
  type: string;
  payload: unknown;
  visibility: EventVisibility;
  actingSeat: SeatName | null;
}

export interface StoredEvent extends NewEvent {
  seq: number;
  createdAt: Date;
}

/** An accepted action's answer, kept for retries with the same key (a refused action stores nothing). */
export interface IdempotencyRecord {
  key: string;
  seat: SeatName;
  requestHash: string;
  /** The answer as the service stored it (JSON text). */
  response: string;
}

/** What a player's Idempotency-Key was used for outside a match's actions (table player_request_key). */
export type RequestKeyOperation = 'challenge-accept' | 'seek-post';

/** A player's Idempotency-Key for a lobby request, with the answer it got (a refused request stores none). */
export interface PlayerRequestKey {
  playerId: string;
  operation: RequestKeyOperation;
  key: string;
  requestHash: string;
  /** The answer as the service stored it (JSON text). */
  response: string;
}

/** The key was stored by another request first (its write committed): nothing of this one was stored. */
export class RequestKeyTakenError extends Error {
  constructor() {
    super('idempotency key already used');
    this.name = 'RequestKeyTakenError';
  }
}

export interface AppendOptions {
  /** New match status/winner to set in the same transaction. */
  status?: MatchStatus;
  winner?: SeatName | null;
  /** Who is to move after these events (kept on the row for "my turn" lists). */
  toMove?: SeatName | null;
  /** The running clock's deadline after these events (null: none runs), for the sweepers. */
  deadline?: Date | null;
  /** Webhook notifications, written to the outbox in the same statement. */
  notify?: Notification[];
  /** The deck lists dealt by this append (a join's deal). */
  decks?: Record<SeatName, string[]>;
  /** How the match ended, with status 'finished'. */
  ending?: MatchEnding;
  /** A rated match's end: both ratings are updated in this append's transaction. */
  rating?: RatedEnding;
  /** An endpoint registered in the same statement (a join that brings one). */
  registerWebhook?: NewWebhook;
  /** Stored in the same transaction, so a retried request gets the same answer. */
  idempotency?: IdempotencyRecord;
  /**
   * Takes an open seat in the same transaction (a join: the deal and the seat together). If
   * the seat is no longer open nothing is written and VersionConflictError is thrown.
   */
  claimSeat?: { seat: SeatName; tokenHash: string; handle: string | null; playerId?: string | null; deck?: string | null };
  /**
   * A new match created in the same transaction, only if this append matched its expected version
   * (an accepted rematch: the acceptance and the match it starts are written together, once).
   */
  createMatch?: { match: NewMatch; events: NewEvent[] };
}

/** Thrown when the expected version is stale (a lost race): the HTTP layer answers 409. */
export class VersionConflictError extends Error {
  constructor(readonly currentVersion: number) {
    super(`match is at version ${currentVersion}`);
    this.name = 'VersionConflictError';
  }
}

export interface MatchListFilter {
  handle?: string;
  status?: MatchStatus;
  tokenHash?: string;
  /** Only matches where the seat of this handle is to move (correspondence: "my turn"). */
  toMoveHandle?: string;
  /** Only the match of this seat token, if that seat is to move. */
  toMoveTokenHash?: string;
  game?: string;
  /** A seat of this registered player. */
  playerId?: string;
  /** Only matches where this registered player's seat is to move. */
  toMovePlayerId?: string;
  /** A seat of this handle played against `handle`'s seat. */
  opponent?: string;
  /** Finished matches `handle` won, lost or drew (needs `handle`). */
  result?: 'won' | 'lost' | 'drawn';
  timeControl?: string;
  rated?: boolean;
  /** Created at or after `from`, before `to`. */
  from?: Date;
  to?: Date;
}

/** recent: newest first. deadline: soonest deadline first (no deadline last), then newest. */
export type MatchOrder = 'recent' | 'deadline';

export interface MatchPage {
  matches: MatchRow[];
  /** Opaque; pass back to get the next (older) page. Null on the last page. */
  nextCursor: string | null;
}

export interface MatchStore {
  /** Creates the match row and its first events (seq 1..n) in one transaction. */
  /**
   * With `accept`: the challenge is marked accepted (naming this match) in the same transaction,
   * only if it is still open and unexpired at `accept.at`; otherwise nothing is stored and
   * ChallengeClosedError is thrown.
   */
  createMatch(match: NewMatch, events: NewEvent[], accept?: ChallengeAcceptance): Promise<MatchRow>;
  getMatch(id: string): Promise<MatchRow | null>;
  /** The match's current version (its number of events), or null when there is no such match. */
  getVersion(id: string): Promise<number | null>;
  /** The version and the seat epoch: what a cached copy of the match must still match (null: no such match). */
  getStamp(id: string): Promise<{ version: number; seatEpoch: number } | null>;
  /**
   * Replaces a seat's token hash (the old one stops matching at once) and bumps the seat epoch, in
   * one statement. False when the seat no longer has `oldHash` (replaced meanwhile).
   */
  replaceSeatToken(matchId: string, seat: SeatName, oldHash: string, newHash: string): Promise<boolean>;
  /** Events with seq > afterSeq, ascending, at most `limit` (all when omitted). */
  loadEvents(id: string, opts?: { afterSeq?: number; limit?: number }): Promise<StoredEvent[]>;
  /**
   * Appends events at expectedVersion + 1 … in one transaction; throws VersionConflictError when
   * the match is no longer at expectedVersion (decided by the database: UNIQUE (match_id, seq)
   * and a conditional version update). Returns the new version.
   */
  appendEvents(id: string, expectedVersion: number, events: NewEvent[], opts?: AppendOptions): Promise<number>;
  /** Keys are scoped to (match, seat): each seat has its own key space. */
  findIdempotency(matchId: string, seat: SeatName, key: string): Promise<IdempotencyRecord | null>;
  /** A player's key for a lobby request (accepting a challenge, posting a seek): per player and operation. */
  findRequestKey(playerId: string, operation: RequestKeyOperation, key: string): Promise<PlayerRequestKey | null>;
  /** Cursor-paginated, newest first unless `order` says otherwise (a cursor belongs to its order). */
  listMatches(filter: MatchListFilter, opts: { cursor?: string | null; limit: number; order?: MatchOrder }): Promise<MatchPage>;
  /** Active matches whose deadline is at or before `now`, soonest first: the sweepers' work. */
  expiredMatches(now: Date, limit: number): Promise<{ id: string; version: number }[]>;
  readonly webhooks: WebhookStore;
  readonly players: PlayerStore;
  readonly ratings: RatingStore;
  readonly challenges: ChallengeStore;
  readonly seeks: SeekStore;
  readonly feed: FeedStore;
  readonly ai: AiStore;
  readonly tournaments: TournamentStore;
  readonly bulkPairings: BulkPairingStore;
  /**
   * Calls `onAppend(matchId, version)` after every committed append, from any node sharing the
   * database (PostgreSQL LISTEN/NOTIFY; PGlite's own). Returns the unsubscribe function.
   */
  watchAppends(
    onAppend: (matchId: string, version: number) => void,
    /** 'down' while the subscription is broken (appends may be missed), 'up' once it is back. */
    onState?: (state: 'up' | 'down') => void,
    /** A token was revoked (on any node): its sha256, as announceRevoked sent it. */
    onRevoked?: (tokenHash: string) => void,
    /** Account feed entries may have been written (a challenge, seek or match created or closed, on any node). */
    onFeed?: () => void,
  ): Promise<() => Promise<void>>;
  /** Tells every node's watchers that the token with this sha256 no longer counts (live streams end at once). */
  announceRevoked(tokenHash: string): Promise<void>;
  /**
   * Calls `listener` after each append of this process that queued webhook deliveries (the
   * outbox rows the append itself wrote) and after each redelivery it queued: the node's worker
   * wakes for them, and for nothing else.
   */
  onDeliveriesQueued(listener: () => void): void;
  close(): Promise<void>;
}

/** Webhook endpoints and their outbox. */
export interface WebhookStore {
  /** Stores an endpoint unless its seat holds `maxPerSeat` already (null), checked atomically. */
  create(matchId: string, hook: NewWebhook, maxPerSeat: number): Promise<WebhookRow | null>;
  list(matchId: string, seat: SeatName): Promise<WebhookRow[]>;
  get(matchId: string, seat: SeatName, id: string): Promise<WebhookRow | null>;
  delete(matchId: string, seat: SeatName, id: string): Promise<boolean>;
  /** A new secret; the old one keeps signing until `previousUntil`. */
  rotate(matchId: string, seat: SeatName, id: string, secret: string, previousUntil: Date): Promise<WebhookRow | null>;
  deliveries(webhookId: string, limit: number): Promise<DeliveryRow[]>;
  /**
   * Queues a settled delivery again (one attempt now), keeping its id, unless it is pending
   * already or was queued again `max` times; null: no such delivery.
   */
  redeliver(webhookId: string, deliveryId: string, max: number): Promise<DeliveryRow | 'pending' | 'limit' | null>;
  /**
   * Claims up to `limit` due deliveries for `leaseMs` (FOR UPDATE SKIP LOCKED: each goes to one
   * worker on one node); a worker that dies mid-send loses its lease and another retries. None
   * for the endpoints in `busy` (this node is sending to them), and none while an earlier
   * version to the same endpoint is pending (per endpoint, deliveries go in version order).
   */
  /** `only`: claim for these endpoints alone (the slow lane). */
  claim(limit: number, leaseMs: number, busy?: readonly string[], only?: readonly string[]): Promise<ClaimedDelivery[]>;
  /** Stores a player's account endpoint unless they hold `max` already (null), checked atomically. */
  createForPlayer(playerId: string, hook: NewAccountWebhook, max: number): Promise<AccountWebhookRow | null>;
  listForPlayer(playerId: string): Promise<AccountWebhookRow[]>;
  getForPlayer(playerId: string, id: string): Promise<AccountWebhookRow | null>;
  deleteForPlayer(playerId: string, id: string): Promise<boolean>;
  rotateForPlayer(playerId: string, id: string, secret: string, previousUntil: Date): Promise<AccountWebhookRow | null>;
  accountDeliveries(webhookId: string, limit: number): Promise<AccountDeliveryRow[]>;
  /** Like redeliver, for an account webhook's delivery. */
  redeliverAccount(webhookId: string, deliveryId: string, max: number): Promise<AccountDeliveryRow | 'pending' | 'limit' | null>;
  /** Whether any account webhook is active (a node kicks its worker on feed notifications only then). */
  anyAccountWebhooks(): Promise<boolean>;
  /** Records an attempt's result: delivered, or the next attempt (null: give up), and the endpoint's state. */
  settle(d: ClaimedDelivery, r: { ok: boolean; statusCode: number | null; error: string | null; nextAttemptAt: Date | null; superseded?: boolean; disableReason?: string | null }): Promise<void>;
}

/** pairing:play: a delegated token, bound to the one bulk pairing it is given for, that acts in that pairing's matches only. */
export type Scope = 'match:read' | 'match:play' | 'match:create' | 'webhook:write' | 'token:write' | 'pairing:play';

export interface PlayerRow {
  id: string;
  handle: string;
  bot: boolean;
  createdAt: Date;
}

export interface PlayerTokenRow {
  id: string;
  playerId: string;
  label: string | null;
  scopes: Scope[];
  createdAt: Date;
  revokedAt: Date | null;
  /** A pairing:play token's bulk pairing, once one was created with it (null before, and for other tokens). */
  bulkPairingId: string | null;
}

/** Registered players and their API tokens. */
export interface PlayerStore {
  /** Registers the player with its first token; null when the handle (case-insensitively) is taken. */
  register(p: { id: string; handle: string; bot: boolean }, token: { id: string; tokenHash: string; label: string | null; scopes: Scope[] }): Promise<PlayerRow | null>;
  byHandle(handle: string): Promise<PlayerRow | null>;
  /** The player and scopes of a live (not revoked) token. */
  byToken(tokenHash: string): Promise<{ player: PlayerRow; token: PlayerTokenRow } | null>;
  /** Which of these handles are registered (case-insensitively), as given. */
  registered(handles: string[]): Promise<string[]>;
  tokens(playerId: string): Promise<PlayerTokenRow[]>;
  addToken(playerId: string, token: { id: string; tokenHash: string; label: string | null; scopes: Scope[] }): Promise<PlayerTokenRow>;
  /** Revokes a live token of the player; its sha256, or null when there was no such live token. */
  revokeToken(playerId: string, tokenId: string): Promise<string | null>;
  /** The matches a bulk pairing created (none while it is scheduled). */
  pairingMatches(bulkPairingId: string): Promise<string[]>;
}

export type ChallengeStatus = 'open' | 'accepted' | 'declined' | 'canceled' | 'expired';
export type ChallengeSeat = 'p1' | 'p2' | 'random';

export interface ChallengeRow {
  id: string;
  challenger: { id: string; handle: string; bot: boolean };
  /** The challenged player; null for an open challenge. */
  dest: { id: string; handle: string; bot: boolean } | null;
  /** An open challenge's allowed handles, lower-cased (empty: anyone). */
  allowed: string[];
  game: string;
  timeControl: unknown;
  rated: boolean;
  seat: ChallengeSeat;
  settings: unknown;
  /** The challenger's deck spec: server-side only. */
  deck: unknown;
  status: ChallengeStatus;
  declineReason: string | null;
  matchId: string | null;
  acceptedById: string | null;
  createdAt: Date;
  expiresAt: Date;
  closedAt: Date | null;
}

/** A challenge to store: the row's own fields, its players by id. */
export type NewChallenge = Pick<ChallengeRow, 'id' | 'allowed' | 'game' | 'timeControl' | 'rated' | 'seat' | 'settings' | 'deck' | 'createdAt' | 'expiresAt'> & {
  challengerId: string;
  destId: string | null;
};

/** A seek as stored (src/persistence/seek-store.ts). */
export interface SeekRow {
  id: string;
  playerId: string;
  /** The owner's handle (read side). */
  handle: string;
  bot: boolean;
  game: string;
  timeControl: unknown;
  controlKey: string;
  rated: boolean;
  minRating: number | null;
  maxRating: number | null;
  /** Server only: the resolved deck and its label. */
  deck: string[];
  deckName: string;
  status: 'open' | 'paired' | 'cancelled';
  matchId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface NewSeek {
  id: string;
  playerId: string;
  game: string;
  timeControl: unknown;
  controlKey: string;
  /** The rating family the range is read in ('correspondence' or 'live'). */
  family: RatingFamily;
  rated: boolean;
  minRating: number | null;
  maxRating: number | null;
  deck: string[];
  deckName: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface ChallengeAcceptance {
  challengeId: string;
  acceptedById: string;
  at: Date;
  /**
   * The accept's Idempotency-Key and its answer: inserted first in the acceptance's transaction
   * (RequestKeyTakenError, and nothing stored, when another request stored it first).
   */
  requestKey?: PlayerRequestKey;
}

/** createMatch with an acceptance found the challenge no longer open (or expired): nothing stored. */
export class ChallengeClosedError extends Error {
  constructor() {
    super('challenge not open');
    this.name = 'ChallengeClosedError';
  }
}

export interface ChallengeStore {
  /**
   * Creates the challenge if the challenger created fewer than `maxPerHour` since `at - 1h` (else
   * 'per-hour') and, for a challenge to a player, that player has fewer than
   * `maxPendingPerRecipient` open unexpired challenges addressed to them (else 'recipient-full').
   */
  create(c: NewChallenge, maxPerHour: number, maxPendingPerRecipient: number): Promise<ChallengeRow | 'per-hour' | 'recipient-full'>;
  get(id: string): Promise<ChallengeRow | null>;
  /**
   * open -> `to`, only if open and unexpired at `at` (and, with `challengerId`, only if that player
   * is its challenger). Null: no such open challenge (another outcome was written first).
   */
  close(id: string, to: 'declined' | 'canceled', at: Date, opts: { reason?: string; challengerId?: string }): Promise<ChallengeRow | null>;
  /**
   * Marks open challenges past their expiry as expired (at most `limit`, soonest due first; only
   * `id`, or only those `player` sent or received, when given): each written once, whichever node
   * runs it; the ids this call expired.
   */
  expire(at: Date, only?: { limit?: number; id?: string; player?: string }): Promise<string[]>;
  /**
   * A player's challenges, newest first: `in` (sent to them by handle) or `out` (theirs); a page of
   * `limit` after `cursor` (a nextCursor it issued; anything else is an InvalidCursorError).
   */
  list(playerId: string, direction: 'in' | 'out', opts: { status?: ChallengeStatus; limit: number; cursor?: string }): Promise<{ rows: ChallengeRow[]; nextCursor: string | null }>;
}

/** What posting a seek did. */
export type SeekPosted =
  | { kind: 'limit'; open: number }
  | { kind: 'open'; seek: SeekRow }
  | { kind: 'paired'; seek: SeekRow; other: SeekRow; matchId: string };

export interface SeekStore {
  /**
   * Stores a seek, or pairs it with the oldest compatible open seek (same game, time control and
   * rated flag, another player, each rating within the other's range), in ONE transaction: both
   * seeks marked paired and the match `pair` builds created together, or nothing. Refuses (kind
   * 'limit') when the owner already has `maxOpen` open seeks. `initialRating` is a player's
   * rating before their first rated game.
   */
  post(
    seek: NewSeek,
    opts: {
      maxOpen: number;
      initialRating: number;
      pair: (older: SeekRow, newer: SeekRow) => { match: NewMatch; events: NewEvent[] };
      /**
       * The post's Idempotency-Key: inserted first in the transaction (RequestKeyTakenError, and
       * nothing stored, when another request stored it first), with `answer(posted)` as its response;
       * a refused post ('limit') keeps no key.
       */
      requestKey?: { key: Omit<PlayerRequestKey, 'response'>; answer: (posted: SeekPosted) => string };
    },
  ): Promise<SeekPosted>;
  /** Open seeks not expired at `now`, oldest first (after `after`'s position, for the next page). */
  listOpen(filter: { game?: string | undefined }, now: Date, limit: number, after?: { createdAt: Date; id: string } | null): Promise<SeekRow[]>;
  /** A player's seeks, newest first. */
  ofPlayer(playerId: string, limit: number): Promise<SeekRow[]>;
  /** Cancels an open, unexpired seek of the player; null when there is no such seek of theirs, else the row after. */
  cancel(playerId: string, id: string, now: Date): Promise<{ cancelled: boolean; seek: SeekRow } | null>;
  /** Extends to `until` the open, unexpired live seeks of these players (their feeds are connected); returns how many. */
  renewLive(playerIds: readonly string[], now: Date, until: Date): Promise<number>;
}

/** One account feed entry (table account_event). */
export interface FeedRow {
  /** `<xid>-<id>`: where the entry is in the feed's order (the SSE id). */
  position: string;
  playerId: string;
  kind: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface FeedWindow {
  rows: FeedRow[];
  /** Where the next window starts (every entry of these players up to it has been returned). */
  next: string;
  /** Entries past `next` exist already (a full page, or rows above the horizon): read again soon. */
  more: boolean;
}

/** The account feed's reads (src/persistence/feed-store.ts). */
export interface FeedStore {
  /** A position before every entry that can still appear (the reading snapshot's oldest running writer). */
  horizon(): Promise<string>;
  /** These players' entries after `after`, in feed order, up to the horizon (at most `limit`). */
  window(after: string, players: readonly string[], limit: number): Promise<FeedWindow>;
  /** One player's entries after `after` up to and including `upTo` (at most `limit`). */
  between(playerId: string, after: string, upTo: string, limit: number): Promise<FeedRow[]>;
  /** Whether `position` is one of this player's entries (a Last-Event-ID to resume from). */
  exists(playerId: string, position: string): Promise<boolean>;
  /**
   * What has committed now, as a point to test entries against (`committedAt`): a fresh
   * connection's snapshot, read after it, shows every entry committed before it.
   */
  now(): Promise<string>;
  /** Stores a feed ticket (its hash) for the player token `tokenHash`, until `expiresAt`; drops every expired one. */
  addTicket(ticketHash: string, tokenHash: string, expiresAt: Date, now: Date): Promise<void>;
  /**
   * Uses a ticket once: the hash of the token that minted it, when it exists, is unused and has
   * not expired at `now` (the row is deleted in the same statement: a second use finds none).
   */
  useTicket(ticketHash: string, now: Date): Promise<string | null>;
}

/** A decision of the computer's, claimed by this node (src/persistence/ai-store.ts). */
export interface AiClaim {
  matchId: string;
  /** The match version the decision is for (appended with it expected). */
  version: number;
  /** How many claims this version has had (the first is 1): a node died or a worker failed before. */
  attempts: number;
  seat: SeatName;
  /** The computer player holding the seat (its level). */
  playerId: string;
}

export interface AiStore {
  /**
   * Claims up to `limit` decisions that wait for one of these players (active matches whose seat to
   * move is theirs), each for `leaseMs`; a decision claimed by a live lease is not claimed again.
   * Fair between owners (NewMatch.aiOwner): round robin over them, oldest first within each, and
   * none for an owner that already holds `perOwner` live claims (on any node).
   */
  claim(aiPlayerIds: readonly string[], limit: number, leaseMs: number, node: string, perOwner?: number): Promise<AiClaim[]>;
  /** Drops the claim of this version (its decision was appended, or is moot). */
  release(matchId: string, version: number): Promise<void>;
  /** Ends the claim's lease now (its worker failed): the next claim takes it again, one attempt more. */
  expire(matchId: string, version: number): Promise<void>;
}

// ------------------------------------------------------------------ tournaments (tournament-store.ts)

export type TournamentFormat = 'swiss' | 'round-robin' | 'double-round-robin';
export type TournamentStatus = 'open' | 'running' | 'finished' | 'canceled';
export type DeckRule = 'starter' | 'any';
/** A board's result: a seat won, a draw, both forfeited, or the bye. */
export type BoardResult = 'p1' | 'p2' | 'draw' | 'double-forfeit' | 'bye';

export interface NewTournament {
  id: string;
  organizerId: string;
  name: string;
  game: string;
  format: TournamentFormat;
  rounds: number | null;
  timeControl: unknown;
  rated: boolean;
  deckRule: DeckRule;
  maxPlayers: number;
  invited: string[];
  entryClosesAt: Date | null;
  startsAt: Date | null;
  roundHours: number | null;
  seed: string;
  createdAt: Date;
}

export interface TournamentRow extends NewTournament {
  organizer: string;
  status: TournamentStatus;
  round: number;
  roundEndsAt: Date | null;
  standings: unknown;
  startedAt: Date | null;
  finishedAt: Date | null;
  players: number;
  /** Bumped by every change to what the tournament shows (its field, rounds, results, status). */
  version: number;
}

export interface TournamentPlayerRow {
  playerId: string;
  handle: string;
  bot: boolean;
  /** The deck spec the player entered with (never shown). */
  deck: unknown;
  deckName: string;
  rating: number;
  joinedAt: Date;
  withdrawnAt: Date | null;
}

export interface BoardRow {
  round: number;
  board: number;
  p1: string;
  p2: string | null;
  matchId: string | null;
  result: BoardResult | null;
  forfeit: boolean;
  /** The match's status now (null for a bye). */
  matchStatus: string | null;
}

export type NewBoard = Omit<BoardRow, 'matchStatus'>;

export type JoinOutcome = 'joined' | 'already' | 'full' | 'closed';

export interface RoundStart {
  /** The round that must be running now (the start happens only if it still is). */
  from: number;
  /**
   * The field the pairings were made from: every entered player and whether they withdrew. The
   * start happens only if the field under the tournament's row lock is still this one (a join or
   * a withdrawal committed since answers 'stale', and the caller pairs again).
   */
  field: { playerId: string; withdrawn: boolean }[];
  rounds: number;
  roundEndsAt: Date | null;
  at: Date;
  boards: NewBoard[];
  matches: { match: NewMatch; events: NewEvent[] }[];
}

export interface TournamentStore {
  create(t: NewTournament): Promise<void>;
  get(id: string): Promise<TournamentRow | null>;
  list(filter: { status?: TournamentStatus | undefined }, limit: number, before?: { createdAt: Date; id: string }): Promise<TournamentRow[]>;
  players(id: string): Promise<TournamentPlayerRow[]>;
  boards(id: string): Promise<BoardRow[]>;
  /** Enters a player while the tournament is open, its entry window open and its field not full. */
  join(id: string, p: { playerId: string; deck: unknown; deckName: string; rating: number }, at: Date): Promise<JoinOutcome>;
  /** Before the start: leaves the field; after it: withdrawn from the next round on. False: not entered (or already withdrawn). */
  withdraw(id: string, playerId: string, at: Date): Promise<boolean>;
  /** open -> canceled; with `fewerThan`, only while the field (read under the row lock) has fewer players. */
  cancel(id: string, at: Date, fewerThan?: number): Promise<boolean>;
  /**
   * Starts round `from + 1` (see RoundStart) under the tournament's row lock, the lock joins and
   * withdrawals take: 'lost' when another node started it first, 'stale' when the field changed
   * since it was read.
   */
  startRound(id: string, start: RoundStart): Promise<'started' | 'lost' | 'stale'>;
  /** Writes results of boards that have none (the same from any node). */
  setResults(id: string, results: { round: number; board: number; result: BoardResult; forfeit: boolean }[]): Promise<void>;
  /** running -> finished with the final standings and `rounds` = `round` (the rounds played), if round `round` is still the last started. */
  finish(id: string, round: number, standings: unknown, at: Date): Promise<boolean>;
  /**
   * Tournaments with something to do at `now`: open ones due to start, and running ones whose
   * round's deadline passed, with an ended match not scored yet, or with every board scored.
   */
  due(now: Date, limit: number): Promise<string[]>;
}

// ------------------------------------------------------------------ bulk pairings (bulk-pairing-store.ts)

export type BulkPairingStatus = 'scheduled' | 'created' | 'canceled';

export interface NewBulkPairing {
  id: string;
  organizerId: string;
  game: string;
  timeControl: unknown;
  rated: boolean;
  deck: unknown;
  pairAt: Date;
  createdAt: Date;
  pairs: { p1: string; p2: string }[];
  /** The players' pairing:play tokens (ids): bound to the pairing in its transaction, each unbound and live until then. */
  tokenIds: string[];
  /**
   * The organizer's budget: matches of its pairings created in the last `windowMs` (counted in the
   * transaction, the organizer's row locked, so two nodes cannot both spend the last of it).
   */
  budget: { perMinute: number; windowMs: number };
}

/** Why a board of a paired bulk pairing has no match: a player revoked the token (consent) before pairAt. */
export type UnpairedReason = 'consent-revoked';

export interface BulkPairingRow extends Omit<NewBulkPairing, 'pairs' | 'tokenIds' | 'budget'> {
  status: BulkPairingStatus;
  pairedAt: Date | null;
  boards: { board: number; p1: string; p1Handle: string; p2: string; p2Handle: string; matchId: string | null; unpairedReason: UnpairedReason | null }[];
}

export interface BulkPairingStore {
  /**
   * Stores it and binds its tokens, all or nothing: 'token-taken' when a token was bound or revoked
   * meanwhile; over the organizer's budget, when enough of it is free again (nothing stored).
   */
  create(b: NewBulkPairing): Promise<'created' | 'token-taken' | { retryAt: Date }>;
  get(id: string): Promise<BulkPairingRow | null>;
  /** The organizer's, newest first. */
  ofOrganizer(organizerId: string, limit: number): Promise<BulkPairingRow[]>;
  /** scheduled -> canceled. */
  cancel(id: string): Promise<boolean>;
  /**
   * scheduled -> created with these matches (one per board, in board order), in one transaction:
   * false when another node created them first (or it was cancelled). A pairing made with bound
   * tokens creates a board's match only if both players' tokens are still live (locked in the
   * transaction, so a revocation is either before it and counted, or after it); else the board is
   * unpaired, 'consent-revoked'.
   */
  pair(id: string, at: Date, matches: { match: NewMatch; events: NewEvent[] }[]): Promise<boolean>;
  /** Scheduled bulk pairings whose time has come. */
  due(now: Date, limit: number): Promise<string[]>;
}
