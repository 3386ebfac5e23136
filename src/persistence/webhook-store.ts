/**
 * Webhook endpoints and the delivery outbox. Rows are written to the outbox by the append itself
 * (APPEND in append.ts), so a committed move always has its notifications and a
 * rolled-back one never does; workers on every node claim due rows here.
 */
import type { PrismaClient, Prisma } from '../generated/prisma/client.js';
import type { Database, SqlQuery } from './database.js';
import type { FeedRow } from './feed-store.js';
import type { EventSource, NewWebhook, SeatName, WebhookKind } from './shared.js';

export interface WebhookRow extends NewWebhook {
  matchId: string;
  previousSecret: string | null;
  previousUntil: Date | null;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
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
  settle(
    d: ClaimedDelivery,
    r: {
      ok: boolean;
      statusCode: number | null;
      error: string | null;
      nextAttemptAt: Date | null;
      superseded?: boolean;
      disableReason?: string | null;
    },
  ): Promise<void>;
}

type WebhookModel = Prisma.WebhookGetPayload<object>;
type DeliveryModel = Prisma.WebhookDeliveryGetPayload<object>;

// A seat's rows always have match_id, seat, version and from_seq (CHECKs of migration account_webhooks).
function webhookRow(w: WebhookModel): WebhookRow {
  return {
    id: w.id,
    matchId: w.matchId!,
    seat: w.seat as SeatName,
    url: w.url,
    kinds: w.kinds as WebhookKind[],
    secret: w.secret,
    deadlineLeadMs: w.deadlineLeadMs,
    previousSecret: w.previousSecret,
    previousUntil: w.previousUntil,
    failingSince: w.failingSince,
    disabledAt: w.disabledAt,
    disabledReason: w.disabledReason,
    createdAt: w.createdAt,
  };
}

function deliveryRow(d: DeliveryModel): DeliveryRow {
  return {
    id: d.id,
    webhookId: d.webhookId,
    matchId: d.matchId!,
    seat: d.seat as SeatName,
    kind: d.kind as WebhookKind,
    version: d.version!,
    fromSeq: d.fromSeq!,
    toMove: d.toMove as SeatName | null,
    deadline: d.deadline,
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    firstAttemptAt: d.firstAttemptAt,
    nextAttemptAt: d.nextAttemptAt,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    redeliveries: d.redeliveries,
  };
}

/**
 * Claims due deliveries under a lease (pushing next_attempt_at forward hides them from other
 * workers) and returns each with its endpoint and its match's version and game: one statement.
 * Not for the endpoints the caller is sending to ($3), and per endpoint in version order: a
 * delivery waits while an earlier version to its endpoint is pending (retrying, or leased by a
 * worker); a pending deadline-near is always of the match's current version (the append that
 * moves past it supersedes it), so it holds up nothing later. Endpoints that answer come before
 * failing ones, so many slow endpoints cannot keep a node's room from the healthy ones. `only`:
 * for the endpoints $3 names alone; two statements, so that each gets a plan that reads what it
 * names (one generic plan for both read every pending row).
 */
