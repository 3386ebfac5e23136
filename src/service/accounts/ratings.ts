/**
 * Rated matches and what players see of their ratings: which endings count, which rating a match
 * moves (per game, per time-control family), the Glicko-2 update the final append carries, and
 * the profile's ratings, results and favourite decks.
 */
import { DEFAULT_RATING, PROVISIONAL_RD, displayRating, isProvisional, rateMatch, type Score } from '../../core/rating.js';
import { canonicalJson, sha256Hex } from '../../core/hash.js';
import type { TimeControl } from '../../core/clock.js';
import type {
  DeckUsage,
  MatchEnding,
  MatchRow,
  PlayerGameStats,
  PlayerStore,
  RatedEnding,
  RatingFamily,
  RatingStore,
  SeatName,
} from '../../persistence/types.js';
import { problems } from '../errors.js';
import { playerView, type PlayerView } from './players.js';
import type { DeckSpec } from '../match/types.js';

/** The rating a time control counts toward; null: no clock, never rated (a loser could stall forever). */
export function ratingFamily(control: TimeControl['kind'] | string): RatingFamily | null {
  if (control === 'correspondence' || control === 'live') return control;
  return null;
}

/**
 * Decisions each seat must have made (before the action or timeout that ends it) for a rated
 * match to move ratings: a rated game resigned or lost on time sooner was not played, and is not
 * rated (issue 21: 300 instant-resign wins against fresh puppet accounts made a 2,627 in 23 s).
 * RATED_MIN_DECISIONS; docs/api.md#ratings.
 */
export const DEFAULT_RATED_MIN_DECISIONS = 3;

/**
 * The rating update for a match that ends now, or undefined when the ending moves no rating: an
 * unrated match, an abort (lichess's rule: nobody played, nobody is rated), a seat with fewer than
 * `minDecisions` decisions, or seats without two players (cannot happen for a rated match;
 * checked at create and join).
 */
export function ratedEnding(
  row: Pick<MatchRow, 'rated' | 'game' | 'timeControl' | 'seats'>,
  winner: SeatName | null,
  ending: MatchEnding,
  played: { decisions: Record<SeatName, number>; minDecisions: number },
): RatedEnding | undefined {
  if (!row.rated || ending === 'aborted') return undefined;
  if (played.decisions.p1 < played.minDecisions || played.decisions.p2 < played.minDecisions) return undefined;
  const family = ratingFamily(row.timeControl);
  const p1 = row.seats.find((s) => s.seat === 'p1')?.playerId;
  const p2 = row.seats.find((s) => s.seat === 'p2')?.playerId;
  if (!family || !p1 || !p2) return undefined;
  const score: Score = winner === null ? 0.5 : winner === 'p1' ? 1 : 0;
  return {
    game: row.game,
    family,
    players: { p1, p2 },
    score,
    initial: DEFAULT_RATING,
    rate: (before) => {
      const r = rateMatch(before.p1, before.p2, score);
      return { p1: r.a, p2: r.b };
    },
  };
}

/** A seat's deck as the profile names it: the starter deck's id, or custom-<hash> of the card list. */
export function deckLabel(spec: DeckSpec, cards: readonly string[]): string {
  if ('starter' in spec) return spec.starter;
  return `custom-${sha256Hex(canonicalJson([...cards].sort())).slice(0, 12)}`;
}

export interface RatingView {
  game: string;
  timeControl: RatingFamily;
  /** Rounded for display; stored unrounded. */
  rating: number;
  rd: number;
  /** RD above 110: kept off the leaderboard. */
  provisional: boolean;
  games: number;
}

export interface ProfileView extends PlayerView {
  ratings: RatingView[];
  stats: PlayerGameStats[];
  favouriteDecks: DeckUsage[];
}

export interface LeaderboardEntry {
  rank: number;
  handle: string;
  bot: boolean;
  rating: number;
  rd: number;
  games: number;
}

const FAVOURITE_DECKS_PER_GAME = 3;

export class Ratings {
  constructor(
    private readonly players: PlayerStore,
    private readonly ratings: RatingStore,
  ) {}

  async profile(handle: string): Promise<ProfileView> {
    const p = await this.players.byHandle(handle);
    if (!p) throw problems.playerNotFound(handle);
    const [ratings, stats, favouriteDecks] = await Promise.all([
      this.ratings.ofPlayer(p.id),
      this.ratings.stats(p.id),
      this.ratings.favouriteDecks(p.id, FAVOURITE_DECKS_PER_GAME),
    ]);
    return {
      ...playerView(p),
      ratings: ratings.map((r) => ({
        game: r.game,
        timeControl: r.family,
        ...displayRating(r),
        provisional: isProvisional(r),
        games: r.games,
      })),
      stats,
      favouriteDecks,
    };
  }

  /** The best established ratings (RD ≤ 110) of one game and time-control family. */
  async leaderboard(
    game: string,
    family: RatingFamily,
    limit: number,
  ): Promise<{ game: string; timeControl: RatingFamily; players: LeaderboardEntry[] }> {
    const rows = await this.ratings.leaderboard(game, family, PROVISIONAL_RD, limit);
    return {
      game,
      timeControl: family,
      players: rows.map((r, i) => ({ rank: i + 1, handle: r.handle, bot: r.bot, ...displayRating(r), games: r.games })),
    };
  }
}
