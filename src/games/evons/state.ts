/**
 * The game state. Plain data (JSON-serialisable but for the shared card set), changed only by
 * `evolve` (events.ts → evolve.ts), so replaying the events gives the same state.
 */
import type { CardSet } from './cards.js';
import type { RulesConfig } from './config.js';
import type { GeneratorId } from '../../core/random.js';

export type Seat = 'p1' | 'p2';
export const SEATS: readonly Seat[] = ['p1', 'p2'];
export { otherSeat as other } from '../../core/ruleset.js';

/** Static facts of a card instance: which definition, whose deck (R-GY-2). */
export interface CardInstance {
  readonly def: string;
  readonly owner: Seat;
}

/** A card on a cell (R-CARD-8). */
export interface BoardCard {
  id: string;
  /** The player the card faces: its controller for scoring and conflicts (R-FACE-14). */
  facing: Seat;
  covered: boolean;
  /** Growth-placed (R-FACE-6, R-FACE-13). */
  growth: boolean;
  /** Damage taken this turn (R-CONF-10, cleared at step 9, R-TURN-7). */
  damage: number;
  /** Moved to another cell this turn (for R-ACT-11b, moved then flipped). */
  moved: boolean;
}

export type Phase = 'ability1' | 'conflicts' | 'flip' | 'ability2';

/** One card's Activation Sequence on the chain stack (R-ACT-1, R-CHAIN-2). */
export interface Frame {
  card: string;
  kind: 'activation' | 'reactivation';
  phase: Phase;
  /** Indexes of ability arrows used in this activation (R-ACT-6). */
  used: number[];
  /** Total cost revived by Resurrection in this activation (R-AB-RES-4). */
  revivedCost: number;
  /** Defenders fixed at the start of the Conflict step, not yet resolved (R-ACT-8); null before. */
  conflicts: string[] | null;
  /**
   * Cards this sequence made (re)activate, waiting for the active player to order them
   * (R-ACT-17). They all run, each to its end, before this sequence goes on (R-ACT-4).
   */
  triggers: string[];
}

/**
 * Where the turn is (R-TURN-1). `setup` deals the opening hands; `start` covers steps 1–2;
 * `reveal` step 3; `play` the pass point and step 4; `activate` steps 5–6; `discard` steps 7–8;
 * `end` step 9; `over` once the game has ended.
 */
export type Step = 'setup' | 'start' | 'reveal' | 'play' | 'activate' | 'discard' | 'end' | 'over';

export type EndReason = 'main-zone-full' | 'stalemate' | 'resignation' | 'deck-out' | 'turn-limit';

export type { GeneratorId };

export interface GameResult {
  reason: EndReason;
  winner: Seat | null;
  scores: Record<Seat, number>;
}

export interface GameState {
  readonly cardSet: CardSet;
  readonly config: RulesConfig;
  /** Match-scoped opaque instance id → static card facts. */
  readonly cards: Readonly<Record<string, CardInstance>>;
  /** Kept server-side only; never in a view until the game ends (then published as an event). */
  readonly seed: string;
  readonly seedCommitment: string;
  /**
   * The generator that dealt this match (recorded in MatchCreated; absent there = legacy sfc32).
   * Null for a match that started from a position: nothing was dealt.
   */
  readonly rng: GeneratorId | null;
  /**
   * The deck lists as submitted (server-only until the end, when they are published with the
   * seed so the deal can be recomputed). Null for a match that started from a position.
   */
  readonly deckLists: Readonly<Record<Seat, readonly string[]>> | null;
  /** Seat that took turn 1; sits on the row-6 side (R-BOARD-9). */
  readonly first: Seat;
  /** 49 cells, row-major (board.ts). */
  board: (BoardCard | null)[];
  /** Top of deck first. */
  decks: Record<Seat, string[]>;
  hands: Record<Seat, string[]>;
  graveyards: Record<Seat, string[]>;
  /** Removed from the game (R-AB-SHK-5), in order. */
  removed: string[];
  credits: Record<Seat, number>;
  /** Game turn number: 1 = first player's first turn (R-CRED-2). 0 before the game starts. */
  turn: number;
  active: Seat;
  step: Step;
  /** Covered cards still to reveal in this step 3 (fixed when the step starts). */
  revealDue: string[];
  /** Whether the turn's one card has been played (R-TURN-3). */
  played: boolean;
  /** Chain stack; the last frame resolves first. */
  stack: Frame[];
  /** Consecutive stalled passes (R-END-5). */
  stalled: number;
  /** Abilities used in this turn (maxTurnAbilities); 0 at each TurnStarted. */
  turnAbilities: number;
  result: GameResult | null;
}

/**
 * The frame on top of the chain stack, undefined when it is empty. Not `stack[length - 1]` on an
 * empty stack: V8 looks index -1 up as a property name, slowly, and this is asked at every step.
 */
export function topFrame(s: GameState): Frame | undefined {
  const n = s.stack.length;
  return n > 0 ? s.stack[n - 1] : undefined;
}
