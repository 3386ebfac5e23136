/** The pure pairing core of tournaments: round robin, Swiss, initial order, standings. */
export * from './types.js';
export { bergerTable, roundRobin, type RoundRobinOptions } from './round-robin.js';
export { NoPairingError, pairSwissRound, pairingRanking, seatPair, type SwissInput, type SwissRound } from './swiss.js';
export { drawInitialOrder, ratingOrder, INITIAL_ORDER_PURPOSE } from './initial-order.js';
export {
  crosstable,
  scores,
  standings,
  DEFAULT_TIEBREAKS,
  type Crosstable,
  type StandingRow,
  type StandingsOptions,
  type Tiebreak,
} from './standings.js';
