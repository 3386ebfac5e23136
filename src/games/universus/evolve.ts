/** Folds one event into state (copy-on-write: the input state is never mutated). */
import { idDictionary } from '../../core/dictionary.js';
import type { Seat } from '../../core/ruleset.js';
import type { UniversusEvent } from './events.js';
import type { PlayerState, UniversusState } from './state.js';

function clonePlayer(p: PlayerState): PlayerState {
  return {
    ...p,
    hand: [...p.hand],
    deck: [...p.deck],
    discard: [...p.discard],
    removed: [...p.removed],
    cardPool: p.cardPool.map((e) => ({ ...e })),
    stage: p.stage.map((e) => ({ ...e })),
    momentum: [...p.momentum],
  };
}

export function cloneState(s: UniversusState): UniversusState {
  return {
    ...s,
    cards: s.cards, // never changes after GameStarted
    players: { p1: clonePlayer(s.players.p1), p2: clonePlayer(s.players.p2) },
    pending: s.pending ? { ...s.pending } : null,
    check: s.check ? { ...s.check } : null,
    attack: s.attack ? { ...s.attack } : null,
  };
}

function remove(list: string[], id: string): void {
  const i = list.indexOf(id);
  if (i < 0) throw new Error(`evolve: ${id} missing`);
  list.splice(i, 1);
}

export function startState(e: Extract<UniversusEvent, { type: 'GameStarted' }>, handSizes: Record<Seat, number>, health: Record<Seat, number>): UniversusState {
  const cards = idDictionary<string>();
  const player = (seat: Seat): PlayerState => {
    for (const c of e.decks[seat]) cards[c.id] = c.card;
    return {
      character: e.characters[seat],
      health: health[seat],
      handSize: handSizes[seat],
      hand: [],
      deck: e.decks[seat].map((c) => c.id),
      discard: [],
      removed: [],
      cardPool: [],
      stage: [],
      momentum: [],
    };
  };
  return {
    config: e.config,
    seed: e.seed,
    seedCommitment: e.seedCommitment,
    cards,
    players: { p1: player('p1'), p2: player('p2') },
    turnPlayer: e.firstPlayer,
    turnNumber: 0,
    phase: 'COMBAT',
    pending: null,
    check: null,
    attack: null,
    shuffles: 0,
    winner: null,
    winReason: null,
  };
}

/** Mutates `s` (a private draft); callers pass a clone. */
export function evolveDraft(s: UniversusState, e: UniversusEvent): void {
  switch (e.type) {
    case 'GameStarted':
    case 'PositionLoaded':
      throw new Error('evolve: GameStarted only opens a game');
    case 'CardsDrawn': {
      const p = s.players[e.seat];
      for (const c of e.cards) {
        remove(p.deck, c.id);
        p.hand.push(c.id);
      }
      return;
    }
    case 'TurnStarted':
      s.turnPlayer = e.seat;
      s.turnNumber = e.turnNumber;
      s.phase = 'COMBAT';
      s.pending = { kind: 'PLAY', seat: e.seat };
      return;
    case 'StageReadied':
      for (const st of s.players[e.seat].stage) if (e.ids.includes(st.id)) st.committed = false;
      return;
    case 'PlayAttempted':
    case 'BlockAttempted':
      remove(s.players[e.seat].hand, e.id);
      s.check = { seat: e.seat, purpose: e.type === 'PlayAttempted' ? 'PLAY' : 'BLOCK', id: e.id, difficulty: e.difficulty };
      s.pending = null;
      return;
    case 'CheckRevealed': {
      const p = s.players[e.seat];
      remove(p.deck, e.id);
      p.discard.push(e.id); // U-CHECK-2 (UQ-8)
      return;
    }
    case 'FoundationsCommitted':
      for (const st of s.players[e.seat].stage) if (e.ids.includes(st.id)) st.committed = true;
      return;
    case 'AwaitingCommit':
      s.pending = { kind: 'AWAIT_COMMIT', seat: e.seat, shortfall: e.shortfall };
      return;
    case 'CheckPassed':
    case 'CheckFailed':
      s.pending = null;
      return;
    case 'CardDiscarded':
      s.players[e.seat].discard.push(e.id);
      if (s.check?.id === e.id) s.check = null;
      return;
    case 'CardPlacedInPool':
      s.players[e.seat].cardPool.push({ id: e.id, role: e.role, dealtDamage: false, built: false });
      if (s.check?.id === e.id) s.check = null;
      return;
    case 'FoundationBuilt': {
      const entry = s.players[e.seat].cardPool.find((x) => x.id === e.id);
      if (entry) entry.built = true;
      if (e.toStage) s.players[e.seat].stage.push({ id: e.id, committed: false });
      return;
    }
    case 'AttackStarted':
      s.attack = { id: e.id, attacker: e.seat, zone: e.zone, speed: e.speed, damage: e.damage };
      s.pending = { kind: 'AWAIT_BLOCK', seat: e.seat === 'p1' ? 'p2' : 'p1' };
      return;
    case 'BlockResolved':
      s.pending = null;
      return;
    case 'DamageDealt': {
      if (s.attack) {
        const entry = s.players[s.attack.attacker].cardPool.find((x) => x.id === s.attack?.id);
        if (entry) entry.dealtDamage = e.amount > 0; // U-DAMAGE-3
      }
      s.attack = null;
      return;
    }
    case 'HealthChanged':
      s.players[e.seat].health = e.health;
      return;
    case 'CombatResumed':
      s.pending = { kind: 'PLAY', seat: e.seat };
      return;
    case 'MomentumChoice':
      s.phase = 'END';
      s.pending = { kind: 'AWAIT_MOMENTUM', seat: e.seat };
      return;
    case 'MovedToMomentum': {
      const p = s.players[e.seat];
      p.cardPool = p.cardPool.filter((x) => !e.ids.includes(x.id));
      p.momentum.push(...e.ids);
      s.pending = null;
      return;
    }
    case 'CardPoolCleared': {
      const p = s.players[e.seat];
      p.cardPool = [];
      p.discard.push(...e.toDiscard);
      for (const id of e.toStage) p.stage.push({ id, committed: false });
      return;
    }
    case 'DeckCycled': {
      const p = s.players[e.seat];
      p.removed.push(...e.deck.slice(0, e.removedCount));
      p.deck = e.deck.slice(e.removedCount);
      p.discard = [];
      s.shuffles = e.shuffle + 1;
      return;
    }
    case 'PlayerExhausted':
      return;
    case 'TurnEnded':
      s.phase = 'END';
      s.pending = null;
      return;
    case 'GameWon':
      s.phase = 'OVER';
      s.pending = null;
      s.winner = e.winner;
      s.winReason = e.reason;
      return;
  }
}

export function evolve(s: UniversusState, e: UniversusEvent): UniversusState {
  const draft = cloneState(s);
  evolveDraft(draft, e);
  return draft;
}
