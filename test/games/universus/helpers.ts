import { expect } from 'vitest';
import type { Seat } from '../../../src/core/ruleset.js';
import { universus, type UniversusAction, type UniversusEvent, type UniversusState } from '../../../src/games/universus/index.js';
import type { UniversusPosition } from '../../../src/games/universus/position.js';
import { defaultConfig, type UniversusConfig } from '../../../src/games/universus/config.js';

/** Filler that never matters: Horse Relay (F05, check 4). */
const filler = (n: number): string[] => Array.from({ length: n }, () => 'F05');

export interface Side {
  character?: string;
  health?: number;
  hand?: string[];
  deck?: string[];
  discard?: string[];
  stage?: { card: string; committed: boolean }[];
  cardPool?: { card: string; role: 'PLAYED' | 'BLOCK'; dealtDamage: boolean; built: boolean }[];
}

/** A stacked position: P1's turn, given hands and deck tops (then filler), config overrides. */
export function position(p1: Side, p2: Side, config: Partial<UniversusConfig> = {}): UniversusPosition {
  const side = (s: Side, ch: string) => ({
    character: s.character ?? ch,
    health: s.health ?? 22,
    hand: s.hand ?? [],
    deck: [...(s.deck ?? []), ...filler(20)],
    discard: s.discard ?? [],
    removed: [],
    cardPool: s.cardPool ?? [],
    stage: s.stage ?? [],
    momentum: [],
  });
  return {
    format: 'universus-position/1',
    config: { ...defaultConfig, ...config },
    turnPlayer: 'p1',
    turnNumber: 1,
    players: { p1: side(p1, 'C01'), p2: side(p2, 'C01') },
  };
}

export class Game {
  state: UniversusState;
  events: UniversusEvent[];
  constructor(pos: UniversusPosition, seed = 'test-seed') {
    const r = universus.positions.fromPosition(pos, seed);
    if (!r.ok) throw new Error(r.errors.join('; '));
    this.state = r.state;
    this.events = [...r.events];
  }
  /** The instance id of the first card `card` in a seat's hand (or other zone). */
  id(seat: Seat, card: string, zone: 'hand' | 'stage' | 'cardPool' = 'hand'): string {
    const p = this.state.players[seat];
    const ids = zone === 'hand' ? p.hand : p[zone].map((e) => e.id);
    const id = ids.find((x) => this.state.cards[x] === card);
    if (!id) throw new Error(`${card} not in ${seat}.${zone}`);
    return id;
  }
  act(seat: Seat, action: UniversusAction): UniversusEvent[] {
    const r = universus.apply(this.state, seat, action);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    this.state = r.state;
    this.events.push(...r.events);
    expect(universus.replay(this.events)).toEqual(this.state);
    return r.events;
  }
  reject(seat: Seat, action: unknown): string {
    const r = universus.apply(this.state, seat, action);
    if (r.ok) throw new Error('expected a rejection');
    return r.error.code;
  }
  cardsOf(ids: readonly string[]): string[] {
    return ids.map((i) => this.state.cards[i] ?? '?');
  }
}
