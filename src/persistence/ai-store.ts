/**
 * The computer's claims on its decisions (table ai_turn). The database decides which node takes
 * each decision: a claim is an insert-or-update of the match's row that succeeds only for a new
 * version or after the previous claim's lease ran out, so of any number of nodes claiming at once
 * one wins, and a node killed mid-decision loses its claim when its lease ends.
 */
import type { SqlQuery } from './database.js';
import type { SeatName } from './shared.js';

/** A decision of the computer's, claimed by this node. */
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

export class PgAiStore implements AiStore {
  constructor(private readonly sql: SqlQuery) {}

  async claim(aiPlayerIds: readonly string[], limit: number, leaseMs: number, node: string, perOwner = 1_000_000): Promise<AiClaim[]> {
    if (limit <= 0) return [];
    // Each owner's waiting decisions are numbered after the claims it holds now (on any node): the
    // first of every owner goes before anyone's second, and none past perOwner. A match with no
    // owner (made before owners were kept) is its own.
    const rows = await this.sql<{ match_id: string; version: number; attempts: number; seat: string; player_id: string }>(
      `WITH held AS (
         SELECT COALESCE(m."ai_owner", m."id") AS owner, count(*)::int AS n
           FROM "ai_turn" t JOIN "match" m ON m."id" = t."match_id"
          WHERE t."claimed_until" > now() AND t."version" = m."version"
          GROUP BY 1
       ), waiting AS (
         SELECT m."id", m."version", m."to_move" AS seat, s."player_id", m."updated_at",
                ROW_NUMBER() OVER (PARTITION BY COALESCE(m."ai_owner", m."id") ORDER BY m."updated_at", m."id") + COALESCE(h.n, 0) AS place
           FROM "seat" s JOIN "match" m ON m."id" = s."match_id"
           LEFT JOIN held h ON h.owner = COALESCE(m."ai_owner", m."id")
          WHERE s."player_id" = ANY($1::text[]) AND m."status" = 'active' AND m."to_move" = s."seat"
            AND NOT EXISTS (SELECT 1 FROM "ai_turn" t WHERE t."match_id" = m."id" AND t."version" = m."version" AND t."claimed_until" > now())
       ), due AS (
         SELECT "id", "version", seat, "player_id" FROM waiting WHERE place <= $5::int ORDER BY place, "updated_at", "id" LIMIT $2
       ), claimed AS (
         INSERT INTO "ai_turn" ("match_id", "version", "claimed_until", "attempts", "node")
         SELECT "id", "version", now() + $3::int * interval '1 millisecond', 1, $4 FROM due
         ON CONFLICT ("match_id") DO UPDATE
           SET "version" = EXCLUDED."version", "claimed_until" = EXCLUDED."claimed_until", "node" = EXCLUDED."node",
               "attempts" = CASE WHEN "ai_turn"."version" = EXCLUDED."version" THEN "ai_turn"."attempts" + 1 ELSE 1 END
           WHERE "ai_turn"."version" <> EXCLUDED."version" OR "ai_turn"."claimed_until" <= now()
         RETURNING "match_id", "version", "attempts"
       )
       SELECT c."match_id", c."version", c."attempts", d.seat, d."player_id" FROM claimed c JOIN due d ON d."id" = c."match_id"`,
      [aiPlayerIds, limit, leaseMs, node, perOwner],
      'evons_ai_claim',
    );
    return rows.map((r) => ({
      matchId: r.match_id,
      version: Number(r.version),
      attempts: Number(r.attempts),
      seat: r.seat as SeatName,
      playerId: r.player_id,
    }));
  }

  async expire(matchId: string, version: number): Promise<void> {
    await this.sql(
      `UPDATE "ai_turn" SET "claimed_until" = now() WHERE "match_id" = $1 AND "version" = $2`,
      [matchId, version],
      'evons_ai_expire',
    );
  }

  async release(matchId: string, version: number): Promise<void> {
    // The decision is appended (or the match moved on): the next version's claim needs no wait.
    await this.sql(`DELETE FROM "ai_turn" WHERE "match_id" = $1 AND "version" = $2`, [matchId, version], 'evons_ai_release');
  }
}
