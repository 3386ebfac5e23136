/**
 * Ratings (read side) and the rating half of a rated match's final append (write side, run by
 * PgMatchStore inside the append's transaction: see applyRating).
 */
import type { SqlQuery, SqlTx } from './database.js';
import { asDate } from './sql-values.js';
import type { SeatName } from './shared.js';

/** Ratings are kept per game and per time-control family. */
export type RatingFamily = 'correspondence' | 'live';

/** A Glicko-2 rating as stored (unrounded). */
export interface RatingValue {
  rating: number;
  rd: number;
  volatility: number;
}

/**
 * The rating update a rated match's final append carries. The store locks both players' ratings,
 * calls `rate` with them, and writes the result in the append's own transaction: once per match.
 */
export interface RatedEnding {
  game: string;
  family: RatingFamily;
  players: Record<SeatName, string>;
  /** p1's score: 1 win, 0.5 draw, 0 loss. */
  score: 0 | 0.5 | 1;
  /** A player's rating before their first rated game here. */
  initial: RatingValue;
  /** Both new ratings from both ratings before the match (pure). */
  rate(before: Record<SeatName, RatingValue>): Record<SeatName, RatingValue>;
}

export interface RatingRow extends RatingValue {
  playerId: string;
  game: string;
  family: RatingFamily;
  games: number;
  updatedAt: Date;
}

export interface RatingChangeRow {
  matchId: string;
  playerId: string;
  game: string;
  family: RatingFamily;
  score: number;
  before: RatingValue;
  after: RatingValue;
  createdAt: Date;
}

export interface LeaderboardRow extends RatingValue {
  handle: string;
  bot: boolean;
  games: number;
}

/** A player's results in one game (finished matches of their seats). */
export interface PlayerGameStats {
  game: string;
  /** Finished, not aborted. */
  played: number;
  won: number;
  lost: number;
  drawn: number;
  /** Lost on time. */
  timedOut: number;
  aborted: number;
}

export interface DeckUsage {
  game: string;
  deck: string;
  matches: number;
}

/** Ratings, their history, and the results they come from. */
export interface RatingStore {
  ofPlayer(playerId: string): Promise<RatingRow[]>;
  /** Highest first, only ratings with rd <= maxRd (the others are provisional). */
  leaderboard(game: string, family: RatingFamily, maxRd: number, limit: number): Promise<LeaderboardRow[]>;
  /** The rating changes a match made (none, or one per seat). */
  changesOfMatch(matchId: string): Promise<RatingChangeRow[]>;
  /** Per game, from the player's finished matches. */
  stats(playerId: string): Promise<PlayerGameStats[]>;
  /** The decks the player brought most often to finished matches, per game, most used first (at most `perGame` each). */
  favouriteDecks(playerId: string, perGame: number): Promise<DeckUsage[]>;
}

interface RatingSqlRow {
  player_id: string;
  game: string;
  family: string;
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  updated_at: Date | string;
}

const ratingRow = (r: RatingSqlRow): RatingRow => ({
  playerId: r.player_id,
  game: r.game,
  family: r.family as RatingFamily,
  rating: Number(r.rating),
  rd: Number(r.rd),
  volatility: Number(r.volatility),
  games: Number(r.games),
  updatedAt: asDate(r.updated_at),
});

const STATS_SQL = `
SELECT m."game",
       count(*) FILTER (WHERE m."ending" IS DISTINCT FROM 'aborted')::int AS played,
       count(*) FILTER (WHERE m."winner" = s."seat")::int AS won,
       count(*) FILTER (WHERE m."winner" IS NOT NULL AND m."winner" <> s."seat")::int AS lost,
       count(*) FILTER (WHERE m."winner" IS NULL AND m."ending" IS DISTINCT FROM 'aborted')::int AS drawn,
       count(*) FILTER (WHERE m."ending" = 'timed-out' AND m."winner" IS NOT NULL AND m."winner" <> s."seat")::int AS timed_out,
       count(*) FILTER (WHERE m."ending" = 'aborted')::int AS aborted
  FROM "seat" s JOIN "match" m ON m."id" = s."match_id"
 WHERE s."player_id" = $1 AND m."status" = 'finished'
 GROUP BY m."game" ORDER BY m."game"`;

/** Finished matches only: the deck of a waiting or running match is secret (a starter name is its whole list). */
const DECKS_SQL = `
SELECT "game", "deck", "matches" FROM (
  SELECT m."game", s."deck", count(*)::int AS matches,
         row_number() OVER (PARTITION BY m."game" ORDER BY count(*) DESC, s."deck") AS rank
    FROM "seat" s JOIN "match" m ON m."id" = s."match_id"
   WHERE s."player_id" = $1 AND s."deck" IS NOT NULL AND m."status" = 'finished'
   GROUP BY m."game", s."deck") ranked
 WHERE rank <= $2
 ORDER BY "game", "matches" DESC, "deck"`;

export class PgRatingStore implements RatingStore {
  constructor(private readonly sql: SqlQuery) {}

  async ofPlayer(playerId: string): Promise<RatingRow[]> {
    const rows = await this.sql<RatingSqlRow>(`SELECT * FROM "rating" WHERE "player_id" = $1 ORDER BY "game", "family"`, [playerId]);
    return rows.map(ratingRow);
  }

