/**
 * Seeks: standing offers to play anyone compatible. Pairing is decided by the database: a post
 * takes its owner's row lock (the open-seek limit; FOR NO KEY UPDATE), then a transaction advisory lock on its pool
 * (game, time control, rated), so posts to one pool pair one after another and each sees every
 * seek committed before it; the older seek is taken `FOR UPDATE SKIP LOCKED` (a cancel holding
 * it is passed over), and both seeks are marked paired and their match created in the same
 * transaction. A crash before the commit leaves nothing; after it, both. On one node, posts to
 * one pool queue in memory (KeyedSerial) before they take a connection, so at most one of them
 * per node holds a pooled connection waiting on that pool's lock.
 */
import type { Database, SqlTx } from './database.js';
import { named } from './named-sql.js';
import { asDate, asJson } from './sql-values.js';
import { answerRequestKey, claimRequestKey, dropRequestKey } from './request-keys.js';
import { KeyedSerial } from './keyed-serial.js';
import type { RatingFamily } from './rating-store.js';
import type { NewEvent, NewMatch, PlayerRequestKey } from './shared.js';

/** A seek as stored. */
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

/** What posting a seek did. */
export type SeekPosted =
  { kind: 'limit'; open: number } | { kind: 'open'; seek: SeekRow } | { kind: 'paired'; seek: SeekRow; other: SeekRow; matchId: string };

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
  listOpen(
    filter: { game?: string | undefined },
    now: Date,
    limit: number,
    after?: { createdAt: Date; id: string } | null,
  ): Promise<SeekRow[]>;
  /** A player's seeks, newest first. */
  ofPlayer(playerId: string, limit: number): Promise<SeekRow[]>;
  /** Cancels an open, unexpired seek of the player; null when there is no such seek of theirs, else the row after. */
  cancel(playerId: string, id: string, now: Date): Promise<{ cancelled: boolean; seek: SeekRow } | null>;
  /** Extends to `until` the open, unexpired live seeks of these players (their feeds are connected); returns how many. */
  renewLive(playerIds: readonly string[], now: Date, until: Date): Promise<number>;
}

interface SeekSqlRow {
  id: string;
  player_id: string;
  handle: string;
  bot: boolean;
  game: string;
  time_control: unknown;
  control_key: string;
  rated: boolean;
  min_rating: number | null;
  max_rating: number | null;
  deck: unknown;
  deck_name: string;
  status: string;
  match_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
}

const seekRow = (r: SeekSqlRow): SeekRow => ({
  id: r.id,
  playerId: r.player_id,
  handle: r.handle,
  bot: r.bot,
  game: r.game,
  timeControl: asJson(r.time_control),
  controlKey: r.control_key,
  rated: r.rated,
  minRating: r.min_rating === null ? null : Number(r.min_rating),
  maxRating: r.max_rating === null ? null : Number(r.max_rating),
  deck: asJson(r.deck) as string[],
  deckName: r.deck_name,
  status: r.status as SeekRow['status'],
  matchId: r.match_id,
  createdAt: asDate(r.created_at),
  expiresAt: asDate(r.expires_at),
});

const SEEK_COLUMNS = `s.*, p."handle", p."bot"`;

interface CompatibleArgs {
  game: string;
  control_key: string;
  rated: boolean;
  now: string;
  player_id: string;
  family: string;
  initial: number;
  min: number | null;
  max: number | null;
  own: number;
}

/** The oldest open seek the new one may pair with (ties: the smaller id). */
const COMPATIBLE = named<CompatibleArgs>()`
SELECT s.*, p."handle", p."bot"
  FROM "seek" s
  JOIN "player" p ON p."id" = s."player_id"
  LEFT JOIN "rating" r ON r."player_id" = s."player_id" AND r."game" = s."game" AND r."family" = ${'family'}
 WHERE s."game" = ${'game'} AND s."control_key" = ${'control_key'} AND s."rated" = ${'rated'}::boolean
   AND s."status" = 'open' AND s."expires_at" > ${'now'}::timestamptz AND s."player_id" <> ${'player_id'}
   AND (${'min'}::int IS NULL OR COALESCE(r."rating", ${'initial'}::float8) >= ${'min'}::int)
   AND (${'max'}::int IS NULL OR COALESCE(r."rating", ${'initial'}::float8) <= ${'max'}::int)
   AND (s."min_rating" IS NULL OR ${'own'}::float8 >= s."min_rating")
   AND (s."max_rating" IS NULL OR ${'own'}::float8 <= s."max_rating")
 ORDER BY s."created_at", s."id"
 LIMIT 1
   FOR UPDATE OF s SKIP LOCKED`;

