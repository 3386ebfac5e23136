/**
 * Challenges. Every change of status is one conditional UPDATE from 'open' (RETURNING what it
 * changed), so an accept, a decline, a cancel and an expiry racing on any number of nodes leave
 * exactly one outcome; the acceptance itself is written with the match (match-store.ts).
 */
import type { SqlQuery } from './database.js';
import { asDate, asJson } from './sql-values.js';
import type { PlayerRequestKey } from './shared.js';

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
export type NewChallenge = Pick<
  ChallengeRow,
  'id' | 'allowed' | 'game' | 'timeControl' | 'rated' | 'seat' | 'settings' | 'deck' | 'createdAt' | 'expiresAt'
> & {
  challengerId: string;
  destId: string | null;
};

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
  list(
    playerId: string,
    direction: 'in' | 'out',
    opts: { status?: ChallengeStatus; limit: number; cursor?: string },
  ): Promise<{ rows: ChallengeRow[]; nextCursor: string | null }>;
}

interface Raw {
  id: string;
  challenger_id: string;
  challenger_handle: string;
  challenger_bot: boolean;
  dest_id: string | null;
  dest_handle: string | null;
  dest_bot: boolean | null;
  allowed: string[] | null;
  game: string;
  time_control: unknown;
  rated: boolean;
  seat: string;
  settings: unknown;
  deck: unknown;
  status: string;
  decline_reason: string | null;
  match_id: string | null;
  accepted_by_id: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  closed_at: Date | string | null;
}

/** The challenge rows `changed` (a CTE over "challenge"), with both players' handles. */
const withPlayers = (changed: string) => `
  SELECT c.*, pc.handle AS challenger_handle, pc.bot AS challenger_bot, pd.handle AS dest_handle, pd.bot AS dest_bot
    FROM ${changed} c JOIN "player" pc ON pc.id = c.challenger_id LEFT JOIN "player" pd ON pd.id = c.dest_id`;

function challengeRow(r: Raw): ChallengeRow {
  return {
    id: r.id,
    challenger: { id: r.challenger_id, handle: r.challenger_handle, bot: r.challenger_bot },
    dest: r.dest_id ? { id: r.dest_id, handle: r.dest_handle ?? '', bot: r.dest_bot ?? false } : null,
    allowed: r.allowed ?? [],
    game: r.game,
    timeControl: asJson(r.time_control),
    rated: r.rated,
    seat: r.seat as ChallengeSeat,
    settings: asJson(r.settings),
    deck: r.deck === null ? null : asJson(r.deck),
    status: r.status as ChallengeStatus,
    declineReason: r.decline_reason,
    matchId: r.match_id,
    acceptedById: r.accepted_by_id,
    createdAt: asDate(r.created_at),
    expiresAt: asDate(r.expires_at),
    closedAt: r.closed_at === null ? null : asDate(r.closed_at),
  };
}

/** The match lists' cursor codec (match-list.ts), passed in by the match store. */
export interface CursorCodec {
  encode(createdAt: Date, id: string): string;
  decode(cursor: string): { createdAt: Date; id: string };
}

export class PgChallengeStore implements ChallengeStore {
  constructor(
    private readonly sql: SqlQuery,
    private readonly cursors: CursorCodec,
    /** After a write that committed a change of status (the account feed's triggers wrote entries: the nodes' feeds read them). */
    private readonly onChange: () => void = () => {},
  ) {}

