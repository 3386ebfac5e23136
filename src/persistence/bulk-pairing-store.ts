/**
 * Bulk pairings (migration bulk_pairings): the pairs are stored when the organizer asks; the
 * matches are created later, all in one transaction that moves the row from scheduled to created
 * only if it is still scheduled, so a pairing is created once whatever the number of nodes.
 */
import type { Database, SqlQuery, SqlTx } from './database.js';
import { asDate, asJson } from './sql-values.js';
import type { NewEvent, NewMatch } from './shared.js';

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
  boards: {
    board: number;
    p1: string;
    p1Handle: string;
    p2: string;
    p2Handle: string;
    matchId: string | null;
    unpairedReason: UnpairedReason | null;
  }[];
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

interface Raw {
  id: string;
  organizer_id: string;
  game: string;
  time_control: unknown;
  rated: boolean;
  deck: unknown;
  pair_at: Date | string;
  status: string;
  created_at: Date | string;
  paired_at: Date | string | null;
  boards: BulkPairingRow['boards'] | string;
}

const SELECT = `
  SELECT b.*, (SELECT COALESCE(json_agg(json_build_object('board', x."board", 'p1', x."p1_id", 'p1Handle', p1."handle", 'p2', x."p2_id", 'p2Handle', p2."handle", 'matchId', x."match_id", 'unpairedReason', x."unpaired_reason") ORDER BY x."board"), '[]'::json)
                 FROM "bulk_pairing_board" x JOIN "player" p1 ON p1."id" = x."p1_id" JOIN "player" p2 ON p2."id" = x."p2_id"
                WHERE x."bulk_id" = b."id") AS boards
    FROM "bulk_pairing" b`;

function bulkRow(r: Raw): BulkPairingRow {
  return {
    id: r.id,
    organizerId: r.organizer_id,
    game: r.game,
    timeControl: asJson(r.time_control),
    rated: r.rated,
    deck: asJson(r.deck),
    pairAt: asDate(r.pair_at),
    status: r.status as BulkPairingStatus,
    createdAt: asDate(r.created_at),
    pairedAt: r.paired_at === null ? null : asDate(r.paired_at),
    boards: (typeof r.boards === 'string' ? JSON.parse(r.boards) : r.boards) as BulkPairingRow['boards'],
  };
}

export class PgBulkPairingStore implements BulkPairingStore {
  constructor(
    private readonly sql: SqlQuery,
    private readonly transaction: Database['transaction'],
    private readonly createMatchIn: (tx: SqlTx, match: NewMatch, events: NewEvent[], at: Date) => Promise<void>,
    /** Called after the matches were created (the account feeds look). */
    private readonly onPaired: () => void = () => {},
  ) {}

  async create(b: NewBulkPairing): Promise<'created' | 'token-taken' | { retryAt: Date }> {
    const taken = Symbol('taken');
    let over: { retryAt: Date } | null = null;
    try {
      await this.createIn(b, taken, (o) => (over = o));
    } catch (e) {
      if (e === taken) return over ?? 'token-taken';
      throw e;
    }
    return 'created';
  }

  private async createIn(b: NewBulkPairing, taken: symbol, overBudget: (o: { retryAt: Date }) => void): Promise<void> {
    await this.transaction(async (tx) => {
      // The organizer's row serializes its pairings on every node: the budget is counted once.
      await tx.query(`SELECT 1 FROM "player" WHERE "id" = $1 FOR UPDATE`, [b.organizerId]);
      const windowStart = new Date(b.createdAt.getTime() - b.budget.windowMs);
      const recent = await tx.query<{ created_at: Date | string; n: number | string }>(
        `SELECT b."created_at", (SELECT count(*) FROM "bulk_pairing_board" x WHERE x."bulk_id" = b."id") AS n
           FROM "bulk_pairing" b WHERE b."organizer_id" = $1 AND b."created_at" > $2::timestamptz ORDER BY b."created_at"`,
        [b.organizerId, windowStart.toISOString()],
      );
      let used = recent.reduce((a, r) => a + Number(r.n), 0);
      if (used + b.pairs.length > b.budget.perMinute) {
        // Free again once enough of the oldest pairings are a window old.
        let retryAt = new Date(b.createdAt.getTime() + b.budget.windowMs);
        for (const r of recent) {
          used -= Number(r.n);
          retryAt = new Date(asDate(r.created_at).getTime() + b.budget.windowMs);
          if (used + b.pairs.length <= b.budget.perMinute) break;
        }
        overBudget({ retryAt });
        throw taken;
      }
      await tx.query(
        `INSERT INTO "bulk_pairing" ("id", "organizer_id", "game", "time_control", "rated", "deck", "pair_at", "created_at", "consent_tokens")
         VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7::timestamptz, $8::timestamptz, true)`,
        [
          b.id,
          b.organizerId,
          b.game,
          JSON.stringify(b.timeControl),
          b.rated,
          JSON.stringify(b.deck),
          b.pairAt.toISOString(),
          b.createdAt.toISOString(),
        ],
      );
      // Each token is bound once: the conditional update decides a race between two pairings (or a revocation).
      const bound = await tx.query(
        `UPDATE "player_token" SET "bulk_pairing_id" = $1
          WHERE "id" = ANY($2::text[]) AND "bulk_pairing_id" IS NULL AND "revoked_at" IS NULL RETURNING 1`,
        [b.id, b.tokenIds],
      );
      if (bound.length !== b.tokenIds.length) throw taken;
      await tx.query(
        `INSERT INTO "bulk_pairing_board" ("bulk_id", "board", "p1_id", "p2_id")
         SELECT $1, r."board", r."p1", r."p2" FROM jsonb_to_recordset($2::jsonb) AS r("board" int, "p1" text, "p2" text)`,
        [b.id, JSON.stringify(b.pairs.map((p, i) => ({ board: i + 1, ...p })))],
      );
    });
  }

