/**
 * MatchStore over Prisma (PGlite or PostgreSQL through a driver adapter).
 *
 * Move path (appendEvents) = one SQL statement with one named-field argument (append.ts).
 * Invariant: match.version = number of events = seq of the last event.
 * Everything else goes through Prisma's query API.
 */
import { claimRequestKey } from './request-keys.js';
import { LRUCache } from 'lru-cache';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { openDatabase, type Database, type DatabaseConfig, type SqlQuery, type SqlTx } from './database.js';
import { migrate } from './migrate.js';
import { isUniqueViolation } from './db-errors.js';
import { PrismaWebhookStore } from './webhook-store.js';
import { PrismaPlayerStore } from './player-store.js';
import { SqlRatingStore, applyRating } from './rating-store.js';
import { SqlSeekStore } from './seek-store.js';
import { asDate, asJson } from './sql-values.js';
import { APPEND, appendArgs, eventDocs } from './append.js';
import { named } from './named-sql.js';
import { SqlChallengeStore } from './challenge-store.js';
import { SqlFeedStore } from './feed-store.js';
import { SqlTournamentStore } from './tournament-store.js';
import { SqlBulkPairingStore } from './bulk-pairing-store.js';
import { SqlAiStore } from './ai-store.js';
import {
  ChallengeClosedError,
  type ChallengeAcceptance,
  type ChallengeStore,
  type FeedStore,
  type TournamentStore,
  type BulkPairingStore,
  type AiStore,
  VersionConflictError,
  type AppendOptions,
  type IdempotencyRecord,
  type PlayerRequestKey,
  type RequestKeyOperation,
  type MatchListFilter,
  type MatchPage,
  type MatchOrder,
  type MatchRow,
  type MatchStatus,
  type MatchStore,
  type NewEvent,
  type NewMatch,
  type SeatName,
  type StoredEvent,
  type EventSource,
  type EventVisibility,
  type WebhookStore,
  type PlayerStore,
  type RatingStore,
  type SeekStore,
  type MatchEnding,
} from './types.js';