const INSERT = `
INSERT INTO "seek" ("id", "player_id", "game", "time_control", "control_key", "rated", "min_rating", "max_rating", "deck", "deck_name",
                    "status", "match_id", "created_at", "expires_at", "updated_at")
VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13::timestamptz, $14::timestamptz, $13::timestamptz)`;

export class PgSeekStore implements SeekStore {
  /** This node's posts, one at a time per pool. */
  private readonly pools = new KeyedSerial();

  constructor(
    private readonly sql: Database['query'],
    private readonly transaction: Database['transaction'],
    /** Creates a match inside the given transaction (the match store's one-statement create). */
    private readonly createMatchIn: (tx: SqlTx, match: NewMatch, events: NewEvent[], at: Date) => Promise<void>,
    /** After a pairing committed (it wrote account feed entries: the nodes' feeds read them). */
    private readonly onPaired: () => void = () => {},
  ) {}

  async post(seek: NewSeek, opts: Parameters<SeekStore['post']>[1]): Promise<SeekPosted> {
    const now = seek.createdAt.toISOString();
    /** The pool this seek pairs in, and its lock's name. */
    const pool = `seek:${seek.game}:${seek.controlKey}:${seek.rated}`;
    const postIn = async (tx: SqlTx): Promise<SeekPosted> => {
      // NO KEY UPDATE: it serialises one player's posts, yet lets another post's seat rows take the
      // foreign key's share lock on this player (FOR UPDATE deadlocked a player posting again
      // while another post paired their older seek: the test with 40 seeks of 20 players).
      const [owner] = await tx.query<{ handle: string; bot: boolean }>(
        `SELECT "handle", "bot" FROM "player" WHERE "id" = $1 FOR NO KEY UPDATE`,
        [seek.playerId],
      );
      if (!owner) throw new Error(`seek of unknown player ${seek.playerId}`);
      const [{ n } = { n: 0 }] = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "seek" WHERE "player_id" = $1 AND "status" = 'open' AND "expires_at" > $2::timestamptz`,
        [seek.playerId, now],
      );
      if (Number(n) >= opts.maxOpen) return { kind: 'limit', open: Number(n) };
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [pool]);
      const [own] = await tx.query<{ rating: number }>(
        `SELECT "rating" FROM "rating" WHERE "player_id" = $1 AND "game" = $2 AND "family" = $3`,
        [seek.playerId, seek.game, seek.family],
      );
      const [found] = await tx.query<SeekSqlRow>(
        COMPATIBLE.text,
        COMPATIBLE.values({
          game: seek.game,
          control_key: seek.controlKey,
          rated: seek.rated,
          now,
          player_id: seek.playerId,
          family: seek.family,
          initial: opts.initialRating,
          min: seek.minRating,
          max: seek.maxRating,
          own: own ? Number(own.rating) : opts.initialRating,
        }),
      );
      const mine: SeekRow = { ...seek, handle: owner.handle, bot: owner.bot, status: 'open', matchId: null };
      if (!found) {
        await this.insert(tx, mine);
        return { kind: 'open', seek: mine };
      }
      const older = seekRow(found);
      const { match, events } = opts.pair(older, mine);
      const paired: SeekRow = { ...mine, status: 'paired', matchId: match.id };
      await this.insert(tx, paired);
      await tx.query(`UPDATE "seek" SET "status" = 'paired', "match_id" = $2, "updated_at" = $3::timestamptz WHERE "id" = $1`, [
        older.id,
        match.id,
        now,
      ]);
      // Last, in the same transaction: if creating the match fails, both seeks are as they were.
      await this.createMatchIn(tx, match, events, seek.createdAt);
      return { kind: 'paired', seek: paired, other: { ...older, status: 'paired', matchId: match.id }, matchId: match.id };
    };
    const keyed = opts.requestKey;
    const posted = await this.pools.run(pool, () =>
      this.transaction(async (tx): Promise<SeekPosted> => {
        // The key first: a second post with it waits here for the first, then stores nothing.
        if (keyed) await claimRequestKey(tx, { ...keyed.key, response: '' });
        const result = await postIn(tx);
        // A refused post keeps no key; a stored one keeps its answer.
        if (keyed && result.kind === 'limit') await dropRequestKey(tx, keyed.key);
        else if (keyed) await answerRequestKey(tx, keyed.key, keyed.answer(result));
        return result;
      }),
    );
    if (posted.kind === 'paired') this.onPaired();
    return posted;
  }

  private async insert(tx: SqlTx, s: SeekRow): Promise<void> {
    await tx.query(INSERT, [
      s.id,
      s.playerId,
      s.game,
      JSON.stringify(s.timeControl),
      s.controlKey,
      s.rated,
      s.minRating,
      s.maxRating,
      JSON.stringify(s.deck),
      s.deckName,
      s.status,
      s.matchId,
      s.createdAt.toISOString(),
      s.expiresAt.toISOString(),
    ]);
  }

  async listOpen(
    filter: { game?: string | undefined },
    now: Date,
    limit: number,
    after?: { createdAt: Date; id: string } | null,
  ): Promise<SeekRow[]> {
    const rows = await this.sql<SeekSqlRow>(
      `SELECT ${SEEK_COLUMNS} FROM "seek" s JOIN "player" p ON p."id" = s."player_id"
        WHERE s."status" = 'open' AND s."expires_at" > $1::timestamptz AND ($2::text IS NULL OR s."game" = $2)
          AND ($4::timestamptz IS NULL OR (s."created_at", s."id") > ($4::timestamptz, $5::text))
        ORDER BY s."created_at", s."id" LIMIT $3`,
      [now.toISOString(), filter.game ?? null, limit, after?.createdAt.toISOString() ?? null, after?.id ?? null],
    );
    return rows.map(seekRow);
  }

  async ofPlayer(playerId: string, limit: number): Promise<SeekRow[]> {
    const rows = await this.sql<SeekSqlRow>(
      `SELECT ${SEEK_COLUMNS} FROM "seek" s JOIN "player" p ON p."id" = s."player_id"
        WHERE s."player_id" = $1 ORDER BY s."created_at" DESC, s."id" DESC LIMIT $2`,
      [playerId, limit],
    );
    return rows.map(seekRow);
  }

  async cancel(playerId: string, id: string, now: Date): Promise<{ cancelled: boolean; seek: SeekRow } | null> {
    // The row lock decides a cancel racing a pairing: whichever commits first, the other sees it.
    const updated = await this.sql<{ id: string }>(
      `UPDATE "seek" SET "status" = 'cancelled', "updated_at" = $3::timestamptz
        WHERE "id" = $1 AND "player_id" = $2 AND "status" = 'open' AND "expires_at" > $3::timestamptz RETURNING "id"`,
      [id, playerId, now.toISOString()],
    );
    const [row] = await this.sql<SeekSqlRow>(
      `SELECT ${SEEK_COLUMNS} FROM "seek" s JOIN "player" p ON p."id" = s."player_id" WHERE s."id" = $1 AND s."player_id" = $2`,
      [id, playerId],
    );
    return row ? { cancelled: updated.length > 0, seek: seekRow(row) } : null;
  }

  async renewLive(playerIds: readonly string[], now: Date, until: Date): Promise<number> {
    if (playerIds.length === 0) return 0;
    const rows = await this.sql<{ id: string }>(
      `UPDATE "seek" SET "expires_at" = GREATEST("expires_at", $3::timestamptz)
        WHERE "player_id" = ANY($1::text[]) AND "status" = 'open' AND "time_control"->>'kind' = 'live' AND "expires_at" > $2::timestamptz
       RETURNING "id"`,
      [playerIds, now.toISOString(), until.toISOString()],
      'evons_renew_live_seeks',
    );
    return rows.length;
  }
}
