/**
 * The match's part of the GraphQL schema (SDL): the Match interface and each game's Match type
 * (assembled from the registry), its view's shared types, create and join, actions and events.
 * The Zod twins are src/contract/match-view.ts, src/contract/requests.ts and src/http/schemas.ts;
 * test/graphql/contract-agreement.test.ts checks that they agree.
 */
import { gameFieldsSdl, listed } from '../games.js';
import type { SdlContext } from './context.js';

/** The fields every Match type has (GraphQL makes each implementation repeat its interface's fields). */
export function matchFieldsSdl(c: SdlContext): string {
  const { ids, named } = c;
  return /* GraphQL */ `
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
    "The card set the match is played with (GET /v1/games/{game}/cards)."
    cardSetId: String!
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
}

/** The JSON scalar, the typed pending decision, seats and match statuses. */
export function matchBasicsSdl(c: SdlContext): string {
  const { games, named } = c;
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
`;
}

/** The whose-turn filter, the time control, the clock and the outcome of a match. */
export function matchClockSdl(_c: SdlContext): string {
  return /* GraphQL */ `
    enum Turn {
      mine
      any
    }

    "none, correspondence (daysPerMove) or live (initialSeconds + incrementSeconds, Fischer)."
    type TimeControl {
      "none, correspondence or live."
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
  `;
}

/** Creating and joining a match, and rematches: the inputs and the answers. */
export function matchCreateSdl(c: SdlContext): string {
  const { ids, named } = c;
  return /* GraphQL */ `
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
`;
}

/** A match as the caller sees it: the Match interface and each game's Match type, its events and legal actions, an action's answer, a history row. */
export function matchViewSdl(c: SdlContext): string {
  const { games, named, matchTypes } = c;
  const matchFields = matchFieldsSdl(c);
  return /* GraphQL */ `
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
${games
  .map(
    (m) => `
  ${JSON.stringify(m.graphql.matchDescription)}
  type ${m.graphql.matchType} implements Match {
${matchFields}${m.graphql.matchFields}  }
`,
  )
  .join('')}

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
    "The time control's kind: none, correspondence or live."
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
`;
}

/** A page of match history. */
export function matchPageSdl(_c: SdlContext): string {
  return /* GraphQL */ `
    type MatchPage {
      matches: [MatchSummary!]!
      nextCursor: String
    }
  `;
}