  async get(id: string): Promise<BulkPairingRow | null> {
    const [r] = await this.sql<Raw>(`${SELECT} WHERE b."id" = $1`, [id]);
    return r ? bulkRow(r) : null;
  }

  async ofOrganizer(organizerId: string, limit: number): Promise<BulkPairingRow[]> {
    const rows = await this.sql<Raw>(`${SELECT} WHERE b."organizer_id" = $1 ORDER BY b."created_at" DESC, b."id" DESC LIMIT $2`, [
      organizerId,
      limit,
    ]);
    return rows.map(bulkRow);
  }

  async cancel(id: string): Promise<boolean> {
    return (
      (await this.sql(`UPDATE "bulk_pairing" SET "status" = 'canceled' WHERE "id" = $1 AND "status" = 'scheduled' RETURNING 1`, [id]))
        .length > 0
    );
  }

  async pair(id: string, at: Date, matches: { match: NewMatch; events: NewEvent[] }[]): Promise<boolean> {
    const lost = Symbol('lost');
    try {
      await this.transaction(async (tx) => {
        const won = await tx.query(
          `UPDATE "bulk_pairing" SET "status" = 'created', "paired_at" = $2::timestamptz WHERE "id" = $1 AND "status" = 'scheduled' RETURNING 1`,
          [id, at.toISOString()],
        );
        if (won.length === 0) throw lost;
        const [{ consent_tokens: consent } = { consent_tokens: false }] = await tx.query<{ consent_tokens: boolean }>(
          `SELECT "consent_tokens" FROM "bulk_pairing" WHERE "id" = $1`,
          [id],
        );
        // The players whose token for this pairing is still live, the rows locked against a revocation until commit.
        const live = consent
          ? new Set(
              (
                await tx.query<{ player_id: string }>(
                  `SELECT "player_id" FROM "player_token" WHERE "bulk_pairing_id" = $1 AND "revoked_at" IS NULL FOR UPDATE`,
                  [id],
                )
              ).map((r) => r.player_id),
            )
          : null;
        for (const [i, m] of matches.entries()) {
          const seated = m.match.seats.map((s) => s.playerId);
          if (live && !seated.every((p) => p !== null && p !== undefined && live.has(p))) {
            await tx.query(`UPDATE "bulk_pairing_board" SET "unpaired_reason" = 'consent-revoked' WHERE "bulk_id" = $1 AND "board" = $2`, [
              id,
              i + 1,
            ]);
            continue;
          }
          await this.createMatchIn(tx, m.match, m.events, at);
          await tx.query(`UPDATE "bulk_pairing_board" SET "match_id" = $3 WHERE "bulk_id" = $1 AND "board" = $2`, [id, i + 1, m.match.id]);
        }
      });
    } catch (e) {
      if (e === lost) return false;
      throw e;
    }
    this.onPaired();
    return true;
  }

  async due(now: Date, limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `SELECT "id" FROM "bulk_pairing" WHERE "status" = 'scheduled' AND "pair_at" <= $1::timestamptz ORDER BY "pair_at" LIMIT $2`,
      [now.toISOString(), limit],
    );
    return rows.map((r) => r.id);
  }
}
