/** Events (U- §5). Events that carry hidden order or cards are server- or seat-visible; see view.ts. */
import type { Seat } from '../../core/ruleset.js';
import type { UniversusConfig } from './config.js';
import type { Role, UniversusState } from './state.js';

export interface Instance {
  id: string;
  card: string;
}

export type UniversusEvent =
  | {
      type: 'GameStarted';
      rng: 'chacha20';
      config: UniversusConfig;
      seed: string;
      seedCommitment: string;
      firstPlayer: Seat;
      characters: Record<Seat, string>;
      /** Shuffled decks, top first: server only. */
      decks: Record<Seat, Instance[]>;
    }
  /** Opens a sandbox game from a position: server only (it holds the seed and deck order). */
  | { type: 'PositionLoaded'; rng: 'chacha20'; state: UniversusState }
  | { type: 'CardsDrawn'; seat: Seat; cards: Instance[] }
  | { type: 'TurnStarted'; seat: Seat; turnNumber: number }
  | { type: 'StageReadied'; seat: Seat; ids: string[] }
  | { type: 'PlayAttempted'; seat: Seat; id: string; card: string; difficulty: number }
  | { type: 'BlockAttempted'; seat: Seat; id: string; card: string; difficulty: number }
  | { type: 'CheckRevealed'; seat: Seat; id: string; card: string; value: number; difficulty: number }
  | { type: 'FoundationsCommitted'; seat: Seat; ids: string[] }
  | { type: 'CheckPassed'; seat: Seat; difficulty: number }
  | { type: 'CheckFailed'; seat: Seat; difficulty: number }
  | { type: 'AwaitingCommit'; seat: Seat; shortfall: number }
  | { type: 'CardDiscarded'; seat: Seat; id: string }
  | { type: 'CardPlacedInPool'; seat: Seat; id: string; role: Role }
  | { type: 'FoundationBuilt'; seat: Seat; id: string; toStage: boolean }
  | { type: 'AttackStarted'; seat: Seat; id: string; zone: 'HIGH' | 'MID' | 'LOW'; speed: number; damage: number }
  | { type: 'BlockResolved'; seat: Seat; outcome: 'FULL' | 'HALF' | 'NONE' }
  | { type: 'DamageDealt'; seat: Seat; amount: number }
  | { type: 'HealthChanged'; seat: Seat; health: number }
  | { type: 'MomentumChoice'; seat: Seat; eligible: string[] }
  | { type: 'MovedToMomentum'; seat: Seat; ids: string[] }
  | { type: 'CardPoolCleared'; seat: Seat; toDiscard: string[]; toStage: string[] }
  | { type: 'DeckCycled'; seat: Seat; shuffle: number; deckSize: number; removedCount: number; deck: string[] }
  | { type: 'PlayerExhausted'; seat: Seat }
  | { type: 'TurnEnded'; seat: Seat }
  | { type: 'CombatResumed'; seat: Seat }
  | { type: 'GameWon'; winner: Seat; reason: 'HEALTH_ZERO' | 'EXHAUSTED'; seed: string }
  /** maxTurns: the last turn ended; the game is a draw. */
  | { type: 'GameDrawn'; reason: 'TURN_LIMIT'; seed: string };
