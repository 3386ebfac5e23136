/**
 * @evons/client: a typed client for the Evons match service.
 *
 *   const evons = new EvonsClient({ baseUrl: 'http://localhost:3000' });
 *   const m = await evons.createMatch({ handle: 'ann', openSeat: true, decks: { p1: { starter: 'starter-storm-shade' } } });
 *   const turn = await evons.waitForMyTurn(m.id);
 */
export { EvonsClient, type ActOptions, type ActResult, type ActViewResult, type EvonsClientOptions, type TurnResult } from './client.js';
export { EventStream, type EventsOptions } from './events.js';
export {
  FeedStream,
  NdjsonFeedTransport,
  SseFeedTransport,
  feedItem,
  type FeedItem,
  type FeedOpenRequest,
  type FeedOptions,
  type FeedTransport,
} from './feed.js';
export {
  EvonsProblem,
  RULE_CODES,
  SERVICE_CODES,
  isProblem,
  type Problem,
  type ProblemCode,
  type RuleCode,
  type ServiceCode,
} from './problem.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export {
  NdjsonTransport,
  SseTransport,
  lines,
  ndjsonItem,
  sseFrames,
  sseItem,
  type SseFrame,
  type LiveItem,
  type LiveTransport,
  type OpenRequest,
} from './transport.js';
export {
  Dropped,
  WsSeat,
  type WebSocketConstructor,
  type WebSocketLike,
  type WsActOptions,
  type WsActResult,
  type WsDecision,
  type WsEvent,
  type WsLegalAction,
  type WsPending,
  type WsSeatOptions,
} from './ws-play.js';
export type * from './types.js';
