/**
 * Tournaments and bulk pairings in the GraphQL schema (SDL). The Zod twins are in
 * src/http/routes/tournaments.ts, src/http/routes/bulk-pairings.ts and src/contract/requests.ts;
 * test/graphql/contract-agreement.test.ts checks that they agree.
 */
import { listed } from '../games.js';
import type { SdlContext } from './context.js';

/** Tournaments, their standings and bulk pairings, and the inputs that create them. */
export function tournamentsSdl(c: SdlContext): string {
  const { ids } = c;
  return /* GraphQL */ `
  "open: taking entries; running: rounds are being played; finished: final standings; canceled: by the organizer, or nobody to play at the start."
  enum TournamentStatus {
    open
    running
    finished
    canceled
  }

  "A tournament as anyone may see it (as the REST Tournament): never a deck, never a token."
  type Tournament {
    id: ID!
    name: String!
    "The organizer's handle."
    organizer: String!
    game: String!
    "swiss (rounds paired by the Monrad system), round-robin (Berger tables) or double-round-robin (twice, seats swapped)."
    format: String!
    "How many rounds. A round robin: set at the start. A Swiss: from the start at most n - 1 for an even field of n, n for an odd one (the most it can pair without a repeat). Finished: the rounds played."
    rounds: Int
    "Every match of the tournament is played with it (correspondence or live)."
    timeControl: TimeControl!
    rated: Boolean!
    "starter (the game's starter decks only) or any (any deck legal in the game)."
    deckRule: String!
    maxPlayers: Int!
    "Only these handles (lower-cased) may enter; empty: anyone."
    invited: [String!]!
    entryClosesAt: String
    "The scheduled start; null: the organizer starts it."
    startsAt: String
    "A round's deadline in hours; null: a round lasts until its matches end."
    roundHours: Int
    status: TournamentStatus!
    "Recorded at creation: with the ratings at entry it gives the initial order, from which every pairing follows."
    seed: String!
    "The round running (0 before the start; the last round once finished)."
    round: Int!
    "The running round's deadline."
    roundEndsAt: String
    createdAt: String!
    startedAt: String
    finishedAt: String
    "The entrants (never their decks)."
    players: [TournamentPlayer!]!
    "Every round started so far, its boards in order."
    pairings: [TournamentRound!]!
  }

  type TournamentPlayer {
    handle: String!
    bot: Boolean!
    "The rating at entry (the initial order sorts by it)."
    rating: Int!
    withdrawn: Boolean!
  }

  type TournamentRound {
    round: Int!
    boards: [TournamentBoard!]!
  }

  type TournamentBoard {
    "The board number in its round (1 first)."
    board: Int!
    "The first seat's handle (for a bye, the player who has it)."
    p1: String!
    "The second seat's handle; null for a bye."
    p2: String
    "The match (watch it at /watch/{matchId}); null for a bye or a board scored without one (a withdrawn player in a round robin)."
    matchId: ID
    "p1 or p2 (that seat won), draw, double-forfeit, or bye; null while the match runs."
    result: String
    "Scored by forfeit: a no-show (an aborted match) or a withdrawn opponent."
    forfeit: Boolean!
  }

  type TournamentPage {
    tournaments: [Tournament!]!
    "Pass as cursor for the next page; null after the last."
    nextCursor: String
  }

  "Standings and crosstable (as the REST TournamentStandings)."
  type TournamentStandings {
    tournamentId: ID!
    status: TournamentStatus!
    "The rounds whose results are counted so far (a running round's ended matches count too)."
    round: Int!
    "The tournament is finished: these are the final standings."
    final: Boolean!
    "Ranked by points, then direct encounter, Buchholz and Sonneborn-Berger: this page of them (at most 100 rows)."
    standings: [TournamentStanding!]!
    "Send back as cursor for the next page; null after the last."
    nextCursor: String
    "Every result, player by player; null for a field of more than 100 players (the CSV export has every result)."
    crosstable: TournamentCrosstable
  }

  type TournamentStanding {
    rank: Int!
    handle: String!
    "Win 1, draw ½, loss 0; a bye and a forfeit win 1, a forfeit loss 0."
    points: Float!
    "Boards played against an opponent (forfeits included, byes not)."
    games: Int!
    byes: Int!
    "The sum of the opponents' points."
    buchholz: Float!
    "The points of the opponents beaten, plus half of those drawn with."
    sonnebornBerger: Float!
    "Points scored against the players with the same points."
    directEncounter: Float!
    withdrawn: Boolean!
  }

  type TournamentCrosstable {
    "Handles in standings order: row i and column i are the same player."
    players: [String!]!
    points: [Float!]!
    "cells[i][j]: player i's results against player j in round order (1, ½, 0, + forfeit win, - forfeit loss); [] if they never met."
    cells: [[[String!]!]!]!
  }

  "A bulk pairing as its organizer sees it (as the REST BulkPairing): the pairs by handle and their matches; no token, no deck."
  type BulkPairing {
    id: ID!
    game: String!
    timeControl: TimeControl!
    rated: Boolean!
    "When the matches are (or were) created."
    pairAt: String!
    "scheduled until pairAt; then created (once); canceled by you before."
    status: String!
    createdAt: String!
    pairedAt: String
    pairs: [BulkPairingPair!]!
  }

  type BulkPairingPair {
    board: Int!
    "Handle."
    p1: String!
    "Handle."
    p2: String!
    "The match, once created."
    matchId: ID
    "Why the board has no match although the pairing was created: consent-revoked (a player revoked the token before pairAt); null otherwise."
    unpairedReason: String
  }

  "One pair: the two players' tokens with pairing:play alone (checked now, never stored; bound to this pairing)."
  input BulkPairingPairInput {
    p1: String!
    p2: String!
  }

  "A bulk pairing: the fields of CreateBulkPairingRequest in /openapi.json, checked by the same schema."
  input CreateBulkPairingInput {
    "1–200 pairs; no player twice."
    pairs: [BulkPairingPairInput!]!
    "${listed([`${ids[0]} (default)`, ...ids.slice(1)])}."
    game: String
    "Correspondence or live."
    timeControl: TimeControlInput!
    "Default false."
    rated: Boolean
    "The deck every player plays (default: the game's first starter deck). Never shown."
    deck: DeckInput
    "When the matches are created (ISO 8601; default: now)."
    pairAt: String
  }

  "A new tournament: the fields of CreateTournamentRequest in /openapi.json, checked by the same schema."
  input CreateTournamentInput {
    "1–100 characters."
    name: String!
    "${listed([`${ids[0]} (default)`, ...ids.slice(1)])}."
    game: String
    "swiss, round-robin or double-round-robin."
    format: String!
    "Swiss only, and required there: how many rounds."
    rounds: Int
    "Correspondence or live: a tournament needs a clock."
    timeControl: TimeControlInput!
    "Default false: rated tournaments move the ratings of every match."
    rated: Boolean
    "starter (the default) or any."
    deckRule: String
    "The field's cap (default 64): one more entry is tournament-full."
    maxPlayers: Int
    "Only these players may enter (default: anyone)."
    invited: [String!]
    "No entries after this time (ISO 8601; default: until the start)."
    entryClosesAt: String
    "The first round starts by itself then (ISO 8601; default: when the organizer starts it)."
    startsAt: String
    "A round's deadline, in hours from its start (default: a round lasts until its matches end)."
    roundHours: Int
  }
`;
}
