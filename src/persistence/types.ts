/**
 * The stores' types in one import for the layers above: each store's interface and rows live
 * beside its implementation (match-store.ts, webhook-store.ts, …), what several stores share in
 * shared.ts; this module only lists them. Nothing in src/persistence imports it (it imports them all).
 */
export * from './shared.js';
export type * from './append.js';
export type * from './match-rows.js';
export type { MatchListFilter, MatchOrder, MatchPage } from './match-list.js';
export { VersionConflictError, type MatchStore, type StoredEvent } from './match-store.js';
export type * from './webhook-store.js';
export type * from './player-store.js';
export type * from './rating-store.js';
export { ChallengeClosedError } from './challenge-store.js';
export type * from './challenge-store.js';
export type * from './seek-store.js';
export type * from './feed-store.js';
export type * from './ai-store.js';
export type * from './tournament-store.js';
export type * from './bulk-pairing-store.js';
