/**
 * What more than one store speaks of: seats, a new match and its first events (the lobby, seeks,
 * tournament rounds, bulk pairings and rematches all create matches), the endpoints a match is
 * created with, and a player's request keys. Each store's own rows and interface are in its
 * module (match-store.ts, webhook-store.ts, …); `types.ts` lists them all for the layers above.
 */
import type { EventSource } from '../core/match-records.js';

export type SeatName = 'p1' | 'p2';
export type MatchStatus = 'waiting' | 'active' | 'finished';
/** Who may read an event: everyone, one seat, or the server only (seed, deck lists). */
export type EventVisibility = 'public' | 'p1' | 'p2' | 'server';

export interface SeatRecord {
  seat: SeatName;
  /** sha256 of the seat token; the token itself is never stored. Null while the seat is open. */
  tokenHash: string | null;
  handle: string | null;
  /** The registered player holding the seat (its handle verified); null or absent for anonymous play. */
  playerId?: string | null;
  /** Read side: whether that player is a bot. */
  bot?: boolean;
  /** The deck the seat brought (a starter deck's id, or custom-<hash>); null for a sandbox or before the join. */
  deck?: string | null;
}

export interface NewMatch {
  id: string;
  /** The hosted game's ruleset id ('evons', 'universus'). */
  game: string;
  /** That ruleset's rules version when the match was created. */
  rulesVersion: string;
  engineVersion: string;
  rulesHash: string;
  config: unknown;
  cardSetId: string;
  cardSetHash: string;
  /** Kept server-side; published only when the game ends. */
  seed: string;
  seedCommitment: string;
  status: MatchStatus;
  seats: SeatRecord[];
  /** The seat whose decision the game waits for; null (the default) when nobody's. */
  toMove?: SeatName | null;
  /** When the running clock runs out; null (the default) without one. */
  deadline?: Date | null;
  /** Endpoints registered with the match, in the same transaction. */
  webhooks?: NewWebhook[];
  /** The time control's kind (default none), for history search. */
  timeControl?: string;
  /** The deck lists as dealt (secret until the end, like the seed); null before the deal or for a sandbox. */
  decks?: Record<SeatName, string[]> | null;
  /** A rated match: its end updates both players' ratings (default false). */
  rated?: boolean;
  /** Against the computer: who asked for it (`player:<id>` or `address:<hash>`), its fair share's key. */
  aiOwner?: string | null;
}

/** How a finished match ended: by its game's rules, a seat's clock, a resignation the match recorded (games without their own), or an abort. */
export type MatchEnding = 'game' | 'timed-out' | 'resigned' | 'aborted';

export type WebhookKind = 'your-turn' | 'opponent-joined' | 'match-ended' | 'deadline-near';

export interface NewWebhook {
  id: string;
  seat: SeatName;
  url: string;
  kinds: WebhookKind[];
  secret: string;
  deadlineLeadMs: number;
}

/** The envelope of a stored event: the game's own, or a record of the match itself (never told apart by `type`). */
export type { EventSource };

export interface NewEvent {
  source: EventSource;
  type: string;
  payload: unknown;
  visibility: EventVisibility;
  actingSeat: SeatName | null;
}

/** What a player's Idempotency-Key was used for outside a match's actions (table player_request_key). */
export type RequestKeyOperation = 'challenge-accept' | 'seek-post';

/** A player's Idempotency-Key for a lobby request, with the answer it got (a refused request stores none). */
export interface PlayerRequestKey {
  playerId: string;
  operation: RequestKeyOperation;
  key: string;
  requestHash: string;
  /** The answer as the service stored it (JSON text). */
  response: string;
}

/** The key was stored by another request first (its write committed): nothing of this one was stored. */
export class RequestKeyTakenError extends Error {
  constructor() {
    super('idempotency key already used');
    this.name = 'RequestKeyTakenError';
  }
}
