/**
 * Reads the account feed (the `account_event` rows the triggers of migration account_feed write).
 *
 * Ids come from a sequence, so a row with a smaller id may commit after one with a larger id: a
 * reader that resumed "after id N" could skip it. Rows are therefore read in (xid, id) order and
 * only below the horizon, pg_snapshot_xmin of the reading snapshot (every transaction with a
 * smaller xid has ended, so no row can still appear there). What is above it waits for the next
 * read (`held`). A position is `<xid>-<id>`: the SSE id and Last-Event-ID of the feed.
 */
import type { SqlQuery } from './database.js';

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

/** The account feed's reads. */
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

interface Raw {
  xid: string;
  id: string;
  player_id: string;
  kind: string;
  data: unknown;
  created_at: Date | string;
}

const POSITION = /^([0-9]{1,20})-([0-9]{1,20})$/;

/** The largest xid8 (unsigned 64 bits) and bigint (signed 64 bits): a larger number is no position (SQLSTATE 22003). */
const MAX_XID = 2n ** 64n - 1n;
const MAX_ID = 2n ** 63n - 1n;

/** A feed position's parts, or null when it is not one (also when a part exceeds its column's type). */
export function parsePosition(p: string): { xid: string; id: string } | null {
  const m = POSITION.exec(p);
  if (!m || BigInt(m[1]!) > MAX_XID || BigInt(m[2]!) > MAX_ID) return null;
  return { xid: m[1]!, id: m[2]! };
}

/** Orders two positions as the feed does (by xid, then id): negative, zero or positive. */
export function comparePositions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  const dx = BigInt(x.xid) - BigInt(y.xid);
  if (dx !== 0n) return dx < 0n ? -1 : 1;
  const di = BigInt(x.id) - BigInt(y.id);
  return di === 0n ? 0 : di < 0n ? -1 : 1;
}

/**
 * Whether the entry at `position` had committed at `point` (a `pg_current_snapshot()` as text,
 * `xmin:xmax:xip,…`): its writer had ended, and was not one the snapshot saw running.
 */
export function committedAt(point: string, position: string): boolean {
  const [xmin, xmax, xip = ''] = point.split(':');
  const xid = BigInt(parts(position).xid);
  if (xid < BigInt(xmin!)) return true;
  if (xid >= BigInt(xmax!)) return false;
  return !xip
    .split(',')
    .filter(Boolean)
    .some((x) => BigInt(x) === xid);
}

function feedRow(r: Raw): FeedRow {
  return {
    position: `${r.xid}-${r.id}`,
    playerId: r.player_id,
    kind: r.kind,
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    createdAt: r.created_at instanceof Date ? r.created_at : new Date(r.created_at),
  };
}

const HORIZON = `pg_snapshot_xmin(pg_current_snapshot())`;

function parts(position: string): { xid: string; id: string } {
  const at = parsePosition(position);
  if (!at) throw new Error(`not a feed position: ${position}`);
  return at;
}

export class PgFeedStore implements FeedStore {
  constructor(private readonly sql: SqlQuery) {}

  async horizon(): Promise<string> {
    const [r] = await this.sql<{ top: string }>(`SELECT ${HORIZON}::text AS top`, [], 'evons_feed_horizon');
    return `${r!.top}-0`;
  }

  async window(after: string, players: readonly string[], limit: number): Promise<FeedWindow> {
    const at = parts(after);
    // One snapshot for the horizon and the rows: everything below it is final.
    const rows = await this.sql<Raw & { top: string; held: boolean }>(
      `WITH w AS (SELECT ${HORIZON} AS top)
       SELECT w.top::text AS top,
              EXISTS (SELECT 1 FROM "account_event" h WHERE h."player_id" = ANY($3::text[]) AND h."xid" >= w.top) AS held,
              e."xid"::text AS xid, e."id"::text AS id, e."player_id", e."kind", e."data", e."created_at"
         FROM w LEFT JOIN LATERAL (
           SELECT * FROM "account_event" a
            WHERE a."player_id" = ANY($3::text[]) AND (a."xid", a."id") > ($1::xid8, $2::bigint) AND a."xid" < w.top
            ORDER BY a."xid", a."id" LIMIT $4) e ON true`,
      [at.xid, at.id, players, limit],
      'evons_feed_window',
    );
    const first = rows[0]!;
    const found = rows.filter((r) => r.id !== null).map(feedRow);
    // A full page ends at its last row (more may follow below the horizon); otherwise at the horizon.
    const full = found.length >= limit;
    const next = full ? found[found.length - 1]!.position : BigInt(first.top) > BigInt(at.xid) ? `${first.top}-0` : after;
    return { rows: found, next, more: full || Boolean(first.held) };
  }

  async between(playerId: string, after: string, upTo: string, limit: number): Promise<FeedRow[]> {
    const a = parts(after);
    const b = parts(upTo);
    const rows = await this.sql<Raw>(
      `SELECT "xid"::text AS xid, "id"::text AS id, "player_id", "kind", "data", "created_at" FROM "account_event"
        WHERE "player_id" = $1 AND ("xid", "id") > ($2::xid8, $3::bigint) AND ("xid", "id") <= ($4::xid8, $5::bigint)
        ORDER BY "xid", "id" LIMIT $6`,
      [playerId, a.xid, a.id, b.xid, b.id, limit],
      'evons_feed_between',
    );
    return rows.map(feedRow);
  }

  async now(): Promise<string> {
    const [r] = await this.sql<{ at: string }>(`SELECT pg_current_snapshot()::text AS at`, [], 'evons_feed_now');
    return r!.at;
  }

  async addTicket(ticketHash: string, tokenHash: string, expiresAt: Date, now: Date): Promise<void> {
    // Tickets live a minute: each new one clears the expired ones, so the table holds about a minute's worth.
    await this.sql(`DELETE FROM "feed_ticket" WHERE "expires_at" <= $1::timestamptz`, [now.toISOString()], 'evons_feed_ticket_expired');
    await this.sql(
      `INSERT INTO "feed_ticket" ("ticket_hash", "token_hash", "expires_at") VALUES ($1, $2, $3::timestamptz)`,
      [ticketHash, tokenHash, expiresAt.toISOString()],
      'evons_feed_ticket_add',
    );
  }

  async useTicket(ticketHash: string, now: Date): Promise<string | null> {
    // One statement: of two uses racing (on any node), the row lock lets one delete it; the other finds none.
    const [r] = await this.sql<{ token_hash: string }>(
      `DELETE FROM "feed_ticket" WHERE "ticket_hash" = $1 AND "expires_at" > $2::timestamptz RETURNING "token_hash"`,
      [ticketHash, now.toISOString()],
      'evons_feed_ticket_use',
    );
    return r?.token_hash ?? null;
  }

  async exists(playerId: string, position: string): Promise<boolean> {
    const at = parsePosition(position);
    if (!at) return false;
    const rows = await this.sql(
      `SELECT 1 FROM "account_event" WHERE "id" = $1::bigint AND "xid" = $2::xid8 AND "player_id" = $3`,
      [at.id, at.xid, playerId],
      'evons_feed_exists',
    );
    return rows.length > 0;
  }
}
