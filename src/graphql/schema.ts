/**
 * GraphQL schema (SDL). Same data and semantics as the REST API; see docs/api.md. The games'
 * parts (each game's Match type and own types, its fields of PendingDecision and ActionInput) are
 * assembled from the registry: no game is named here.
 */
import type { AnyGameModule } from '../games/game-module.js';
import { GAME_LIST } from '../games/registry.js';
import { gameFieldsSdl, listed } from './games.js';
import { subscriptionTypeDefs } from './subscriptions.js';

/** The whole schema for these games (the first is the default game, as in the registry). */
export function buildTypeDefs(games: readonly AnyGameModule[]): string {
  const ids = games.map((m) => m.ruleset.id);
  const named = (suffix: string) => games.map((m) => `${m.typePrefix}${suffix}`);
  const matchTypes = games.map((m) => m.graphql.matchType);

  /** The fields every Match type has (GraphQL makes each implementation repeat its interface's fields). */
  const matchFields = /* GraphQL */ `
    id: ID!
    "The game: ${listed(ids)} (GET /v1/games)."
    gameId: String!
    "Number of stored events."
    version: Int!
    status: MatchStatus!
    winner: Seat
    "The caller's seat; null for a spectator."
    seat: Seat
    seats: [SeatInfo!]!
    sandbox: Boolean!
    createdAt: String!
    rulesHash: String!
    engineVersion: String!
    """
    The decision the game waits for, as JSON: ${listed(named('Pending'))} in /openapi.json ({ kind, seat, … } by
    kind); null while a seat is open or when the game is over. The same, typed: pendingDecision.
    """
    pending: JSON
    "The decision the game waits for, typed (the fields of its kind are set); null while a seat is open or when the game is over."
    pendingDecision: PendingDecision
    timeControl: TimeControl!
    "Rated: the end updates both players' ratings."
    rated: Boolean!
    "The clock as of this read; null without a time control."
    clock: Clock
    "How the match ended (the game's result, a timeout, a resignation or an abort); null while it runs."
    outcome: MatchOutcome
    "The game's settings, every one named: ${listed(named('CreateMatchRequest'))} .settings in /openapi.json."
    config: JSON
    seedCommitment: String
    "Published once the match is over, however it ended."
    seed: String
    "This finished match's last rematch offer; null when none was made."
    rematch: Rematch
    "The finished match this one is the rematch of; null otherwise."
    rematchOf: ID
    "What the caller may do now (empty when it is not their decision; a resign is not listed but always accepted while the match runs, in every game)."
    legalActions: [LegalAction!]!
    events(after: Int = 0, limit: Int = 100): EventPage!
    "The caller's seat's webhooks; null for a spectator."
    webhooks: [Webhook!]
`;

  return /* GraphQL */ `
  """
  A JSON value whose shape the field's description names: a schema of /openapi.json (${[...named('Action'), 'MatchEvent.event', ...named('Pending')].join(', ')},
  …), each typed there.
  """
  scalar JSON

  """
  The decision a game waits for. kind and seat always; the other fields by kind (null otherwise).
  ${games.map((m) => `${m.displayName}: ${m.graphql.pendingKinds}.`).join(' ')}
  """
  type PendingDecision {
    kind: String!
    "Who decides."
    seat: Seat!
${gameFieldsSdl(games, 'PendingDecision', (m) => m.graphql.pendingFields)}  }

  enum Seat {
    p1
    p2
  }

  enum MatchStatus {
    waiting
    active
    finished
  }

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
    "Your seat."
    seat: String!
    "Your seat token (your player token works too)."
    token: String!
    version: Int!
    status: MatchStatus!
  }

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

  enum Turn {
    mine
    any
  }

  "none, correspondence (daysPerMove) or live (initialSeconds + incrementSeconds, Fischer)."
  type TimeControl {
    kind: String!
    daysPerMove: Int
    initialSeconds: Int
    incrementSeconds: Int
  }

  type Clock {
    "Time left per seat at this read, in ms (never below 0)."
    remainingMs: SeatNumbers!
    "Whose time is running; null once the match is over."
    running: Seat
    "When the running seat runs out of time (ISO 8601, UTC)."
    deadline: String
  }

  type MatchOutcome {
    winner: Seat
    "timed-out, resigned, aborted, or the game's own reason."
    reason: String!
    "The seat that ran out of time, resigned or asked to abort."
    seat: Seat
  }

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

  """
  A new match: the fields of CreateMatchRequest in /openapi.json (${listed(named('CreateMatchRequest'))},
  chosen by game), checked by the same schema.
  """
  input CreateMatchInput {
    "${listed([`${ids[0]} (default)`, ...ids.slice(1)])} (GET /v1/games)."
    game: String
    "The creator's handle."
    handle: String
    "The creator's seat (default p1)."
    seat: Seat
    "true: the other seat stays open for joinMatch; false (default): both seats now, both tokens returned."
    openSeat: Boolean
    "Handle of the other seat when openSeat is false."
    opponentHandle: String
    "Play the computer: the other seat is the computer player ai-level-<level> (1–8), played by the server."
    ai: AiOpponentInput
    "Decks by seat. The creator's deck is required; the other seat's too unless openSeat."
    decks: DecksInput
    "The clock (default none)."
    timeControl: TimeControlInput
    "The creator's webhook endpoint (its secret comes back once)."
    webhook: WebhookInput
    "Needs a player token, openSeat and a correspondence or live time control."
    rated: Boolean
    "The game's rules settings, every field optional (${listed(named('CreateMatchRequest'))} .settings in /openapi.json)."
    settings: JSON
    "Sandbox: start from this position (${listed(named('CreateMatchRequest'))} .position in /openapi.json); no decks or settings with it."
    position: JSON
  }

  input AiOpponentInput {
    "1 (weakest) to 8 (strongest)."
    level: Int!
  }

  input JoinMatchInput {
    handle: String
    "Required unless the match is a sandbox."
    deck: DeckInput
    "Your seat's webhook endpoint (its secret comes back once)."
    webhook: WebhookInput
  }

  input DecksInput {
    p1: DeckInput
    p2: DeckInput
  }

  "A deck: exactly one of starter (a starter deck id) and cards (card ids with counts)."
  input DeckInput {
    starter: String
    cards: [DeckCardInput!]
  }

  input DeckCardInput {
    card: String!
    count: Int!
  }

  "none; correspondence with daysPerMove; live with initialSeconds and incrementSeconds."
  input TimeControlInput {
    kind: String!
    daysPerMove: Int
    initialSeconds: Int
    incrementSeconds: Int
  }

  "Seat tokens (shown once; the server keeps only their sha256)."
  type SeatTokens {
    p1: String
    p2: String
  }

  type CreateMatchResult {
    id: ID!
    gameId: String!
    "The creator's seat."
    seat: Seat!
    status: MatchStatus!
    version: Int!
    "The creator's seat token."
    token: String!
    "Both seat tokens without an open seat; only the creator's with one."
    tokens: SeatTokens!
    "The creator's webhook and its secret, when one was registered."
    webhook: WebhookCreated
    "The match as the creator's seat sees it."
    match: Match!
  }

  "A rematch offer of a finished match (as REST's RematchView)."
  type Rematch {
    offeredBy: Seat!
    "expired: not answered before expiresAt."
    status: RematchStatus!
    "When an unanswered offer expires (ISO 8601, UTC)."
    expiresAt: String!
    "The rematch, once accepted (seats swapped)."
    matchId: ID
  }

  enum RematchStatus {
    offered
    declined
    expired
    accepted
  }

  "The offerer's seat in the accepted rematch."
  type RematchSeat {
    id: ID!
    seat: Seat!
    "Your seat token in the rematch (shown once)."
    token: String!
  }

  type JoinMatchResult {
    id: ID!
    seat: Seat!
    status: MatchStatus!
    version: Int!
    "Your seat token (shown once)."
    token: String!
    webhook: WebhookCreated
    "The match as your seat sees it."
    match: Match!
  }

  "A Standard Webhooks endpoint: events are your-turn, opponent-joined, match-ended, deadline-near."
  input WebhookInput {
    url: String!
    events: [String!]!
    "deadline-near fires this long before a deadline (default 720)."
    deadlineLeadMinutes: Int
  }

  type Webhook {
    id: ID!
    url: String!
    events: [String!]!
    deadlineLeadMinutes: Int!
    "active, failing (retrying) or disabled (failing for 24 h: see disabledReason)."
    status: String!
    failingSince: String
    disabledReason: String
    createdAt: String!
    "Newest first."
    deliveries(limit: Int = 20): [WebhookDelivery!]!
  }

  type WebhookCreated {
    webhook: Webhook!
    "The signing secret (whsec_…), shown once."
    secret: String!
  }

  "An account webhook: the kinds of account feed entry to deliver (FeedEntry types; default all)."
  input AccountWebhookInput {
    url: String!
    events: [String!]
  }

  type AccountWebhook {
    id: ID!
    url: String!
    events: [String!]!
    "active, failing (retrying) or disabled (failing for 24 h: see disabledReason)."
    status: String!
    failingSince: String
    disabledReason: String
    createdAt: String!
    "Newest first."
    deliveries(limit: Int = 20): [AccountWebhookDelivery!]!
  }

  type AccountWebhookCreated {
    webhook: AccountWebhook!
    "The signing secret (whsec_…), shown once."
    secret: String!
  }

  type AccountWebhookDelivery {
    "The webhook-id header, the same on every attempt."
    id: ID!
    kind: String!
    "The feed entry it delivers (its id in GET /v1/me/events, and data.entryId of the body)."
    entryId: String!
    "pending, delivered or failed."
    status: String!
    attempts: Int!
    nextAttemptAt: String
    lastStatusCode: Int
    lastError: String
    createdAt: String!
    deliveredAt: String
  }

  type WebhookDelivery {
    "The webhook-id header, the same on every attempt."
    id: ID!
    kind: String!
    version: Int!
    "pending, delivered, failed or superseded (a deadline-near the match moved past before it was sent)."
    status: String!
    attempts: Int!
    nextAttemptAt: String
    lastStatusCode: Int
    lastError: String
    createdAt: String!
    deliveredAt: String
  }

  """
  An action as a typed input; which fields apply depends on the game and the type (see the
  ${listed(named('Action'), 'and')} schemas in /openapi.json).
  """
  input ActionInput {
    type: String!
${gameFieldsSdl(games, 'ActionInput', (m) => m.graphql.actionInputFields)}  }

  """
  A match as the caller sees it. Which game it is decides its type: ${listed(matchTypes)}
  (select game fields with inline fragments: ... on ${matchTypes[0]} { … }).
  """
  interface Match {
${matchFields}  }
${games.map((m) => `
  ${JSON.stringify(m.graphql.matchDescription)}
  type ${m.graphql.matchType} implements Match {
${matchFields}${m.graphql.matchFields}  }
`).join('')}

  type SeatInfo {
    seat: Seat!
    handle: String
    joined: Boolean!
    "Held by a registered player: the handle is theirs."
    verified: Boolean!
    bot: Boolean!
  }

  type SeatNumbers {
    p1: Int!
    p2: Int!
  }

  type LegalAction {
    type: String!
    "The action as JSON (${listed([...named('Action'), 'MatchAction'])} in /openapi.json): pass it as submitAction's action."
    action: JSON!
    text: String!
  }

  "Whose an event is: the game's own, or a record of the match itself (the same in every game)."
  enum EventSource {
    game
    match
  }

  type Event {
    seq: Int!
    actingSeat: Seat
    "The envelope: game for the game's own event, match for a record of the match (its clock, an ending outside the game's rules). A game may name its events anything: dispatch on source first."
    source: EventSource!
    type: String!
    """
    The event as the caller may see it, as JSON: MatchEvent.event in /openapi.json, ${listed([...named('Event'), 'MatchRecord'])}
    by type (each type's fields typed there as a component).
    """
    data: JSON!
  }

  type EventPage {
    events: [Event!]!
    "Pass as after to continue."
    next: Int!
    hasMore: Boolean!
  }

  """
  The answer to an action. Without match, it is the lean answer (as REST's Prefer: return=minimal): enough to
  go on with one request per move, the caller's seat only (its own events, redacted as it may see them).
  """
  type ActionResult {
    version: Int!
    "The events the action produced, as the caller may see them."
    events: [Event!]!
    "The match as the caller's seat sees it now (built only when selected)."
    match: Match!
    "True when this is the stored answer to an earlier request with the same idempotency key."
    replayed: Boolean!
    "The match's status after the action."
    status: MatchStatus!
    winner: Seat
    "How the match ended; null while it runs."
    outcome: MatchOutcome
    """
    The decision the match waits for now, as JSON: ${listed(named('Pending'))} in /openapi.json (as Match.pending);
    null when it is over.
    """
    pending: JSON
    "The same, typed (as Match.pendingDecision)."
    pendingDecision: PendingDecision
    """
    The caller's legal actions for the next decision (as REST's ?include=legal), built only when selected; empty when
    the next decision is not the caller's. Pass one's action as submitAction's action.
    """
    legalActions: [LegalAction!]!
  }

  type MatchSummary {
    id: ID!
    status: MatchStatus!
    winner: Seat
    "The seat whose decision the match waits for; null when nobody's."
    toMove: Seat
    gameId: String!
    timeControl: String!
    rated: Boolean!
    "When the seat to move runs out of time (ISO 8601, UTC); null without a running clock."
    deadline: String
    timeLeftMs: Float
    version: Int!
    seats: [SeatInfo!]!
    createdAt: String!
    updatedAt: String!
  }

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
    timeControl: String!
    players: [LeaderboardEntry!]!
  }

  type MatchPage {
    matches: [MatchSummary!]!
    nextCursor: String
  }

${games.map((m) => m.graphql.typeDefs).join('\n')}
${subscriptionTypeDefs}
`;
}

export const typeDefs = buildTypeDefs(GAME_LIST);
