/**
 * The move path's append: ONE statement (one round trip, one implicit transaction, one commit)
 * with named parameters (AppendArgs, built by appendArgs from AppendOptions' parts; named-sql.ts
 * numbers them):
 *   UPDATE match SET version = version + n WHERE id = match_id AND version = expected  (0 rows → conflict)
 *   INSERT events seq expected+1 … expected+n                       (UNIQUE(match_id, seq) backstop)
 *   INSERT idempotency_key (if given)                               (UNIQUE(match_id, seat, key) → conflict)
 *   UPDATE seat (if claiming an open seat: a join)                  (seat taken → no bump → conflict)
 *   INSERT webhook (if registered), webhook_delivery (the outbox), UPDATE stale deadline warnings
 * When the bump matches no row every other part selects from an empty set and nothing is
 * written; no row comes back. A unique violation aborts the whole statement.
 *
 * Measured (scripts/db-bench-append.ts, one event, sequential): PostgreSQL 3.1 ms vs 8.8 ms for
 * the same steps as a Prisma interactive transaction (BEGIN/UPDATE/INSERT/COMMIT round trips);
 * PGlite 3.9–4.5 ms vs 3.9–4.8 ms, most of it planning the statement on every call. Prepared once
 * as a named statement (pglite-statements.ts), the same script (2026-11-23, machine shared):
 * PGlite 0.5–0.7 ms, PostgreSQL 0.75 ms.
 */
import { named } from './named-sql.js';
import type { RatedEnding } from './rating-store.js';
import type { MatchEnding, MatchStatus, NewEvent, NewMatch, NewWebhook, SeatName, WebhookKind } from './shared.js';

/** What an append notifies: the seats' endpoints that asked for these kinds get an outbox row. */
export interface Notification {
  seat: SeatName;
  kind: WebhookKind;
}

/** An accepted action's answer, kept for retries with the same key (a refused action stores nothing). */
export interface IdempotencyRecord {
  key: string;
  seat: SeatName;
  requestHash: string;
  /** The answer as the service stored it (JSON text). */
  response: string;
}

/** The match row's columns an append sets; a column left out keeps the row's value. */
export interface RowUpdate {
  status?: MatchStatus;
  winner?: SeatName | null;
  /** Who is to move after these events (kept on the row for "my turn" lists). */
  toMove?: SeatName | null;
  /** The running clock's deadline after these events (null: none runs), for the sweepers. */
  deadline?: Date | null;
}

/** How the match ended (with status 'finished' in the row), and a rated match's rating update in the append's transaction. */
export interface AppendEnding {
  reason: MatchEnding;
  rating?: RatedEnding | undefined;
}

/** A join: the open seat it takes, the deck lists it deals and an endpoint it registers, in the append's statement. */
export interface AppendJoin {
  /** If the seat is no longer open nothing is written and VersionConflictError is thrown. */
  claim: { seat: SeatName; tokenHash: string; handle: string | null; playerId?: string | null; deck?: string | null };
  decks?: Record<SeatName, string[]>;
  webhook?: NewWebhook;
}

/** What an append writes besides its events, by part; a part left out is not written. */
export interface AppendOptions {
  row?: RowUpdate;
  ending?: AppendEnding;
  /** Webhook notifications, written to the outbox in the same statement. */
  notify?: Notification[];
  /** Stored in the same transaction, so a retried request gets the same answer. */
  idempotency?: IdempotencyRecord;
  join?: AppendJoin;
  /**
   * A new match created in the same transaction, only if this append matched its expected version
   * (an accepted rematch: the acceptance and the match it starts are written together, once).
   */
  createMatch?: { match: NewMatch; events: NewEvent[] };
}

/**
 * APPEND's parameters by name. A `sets_…`/`claims_seat`/`stores_key`/`registers_webhook`
 * flag says whether its fields apply; status, decks and ending keep the row's value when null.
 */
