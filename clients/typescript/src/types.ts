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
export type ActionResult = Schemas['ActionResult'];
export type LegalActions = Schemas['LegalActions'];
export type MatchEvent = Schemas['MatchEvent'];
export type StreamEnd = Schemas['StreamEnd'];
export type EventPage = Schemas['EventPage'];
export type MatchPage = Schemas['MatchPage'];
export type MatchSummary = Schemas['MatchSummary'];
export type MatchStatus = Schemas['MatchStatus'];
