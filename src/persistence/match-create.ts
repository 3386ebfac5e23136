/**
 * A new match in ONE statement: the match row, its seats, its first events and the endpoints
 * registered with it. Through Prisma's nested create this was several statements in a
 * transaction and about 6 ms of this process's CPU (its query compiler); here it is one round
 * trip. JSON nulls are stored as Prisma stored them: jsonb `null`, not SQL NULL.
 */
import { eventDocs } from './append.js';
import { named } from './named-sql.js';
import type { MatchEnding, MatchStatus, NewEvent, NewMatch, SeatName } from './shared.js';

export interface CreateArgs {
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

export const CREATE = named<CreateArgs>()`
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

export function createArgs(match: NewMatch, events: NewEvent[], createdAt: Date): CreateArgs {
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
    seats: JSON.stringify(
      match.seats.map((s) => ({
        seat: s.seat,
        token_hash: s.tokenHash,
        handle: s.handle,
        player_id: s.playerId ?? null,
        deck: s.deck ?? null,
      })),
    ),
    events: JSON.stringify(eventDocs(events)),
    webhooks: JSON.stringify(
      (match.webhooks ?? []).map((w) => ({
        id: w.id,
        seat: w.seat,
        url: w.url,
        kinds: w.kinds,
        secret: w.secret,
        deadline_lead_ms: w.deadlineLeadMs,
      })),
    ),
    created_at: createdAt.toISOString(),
  };
}
