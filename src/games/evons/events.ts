/**
 * Domain events: the only way state changes (see evolve.ts). Who may see each event is decided
 * in visibility.ts; the engine emits the full event and views redact it.
 */
import type { GeneratorId } from '../../core/random.js';
import type { CellName } from './board.js';
import type { RulesConfig } from './config.js';
import type { EndReason, Phase, Seat } from './state.js';
import type { PositionData } from './position-format.js';

export type GameEvent =
  /** Server-only: holds the seed and both deck lists. Public form: config, hashes, commitment. */
  | {
      type: 'MatchCreated';
      engineVersion: string;
      rulesHash: string;
      cardSetId: string;
      cardSetHash: string;
      config: RulesConfig;
      seed: string;
      seedCommitment: string;
      decks: Record<Seat, string[]>;
      first: Seat;
      /** The generator that dealt the match. Absent = 'sfc32' (every match before keyed streams). */
      rng?: GeneratorId;
    }
  /** Server-only: a sandbox match that starts from a position (position.ts). */
  | {
      type: 'PositionLoaded';
      engineVersion: string;
      rulesHash: string;
      cardSetId: string;
      cardSetHash: string;
      seed: string;
      seedCommitment: string;
      position: PositionData;
    }
  | { type: 'TurnStarted'; turn: number; seat: Seat }
  | { type: 'CreditsGained'; seat: Seat; amount: number; total: number }
  /** Private to `seat`; the public form drops the card. */
  | { type: 'CardDrawn'; seat: Seat; card: string; defId: string }
  | { type: 'DrawSkipped'; seat: Seat }
  | { type: 'StepStarted'; step: 'reveal' | 'play' | 'discard'; due?: string[] }
  /** Covered card revealed and paid for (R-FACE-3/4); it activates next. */
  | { type: 'CardRevealed'; seat: Seat; card: string; defId: string; cell: CellName; paid: number; total: number }
  | { type: 'RevealDeferred'; seat: Seat; card: string; cell: CellName }
  /** Played from hand. A covered play is private to `seat`; the public form drops `defId`. */
  | { type: 'CardPlayed'; seat: Seat; card: string; defId: string; cell: CellName; covered: boolean; paid: number; total: number }
  | { type: 'Passed'; seat: Seat; auto: boolean; stalled: boolean }
  | { type: 'ActivationStarted'; card: string; cell: CellName; kind: 'activation' | 'reactivation' }
  | { type: 'PhaseStarted'; card: string; phase: Phase }
  | { type: 'AbilityUsed'; card: string; arrow: number; ability: string; target: CellName }
  /** Growth: a hand card placed covered. Private to its owner; the public form drops `defId`. */
  | { type: 'CardGrown'; seat: Seat; card: string; defId: string; cell: CellName }
  | { type: 'BlockPlaced'; seat: Seat; card: string; defId: string; cell: CellName }
  | { type: 'CardRevived'; seat: Seat; card: string; defId: string; cell: CellName; cost: number }
  | { type: 'CardMoved'; card: string; from: CellName; to: CellName; cause: 'Shockwave' | 'Magnetism' | 'Swap' }
  | { type: 'CardsSwapped'; card: string; other: string; from: CellName; to: CellName }
  | { type: 'FirestormDamage'; card: string; cell: CellName; amount: number; def?: number }
  | { type: 'ConflictsFixed'; card: string; defenders: string[] }
  | {
      type: 'ConflictResolved';
      attacker: string;
      defender: string;
      /** Damage dealt to each (simultaneous, R-CONF-5), and DEF left afterwards. */
      attackerDamage: number;
      defenderDamage: number;
      attackerDef: number;
      defenderDef: number;
    }
  /** To the owner's graveyard (R-GY-2). `defId` is public: graveyards are public. */
  | { type: 'CardDestroyed'; card: string; defId: string; owner: Seat; cell: CellName; cause: DestroyCause }
  | { type: 'CardRemovedFromGame'; card: string; defId: string; owner: Seat; cell: CellName }
  | { type: 'CardFlipped'; card: string; cell: CellName; to: Seat; covered: boolean }
  | { type: 'TriggersQueued'; cards: string[] }
  /**
   * A queued trigger whose card left the board or its controller before its turn came, or (reason
   * chain-depth) one that would have opened a sequence deeper than `maxChainDepth`.
   */
  | { type: 'TriggerDropped'; card: string; reason?: 'chain-depth' }
  | { type: 'ActivationEnded'; card: string; reason: 'completed' | 'destroyed' | 'left-board' }
  | { type: 'CardDiscarded'; seat: Seat; card: string; defId: string }
  | { type: 'TurnEnded'; turn: number; seat: Seat }
  | { type: 'Resigned'; seat: Seat }
  | { type: 'GameEnded'; reason: EndReason; winner: Seat | null; scores: Record<Seat, number> }
  /** Published when the game ends, so anyone can check the deal against the commitment. */
  | { type: 'SeedRevealed'; seed: string; decks: Record<Seat, string[]> | null };

export type DestroyCause = 'conflict' | 'arrow' | 'shockwave-landing' | 'remove' | 'firestorm' | 'block-ability' | 'unpaid';

export type EventType = GameEvent['type'];
export type EventOf<T extends EventType> = Extract<GameEvent, { type: T }>;