export interface AppendArgs {
  match_id: string;
  expected: number;
  /** JSON array of EventDoc. */
  events: string;
  status: MatchStatus | null;
  sets_winner: boolean;
  winner: SeatName | null;
  sets_to_move: boolean;
  to_move: SeatName | null;
  sets_deadline: boolean;
  /** ISO timestamp. */
  deadline: string | null;
  /** JSON of the dealt deck lists. */
  decks: string | null;
  ending: MatchEnding | null;
  /** JSON array of Notification. */
  notify: string;
  claims_seat: boolean;
  claim_seat: SeatName | null;
  claim_token_hash: string | null;
  claim_handle: string | null;
  claim_player_id: string | null;
  claim_deck: string | null;
  stores_key: boolean;
  key: string | null;
  key_seat: SeatName | null;
  request_hash: string | null;
  response: string | null;
  registers_webhook: boolean;
  webhook_id: string | null;
  webhook_seat: SeatName | null;
  webhook_url: string | null;
  /** JSON array of WebhookKind. */
  webhook_kinds: string;
  webhook_secret: string | null;
  webhook_lead_ms: number | null;
}

export const APPEND = named<AppendArgs>()`
WITH bumped AS (
  UPDATE "match"
     SET "version" = "version" + jsonb_array_length(${'events'}::jsonb),
         "status" = COALESCE(${'status'}::text, "status"),
         "winner" = CASE WHEN ${'sets_winner'}::boolean THEN ${'winner'}::text ELSE "winner" END,
         "to_move" = CASE WHEN ${'sets_to_move'}::boolean THEN ${'to_move'}::text ELSE "to_move" END,
         "deadline" = CASE WHEN ${'sets_deadline'}::boolean THEN ${'deadline'}::timestamptz ELSE "deadline" END,
         "decks" = COALESCE(${'decks'}::jsonb, "decks"),
         "ending" = COALESCE(${'ending'}::text, "ending"),
         "updated_at" = GREATEST(now(), "created_at")
   WHERE "id" = ${'match_id'} AND "version" = ${'expected'}::int
     AND (NOT ${'claims_seat'}::boolean OR EXISTS (
           SELECT 1 FROM "seat" WHERE "match_id" = ${'match_id'} AND "seat" = ${'claim_seat'}::text AND "token_hash" IS NULL))
  RETURNING "version", "created_at"
), claim AS (
  UPDATE "seat" SET "token_hash" = ${'claim_token_hash'}::text, "handle" = ${'claim_handle'}::text, "player_id" = ${'claim_player_id'}::text,
                    "deck" = ${'claim_deck'}::text, "joined_at" = GREATEST(now(), bumped."created_at")
    FROM bumped
   WHERE ${'claims_seat'}::boolean AND "seat"."match_id" = ${'match_id'} AND "seat"."seat" = ${'claim_seat'}::text AND "seat"."token_hash" IS NULL
), ev AS (
  INSERT INTO "event" ("match_id", "seq", "source", "type", "payload", "visibility", "acting_seat", "created_at")
  SELECT ${'match_id'}, ${'expected'}::int + e.ord::int, e.doc->>'source', e.doc->>'type', e.doc->'payload', e.doc->>'visibility', e.doc->>'acting_seat',
         GREATEST(now(), bumped."created_at")
    FROM bumped, jsonb_array_elements(${'events'}::jsonb) WITH ORDINALITY AS e(doc, ord)
), idem AS (
  INSERT INTO "idempotency_key" ("match_id", "key", "seat", "request_hash", "response")
  SELECT ${'match_id'}, ${'key'}::text, ${'key_seat'}::text, ${'request_hash'}::text, ${'response'}::text
    FROM bumped WHERE ${'stores_key'}::boolean
), outbox AS (
  INSERT INTO "webhook_delivery" ("id", "webhook_id", "match_id", "seat", "kind", "version", "from_seq", "to_move", "deadline", "next_attempt_at")
  SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), w."id", ${'match_id'}, w."seat", n.kind, b."version", ${'expected'}::int + 1,
         CASE WHEN ${'sets_to_move'}::boolean THEN ${'to_move'}::text ELSE NULL END, ${'deadline'}::timestamptz,
         CASE WHEN n.kind = 'deadline-near' THEN ${'deadline'}::timestamptz - w."deadline_lead_ms" * interval '1 millisecond' ELSE now() END
    FROM bumped b,
         -- The match's endpoints, and the one this statement registers (the CTEs share one snapshot,
         -- so the new row is not visible in "webhook" yet: a joiner must hear of its own first turn).
         (SELECT "id", "seat", "kinds", "deadline_lead_ms" FROM "webhook" WHERE "match_id" = ${'match_id'} AND "disabled_at" IS NULL
          UNION ALL
          SELECT ${'webhook_id'}::text, ${'webhook_seat'}::text, ARRAY(SELECT jsonb_array_elements_text(${'webhook_kinds'}::jsonb)), ${'webhook_lead_ms'}::int
           WHERE ${'registers_webhook'}::boolean) w,
         jsonb_to_recordset(${'notify'}::jsonb) AS n(seat text, kind text)
   WHERE w."seat" = n.seat AND n.kind = ANY(w."kinds")
  RETURNING 1
), stale AS (
  -- A deadline warning is about one position: the append that moves past it (or ends the match)
  -- supersedes it at once, so the log never shows it pending for a position that is gone.
  UPDATE "webhook_delivery" d SET "status" = 'superseded'
    FROM bumped
   WHERE d."match_id" = ${'match_id'} AND d."status" = 'pending' AND d."kind" = 'deadline-near' AND d."version" <= ${'expected'}::int
), hook AS (
  INSERT INTO "webhook" ("id", "match_id", "seat", "url", "kinds", "secret", "deadline_lead_ms")
  SELECT ${'webhook_id'}::text, ${'match_id'}, ${'webhook_seat'}::text, ${'webhook_url'}::text,
         ARRAY(SELECT jsonb_array_elements_text(${'webhook_kinds'}::jsonb)), ${'webhook_secret'}::text, ${'webhook_lead_ms'}::int
    FROM bumped WHERE ${'registers_webhook'}::boolean
)
SELECT "version", (SELECT count(*) FROM outbox)::int AS "queued" FROM bumped`;