/** Thrown by listMatches for a cursor it did not issue (HTTP: 400). */
export class InvalidCursorError extends Error {
  constructor() {
    super('invalid cursor');
    this.name = 'InvalidCursorError';
  }
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
 * A new match in ONE statement: the match row, its seats, its first events and the endpoints
 * registered with it. Through Prisma's nested create this was several statements in a
 * transaction and about 6 ms of this process's CPU (its query compiler); here it is one round
 * trip. JSON nulls are stored as Prisma stored them: jsonb `null`, not SQL NULL.
 */
interface CreateArgs {
  id: string;
  game: string;
  rules_version: string;
  engine_version: string;
  rules_hash: string;
  /** JSON texts: config, decks, and the arrays of seats, events and webhooks. */
  config: string;
  card_set_id: string;
  card_set_hash: string;
  seed: string;
  seed_commitment: string;
  status: MatchStatus;
  to_move: SeatName | null;
  deadline: string | null;
  time_control: string;
  decks: string;
  rated: boolean;
  ending: MatchEnding | null;
  version: number;
  ai_owner: string | null;
  seats: string;
  events: string;
  webhooks: string;
  created_at: string;
}

const CREATE = named<CreateArgs>()`
WITH m AS (
  INSERT INTO "match" ("id", "game", "rules_version", "engine_version", "rules_hash", "config", "card_set_id", "card_set_hash",
                       "seed", "seed_commitment", "status", "to_move", "deadline", "time_control", "decks", "rated", "ending", "version",
                       "ai_owner", "created_at", "updated_at")
  VALUES (${'id'}, ${'game'}, ${'rules_version'}, ${'engine_version'}, ${'rules_hash'}, ${'config'}::jsonb, ${'card_set_id'}, ${'card_set_hash'},
          ${'seed'}, ${'seed_commitment'}, ${'status'}, ${'to_move'}, ${'deadline'}::timestamptz, ${'time_control'}, ${'decks'}::jsonb,
          ${'rated'}::boolean, ${'ending'}, ${'version'}::int, ${'ai_owner'}, ${'created_at'}::timestamptz, ${'created_at'}::timestamptz)
  RETURNING "id"
), seats AS (
  INSERT INTO "seat" ("match_id", "seat", "token_hash", "handle", "player_id", "deck", "joined_at")
  SELECT m."id", x.seat, x.token_hash, x.handle, x.player_id, x.deck, CASE WHEN x.token_hash IS NULL THEN NULL ELSE ${'created_at'}::timestamptz END
    FROM m, jsonb_to_recordset(${'seats'}::jsonb) AS x(seat text, token_hash text, handle text, player_id text, deck text)
), ev AS (
  INSERT INTO "event" ("match_id", "seq", "source", "type", "payload", "visibility", "acting_seat", "created_at")
  SELECT m."id", e.ord::int, e.doc->>'source', e.doc->>'type', e.doc->'payload', e.doc->>'visibility', e.doc->>'acting_seat', ${'created_at'}::timestamptz
    FROM m, jsonb_array_elements(${'events'}::jsonb) WITH ORDINALITY AS e(doc, ord)
), hooks AS (
  INSERT INTO "webhook" ("id", "match_id", "seat", "url", "kinds", "secret", "deadline_lead_ms")
  SELECT w.id, m."id", w.seat, w.url, ARRAY(SELECT jsonb_array_elements_text(w.kinds)), w.secret, w.deadline_lead_ms
    FROM m, jsonb_to_recordset(${'webhooks'}::jsonb) AS w(id text, seat text, url text, kinds jsonb, secret text, deadline_lead_ms int)
)
SELECT "id" FROM m`;

function createArgs(match: NewMatch, events: NewEvent[], createdAt: Date): CreateArgs {
  return {
    id: match.id,
    game: match.game,
    rules_version: match.rulesVersion,
    engine_version: match.engineVersion,
    rules_hash: match.rulesHash,
    config: JSON.stringify(match.config ?? null),
    card_set_id: match.cardSetId,
    card_set_hash: match.cardSetHash,
    seed: match.seed,
    seed_commitment: match.seedCommitment,
    status: match.status,
    to_move: match.toMove ?? null,
    deadline: match.deadline?.toISOString() ?? null,
    time_control: match.timeControl ?? 'none',
    decks: JSON.stringify(match.decks ?? null),
    rated: match.rated ?? false,
    ending: match.status === 'finished' ? 'game' : null,
    ai_owner: match.aiOwner ?? null,
    version: events.length,
    seats: JSON.stringify(match.seats.map((s) => ({ seat: s.seat, token_hash: s.tokenHash, handle: s.handle, player_id: s.playerId ?? null, deck: s.deck ?? null }))),
    events: JSON.stringify(eventDocs(events)),
    webhooks: JSON.stringify((match.webhooks ?? []).map((w) => ({ id: w.id, seat: w.seat, url: w.url, kinds: w.kinds, secret: w.secret, deadline_lead_ms: w.deadlineLeadMs }))),
    created_at: createdAt.toISOString(),
  };
}

/** A page boundary: the last row's sort keys (its deadline only in deadline order). */
export interface Cursor {
  createdAt: Date;
  id: string;
  deadline?: Date | null;
}

export function encodeCursor(createdAt: Date, id: string, deadline?: Date | null): string {
  const keys: (string | null)[] = [createdAt.toISOString(), id];
  if (deadline !== undefined) keys.push(deadline?.toISOString() ?? null);
  return Buffer.from(JSON.stringify(keys)).toString('base64url');
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A timestamp the store could have written: ISO with milliseconds, 2000–9999, round-tripping exactly. */
function cursorDate(at: unknown): Date {
  if (typeof at !== 'string' || !ISO_MS.test(at)) throw new InvalidCursorError();
  const d = new Date(at);
  const year = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || d.toISOString() !== at || year < 2000 || year > 9999) throw new InvalidCursorError();
  return d;
}

/**
 * Cursors come back from clients, so they are checked as strictly as any input: a timestamp the
 * store could have written (ISO, 2000–9999, round-tripping exactly) and a match id of the shape
 * we issue. Anything else is an InvalidCursorError, never a query.
 */
export function decodeCursor(cursor: string, order: MatchOrder = 'recent'): Cursor {
  if (cursor.length > 200) throw new InvalidCursorError();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  // A cursor belongs to the order that issued it: two keys for recent, three for deadline.
  if (!Array.isArray(v) || v.length !== (order === 'deadline' ? 3 : 2)) throw new InvalidCursorError();
  const [at, id, deadline] = v as unknown[];
  if (typeof id !== 'string' || !CURSOR_ID.test(id)) throw new InvalidCursorError();
  const c: Cursor = { createdAt: cursorDate(at), id };
  if (order === 'deadline') c.deadline = deadline === null ? null : cursorDate(deadline);
  return c;
}

/** Match ids as the service issues them (see MatchIdSchema in the HTTP schemas). */
const CURSOR_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface MatchSqlRow {
  id: string;
  game: string;
  rules_version: string;
  engine_version: string;
  rules_hash: string;
  config: unknown;
  card_set_id: string;
  card_set_hash: string;
  seed: string;
  seed_commitment: string;
  status: string;
  winner: string | null;
  to_move: string | null;
  deadline: Date | string | null;
  time_control: string;
  decks: unknown;
  rated: boolean;
  ending: string | null;
  version: number;
  seat_epoch: number;
  created_at: Date | string;
  updated_at: Date | string;
  seats: { seat: string; token_hash: string | null; handle: string | null; player_id: string | null; bot: boolean; deck: string | null }[] | string;
}

/** Matches with their seats in one statement (the hot read of every request: getMatch). */
const MATCH_SELECT = `
SELECT m.*,
       COALESCE((SELECT json_agg(json_build_object('seat', s.seat, 'token_hash', s.token_hash, 'handle', s.handle,
                                                   'player_id', s.player_id, 'bot', COALESCE(p.bot, false), 'deck', s.deck) ORDER BY s.seat)
                   FROM "seat" s LEFT JOIN "player" p ON p.id = s.player_id WHERE s.match_id = m.id), '[]'::json) AS seats
  FROM "match" m`;
const MATCH_SQL = `${MATCH_SELECT} WHERE m.id = $1`;
const MATCHES_SQL = `${MATCH_SELECT} WHERE m.id = ANY($1::text[])`;

/** The one mapping from the match table to MatchRow. */
function matchRow(m: MatchSqlRow): MatchRow {
  return {
    id: m.id,
    game: m.game,
    rulesVersion: m.rules_version,
    engineVersion: m.engine_version,
    rulesHash: m.rules_hash,
    config: m.config,
    cardSetId: m.card_set_id,
    cardSetHash: m.card_set_hash,
    seed: m.seed,
    seedCommitment: m.seed_commitment,
    status: m.status as MatchStatus,
    winner: m.winner as SeatName | null,
    toMove: m.to_move as SeatName | null,
    deadline: m.deadline === null ? null : asDate(m.deadline),
    timeControl: m.time_control,
    decks: (asJson(m.decks as string | Record<SeatName, string[]> | null) as Record<SeatName, string[]> | null) ?? null,
    rated: m.rated,
    ending: m.ending as MatchEnding | null,
    version: Number(m.version),
    seatEpoch: Number(m.seat_epoch),
    createdAt: asDate(m.created_at),
    updatedAt: asDate(m.updated_at),
    seats: asJson(m.seats).map((s) => ({ seat: s.seat as SeatName, tokenHash: s.token_hash, handle: s.handle, playerId: s.player_id, bot: s.bot, deck: s.deck })),
  };
}

/**
 * Prisma for the schema, migrations and the colder queries; the driver itself (`sql`) for the
 * statements every move runs (getMatch, loadEvents, appendEvents, findIdempotency).
 */
export class PrismaMatchStore implements MatchStore {
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
    this.webhooks = new PrismaWebhookStore(prisma, sql, transaction, () => this.deliveriesQueued());
    this.players = new PrismaPlayerStore(prisma);
    this.ratings = new SqlRatingStore(sql);
    this.challenges = new SqlChallengeStore(sql, { encode: (at, id) => encodeCursor(at, id), decode: (c) => decodeCursor(c) }, () => this.announceFeed());
    // The paths that start matches inside a transaction of their own (a pairing, a round, a bulk pairing).
    const createMatchIn = async (tx: SqlTx, match: NewMatch, events: NewEvent[], at: Date) => {
      await tx.query(CREATE.text, CREATE.values(createArgs(match, events, at)));
    };
    this.seeks = new SqlSeekStore(
      sql,
      transaction,
      createMatchIn,
      () => this.announceFeed(),
    );
    this.feed = new SqlFeedStore(sql);
    this.ai = new SqlAiStore(sql);
    this.tournaments = new SqlTournamentStore(
      sql,
      transaction,
      createMatchIn,
      () => this.announceFeed(),
    );
    this.bulkPairings = new SqlBulkPairingStore(
      sql,
      transaction,
      createMatchIn,
      () => this.announceFeed(),
    );
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
    const [r] = await this.sql<{ version: number; seat_epoch: number }>(`SELECT version, seat_epoch FROM "match" WHERE id = $1`, [id], 'evons_get_stamp');
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
    const rows = await this.sql<{ seq: number; source: string; type: string; payload: unknown; visibility: string; acting_seat: string | null; created_at: Date | string }>(
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
      const rating = opts.rating;
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
  private async appendCreating(params: unknown[], created: NonNullable<AppendOptions['createMatch']>): Promise<{ version: number; queued: number }[]> {
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
  private async appendRated(id: string, params: unknown[], rating: NonNullable<AppendOptions['rating']>): Promise<{ version: number; queued: number }[]> {
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
    await this.sql(`SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p`, [APPEND_CHANNEL, payloads], 'evons_notify').catch(() => undefined);
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
    const and: Prisma.MatchWhereInput[] = [];
    if (filter.status) and.push({ status: filter.status });
    if (filter.handle !== undefined) and.push({ seats: { some: { handle: filter.handle } } });
    if (filter.tokenHash !== undefined) and.push({ seats: { some: { tokenHash: filter.tokenHash } } });
    // "My turn": the match waits for the seat that has this handle (or token).
    const toMove = (seat: SeatName, who: Prisma.SeatWhereInput): Prisma.MatchWhereInput => ({ toMove: seat, seats: { some: { seat, ...who } } });
    // The plain "has a seat of this handle" first: it lets the planner start from the seat index
    // (the OR of two correlated seat checks alone made it scan every match: 330 ms at 10⁵ matches).
    if (filter.toMoveHandle !== undefined) {
      and.push({ seats: { some: { handle: filter.toMoveHandle } } });
      and.push({ OR: [toMove('p1', { handle: filter.toMoveHandle }), toMove('p2', { handle: filter.toMoveHandle })] });
    }
    if (filter.toMoveTokenHash !== undefined) {
      and.push({ seats: { some: { tokenHash: filter.toMoveTokenHash } } });
      and.push({ OR: [toMove('p1', { tokenHash: filter.toMoveTokenHash }), toMove('p2', { tokenHash: filter.toMoveTokenHash })] });
    }
    if (filter.game !== undefined) and.push({ game: filter.game });
    if (filter.playerId !== undefined) and.push({ seats: { some: { playerId: filter.playerId } } });
    if (filter.toMovePlayerId !== undefined) {
      and.push({ seats: { some: { playerId: filter.toMovePlayerId } } });
      and.push({ OR: [toMove('p1', { playerId: filter.toMovePlayerId }), toMove('p2', { playerId: filter.toMovePlayerId })] });
    }
    if (filter.timeControl !== undefined) and.push({ timeControl: filter.timeControl });
    if (filter.rated !== undefined) and.push({ rated: filter.rated });
    if (filter.from !== undefined) and.push({ createdAt: { gte: filter.from } });
    if (filter.to !== undefined) and.push({ createdAt: { lt: filter.to } });
    // The opponent: the other seat of a seat that has `handle` (or any seat, without a handle).
    const seatOf = (seat: SeatName, handle: string): Prisma.MatchWhereInput => ({ seats: { some: { seat, handle } } });
    const other = (s: SeatName): SeatName => (s === 'p1' ? 'p2' : 'p1');
    if (filter.opponent !== undefined) {
      const opp = filter.opponent;
      and.push(
        filter.handle !== undefined
          ? { OR: (['p1', 'p2'] as const).map((s) => ({ AND: [seatOf(s, filter.handle!), seatOf(other(s), opp)] })) }
          : { seats: { some: { handle: opp } } },
      );
    }
    if (filter.result !== undefined && filter.handle !== undefined) {
      const h = filter.handle;
      // An aborted match has no winner either, but nobody drew it.
      if (filter.result === 'drawn') and.push({ status: 'finished', winner: null, OR: [{ ending: null }, { ending: { not: 'aborted' } }], seats: { some: { handle: h } } });
      else {
        const mine = filter.result === 'won';
        and.push({ status: 'finished', OR: (['p1', 'p2'] as const).map((s) => ({ winner: mine ? s : other(s), ...seatOf(s, h) })) });
      }
    }
    if (opts.cursor) {
      const c = decodeCursor(opts.cursor, order);
      const older: Prisma.MatchWhereInput = { OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }] };
      if (order === 'recent') and.push(older);
      // Deadline order: later deadlines, then the same deadline and older, then (last) no deadline.
      else if (c.deadline) and.push({ OR: [{ deadline: { gt: c.deadline } }, { AND: [{ deadline: c.deadline }, older] }, { deadline: null }] });
      else and.push({ deadline: null }, older);
    }
    const limit = Math.max(1, Math.floor(opts.limit));
    const rows = await this.prisma.match.findMany({
      where: { AND: and },
      orderBy:
        order === 'deadline'
          ? [{ deadline: { sort: 'asc', nulls: 'last' } }, { createdAt: 'desc' }, { id: 'desc' }]
          : [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      select: { id: true, createdAt: true, deadline: true },
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      matches: await this.matchRows(page.map((r) => r.id)),
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id, order === 'deadline' ? last.deadline : undefined) : null,
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
    return this.listen(APPEND_CHANNEL, (payload) => {
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
    }, onState);
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
  const store = new PrismaMatchStore(db.prisma, db.query, db.listen, (fn) => db.transaction(fn), () => db.close(), db.kind === 'pglite');
  return { store, db, close: () => db.close() };
}
