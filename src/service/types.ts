/** What the match service takes and returns (shared by the REST routes and the GraphQL resolvers). */
import type { Action, GameState, GameView, GeneratorId, RulesConfig, Seat, Viewer } from '../games/evons/index.js';
import type { MatchRow, MatchStatus } from '../persistence/types.js';

export type { Viewer };

export type DeckSpec = { starter: string } | { cards: { card: string; count: number }[] };

/** The payload of the server-only event that records an open-seat match's creation parameters. */
export interface MatchOpenedPayload {
  type: 'MatchOpened';
  creatorSeat: Seat;
  deck: string[] | null;
  position: unknown;
  config: RulesConfig;
  /** The generator the deal at join will use. Absent = 'sfc32' (opened before keyed streams). */
  rng?: GeneratorId;
}

export interface CreateMatchInput {
  handle?: string | undefined;
  opponentHandle?: string | undefined;
  seat?: Seat | undefined;
  openSeat?: boolean | undefined;
  decks?: Partial<Record<Seat, DeckSpec>> | undefined;
  settings?: Record<string, unknown> | undefined;
  position?: unknown;
}

export interface CreateMatchResult {
  id: string;
  seat: Seat;
  status: MatchStatus;
  version: number;
  /** The creator's token, and the other seat's token when the match has no open seat. */
  tokens: Partial<Record<Seat, string>>;
}

export interface JoinInput {
  handle?: string | undefined;
  deck?: DeckSpec | undefined;
}

export interface SeatInfo {
  seat: Seat;
  handle: string | null;
  joined: boolean;
}

export interface MatchView {
  id: string;
  version: number;
  status: MatchStatus;
  winner: Seat | null;
  /** The caller's seat, or null for a spectator. */
  seat: Seat | null;
  seats: SeatInfo[];
  sandbox: boolean;
  engineVersion: string;
  rulesHash: string;
  cardSetId: string;
  createdAt: string;
  /** The engine's view for this caller; null while the match waits for its second player. */
  game: GameView | null;
}

export interface EventDto {
  seq: number;
  actingSeat: Seat | null;
  event: { type: string; [k: string]: unknown };
}

export interface LegalActionDto {
  action: Action;
  text?: string;
}

/** A match as loaded for one request: the row, the state at `version`, and who is asking. */
export interface LoadedMatch {
  row: MatchRow;
  version: number;
  state: GameState | null;
  viewer: Viewer;
  seat: Seat | null;
  sandbox: boolean;
}

export interface ActionOutcome {
  statusCode: number;
  /** The exact response body (JSON text): an idempotent retry gets these bytes again. */
  body: string;
  version: number;
  /** The seat that acted (whose view the body holds). */
  seat: Seat;
  replayed: boolean;
}

export interface ActionResult {
  version: number;
  events: EventDto[];
  match: MatchView;
}

export interface MatchSummary {
  id: string;
  status: MatchStatus;
  winner: Seat | null;
  /** The seat whose decision the game waits for; null when nobody's (waiting, finished). */
  toMove: Seat | null;
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
}

export interface MatchPageDto {
  matches: MatchSummary[];
  nextCursor: string | null;
}
