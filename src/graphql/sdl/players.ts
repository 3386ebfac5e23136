/**
 * Players in the GraphQL schema (SDL): profiles, ratings and the leaderboard. The Zod twins are in
 * src/http/player-schemas.ts; test/graphql/contract-agreement.test.ts checks that they agree.
 */
import type { SdlContext } from './context.js';

/** A player's profile (ratings, results, favourite decks) and the leaderboard. */
export function playersSdl(_c: SdlContext): string {
  return /* GraphQL */ `
    type PlayerRating {
      game: String!
      "correspondence or live"
      timeControl: String!
      "Rounded for display."
      rating: Int!
      rd: Int!
      "RD above 110: kept off the leaderboard."
      provisional: Boolean!
      games: Int!
    }

    type PlayerGameStats {
      game: String!
      played: Int!
      won: Int!
      lost: Int!
      drawn: Int!
      timedOut: Int!
      aborted: Int!
    }

    type DeckUsage {
      game: String!
      "A starter deck id, or custom-<hash> of a card list."
      deck: String!
      matches: Int!
    }

    type PlayerProfile {
      handle: String!
      bot: Boolean!
      createdAt: String!
      ratings: [PlayerRating!]!
      stats: [PlayerGameStats!]!
      "The decks brought most often to finished matches (a running match's deck is secret), up to 3 per game."
      favouriteDecks: [DeckUsage!]!
    }

    type LeaderboardEntry {
      rank: Int!
      handle: String!
      bot: Boolean!
      rating: Int!
      rd: Int!
      games: Int!
    }

    type Leaderboard {
      game: String!
      "correspondence or live"
      timeControl: String!
      players: [LeaderboardEntry!]!
    }
  `;
}
