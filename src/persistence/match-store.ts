/**
 * The match store (MatchStore) and its implementation on PostgreSQL (PGlite or a server, through
 * Prisma's driver adapter): matches, their event logs, idempotency keys, and the other stores
 * (webhooks, players, ratings, …), which it holds.
 *
 * Move path (appendEvents) = one SQL statement with one named-field argument (append.ts).
 * Invariant: match.version = number of events = seq of the last event.
 * A new match is one statement too (match-create.ts); listing matches goes through Prisma's query
 * API (match-list.ts), every other read through the driver.
 */
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../generated/prisma/client.js';
import { claimRequestKey } from './request-keys.js';
import { openDatabase, type Database, type DatabaseConfig, type SqlQuery, type SqlTx } from './database.js';
import { migrate } from './migrate.js';
import { isUniqueViolation } from './db-errors.js';
import { asDate, asJson } from './sql-values.js';
import { APPEND, appendArgs, type AppendOptions, type IdempotencyRecord } from './append.js';
import { CREATE, createArgs } from './match-create.js';
import { MATCH_SQL, MATCHES_SQL, matchRow, type MatchRow, type MatchSqlRow } from './match-rows.js';
import {
  decodeCursor,
  encodeCursor,
  matchListOrder,
  matchListWhere,
  type MatchListFilter,
  type MatchOrder,
  type MatchPage,
} from './match-list.js';
import { PgWebhookStore, type WebhookStore } from './webhook-store.js';
import { PgPlayerStore, type PlayerStore } from './player-store.js';
import { PgRatingStore, applyRating, type RatedEnding, type RatingStore } from './rating-store.js';
import { PgSeekStore, type SeekStore } from './seek-store.js';
import { ChallengeClosedError, PgChallengeStore, type ChallengeAcceptance, type ChallengeStore } from './challenge-store.js';
import { PgFeedStore, type FeedStore } from './feed-store.js';
import { PgTournamentStore, type TournamentStore } from './tournament-store.js';
import { PgBulkPairingStore, type BulkPairingStore } from './bulk-pairing-store.js';
import { PgAiStore, type AiStore } from './ai-store.js';
import type { EventSource, EventVisibility, NewEvent, NewMatch, PlayerRequestKey, RequestKeyOperation, SeatName } from './shared.js';

export interface StoredEvent extends NewEvent {
  seq: number;
  createdAt: Date;
}

