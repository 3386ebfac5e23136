/**
 * A stored match as every read sees it: the row, its seats (with whether each player is a bot),
 * read in one statement, and the one mapping from the match table to MatchRow.
 */
import { asDate, asJson } from './sql-values.js';
import type { MatchEnding, MatchStatus, NewMatch, SeatName } from './shared.js';

export interface MatchRow extends NewMatch {
  decks: Record<SeatName, string[]> | null;
  rated: boolean;
  /** Null while the match runs. */
  ending: MatchEnding | null;
  toMove: SeatName | null;
  deadline: Date | null;
  timeControl: string;
  version: number;
  /** Bumped by every seat-token replacement (cached copies compare it with the version). */
  seatEpoch: number;
  createdAt: Date;
  updatedAt: Date;
  winner: SeatName | null;
}

export interface MatchSqlRow {
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
  seats:
    | { seat: string; token_hash: string | null; handle: string | null; player_id: string | null; bot: boolean; deck: string | null }[]
    | string;
}

/** Matches with their seats in one statement (the hot read of every request: getMatch). */
const MATCH_SELECT = `
SELECT m.*,
       COALESCE((SELECT json_agg(json_build_object('seat', s.seat, 'token_hash', s.token_hash, 'handle', s.handle,
                                                   'player_id', s.player_id, 'bot', COALESCE(p.bot, false), 'deck', s.deck) ORDER BY s.seat)
                   FROM "seat" s LEFT JOIN "player" p ON p.id = s.player_id WHERE s.match_id = m.id), '[]'::json) AS seats
  FROM "match" m`;
export const MATCH_SQL = `${MATCH_SELECT} WHERE m.id = $1`;
export const MATCHES_SQL = `${MATCH_SELECT} WHERE m.id = ANY($1::text[])`;

/** The one mapping from the match table to MatchRow. */
export function matchRow(m: MatchSqlRow): MatchRow {
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
    seats: asJson(m.seats).map((s) => ({
      seat: s.seat as SeatName,
      tokenHash: s.token_hash,
      handle: s.handle,
      playerId: s.player_id,
      bot: s.bot,
      deck: s.deck,
    })),
  };
}