export interface EventDoc {
  source: string;
  type: string;
  payload: unknown;
  visibility: string;
  acting_seat: string | null;
}

/** Events as APPEND and CREATE (match-create.ts) read them (jsonb_array_elements: one document each). */
export function eventDocs(events: NewEvent[]): EventDoc[] {
  return events.map((e) => ({
    source: e.source,
    type: e.type,
    payload: e.payload ?? null,
    visibility: e.visibility,
    acting_seat: e.actingSeat,
  }));
}

/** APPEND's arguments for an append (a part or row column left out: the row keeps its values). */
export function appendArgs(id: string, expectedVersion: number, events: NewEvent[], opts: AppendOptions): AppendArgs {
  const { row = {}, idempotency: idem, join } = opts;
  const claim = join?.claim;
  const hook = join?.webhook;
  return {
    match_id: id,
    expected: expectedVersion,
    events: JSON.stringify(eventDocs(events)),
    status: row.status ?? null,
    sets_winner: row.winner !== undefined,
    winner: row.winner ?? null,
    sets_to_move: row.toMove !== undefined,
    to_move: row.toMove ?? null,
    sets_deadline: row.deadline !== undefined,
    deadline: row.deadline?.toISOString() ?? null,
    decks: join?.decks ? JSON.stringify(join.decks) : null,
    ending: opts.ending?.reason ?? null,
    notify: JSON.stringify(opts.notify ?? []),
    claims_seat: claim !== undefined,
    claim_seat: claim?.seat ?? null,
    claim_token_hash: claim?.tokenHash ?? null,
    claim_handle: claim?.handle ?? null,
    claim_player_id: claim?.playerId ?? null,
    claim_deck: claim?.deck ?? null,
    stores_key: idem !== undefined,
    key: idem?.key ?? null,
    key_seat: idem?.seat ?? null,
    request_hash: idem?.requestHash ?? null,
    response: idem?.response ?? null,
    registers_webhook: hook !== undefined,
    webhook_id: hook?.id ?? null,
    webhook_seat: hook?.seat ?? null,
    webhook_url: hook?.url ?? null,
    webhook_kinds: JSON.stringify(hook?.kinds ?? []),
    webhook_secret: hook?.secret ?? null,
    webhook_lead_ms: hook?.deadlineLeadMs ?? null,
  };
}
