/**
 * What each viewer may see. Secret: the other seat's hand, every deck order, removed and momentum
 * cards (face down), the seed until the game ends. Public: everything revealed by a play, block or
 * check (U-CHECK-1 reveals to both seats), pools, stages, discards, counts.
 */
import { instanceOf } from '../../core/card-instances.js';
import type { Seat, Viewer, Visibility } from '../../core/ruleset.js';
import type { Instance, UniversusEvent } from './events.js';
import type { Pending, UniversusState } from './state.js';
import { shownConfig } from './config.js';

export interface PlayerView {
  character: string;
  /** Shown as 0 when below (U-DAMAGE-2). */
  health: number;
  handSize: number;
  handCount: number;
  /** Only for the seat itself. */
  hand: Instance[] | null;
  deckCount: number;
  discard: Instance[];
  removedCount: number;
  cardPool: { id: string; card: string; role: 'PLAYED' | 'BLOCK'; dealtDamage: boolean; built: boolean }[];
  stage: { id: string; card: string; committed: boolean }[];
  momentumCount: number;
}
export interface UniversusView {
  game: 'universus';
  viewer: Viewer;
  turnPlayer: Seat;
  turnNumber: number;
  phase: UniversusState['phase'];
  pending: Pending | null;
  check: { seat: Seat; purpose: 'PLAY' | 'BLOCK'; id: string; card: string; difficulty: number } | null;
  attack: UniversusState['attack'];
  players: Record<Seat, PlayerView>;
  winner: Seat | null;
  winReason: string | null;
  seedCommitment: string;
  /** Revealed when the game ends. */
  seed: string | null;
}

export function view(s: UniversusState, viewer: Viewer): UniversusView {
  const inst = (id: string): Instance => ({ id, card: instanceOf(s, id) ?? '' });
  const player = (seat: Seat): PlayerView => {
    const p = s.players[seat];
    return {
      character: p.character,
      health: Math.max(0, p.health),
      handSize: p.handSize,
      handCount: p.hand.length,
      hand: viewer === seat ? p.hand.map(inst) : null,
      deckCount: p.deck.length,
      discard: p.discard.map(inst),
      removedCount: p.removed.length,
      cardPool: p.cardPool.map((e) => ({ ...e, card: instanceOf(s, e.id) ?? '' })),
      stage: p.stage.map((e) => ({ ...e, card: instanceOf(s, e.id) ?? '' })),
      momentumCount: p.momentum.length,
    };
  };
  return {
    game: 'universus',
    viewer,
    turnPlayer: s.turnPlayer,
    turnNumber: s.turnNumber,
    phase: s.phase,
    pending: s.pending ? { ...s.pending } : null,
    check: s.check ? { ...s.check, card: instanceOf(s, s.check.id) ?? '' } : null,
    attack: s.attack ? { ...s.attack } : null,
    players: { p1: player('p1'), p2: player('p2') },
    winner: s.winner,
    winReason: s.winReason,
    seedCommitment: s.seedCommitment,
    seed: s.phase === 'OVER' ? s.seed : null,
  };
}

export function eventVisibility(e: UniversusEvent): Visibility {
  if (e.type === 'GameStarted' || e.type === 'DeckCycled' || e.type === 'PositionLoaded') return 'server';
  if (e.type === 'CardsDrawn') return e.seat;
  return 'public';
}

export function redactEvent(e: UniversusEvent, viewer: Viewer): Record<string, unknown> | null {
  switch (e.type) {
    case 'GameStarted':
      return {
        type: e.type,
        rng: e.rng,
        config: shownConfig(e.config),
        seedCommitment: e.seedCommitment,
        firstPlayer: e.firstPlayer,
        characters: e.characters,
        deckSizes: { p1: e.decks.p1.length, p2: e.decks.p2.length },
      };
    case 'PositionLoaded':
      return { type: e.type, rng: e.rng, position: view(e.state, viewer) };
    case 'DeckCycled':
      return { type: e.type, seat: e.seat, shuffle: e.shuffle, deckSize: e.deckSize, removedCount: e.removedCount };
    case 'CardsDrawn':
      return viewer === e.seat ? { ...e, cards: e.cards.map((c) => ({ ...c })) } : { type: e.type, seat: e.seat, count: e.cards.length };
    default:
      return { ...e };
  }
}
