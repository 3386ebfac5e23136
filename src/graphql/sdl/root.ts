/**
 * The root types of the GraphQL schema (SDL): every query and mutation, each the twin of a REST
 * route (named in its description). Subscriptions are in ../subscriptions.ts.
 */
import { listed } from '../games.js';
import type { SdlContext } from './context.js';

/** Every query. */
export function querySdl(c: SdlContext): string {
  const { ids } = c;
  return /* GraphQL */ `
  type Query {
    "A registered player's profile: ratings per game and time-control family, results, favourite decks (like GET /v1/players/{handle})."
    player(handle: String!): PlayerProfile!
    "The highest established ratings (RD at most 110) of one game and time-control family (like GET /v1/leaderboard)."
    leaderboard(game: String = "${ids[0]}", timeControl: String = "correspondence", limit: Int = 50): Leaderboard!
    "A match as the caller sees it (seat token in the Authorization header; none = spectator)."
    match(
      id: ID!
      "Time travel: the match as it was right after event at (1 … version), redacted for you as it was then."
      at: Int
    ): Match!
    "History, newest first. Handles are the labels chosen at create/join."
    matches(
      handle: String
      status: MatchStatus
      game: String
      "With handle: matches against this handle; alone: matches this handle played."
      opponent: String
      "won, lost or drawn, from handle's side (needs handle)."
      result: String
      "none, correspondence or live."
      timeControl: String
      "true: rated matches only; false: unrated only."
      rated: Boolean
      "Created at or after (ISO 8601, years 0001–9999 UTC)."
      from: String
      "Created before (ISO 8601, years 0001–9999 UTC)."
      to: String
      cursor: String
      limit: Int = 20
    ): MatchPage!
    """
    The matches of the seat token's holder (every match of its handle), like GET /v1/me/matches;
    turn: mine lists only those waiting for your decision, soonest deadline first.
    """
    myMatches(turn: Turn = any, status: MatchStatus, cursor: String, limit: Int = 20): MatchPage!
    "A challenge (public, as GET /v1/challenges/{id}): never the challenger's deck."
    challenge(id: ID!): Challenge!
    "Your challenges (player token, match:read), newest first, as GET /v1/me/challenges: in (sent to you by handle) or out (yours)."
    myChallenges(direction: ChallengeDirection = in, status: ChallengeStatus, cursor: String, limit: Int = 20): ChallengePage!
    "Open seeks, oldest first (the order they pair in), without decks (like GET /v1/seeks): cursor + limit (1–100) → nextCursor."
    seeks(
      game: String
      "nextCursor of the previous page, unchanged (anything else: invalid-cursor)."
      cursor: String
      "Seeks per page (at most 100)."
      limit: Int = 100
    ): SeekPage!
    "Your seeks, newest first, with their status (like GET /v1/me/seeks: a player token with match:read; at most 100)."
    mySeeks: [OwnSeek!]!
    "Your account webhooks (player token, match:read), as GET /v1/me/webhooks."
    myWebhooks: [AccountWebhook!]!
    "A tournament: its settings, players and every round's pairings (public, as GET /v1/tournaments/{id}): never a deck, never a token."
    tournament(id: ID!): Tournament!
    "Tournaments, newest first (public, as GET /v1/tournaments): cursor + limit (1–100) → nextCursor; status filters."
    tournaments(status: TournamentStatus, cursor: String, limit: Int = 20): TournamentPage!
    "A tournament's standings and crosstable (public, as GET /v1/tournaments/{id}/standings): updated as each match ends, final once it is finished."
    tournamentStandings(
      id: ID!
      "nextCursor of the previous page, unchanged."
      cursor: String
      "Rows per page (at most 100)."
      limit: Int = 100
    ): TournamentStandings!
    "Your bulk pairings, newest first (the last 100), as GET /v1/bulk-pairings (player token, match:create)."
    myBulkPairings: [BulkPairing!]!
    "One of your bulk pairings, as GET /v1/bulk-pairings/{id} (player token, match:create; anyone else's: bulk-pairing-not-found)."
    bulkPairing(id: ID!): BulkPairing!
  }
`;
}