/** Thrown when the expected version is stale (a lost race): the HTTP layer answers 409. */
export class VersionConflictError extends Error {
  constructor(readonly currentVersion: number) {
    super(`match is at version ${currentVersion}`);
    this.name = 'VersionConflictError';
  }
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

/**
 * NOTIFY channel of committed appends (payload `matchId:version`) and of revoked tokens (payload
 * `revoked:<sha256>`, which a node that does not know it reads as no append: its "version" is not
 * a number). One channel, so one LISTEN session per node carries both.
 */
export const APPEND_CHANNEL = 'evons_appends';
const REVOKED_PREFIX = 'revoked:';
/** Account feed entries were written outside an append (no match id has no ':' and a version). */
const FEED_NOTE = 'feed';
const NOTIFY_BATCH_MS = 5;
/** How far ahead of the clock createMatch may stamp a match to keep one node's creation times distinct. */
export const CREATION_LEAD_MS = 50;

/**
 * Prisma for the schema, migrations and the colder queries; the driver itself (`sql`) for the
 * statements every move runs (getMatch, loadEvents, appendEvents, findIdempotency).
 */
export class PgMatchStore implements MatchStore {
  private readonly pendingNotes = new Map<string, number>();
  private readonly queuedListeners: (() => void)[] = [];
  /**
   * Versions this process wrote, when no other process can write the database (embedded PGlite
   * behind its directory lock): getVersion answers from here instead of a query. Bounded; an id
   * is forgotten on any failed append (a statement may have committed before an error).
   */
  private readonly written: LRUCache<string, number> | null;
  /** Seat epochs, on the same terms as `written` (only this process replaces seat tokens). */
  private readonly epochs: LRUCache<string, number> | null;
  private noteTimer: NodeJS.Timeout | null = null;
  private feedNote = false;
  /** The last creation time createMatch assigned (epoch ms). */
  private lastCreatedAt = 0;
  readonly webhooks: WebhookStore;
  readonly players: PlayerStore;
  readonly ratings: RatingStore;
  readonly challenges: ChallengeStore;
  readonly seeks: SeekStore;
  readonly feed: FeedStore;
  readonly ai: AiStore;
  readonly tournaments: TournamentStore;
  readonly bulkPairings: BulkPairingStore;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlQuery,
    private readonly listen: Database['listen'],
    private readonly transaction: Database['transaction'],
    private readonly onClose: () => Promise<void> = () => prisma.$disconnect(),
    /** True when this process is the database's only writer (embedded PGlite). */
    exclusive = false,
  ) {
    this.written = exclusive ? new LRUCache({ max: 10_000 }) : null;
    this.epochs = exclusive ? new LRUCache({ max: 10_000 }) : null;
    this.webhooks = new PgWebhookStore(prisma, sql, transaction, () => this.deliveriesQueued());
    this.players = new PgPlayerStore(prisma);
    this.ratings = new PgRatingStore(sql);
    this.challenges = new PgChallengeStore(sql, { encode: (at, id) => encodeCursor(at, id), decode: (c) => decodeCursor(c) }, () =>
      this.announceFeed(),
    );
    // The paths that start matches inside a transaction of their own (a pairing, a round, a bulk pairing).
    const createMatchIn = async (tx: SqlTx, match: NewMatch, events: NewEvent[], at: Date) => {
      await tx.query(CREATE.text, CREATE.values(createArgs(match, events, at)));
    };
    this.seeks = new PgSeekStore(sql, transaction, createMatchIn, () => this.announceFeed());
    this.feed = new PgFeedStore(sql);
    this.ai = new PgAiStore(sql);
    this.tournaments = new PgTournamentStore(sql, transaction, createMatchIn, () => this.announceFeed());
    this.bulkPairings = new PgBulkPairingStore(sql, transaction, createMatchIn, () => this.announceFeed());
  }

  async createMatch(match: NewMatch, events: NewEvent[], accept?: ChallengeAcceptance): Promise<MatchRow> {
    // Creation times this node assigns increase strictly (millisecond columns), so matches one client
    // creates one after another list newest first in that order however fast creation is; a burst
    // may run ahead of the clock by at most CREATION_LEAD_MS (then ties fall back to the id order).
    // Later writes to the match (updated_at, events, joins) are never stamped before its creation.
    const now = Date.now();
    const at = Math.max(now, Math.min(this.lastCreatedAt + 1, now + CREATION_LEAD_MS));
    this.lastCreatedAt = at;
    const args = CREATE.values(createArgs(match, events, new Date(at)));
    if (accept) {
      // The challenge's conditional update and the match are one transaction: an accepted
      // challenge always has its match, and a challenge that is no longer open gets none.
      await this.transaction(async (tx) => {
        // The key first: a second accept with it waits here for the first, then stores nothing.
        if (accept.requestKey) await claimRequestKey(tx, accept.requestKey);
        const won = await tx.query(
          `UPDATE "challenge" SET "status" = 'accepted', "match_id" = $2, "accepted_by_id" = $3, "closed_at" = $4::timestamptz
            WHERE "id" = $1 AND "status" = 'open' AND "expires_at" > $4::timestamptz RETURNING "id"`,
          [accept.challengeId, match.id, accept.acceptedById, accept.at.toISOString()],
        );
        if (won.length === 0) throw new ChallengeClosedError();
        await tx.query(CREATE.text, args);
      });
    } else {
      await this.sql(CREATE.text, args, 'evons_create_match');
    }
    if (match.status === 'active') this.announceFeed();
    const created = await this.getMatch(match.id);
    if (!created) throw new Error(`match ${match.id} was created but cannot be read`);
    this.written?.set(created.id, created.version);
    return created;
  }

