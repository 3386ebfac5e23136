/** What the match service takes and returns (shared by the REST routes and the GraphQL resolvers). */
import type { DeckEntry, Seat, Viewer } from '../../core/ruleset.js';
import type { TimeControl } from '../../core/clock.js';
import type { MatchEntry } from './match-loader.js';
import type { WebhookInput, WebhookView } from '../webhooks/types.js';
import type { AnyAction, GameId, GameViewOf } from '../../games/registry.js';
import type { EventSource, MatchStatus } from '../../persistence/types.js';
import type { ClockView, MatchEnvelope, MatchOutcome, SeatInfo } from '../../contract/match-view.js';

export type { Seat, Viewer, GameId };

export type DeckSpec = { starter: string } | { cards: DeckEntry[] };

export interface CreateMatchInput {
  /** The hosted game (default evons). */
  game?: string | undefined;
  handle?: string | undefined;
  opponentHandle?: string | undefined;
  seat?: Seat | undefined;
  openSeat?: boolean | undefined;
  decks?: Partial<Record<Seat, DeckSpec>> | undefined;
  /** The game's settings; validated against its own schema. */
  settings?: Record<string, unknown> | undefined;
  /** A sandbox position in the game's own format. */
  position?: unknown;
  /** Default none. */
  timeControl?: TimeControl | undefined;
  /** The creator's webhook endpoint, registered with the match. */
  webhook?: WebhookInput | undefined;
  /** Rated: both seats registered players, an open seat, a time control; never a sandbox. */
  rated?: boolean | undefined;
  /** The other seat is the computer at this level (src/service/ai). */
  ai?: { level: number } | undefined;
}

export interface CreateMatchResult {
  id: string;
  game: GameId;
  seat: Seat;
  status: MatchStatus;
  version: number;
  /** The creator's token, and the other seat's token when the match has no open seat. */
  tokens: Partial<Record<Seat, string>>;
  /** The registered endpoint, with its secret (shown once). */
  webhook?: WebhookView & { secret: string };
}

export interface JoinInput {
  handle?: string | undefined;
  deck?: DeckSpec | undefined;
  webhook?: WebhookInput | undefined;
}

export interface JoinResult {
  id: string;
  seat: Seat;
  token: string;
  version: number;
  status: MatchStatus;
  webhook?: WebhookView & { secret: string };
}

/** The match's own part of a view, and its pieces: inferred from the Zod schemas REST serialises with. */
export type { ClockView, MatchOutcome, SeatInfo };

/** A match for one caller; `game` is the engine's view for them, null while a seat is open. */
export type MatchView = { [G in GameId]: MatchEnvelope & { gameId: G; game: GameViewOf<G> | null } }[GameId];

export interface EventDto {
  seq: number;
  actingSeat: Seat | null;
  /** The envelope: the game's own event, or a record of the match itself (its clock, an ending outside the game). */
  source: EventSource;
  event: { type: string; [k: string]: unknown };
}

export interface LegalActionDto {
  action: AnyAction;
  text?: string;
}

/** A match as loaded for one request: the row, its game, the state at `version`, and who is asking when. */
export interface LoadedMatch extends MatchEntry {
  viewer: Viewer;
  seat: Seat | null;
  /** Epoch ms of the read: what the clocks show. */
  at: number;
}

/** What an accepted action produced, for the seat that acted. Stored as data for idempotent retries. */
export interface ActionResult {
  version: number;
  events: EventDto[];
  match: MatchView;
}

/** The lean answer to an action: what a client needs to go on, without the whole match view. */
export interface ActionSummary {
  version: number;
  events: EventDto[];
  status: MatchStatus;
  winner: Seat | null;
  outcome: MatchOutcome | null;
  /** The decision the match waits for now, as the views show it; null when it is over. */
  pending: unknown;
}

/** How much an action's answer holds: the match view too (full, the default), or the summary only. */
export type ActionRepresentation = 'full' | 'minimal';

export interface ActionOutcome {
  /** Always there: the lean answer. */
  summary: ActionSummary;
  /** The whole answer with the caller's match view; absent when the caller asked for the minimal one. */
  result?: ActionResult;
  /** The seat that acted (whose view the result holds). */
  seat: Seat;
  /** True when this is the stored result of an earlier request with the same idempotency key. */
  replayed: boolean;
  /** With includeLegal: the caller's legal actions for the next decision (empty unless it is theirs). */
  legal?: LegalActionDto[];
}

export interface MatchSummary {
  id: string;
  gameId: string;
  status: MatchStatus;
  winner: Seat | null;
  timeControl: TimeControl['kind'];
  rated: boolean;
  /** The seat whose decision the game waits for; null when nobody's (waiting, finished). */
  toMove: Seat | null;
  /** When the seat to move runs out of time (time controls), and how long that is from now. */
  deadline: string | null;
  timeLeftMs: number | null;
  version: number;
  seats: SeatInfo[];
  createdAt: string;
  updatedAt: string;
}

export interface MatchListFilterInput {
  handle?: string | undefined;
  status?: MatchStatus | undefined;
  tokenHash?: string | undefined;
  toMoveHandle?: string | undefined;
  toMoveTokenHash?: string | undefined;
  game?: string | undefined;
  playerId?: string | undefined;
  toMovePlayerId?: string | undefined;
  opponent?: string | undefined;
  /** won / lost / drawn: from `handle`'s side. */
  result?: 'won' | 'lost' | 'drawn' | undefined;
  timeControl?: string | undefined;
  rated?: boolean | undefined;
  /** ISO 8601: created at or after `from`, before `to`. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface MatchPageDto {
  matches: MatchSummary[];
  nextCursor: string | null;
}