  async leaderboard(game: string, family: RatingFamily, maxRd: number, limit: number): Promise<LeaderboardRow[]> {
    const rows = await this.sql<{ handle: string; bot: boolean; rating: number; rd: number; volatility: number; games: number }>(
      `SELECT p."handle", p."bot", r."rating", r."rd", r."volatility", r."games"
         FROM "rating" r JOIN "player" p ON p."id" = r."player_id"
        WHERE r."game" = $1 AND r."family" = $2 AND r."rd" <= $3
        ORDER BY r."rating" DESC, p."handle_key" LIMIT $4`,
      [game, family, maxRd, limit],
    );
    return rows.map((r) => ({
      handle: r.handle,
      bot: r.bot,
      rating: Number(r.rating),
      rd: Number(r.rd),
      volatility: Number(r.volatility),
      games: Number(r.games),
    }));
  }

  async changesOfMatch(matchId: string): Promise<RatingChangeRow[]> {
    const rows = await this.sql<Record<string, unknown>>(`SELECT * FROM "rating_change" WHERE "match_id" = $1 ORDER BY "player_id"`, [
      matchId,
    ]);
    return rows.map(changeRow);
  }

  async stats(playerId: string): Promise<PlayerGameStats[]> {
    const rows = await this.sql<{
      game: string;
      played: number;
      won: number;
      lost: number;
      drawn: number;
      timed_out: number;
      aborted: number;
    }>(STATS_SQL, [playerId]);
    return rows.map((r) => ({
      game: r.game,
      played: Number(r.played),
      won: Number(r.won),
      lost: Number(r.lost),
      drawn: Number(r.drawn),
      timedOut: Number(r.timed_out),
      aborted: Number(r.aborted),
    }));
  }

  async favouriteDecks(playerId: string, perGame: number): Promise<DeckUsage[]> {
    const rows = await this.sql<{ game: string; deck: string; matches: number }>(DECKS_SQL, [playerId, perGame]);
    return rows.map((r) => ({ game: r.game, deck: r.deck, matches: Number(r.matches) }));
  }
}

function changeRow(r: Record<string, unknown>): RatingChangeRow {
  const n = (k: string) => Number(r[k]);
  return {
    matchId: r.match_id as string,
    playerId: r.player_id as string,
    game: r.game as string,
    family: r.family as RatingFamily,
    score: n('score'),
    before: { rating: n('rating_before'), rd: n('rd_before'), volatility: n('volatility_before') },
    after: { rating: n('rating_after'), rd: n('rd_after'), volatility: n('volatility_after') },
    createdAt: asDate(r.created_at as Date | string),
  };
}

/**
 * The rating half of a rated match's final append, inside its transaction: both rating rows are
 * created if new and locked (in player-id order, so two matches ending at once cannot deadlock),
 * `rated.rate` computes both new ratings from both old ones, and the rows and the match's
 * rating_change rows (primary key: match, player) are written. Called only after the append
 * itself matched its expected version, so a lost race never rates.
 */
export async function applyRating(tx: SqlTx, matchId: string, rated: RatedEnding): Promise<Record<SeatName, RatingValue>> {
  const { game, family, players, initial } = rated;
  const ids = [players.p1, players.p2].sort();
  await tx.query(
    `INSERT INTO "rating" ("player_id", "game", "family", "rating", "rd", "volatility")
     SELECT id, $2, $3, $4, $5, $6 FROM unnest($1::text[]) WITH ORDINALITY AS t(id, ord) ORDER BY ord
     ON CONFLICT DO NOTHING`,
    [ids, game, family, initial.rating, initial.rd, initial.volatility],
  );
  const locked = (
    await tx.query<RatingSqlRow>(
      `SELECT * FROM "rating" WHERE "player_id" = ANY($1::text[]) AND "game" = $2 AND "family" = $3 ORDER BY "player_id" FOR UPDATE`,
      [ids, game, family],
    )
  ).map(ratingRow);
  const of = (id: string): RatingValue => {
    const r = locked.find((x) => x.playerId === id);
    if (!r) throw new Error(`rating row of ${id} missing after insert`);
    return { rating: r.rating, rd: r.rd, volatility: r.volatility };
  };
  const before = { p1: of(players.p1), p2: of(players.p2) };
  const after = rated.rate(before);
  const score = { p1: rated.score, p2: 1 - rated.score };
  for (const seat of ['p1', 'p2'] as const) {
    await tx.query(
      `UPDATE "rating" SET "rating" = $4, "rd" = $5, "volatility" = $6, "games" = "games" + 1, "updated_at" = now()
        WHERE "player_id" = $1 AND "game" = $2 AND "family" = $3`,
      [players[seat], game, family, after[seat].rating, after[seat].rd, after[seat].volatility],
    );
    await tx.query(
      `INSERT INTO "rating_change" ("match_id", "player_id", "game", "family", "score", "rating_before", "rd_before", "volatility_before",
                                    "rating_after", "rd_after", "volatility_after")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        matchId,
        players[seat],
        game,
        family,
        score[seat],
        before[seat].rating,
        before[seat].rd,
        before[seat].volatility,
        after[seat].rating,
        after[seat].rd,
        after[seat].volatility,
      ],
    );
  }
  return after;
}