/** Every mutation. */
export function mutationSdl(c: SdlContext): string {
  const { named } = c;
  return /* GraphQL */ `
  type Mutation {
    """
    Create a match, as POST /v1/matches (same validation, rules and error codes; no idempotency key, as
    there). Anonymous, or as a registered player with a player token (scope match:create) in the
    Authorization header. The seat tokens are returned once; \`match\` is the match as the creator's seat sees it.
    """
    createMatch(input: CreateMatchInput!): CreateMatchResult!
    """
    Take the seat left open at creation, as POST /v1/matches/{id}/join (a player token binds it to that
    player). The seat token is returned once; \`match\` is the match as that seat sees it.
    """
    joinMatch(matchId: ID!, input: JoinMatchInput!): JoinMatchResult!
    "Challenge a player by handle, or anyone (as POST /v1/challenges; player token, match:create; 429 too-many-challenges)."
    createChallenge(input: CreateChallengeInput!): Challenge!
    "Accept a challenge with your deck: the match starts (as POST /v1/challenges/{id}/accept; challenge-closed when another outcome came first). idempotencyKey is REST's Idempotency-Key: a retry with it gets the same match and a new seat token; with another request, idempotency-key-reused."
    acceptChallenge(id: ID!, deck: DeckInput!, idempotencyKey: String): AcceptedChallenge!
    "Decline a challenge sent to you, with a reason key (default generic)."
    declineChallenge(id: ID!, reason: String): Challenge!
    "Cancel your open challenge."
    cancelChallenge(id: ID!): Challenge!
    """
    Submit one action for the seat of the token. Pass the action either as JSON (action) or as a typed input
    (input). Same semantics and error codes as POST /v1/matches/{id}/actions: errors carry extensions.code
    (and extensions.version for version-conflict / illegal actions).
    """
    submitAction(
      matchId: ID!
      "The action as JSON: ${listed([...named('Action'), 'MatchAction'])} in /openapi.json (as LegalAction.action)."
      action: JSON
      input: ActionInput
      idempotencyKey: String
      expectedVersion: Int
    ): ActionResult!
    "Offer a rematch of a finished match, as POST /v1/matches/{id}/rematch (seat or player token of the match)."
    offerRematch(matchId: ID!): Rematch!
    "Decline the other seat's rematch offer, as POST /v1/matches/{id}/rematch/decline."
    declineRematch(matchId: ID!): Rematch!
    "Accept the other seat's rematch offer, as POST /v1/matches/{id}/rematch/accept: the new match (seats swapped) with your seat token in it (shown once); match is the new match as your seat sees it."
    acceptRematch(matchId: ID!): JoinMatchResult!
    "The offering seat's token in the accepted rematch, once, as POST /v1/matches/{id}/rematch/seat."
    claimRematchSeat(matchId: ID!): RematchSeat!
    "Register a webhook for the token's seat (as POST /v1/matches/{id}/webhooks); the secret is returned once."
    registerWebhook(matchId: ID!, webhook: WebhookInput!): WebhookCreated!
    deleteWebhook(matchId: ID!, webhookId: ID!): Boolean!
    "A new signing secret; for 24 h deliveries carry a signature per secret."
    rotateWebhookSecret(matchId: ID!, webhookId: ID!): WebhookCreated!
    "Queue a settled delivery again, with the same webhook-id and body: one attempt (as POST …/redeliver: delivery-pending, redelivery-limit)."
    redeliverWebhook(matchId: ID!, webhookId: ID!, deliveryId: ID!): WebhookDelivery!
    "Register a webhook for your account: every entry of your account feed of these kinds (as POST /v1/me/webhooks; player token, webhook:write); the secret is returned once."
    registerAccountWebhook(webhook: AccountWebhookInput!): AccountWebhookCreated!
    "Remove an account webhook, with its delivery log (as DELETE /v1/me/webhooks/{webhookId})."
    deleteAccountWebhook(webhookId: ID!): Boolean!
    "A new signing secret for an account webhook; for 24 h deliveries carry a signature per secret."
    rotateAccountWebhookSecret(webhookId: ID!): AccountWebhookCreated!
    "Queue a settled account delivery again, with the same webhook-id and body: one attempt (delivery-pending, redelivery-limit)."
    redeliverAccountWebhook(webhookId: ID!, deliveryId: ID!): AccountWebhookDelivery!
    "Post a seek, as POST /v1/seeks (player token, match:create): paired at once with the oldest compatible open seek, or left open. idempotencyKey is REST's Idempotency-Key: a retry with it gets the stored seek, posting no second one; with another body, idempotency-key-reused."
    postSeek(input: SeekInput!, idempotencyKey: String): OwnSeek!
    "Cancel an open seek of yours, as DELETE /v1/seeks/{seekId} (match:create)."
    cancelSeek(seekId: ID!): OwnSeek!
    "Create a tournament you organize, as POST /v1/tournaments (player token, match:create; the same schema and codes)."
    createTournament(input: CreateTournamentInput!): Tournament!
    "Enter a tournament with the deck you will play every round (default: the game's first starter deck; checked now, never shown), as POST /v1/tournaments/{id}/join (match:create)."
    joinTournament(id: ID!, deck: DeckInput): Tournament!
    "Withdraw from a tournament, as POST /v1/tournaments/{id}/withdraw (match:create): before the start you leave the field; after it you are not paired again."
    withdrawFromTournament(id: ID!): Tournament!
    "Start your tournament now, as POST /v1/tournaments/{id}/start (the organizer, match:create; at least 2 players: too-few-players)."
    startTournament(id: ID!): Tournament!
    "Cancel your tournament before its start, as POST /v1/tournaments/{id}/cancel (the organizer, match:create)."
    cancelTournament(id: ID!): Tournament!
    "Create many matches between listed pairs of players, as POST /v1/bulk-pairings (player token, match:create; the same schema and codes)."
    createBulkPairing(input: CreateBulkPairingInput!): BulkPairing!
    "Cancel a scheduled bulk pairing of yours, as POST /v1/bulk-pairings/{id}/cancel (match:create; after pairAt: bulk-pairing-closed)."
    cancelBulkPairing(id: ID!): BulkPairing!
  }
`;
}