  async getMatch(id: string): Promise<MatchRow | null> {
    const [m] = await this.sql<MatchSqlRow>(MATCH_SQL, [id], 'evons_get_match');
    return m ? matchRow(m) : null;
  }

  async getVersion(id: string): Promise<number | null> {
    const known = this.written?.get(id);
    if (known !== undefined) return known;
    const [r] = await this.sql<{ version: number }>(`SELECT version FROM "match" WHERE id = $1`, [id], 'evons_get_version');
    return r ? Number(r.version) : null;
  }

  async getStamp(id: string): Promise<{ version: number; seatEpoch: number } | null> {
    const known = this.written?.get(id);
    const epoch = this.epochs?.get(id);
    if (known !== undefined && epoch !== undefined) return { version: known, seatEpoch: epoch };
    const [r] = await this.sql<{ version: number; seat_epoch: number }>(
      `SELECT version, seat_epoch FROM "match" WHERE id = $1`,
      [id],
      'evons_get_stamp',
    );
    if (!r) return null;
    this.epochs?.set(id, Number(r.seat_epoch));
    return { version: Number(r.version), seatEpoch: Number(r.seat_epoch) };
  }

  async replaceSeatToken(matchId: string, seat: SeatName, oldHash: string, newHash: string): Promise<boolean> {
    const rows = await this.sql<{ seat_epoch: number }>(
      `WITH s AS (UPDATE "seat" SET token_hash = $4 WHERE match_id = $1 AND seat = $2 AND token_hash = $3 RETURNING 1)
       UPDATE "match" SET seat_epoch = seat_epoch + 1 WHERE id = $1 AND EXISTS (SELECT 1 FROM s) RETURNING seat_epoch`,
      [matchId, seat, oldHash, newHash],
      'evons_replace_seat_token',
    );
    if (rows[0] === undefined) return false;
    this.epochs?.set(matchId, Number(rows[0].seat_epoch));
    return true;
  }

