/**
 * The lobby in the GraphQL schema (SDL): challenges and seeks. The Zod twins are in
 * src/http/routes/challenges.ts, src/http/seek-schemas.ts and src/contract/requests.ts;
 * test/graphql/contract-agreement.test.ts checks that they agree.
 */
import { listed } from '../games.js';
import type { SdlContext } from './context.js';

/** Challenges: the public view, pages, the create input and an accepted challenge. */
export function challengesSdl(_c: SdlContext): string {
  return /* GraphQL */ `
    enum ChallengeDirection {
      in
      out
    }

    enum ChallengeStatus {
      open
      accepted
      declined
      canceled
      expired
    }

    "A challenge as anyone may see it (as the REST Challenge): never the challenger's deck, never a token."
    type Challenge {
      id: ID!
      status: ChallengeStatus!
      challenger: ChallengePlayer!
      "The challenged player; null for an open challenge."
      to: ChallengePlayer
      "An open challenge only these handles (lower-cased) may accept; empty: anyone."
      allowed: [String!]!
      game: String!
      "The time control (TimeControl in /openapi.json)."
      timeControl: JSON!
      rated: Boolean!
      "p1, p2 or random (drawn at the accept)."
      seat: String!
      "The game's settings as sent (Challenge.settings in /openapi.json)."
      settings: JSON!
      "generic, later, tooFast, tooSlow, timeControl, rated, casual, standard, variant, noBot or onlyBot."
      declineReason: String
      matchId: ID
      createdAt: String!
      expiresAt: String!
      closedAt: String
    }

    type ChallengePage {
      challenges: [Challenge!]!
      "Pass as cursor for the next page; null after the last."
      nextCursor: String
    }

    type ChallengePlayer {
      handle: String!
      bot: Boolean!
    }

    input CreateChallengeInput {
      "The challenged player; without it the challenge is open."
      to: String
      "An open challenge only these handles may accept."
      allowed: [String!]
      game: String
      timeControl: TimeControlInput
      rated: Boolean
      "p1, p2 or random (the default)."
      seat: String
      "The game's settings (CreateChallengeRequest.settings in /openapi.json)."
      settings: JSON
      "Your deck (default: the game's first starter deck); never shown to anyone else."
      deck: DeckInput
    }

    type AcceptedChallenge {
      challenge: Challenge!
      match: AcceptedMatch!
    }

    type AcceptedMatch {
      id: ID!
      "Your seat: p1 or p2."
      seat: String!
      "Your seat token (your player token works too)."
      token: String!
      version: Int!
      status: MatchStatus!
    }
  `;
}

/** Seeks: the public and the owner's view, pages and the input. */
export function seeksSdl(c: SdlContext): string {
  const { ids } = c;
  return /* GraphQL */ `
  "An open seek as anyone sees it (like Seek in /openapi.json): never its deck."
  type Seek {
    id: ID!
    handle: String!
    bot: Boolean!
    game: String!
    timeControl: TimeControl!
    rated: Boolean!
    "The lowest opponent rating accepted (null: no bound)."
    minRating: Int
    "The highest opponent rating accepted (null: no bound)."
    maxRating: Int
    createdAt: String!
    expiresAt: String!
  }

  "A page of open seeks (like SeekList in /openapi.json)."
  type SeekPage {
    seeks: [Seek!]!
    "Pass as cursor for the next page; null after the last."
    nextCursor: String
  }

  "One of your seeks (like OwnSeek in /openapi.json)."
  type OwnSeek {
    id: ID!
    handle: String!
    bot: Boolean!
    game: String!
    timeControl: TimeControl!
    rated: Boolean!
    minRating: Int
    maxRating: Int
    createdAt: String!
    expiresAt: String!
    "open, paired (matchId: the match it started), cancelled or expired."
    status: String!
    matchId: ID
    "Your deck's label (a starter id, or custom-<hash>)."
    deck: String!
  }

  "A seek: the fields of SeekRequest in /openapi.json, checked by the same schema."
  input SeekInput {
    "${listed([`${ids[0]} (default)`, ...ids.slice(1)])}."
    game: String
    "Correspondence, or live while your account feed is connected (else seek-needs-feed); none: seek-needs-correspondence."
    timeControl: TimeControlInput!
    rated: Boolean
    minRating: Int
    maxRating: Int
    deck: DeckInput!
  }
`;
}
