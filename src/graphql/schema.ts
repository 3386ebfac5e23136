/** GraphQL schema (SDL). Same data and semantics as the REST API; see docs/api.md. */
import { universusMatchFields, universusTypeDefs } from './universus.js';
import { subscriptionTypeDefs } from './subscriptions.js';

/** The fields every Match type has (GraphQL makes each implementation repeat its interface's fields). */
const matchFields = /* GraphQL */ `
    id: ID!
    "The game: evons or universus (GET /v1/games)."
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
    The decision the game waits for, as JSON: EvonsPending or UniVersusPending in /openapi.json ({ kind, seat, … } by
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
    "The game's settings: GameView.config (Evons) or UniVersusSettings in /openapi.json."
    config: JSON
    seedCommitment: String
    "Published once the match is over, however it ended."
    seed: String
    "What the caller may do now (empty when it is not their decision; a resign is not listed but always accepted while the match runs, in every game)."
    legalActions: [LegalAction!]!
    events(after: Int = 0, limit: Int = 100): EventPage!
    "The caller's seat's webhooks; null for a spectator."
    webhooks: [Webhook!]
`;

export const typeDefs = /* GraphQL */ `
  """
  A JSON value whose shape the field's description names: a schema of /openapi.json (EvonsAction, UniVersusAction,
  MatchEvent.event, EvonsPending, RulesConfig, …), each typed there.
  """
  scalar JSON

  """
  The decision a game waits for. kind and seat always; the other fields by kind (null otherwise).
  Evons: reveal-order (cards), play, ability (card, cell, phase), conflict-order (card, defenders),
  trigger-order (cards), discard (count). UniVersus: PLAY, AWAIT_COMMIT (shortfall), AWAIT_BLOCK,
  AWAIT_MOMENTUM.
  """
  type PendingDecision {
    kind: String!
    "Who decides."
    seat: Seat!
    "Evons reveal-order and trigger-order: the cards to order."
    cards: [ID!]
    "Evons ability and conflict-order: the activated card."
    card: ID
    "Evons ability: the activated card's cell."
    cell: String
    "Evons ability: ability phase 1 or 2."
    phase: Int
    "Evons conflict-order: the defenders to order."
    defenders: [ID!]
    "Evons discard: cards left to discard."
    count: Int
    "UniVersus AWAIT_COMMIT: ready foundations to commit to pass the check."
    shortfall: Int
  }

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
    leaderboard(game: String = "evons", timeControl: String = "correspondence", limit: Int = 50): Leaderboard!
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
    "timed-out, resigned, aborted, or the game's own reason (an Evons resign is its own: resignation)."
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
    """
    Submit one action for the seat of the token. Pass the action either as JSON (action) or as a typed input
    (input). Same semantics and error codes as POST /v1/matches/{id}/actions: errors carry extensions.code
    (and extensions.version for version-conflict / illegal actions).
    """
    submitAction(
      matchId: ID!
      "The action as JSON: EvonsAction, UniVersusAction or MatchAction in /openapi.json (as LegalAction.action)."
      action: JSON
      input: ActionInput
      idempotencyKey: String
      expectedVersion: Int
    ): ActionResult!
    "Register a webhook for the token's seat (as POST /v1/matches/{id}/webhooks); the secret is returned once."
    registerWebhook(matchId: ID!, webhook: WebhookInput!): WebhookCreated!
    deleteWebhook(matchId: ID!, webhookId: ID!): Boolean!
    "A new signing secret; for 24 h deliveries carry a signature per secret."
    rotateWebhookSecret(matchId: ID!, webhookId: ID!): WebhookCreated!
    "Queue a settled delivery again, with the same webhook-id and body: one attempt (as POST …/redeliver: delivery-pending, redelivery-limit)."
    redeliverWebhook(matchId: ID!, webhookId: ID!, deliveryId: ID!): WebhookDelivery!
  }

  """
  A new match: the fields of CreateMatchRequest in /openapi.json (EvonsCreateMatchRequest or
  UniVersusCreateMatchRequest, chosen by game), checked by the same schema.
  """
  input CreateMatchInput {
    "evons (default) or universus (GET /v1/games)."
    game: String
    "The creator's handle."
    handle: String
    "The creator's seat (default p1)."
    seat: Seat
    "true: the other seat stays open for joinMatch; false (default): both seats now, both tokens returned."
    openSeat: Boolean
    "Handle of the other seat when openSeat is false."
    opponentHandle: String
    "Decks by seat. The creator's deck is required; the other seat's too unless openSeat."
    decks: DecksInput
    "The clock (default none)."
    timeControl: TimeControlInput
    "The creator's webhook endpoint (its secret comes back once)."
    webhook: WebhookInput
    "Needs a player token, openSeat and a correspondence or live time control."
    rated: Boolean
    "The game's rules settings, every field optional (EvonsCreateMatchRequest .settings, or UniVersusSettings, in /openapi.json)."
    settings: JSON
    "Sandbox: start from this position (EvonsCreateMatchRequest or UniVersusCreateMatchRequest .position in /openapi.json); no decks or settings with it."
    position: JSON
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
  An action as a typed input; which fields apply depends on the game and the type (see the EvonsAction and
  UniVersusAction schemas in /openapi.json).
  """
  input ActionInput {
    type: String!
    "Evons"
    card: String
    cell: String
    covered: Boolean
    arrow: Int
    target: String
    pull: String
    defender: String
    "UniVersus"
    cardId: String
    foundationIds: [String!]
    attackIds: [String!]
  }

  """
  A match as the caller sees it. Which game it is decides its type: EvonsMatch or UniVersusMatch
  (select game fields with inline fragments: ... on EvonsMatch { board { name } }).
  """
  interface Match {
${matchFields}  }

  "An Evons match: the 7×7 board, graveyards, credits and scores."
  type EvonsMatch implements Match {
${matchFields}    "Null while a seat is open (no game yet)."
    turn: Int
    active: Seat
    first: Seat
    step: String
    result: GameResult
    credits: SeatNumbers
    scores: SeatNumbers
    "All 49 cells, row-major (X0 … Y6). Empty while a seat is open."
    board: [Cell!]!
    graveyards: Graveyards!
    "Cards removed from the game, in order."
    removed: [Card!]!
    "The caller's own hand; null for a spectator."
    hand: [Card!]
    players: [Player!]!
  }

  "A UniVersus match: health, hands, card pools, stages, momentum and the attack in progress."
  type UniVersusMatch implements Match {
${matchFields}${universusMatchFields}  }

  type SeatInfo {
    seat: Seat!
    handle: String
    joined: Boolean!
    "Held by a registered player: the handle is theirs."
    verified: Boolean!
    bot: Boolean!
  }

  type Player {
    seat: Seat!
    handle: String
    credits: Int!
    score: Int!
    handCount: Int!
    deckCount: Int!
  }

  type SeatNumbers {
    p1: Int!
    p2: Int!
  }

  type GameResult {
    reason: String!
    winner: Seat
    scores: SeatNumbers!
  }

  type Cell {
    "Cell name such as C3."
    name: String!
    "main (A1–E5) or out."
    zone: String!
    card: BoardCard
  }

  type BoardCard {
    id: ID!
    owner: Seat!
    facing: Seat!
    covered: Boolean!
    growthPlaced: Boolean!
    damage: Int!
    "The card definition; null when the caller may not know the card (a covered card they do not own)."
    defId: String
    name: String
    "Printed card data from the card set; null when defId is."
    face: CardFace
    "Current ATK and DEF (face-up monsters only)."
    atk: Int
    currentDef: Int
    "Arrows turned to the board (face-up monsters only)."
    boardArrows: [Arrow!]
  }

  type CardFace {
    defId: String!
    name: String!
    kind: String!
    element: String!
    cost: Int
    atk: Int
    def: Int
    arrows: [Arrow!]!
  }

  type Arrow {
    dir: String!
    type: String!
  }

  type Card {
    id: ID!
    defId: String!
    name: String!
    face: CardFace!
  }

  type Graveyards {
    p1: [Card!]!
    p2: [Card!]!
  }

  type LegalAction {
    type: String!
    "The action as JSON (EvonsAction, UniVersusAction or MatchAction in /openapi.json): pass it as submitAction's action."
    action: JSON!
    text: String!
  }

  type Event {
    seq: Int!
    actingSeat: Seat
    type: String!
    """
    The event as the caller may see it, as JSON: MatchEvent.event in /openapi.json, an EvonsEvent, UniVersusEvent or
    MatchRecord by type (each type's fields typed there as a component, e.g. EvonsCardPlayed).
    """
    data: JSON!
  }

  type EventPage {
    events: [Event!]!
    "Pass as after to continue."
    next: Int!
    hasMore: Boolean!
  }

  type ActionResult {
    version: Int!
    "The events the action produced, as the caller may see them."
    events: [Event!]!
    match: Match!
    "True when this is the stored answer to an earlier request with the same idempotency key."
    replayed: Boolean!
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

${universusTypeDefs}
${subscriptionTypeDefs}
`;