  async loadEvents(id: string, opts: { afterSeq?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    const rows = await this.sql<{
      seq: number;
      source: string;
      type: string;
      payload: unknown;
      visibility: string;
      acting_seat: string | null;
      created_at: Date | string;
    }>(
      `SELECT seq, source, type, payload, visibility, acting_seat, created_at FROM "event"
        WHERE match_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [id, opts.afterSeq ?? 0, opts.limit ?? null],
      'evons_load_events',
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      source: r.source as EventSource,
      type: r.type,
      payload: asJson(r.payload),
      visibility: r.visibility as EventVisibility,
      actingSeat: r.acting_seat as SeatName | null,
      createdAt: asDate(r.created_at),
    }));
  }

  async appendEvents(id: string, expectedVersion: number, events: NewEvent[], opts: AppendOptions = {}): Promise<number> {
    if (events.length === 0) throw new Error('appendEvents needs at least one event');
    if (!Number.isInteger(expectedVersion) || expectedVersion < 0) throw new Error('expectedVersion must be an integer >= 0');
    let rows: { version: number; queued: number }[];
    try {
      const params = APPEND.values(appendArgs(id, expectedVersion, events, opts));
      const rating = opts.ending?.rating;
      const created = opts.createMatch;
      rows = rating
        ? await this.appendRated(id, params, rating)
        : created
          ? await this.appendCreating(params, created)
          : await this.sql<{ version: number; queued: number }>(APPEND.text, params, 'evons_append');
    } catch (e) {
      this.written?.delete(id);
      if (isUniqueViolation(e)) throw await this.conflict(id);
      throw e;
    }
    if (rows.length === 0) {
      this.written?.delete(id);
      throw await this.conflict(id);
    }
    const version = expectedVersion + events.length;
    this.written?.set(id, version);
    this.announce(id, version);
    if (Number(rows[0]!.queued) > 0) this.deliveriesQueued();
    return version;
  }

  /** An append and the match it starts (a rematch) in one transaction: the match only if the append matched. */
  private async appendCreating(
    params: unknown[],
    created: NonNullable<AppendOptions['createMatch']>,
  ): Promise<{ version: number; queued: number }[]> {
    const lost = Symbol('lost');
    try {
      const rows = await this.transaction(async (tx) => {
        const rows = await tx.query<{ version: number; queued: number }>(APPEND.text, params);
        if (rows.length === 0) throw lost;
        await tx.query(CREATE.text, CREATE.values(createArgs(created.match, created.events, new Date())));
        return rows;
      });
      this.written?.set(created.match.id, created.events.length);
      return rows;
    } catch (e) {
      if (e === lost) return [];
      throw e;
    }
  }

  /**
   * A rated match's final append: the append and both rating updates in one transaction (the
   * ratings are locked first; the update runs only if the append matched its expected version).
   */
  private async appendRated(id: string, params: unknown[], rating: RatedEnding): Promise<{ version: number; queued: number }[]> {
    const lost = Symbol('lost');
    try {
      return await this.transaction(async (tx) => {
        const rows = await tx.query<{ version: number; queued: number }>(APPEND.text, params);
        // Nothing was written: roll back (the rating rows may have been created).
        if (rows.length === 0) throw lost;
        await applyRating(tx, id, rating);
        return rows;
      });
    } catch (e) {
      if (e === lost) return [];
      throw e;
    }
  }

  /**
   * Announces commits to watchers on every node (live streams), batched: at most one NOTIFY
   * statement per NOTIFY_BATCH_MS, after the commits. NOTIFY inside the append would hold
   * PostgreSQL's global notify lock through every commit and serialise the writers. Best-effort:
   * streams also catch up on their keep-alive.
   */
  private announce(id: string, version: number): void {
    this.pendingNotes.set(id, Math.max(version, this.pendingNotes.get(id) ?? 0));
    this.noteTimer ??= setTimeout(() => void this.flushNotes(), NOTIFY_BATCH_MS);
  }

  /**
   * Tells every node's account feed that entries may have been written outside an append (a
   * challenge, a seek, a match created): batched with the appends' notifications.
   */
  private announceFeed(): void {
    this.feedNote = true;
    this.noteTimer ??= setTimeout(() => void this.flushNotes(), NOTIFY_BATCH_MS);
  }

  private async flushNotes(): Promise<void> {
    this.noteTimer = null;
    if (this.pendingNotes.size === 0 && !this.feedNote) return;
    const payloads = [...this.pendingNotes].map(([id, v]) => `${id}:${v}`);
    if (this.feedNote) payloads.push(FEED_NOTE);
    this.feedNote = false;
    this.pendingNotes.clear();
    await this.sql(`SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p`, [APPEND_CHANNEL, payloads], 'evons_notify').catch(
      () => undefined,
    );
  }

  async announceRevoked(tokenHash: string): Promise<void> {
    // After the revocation committed; not batched (rare, and a stream should end at once).
    await this.sql(`SELECT pg_notify($1, $2)`, [APPEND_CHANNEL, REVOKED_PREFIX + tokenHash]);
  }

  onDeliveriesQueued(listener: () => void): void {
    this.queuedListeners.push(listener);
  }

  private deliveriesQueued(): void {
    for (const l of this.queuedListeners) l();
  }

  private async conflict(id: string): Promise<Error> {
    const m = await this.prisma.match.findUnique({ where: { id }, select: { version: true } });
    if (!m) return new Error(`match ${id} not found`);
    return new VersionConflictError(m.version);
  }

  async findIdempotency(matchId: string, seat: SeatName, key: string): Promise<IdempotencyRecord | null> {
    const [r] = await this.sql<{ key: string; seat: string; request_hash: string; response: string }>(
      `SELECT key, seat, request_hash, response FROM "idempotency_key" WHERE match_id = $1 AND seat = $2 AND key = $3`,
      [matchId, seat, key],
      'evons_find_idempotency_by_seat',
    );
    return r ? { key: r.key, seat: r.seat as SeatName, requestHash: r.request_hash, response: r.response } : null;
  }

  async findRequestKey(playerId: string, operation: RequestKeyOperation, key: string): Promise<PlayerRequestKey | null> {
    const [r] = await this.sql<{ request_hash: string; response: string }>(
      `SELECT request_hash, response FROM "player_request_key" WHERE player_id = $1 AND operation = $2 AND key = $3`,
      [playerId, operation, key],
      'evons_find_request_key',
    );
    return r ? { playerId, operation, key, requestHash: r.request_hash, response: r.response } : null;
  }

  async expiredMatches(now: Date, limit: number): Promise<{ id: string; version: number }[]> {
    const rows = await this.sql<{ id: string; version: number }>(
      `SELECT "id", "version" FROM "match" WHERE "status" = 'active' AND "deadline" <= $1::timestamptz ORDER BY "deadline" LIMIT $2`,
      [now.toISOString(), limit],
    );
    return rows.map((r) => ({ id: r.id, version: Number(r.version) }));
  }

  async listMatches(filter: MatchListFilter, opts: { cursor?: string | null; limit: number; order?: MatchOrder }): Promise<MatchPage> {
    const order = opts.order ?? 'recent';
    const limit = Math.max(1, Math.floor(opts.limit));
    const rows = await this.prisma.match.findMany({
      where: matchListWhere(filter, order, opts.cursor),
      orderBy: matchListOrder(order),
      take: limit + 1,
      select: { id: true, createdAt: true, deadline: true },
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      matches: await this.matchRows(page.map((r) => r.id)),
      nextCursor:
        rows.length > limit && last ? encodeCursor(last.createdAt, last.id, order === 'deadline' ? last.deadline : undefined) : null,
    };
  }

  /** These matches, in this order (Prisma picks the page, the one row mapper reads it). */
  private async matchRows(ids: string[]): Promise<MatchRow[]> {
    if (ids.length === 0) return [];
    const byId = new Map((await this.sql<MatchSqlRow>(MATCHES_SQL, [ids])).map((m) => [m.id, matchRow(m)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async watchAppends(
    onAppend: (matchId: string, version: number) => void,
    onState?: (state: 'up' | 'down') => void,
    onRevoked?: (tokenHash: string) => void,
    onFeed?: () => void,
  ): Promise<() => Promise<void>> {
    return this.listen(
      APPEND_CHANNEL,
      (payload) => {
        if (payload === FEED_NOTE) {
          onFeed?.();
          return;
        }
        if (payload.startsWith(REVOKED_PREFIX)) {
          onRevoked?.(payload.slice(REVOKED_PREFIX.length));
          return;
        }
        const i = payload.lastIndexOf(':');
        const version = Number(payload.slice(i + 1));
        if (i > 0 && Number.isInteger(version)) onAppend(payload.slice(0, i), version);
      },
      onState,
    );
  }

  async close(): Promise<void> {
    if (this.noteTimer) clearTimeout(this.noteTimer);
    await this.flushNotes();
    return this.onClose();
  }
}

export interface OpenedStore {
  store: MatchStore;
  db: Database;
  close(): Promise<void>;
}

/** Opens the database, applies pending migrations, returns the store. */
export async function openStore(config: DatabaseConfig): Promise<OpenedStore> {
  const db = await openDatabase(config);
  try {
    await migrate(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  const store = new PgMatchStore(
    db.prisma,
    db.query,
    db.listen,
    (fn) => db.transaction(fn),
    () => db.close(),
    db.kind === 'pglite',
  );
  return { store, db, close: () => db.close() };
}