const claimSql = (only: boolean) => `
WITH RECURSIVE ${
  only
    ? `head AS (
  -- The named endpoints' first pending deliveries: one probe of the pending index each.
  SELECT h."id", h."next_attempt_at"
    FROM (SELECT DISTINCT jsonb_array_elements_text($3::jsonb) AS "webhook_id") o
    CROSS JOIN LATERAL (
      SELECT d."id", d."next_attempt_at" FROM "webhook_delivery" d
       WHERE d."status" = 'pending' AND d."webhook_id" = o."webhook_id"
       ORDER BY d."version", d."account_event_id" LIMIT 1) h`
    : `heads AS (
  -- Each endpoint's first pending delivery, endpoint after endpoint down the pending index (a
  -- loose index scan: one probe per endpoint with something pending, however long its backlog).
  -- A DISTINCT ON over every pending row read them all on each claim, once per append: thousands
  -- under a backlog to 200 slow endpoints. The endpoints this node is sending to are left out
  -- after the scan (filtered inside it, their backlogs would be read row by row again).
  (SELECT d."webhook_id", d."id", d."next_attempt_at" FROM "webhook_delivery" d
    WHERE d."status" = 'pending' ORDER BY d."webhook_id", d."version", d."account_event_id" LIMIT 1)
  UNION ALL
  SELECT n."webhook_id", n."id", n."next_attempt_at" FROM heads h CROSS JOIN LATERAL (
    SELECT d."webhook_id", d."id", d."next_attempt_at" FROM "webhook_delivery" d
     WHERE d."status" = 'pending' AND d."webhook_id" > h."webhook_id"
     ORDER BY d."webhook_id", d."version", d."account_event_id" LIMIT 1) n
), head AS (
  -- A seat's endpoint gets its match's versions in order, an account's its entries in the order
  -- they were written: nothing behind an endpoint's head may go.
  SELECT h."id", h."next_attempt_at" FROM heads h
   WHERE h."webhook_id" <> ALL (ARRAY(SELECT jsonb_array_elements_text($3::jsonb)))`
}
), due AS (
  -- The due heads, locked by primary key (SKIP LOCKED: another node's claim of the same head wins).
  SELECT d."id" FROM "webhook_delivery" d JOIN "webhook" w ON w."id" = d."webhook_id"
   WHERE d."id" = ANY (ARRAY(SELECT h."id" FROM head h WHERE h."next_attempt_at" <= now()))
     AND d."status" = 'pending' AND d."next_attempt_at" <= now()
   -- Answering endpoints first: failing ones (slow, hanging, down) take the room that is left.
   -- Then, over every endpoint (not only the worker's known ones), the newest endpoint first: one
   -- registered since a backlog to many endpoints the worker does not know yet (200 slow ones
   -- registered together, each holding a fast slot until it is found out) is not queued behind it.
   ORDER BY (w."failing_since" IS NOT NULL)${only ? '' : ', w."created_at" DESC'}, d."next_attempt_at"
   LIMIT $1
   FOR UPDATE OF d SKIP LOCKED
), claimed AS (
  UPDATE "webhook_delivery" d
     SET "next_attempt_at" = now() + ($2::int * interval '1 millisecond'), "attempts" = d."attempts" + 1,
         "first_attempt_at" = COALESCE(d."first_attempt_at", now())
    FROM due
   WHERE d."id" = due."id"
  RETURNING d.*
)
SELECT c.*, row_to_json(w.*) AS webhook, m."version" AS match_version, m."game" AS match_game,
       (SELECT COALESCE(json_agg(json_build_object('seq', e."seq", 'source', e."source", 'type', e."type", 'payload', e."payload", 'actingSeat', e."acting_seat") ORDER BY e."seq"), '[]'::json)
          FROM "event" e WHERE e."match_id" = c."match_id" AND e."seq" BETWEEN c."from_seq" AND c."version") AS events,
       a."xid"::text AS entry_xid, a."player_id" AS entry_player_id, a."data" AS entry_data, a."created_at" AS entry_created_at
  FROM claimed c JOIN "webhook" w ON w."id" = c."webhook_id"
  LEFT JOIN "match" m ON m."id" = c."match_id"
  LEFT JOIN "account_event" a ON a."id" = c."account_event_id"`;
const CLAIM_ALL_SQL = claimSql(false);
const CLAIM_ONLY_SQL = claimSql(true);

/** A delivery's result and its endpoint's state, in one statement. */
const SETTLE_SQL = `
WITH d AS (
  UPDATE "webhook_delivery"
     -- An append superseded it while it was being sent: it stays superseded unless it got through.
     SET "status" = CASE WHEN "status" = 'superseded' AND $2 <> 'delivered' THEN 'superseded' ELSE $2 END,
         "last_status_code" = $3::int, "last_error" = $4::text,
         "next_attempt_at" = COALESCE($5::timestamptz, "next_attempt_at"),
         "delivered_at" = CASE WHEN $2 = 'delivered' THEN now() ELSE "delivered_at" END
   WHERE "id" = $1
)
UPDATE "webhook"
   SET "failing_since" = CASE WHEN $7::boolean THEN NULL ELSE COALESCE("failing_since", now()) END,
       "disabled_at" = CASE WHEN $8::text IS NOT NULL THEN now() ELSE "disabled_at" END,
       "disabled_reason" = COALESCE($8::text, "disabled_reason")
 WHERE "id" = $6 AND NOT $9::boolean`;

type Raw = Record<string, unknown>;
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/** The columns a seat's endpoint and an account endpoint share. */
function rawEndpoint(w: Raw) {
  return {
    id: String(w.id),
    url: String(w.url),
    secret: String(w.secret),
    previousSecret: (w.previous_secret as string | null) ?? null,
    previousUntil: date(w.previous_until),
    failingSince: date(w.failing_since),
    disabledAt: date(w.disabled_at),
    disabledReason: (w.disabled_reason as string | null) ?? null,
    createdAt: date(w.created_at)!,
  };
}

function rawWebhook(w: Raw): WebhookRow {
  return {
    ...rawEndpoint(w),
    matchId: String(w.match_id),
    seat: w.seat as SeatName,
    kinds: w.kinds as WebhookKind[],
    deadlineLeadMs: Number(w.deadline_lead_ms),
  };
}

function rawAccountWebhook(w: Raw): AccountWebhookRow {
  return { ...rawEndpoint(w), playerId: String(w.player_id), kinds: w.kinds as string[] };
}

/** An account delivery's row; `entry_xid` comes from its feed entry (the position is `<xid>-<id>`). */
function rawAccountDelivery(d: Raw): AccountDeliveryRow {
  return {
    id: String(d.id),
    webhookId: String(d.webhook_id),
    kind: String(d.kind),
    entryId: `${String(d.entry_xid)}-${String(d.account_event_id)}`,
    status: d.status as DeliveryStatus,
    attempts: Number(d.attempts),
    firstAttemptAt: date(d.first_attempt_at),
    nextAttemptAt: date(d.next_attempt_at)!,
    lastStatusCode: (d.last_status_code as number | null) ?? null,
    lastError: (d.last_error as string | null) ?? null,
    createdAt: date(d.created_at)!,
    deliveredAt: date(d.delivered_at),
    redeliveries: Number(d.redeliveries),
  };
}

const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

function rawClaimed(d: Raw): ClaimedDelivery {
  const w = json(d.webhook) as Raw;
  if (d.account_event_id !== null && d.account_event_id !== undefined) {
    const row = rawAccountDelivery(d);
    return {
      ...row,
      of: 'account',
      webhook: rawAccountWebhook(w),
      entry: {
        position: row.entryId,
        playerId: String(d.entry_player_id),
        kind: row.kind,
        data: json(d.entry_data) as Record<string, unknown>,
        createdAt: date(d.entry_created_at)!,
      },
    };
  }
  return {
    of: 'match',
    id: String(d.id),
    webhookId: String(d.webhook_id),
    matchId: String(d.match_id),
    seat: d.seat as SeatName,
    kind: d.kind as WebhookKind,
    version: Number(d.version),
    fromSeq: Number(d.from_seq),
    toMove: (d.to_move as SeatName | null) ?? null,
    deadline: date(d.deadline),
    status: d.status as DeliveryStatus,
    attempts: Number(d.attempts),
    firstAttemptAt: date(d.first_attempt_at),
    nextAttemptAt: date(d.next_attempt_at)!,
    lastStatusCode: (d.last_status_code as number | null) ?? null,
    lastError: (d.last_error as string | null) ?? null,
    createdAt: date(d.created_at)!,
    deliveredAt: date(d.delivered_at),
    redeliveries: Number(d.redeliveries),
    webhook: rawWebhook(w),
    matchVersion: Number(d.match_version),
    game: String(d.match_game),
    events: json(d.events) as Extract<ClaimedDelivery, { of: 'match' }>['events'],
  };
}

export class PgWebhookStore implements WebhookStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sql: SqlQuery,
    private readonly transaction: Database['transaction'],
    /** Called when a delivery was queued again (the match store's onDeliveriesQueued listeners). */
    private readonly queued: () => void = () => {},
  ) {}

  async create(matchId: string, hook: NewWebhook, maxPerSeat: number): Promise<WebhookRow | null> {
    const rows = await this.transaction(async (tx) => {
      // The seat's row lock orders concurrent registrations: each counts after the one before committed.
      await tx.query(`SELECT 1 FROM "seat" WHERE "match_id" = $1 AND "seat" = $2 FOR UPDATE`, [matchId, hook.seat]);
      return tx.query<Raw>(
        `INSERT INTO "webhook" ("id", "match_id", "seat", "url", "kinds", "secret", "deadline_lead_ms")
         SELECT $1, $2, $3, $4, ARRAY(SELECT jsonb_array_elements_text($5::jsonb)), $6, $7::int
          WHERE (SELECT count(*) FROM "webhook" WHERE "match_id" = $2 AND "seat" = $3) < $8::int
         RETURNING *`,
        [hook.id, matchId, hook.seat, hook.url, JSON.stringify(hook.kinds), hook.secret, hook.deadlineLeadMs, maxPerSeat],
      );
    });
    return rows[0] ? rawWebhook(rows[0]) : null;
  }

  async list(matchId: string, seat: SeatName): Promise<WebhookRow[]> {
    return (await this.prisma.webhook.findMany({ where: { matchId, seat }, orderBy: { createdAt: 'asc' } })).map(webhookRow);
  }

  async get(matchId: string, seat: SeatName, id: string): Promise<WebhookRow | null> {
    const w = await this.prisma.webhook.findFirst({ where: { id, matchId, seat } });
    return w ? webhookRow(w) : null;
  }

  async delete(matchId: string, seat: SeatName, id: string): Promise<boolean> {
    return (await this.prisma.webhook.deleteMany({ where: { id, matchId, seat } })).count > 0;
  }

  async rotate(matchId: string, seat: SeatName, id: string, secret: string, previousUntil: Date): Promise<WebhookRow | null> {
    const w = await this.get(matchId, seat, id);
    if (!w) return null;
    return webhookRow(await this.prisma.webhook.update({ where: { id }, data: { secret, previousSecret: w.secret, previousUntil } }));
  }

  async deliveries(webhookId: string, limit: number): Promise<DeliveryRow[]> {
    return (await this.prisma.webhookDelivery.findMany({ where: { webhookId }, orderBy: { createdAt: 'desc' }, take: limit })).map(
      deliveryRow,
    );
  }

  async redeliver(webhookId: string, deliveryId: string, max: number): Promise<DeliveryRow | 'pending' | 'limit' | null> {
    // Only a settled delivery, and only `max` times: a redelivery cannot be queued twice at once,
    // and the seat cannot make one notification into many POSTs.
    const r = await this.prisma.webhookDelivery.updateMany({
      where: { id: deliveryId, webhookId, status: { not: 'pending' }, redeliveries: { lt: max } },
      data: { status: 'pending', nextAttemptAt: new Date(), firstAttemptAt: null, lastError: null, redeliveries: { increment: 1 } },
    });
    const d = await this.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, webhookId } });
    if (r.count === 0) return !d ? null : d.status === 'pending' ? 'pending' : 'limit';
    this.queued();
    return d ? deliveryRow(d) : null;
  }

  async createForPlayer(playerId: string, hook: NewAccountWebhook, max: number): Promise<AccountWebhookRow | null> {
    const rows = await this.transaction(async (tx) => {
      // The player's row lock orders concurrent registrations: each counts after the one before committed.
      await tx.query(`SELECT 1 FROM "player" WHERE "id" = $1 FOR UPDATE`, [playerId]);
      return tx.query<Raw>(
        `INSERT INTO "webhook" ("id", "player_id", "url", "kinds", "secret", "deadline_lead_ms")
         SELECT $1, $2, $3, ARRAY(SELECT jsonb_array_elements_text($4::jsonb)), $5, 0
          WHERE (SELECT count(*) FROM "webhook" WHERE "player_id" = $2) < $6::int
         RETURNING *`,
        [hook.id, playerId, hook.url, JSON.stringify(hook.kinds), hook.secret, max],
      );
    });
    return rows[0] ? rawAccountWebhook(rows[0]) : null;
  }

  async listForPlayer(playerId: string): Promise<AccountWebhookRow[]> {
    return (
      await this.sql<Raw>(
        `SELECT * FROM "webhook" WHERE "player_id" = $1 ORDER BY "created_at", "id"`,
        [playerId],
        'evons_account_webhooks',
      )
    ).map(rawAccountWebhook);
  }

  async getForPlayer(playerId: string, id: string): Promise<AccountWebhookRow | null> {
    const [w] = await this.sql<Raw>(
      `SELECT * FROM "webhook" WHERE "id" = $1 AND "player_id" = $2`,
      [id, playerId],
      'evons_account_webhook',
    );
    return w ? rawAccountWebhook(w) : null;
  }

  async deleteForPlayer(playerId: string, id: string): Promise<boolean> {
    return (await this.prisma.webhook.deleteMany({ where: { id, playerId } })).count > 0;
  }

  async rotateForPlayer(playerId: string, id: string, secret: string, previousUntil: Date): Promise<AccountWebhookRow | null> {
    const [w] = await this.sql<Raw>(
      `UPDATE "webhook" SET "previous_secret" = "secret", "secret" = $3, "previous_until" = $4::timestamptz
        WHERE "id" = $1 AND "player_id" = $2 RETURNING *`,
      [id, playerId, secret, previousUntil.toISOString()],
    );
    return w ? rawAccountWebhook(w) : null;
  }

  async accountDeliveries(webhookId: string, limit: number): Promise<AccountDeliveryRow[]> {
    const rows = await this.sql<Raw>(
      `SELECT d.*, a."xid"::text AS entry_xid FROM "webhook_delivery" d JOIN "account_event" a ON a."id" = d."account_event_id"
        WHERE d."webhook_id" = $1 ORDER BY d."created_at" DESC, d."account_event_id" DESC LIMIT $2`,
      [webhookId, limit],
      'evons_account_deliveries',
    );
    return rows.map(rawAccountDelivery);
  }

  async redeliverAccount(webhookId: string, deliveryId: string, max: number): Promise<AccountDeliveryRow | 'pending' | 'limit' | null> {
    const r = await this.redeliver(webhookId, deliveryId, max);
    if (r === null || r === 'pending' || r === 'limit') return r;
    const [d] = await this.sql<Raw>(
      `SELECT d.*, a."xid"::text AS entry_xid FROM "webhook_delivery" d JOIN "account_event" a ON a."id" = d."account_event_id" WHERE d."id" = $1`,
      [deliveryId],
    );
    return d ? rawAccountDelivery(d) : null;
  }

  async anyAccountWebhooks(): Promise<boolean> {
    const rows = await this.sql(
      `SELECT 1 FROM "webhook" WHERE "player_id" IS NOT NULL AND "disabled_at" IS NULL LIMIT 1`,
      [],
      'evons_account_webhooks_any',
    );
    return rows.length > 0;
  }

  async claim(limit: number, leaseMs: number, busy: readonly string[] = [], only?: readonly string[]): Promise<ClaimedDelivery[]> {
    const rows = only
      ? await this.sql<Raw>(CLAIM_ONLY_SQL, [limit, leaseMs, JSON.stringify(only)], 'evons_webhook_claim_only')
      : await this.sql<Raw>(CLAIM_ALL_SQL, [limit, leaseMs, JSON.stringify(busy)], 'evons_webhook_claim');
    return rows.map(rawClaimed);
  }

  async settle(
    d: ClaimedDelivery,
    r: {
      ok: boolean;
      statusCode: number | null;
      error: string | null;
      nextAttemptAt: Date | null;
      superseded?: boolean;
      disableReason?: string | null;
    },
  ): Promise<void> {
    const status: DeliveryStatus = r.superseded ? 'superseded' : r.ok ? 'delivered' : r.nextAttemptAt ? 'pending' : 'failed';
    await this.sql(
      SETTLE_SQL,
      [
        d.id,
        status,
        r.statusCode,
        r.error,
        r.nextAttemptAt?.toISOString() ?? null,
        d.webhookId,
        r.ok,
        r.disableReason ?? null,
        r.superseded ?? false,
      ],
      'evons_webhook_settle',
    );
  }
}
