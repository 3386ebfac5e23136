/** Short names for the generated OpenAPI types the client's own API speaks in. */
import type { components, paths } from './generated/openapi.js';

type Schemas = components['schemas'];

export type { components, paths };
export type Seat = Schemas['Seat'];
export type GameId = Schemas['GameId'];
export type CreateMatchRequest = Schemas['CreateMatchRequestInput'];
export type CreateMatchResponse = Schemas['CreateMatchResponse'];
export type JoinMatchRequest = Schemas['JoinMatchRequestInput'];
export type JoinMatchResponse = Schemas['JoinMatchResponse'];
export type MatchView = Schemas['MatchView'];
export type EvonsMatchView = Schemas['EvonsMatchView'];
export type GameView = Schemas['GameView'];
/** An action as sent: an Evons or UniVersus decision, or the match's own (abort). */
export type Action = Schemas['ActionInput'];
export type EvonsAction = Schemas['EvonsActionInput'];
/** An action's answer with the whole match view (act with `{ view: true }`). */
export type ActionResult = Schemas['ActionResult'];
/** An action's default answer: version, your events, status, outcome and the next decision. */
export type MinimalActionResult = Schemas['MinimalActionResult'];
export type LegalActions = Schemas['LegalActions'];
export type MatchEvent = Schemas['MatchEvent'];
export type StreamEnd = Schemas['StreamEnd'];
export type EventPage = Schemas['EventPage'];
export type MatchPage = Schemas['MatchPage'];
export type MatchSummary = Schemas['MatchSummary'];
export type MatchStatus = Schemas['MatchStatus'];
export type DeckSpec = Schemas['DeckSpecInput'];
/** A starter deck id of a hosted game (GET /v1/games/{game}/decks). */
export type StarterDeckId = Extract<DeckSpec, { starter: unknown }>['starter'];
export type PlayerRegistered = Schemas['PlayerRegistered'];

// Challenges: a player challenges another (or anyone); the challenged accepts with a deck, or declines with a reason key.
export type Challenge = Schemas['Challenge'];
export type ChallengeStatus = Schemas['ChallengeStatus'];
export type ChallengeList = Schemas['ChallengeList'];
export type CreateChallengeRequest = Schemas['CreateChallengeRequestInput'];
export type AcceptChallengeRequest = Schemas['AcceptChallengeRequestInput'];
export type AcceptedChallenge = Schemas['AcceptedChallenge'];
export type DeclineReason = Schemas['DeclineReason'];

// Rematch of a finished match.
export type RematchAnswer = Schemas['RematchAnswer'];
export type RematchView = Schemas['RematchView'];
export type RematchSeat = Schemas['RematchSeat'];

// Seeks: an open offer to play whoever fits, paired by the server.
export type SeekRequest = Schemas['SeekRequestInput'];
export type Seek = Schemas['Seek'];
export type SeekList = Schemas['SeekList'];
export type OwnSeek = Schemas['OwnSeek'];
export type OwnSeekList = Schemas['OwnSeekList'];

// The account feed (GET /v1/me/events).
export type FeedSnapshot = Schemas['FeedSnapshot'];
export type FeedEntry = Schemas['FeedEntry'];
export type FeedEntryType = FeedEntry['type'];
export type FeedEnd = Schemas['FeedEnd'];
export type FeedMatch = Schemas['FeedMatch'];
export type FeedMatchSummary = Schemas['FeedMatchSummary'];
/** What the feed iterator delivers: the snapshot of a fresh connection, then entries. */
export type FeedMessage = FeedSnapshot | FeedEntry;