  async create(c: NewChallenge, maxPerHour: number, maxPendingPerRecipient: number): Promise<ChallengeRow | 'per-hour' | 'recipient-full'> {
    // The counts and the insert are one statement; two at once on two nodes may both pass a
    // count (a soft limit, like the request rate limits), never a duplicate challenge.
    const rows = await this.sql<Raw>(
      `WITH c AS (
         INSERT INTO "challenge" ("id", "challenger_id", "dest_id", "allowed", "game", "time_control", "rated", "seat", "settings", "deck", "created_at", "expires_at")
         SELECT $1, $2, $3, ARRAY(SELECT jsonb_array_elements_text($4::jsonb)), $5, $6::jsonb, $7::boolean, $8, $9::jsonb, $10::jsonb, $11::timestamptz, $12::timestamptz
          WHERE (SELECT count(*) FROM "challenge" WHERE "challenger_id" = $2 AND "created_at" > $11::timestamptz - interval '1 hour') < $13::int
            AND ($3::text IS NULL OR (SELECT count(*) FROM "challenge" WHERE "dest_id" = $3 AND "status" = 'open' AND "expires_at" > $11::timestamptz) < $14::int)
         RETURNING *
       )${withPlayers('c')}`,
      [
        c.id,
        c.challengerId,
        c.destId,
        JSON.stringify(c.allowed),
        c.game,
        JSON.stringify(c.timeControl),
        c.rated,
        c.seat,
        JSON.stringify(c.settings ?? {}),
        c.deck === null || c.deck === undefined ? null : JSON.stringify(c.deck),
        c.createdAt.toISOString(),
        c.expiresAt.toISOString(),
        maxPerHour,
        maxPendingPerRecipient,
      ],
    );
    if (rows[0]) {
      this.onChange();
      return challengeRow(rows[0]);
    }
    // Refused: which limit (read again; either answer is a 429 too-many-challenges).
    const [hour] = await this.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "challenge" WHERE "challenger_id" = $1 AND "created_at" > $2::timestamptz - interval '1 hour'`,
      [c.challengerId, c.createdAt.toISOString()],
    );
    return (hour?.n ?? 0) >= maxPerHour ? 'per-hour' : 'recipient-full';
  }

  async get(id: string): Promise<ChallengeRow | null> {
    const rows = await this.sql<Raw>(`${withPlayers('"challenge"')} WHERE c.id = $1`, [id], 'evons_get_challenge');
    return rows[0] ? challengeRow(rows[0]) : null;
  }

  async close(
    id: string,
    to: 'declined' | 'canceled',
    at: Date,
    opts: { reason?: string; challengerId?: string },
  ): Promise<ChallengeRow | null> {
    const rows = await this.sql<Raw>(
      `WITH c AS (
         UPDATE "challenge" SET "status" = $2, "decline_reason" = $4, "closed_at" = $3::timestamptz
          WHERE "id" = $1 AND "status" = 'open' AND "expires_at" > $3::timestamptz AND ($5::text IS NULL OR "challenger_id" = $5)
         RETURNING *
       )${withPlayers('c')}`,
      [id, to, at.toISOString(), opts.reason ?? null, opts.challengerId ?? null],
    );
    if (rows[0]) this.onChange();
    return rows[0] ? challengeRow(rows[0]) : null;
  }

  async expire(at: Date, only: { limit?: number; id?: string; player?: string } = {}): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `UPDATE "challenge" SET "status" = 'expired', "closed_at" = "expires_at"
        WHERE "id" IN (SELECT "id" FROM "challenge" WHERE "status" = 'open' AND "expires_at" <= $1::timestamptz
                          AND ($3::text IS NULL OR "id" = $3) AND ($4::text IS NULL OR "challenger_id" = $4 OR "dest_id" = $4)
                        ORDER BY "expires_at" LIMIT $2)
          AND "status" = 'open'
       RETURNING "id"`,
      [at.toISOString(), only.limit ?? null, only.id ?? null, only.player ?? null],
    );
    if (rows.length > 0) this.onChange();
    return rows.map((r) => r.id);
  }

  async list(
    playerId: string,
    direction: 'in' | 'out',
    opts: { status?: ChallengeStatus; limit: number; cursor?: string },
  ): Promise<{ rows: ChallengeRow[]; nextCursor: string | null }> {
    const who = direction === 'in' ? 'dest_id' : 'challenger_id';
    const after = opts.cursor === undefined ? null : this.cursors.decode(opts.cursor);
    // One row more than the page tells whether there is a next one.
    const raw = await this.sql<Raw>(
      `${withPlayers('"challenge"')} WHERE c."${who}" = $1 AND ($2::text IS NULL OR c.status = $2)
         AND ($4::timestamptz IS NULL OR (c.created_at, c.id) < ($4::timestamptz, $5::text))
       ORDER BY c.created_at DESC, c.id DESC LIMIT $3`,
      [playerId, opts.status ?? null, opts.limit + 1, after?.createdAt.toISOString() ?? null, after?.id ?? null],
    );
    const rows = raw.slice(0, opts.limit).map(challengeRow);
    const last = rows[rows.length - 1];
    return { rows, nextCursor: raw.length > opts.limit && last ? this.cursors.encode(last.createdAt, last.id) : null };
  }
}
