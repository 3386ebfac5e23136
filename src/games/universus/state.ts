/** Runtime state (U- §2). Deck top = index 0. Instances have opaque ids; `cards` maps them to card ids. */
import type { Seat } from '../../core/ruleset.js';
import type { UniversusConfig } from './config.js';

export type Role = 'PLAYED' | 'BLOCK';
export interface PoolEntry {
  id: string;
  role: Role;
  dealtDamage: boolean;
  /** A foundation that passed its play check this turn (U-FOUND-2). */
  built: boolean;
}
export interface StageEntry {
  id: string;
  committed: boolean;
}
export interface PlayerState {
  character: string;
  health: number;
  handSize: number;
  hand: string[];
  deck: string[];
  discard: string[];
  removed: string[];
  cardPool: PoolEntry[];
  stage: StageEntry[];
  momentum: string[];
}

/** A check in progress: whose, against what, for which card (the card is in neither hand nor pool). */
export interface CheckInProgress {
  seat: Seat;
  purpose: 'PLAY' | 'BLOCK';
  id: string;
  difficulty: number;
}
export interface AttackInProgress {
  id: string;
  attacker: Seat;
  zone: 'HIGH' | 'MID' | 'LOW';
  speed: number;
  damage: number;
}

export type Pending =
  | { kind: 'PLAY'; seat: Seat }
  | { kind: 'AWAIT_COMMIT'; seat: Seat; shortfall: number }
  | { kind: 'AWAIT_BLOCK'; seat: Seat }
  | { kind: 'AWAIT_MOMENTUM'; seat: Seat };

export interface UniversusState {
  config: UniversusConfig;
  seed: string;
  seedCommitment: string;
  cards: Record<string, string>;
  players: Record<Seat, PlayerState>;
  turnPlayer: Seat;
  turnNumber: number;
  phase: 'COMBAT' | 'END' | 'OVER';
  pending: Pending | null;
  check: CheckInProgress | null;
  attack: AttackInProgress | null;
  /** Counts shuffles after the deal: each uses its own random stream `shuffle:<n>`. */
  shuffles: number;
  winner: Seat | null;
  winReason: string | null;
}

export { otherSeat as other } from '../../core/ruleset.js';
