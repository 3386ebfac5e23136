/** Folds one event into state (copy-on-write: the input state is never mutated). */
import { shareInstances, withLazyInstances } from '../../core/card-instances.js';
import { ownItem, ownList, type Owned } from '../../core/copy-on-write.js';
import { removeAt } from '../../core/lists.js';
import type { Seat } from '../../core/ruleset.js';
import type { UniversusEvent } from './events.js';
import type { PlayerState, PoolEntry, StageEntry, UniversusState } from './state.js';

// Field by field (not a spread): a copy runs once per action, on the benchmark's hot path. The
// lists are shared with the copy, and copied by evolveDraft when first changed (core/copy-on-write.ts).
function clonePlayer(p: PlayerState): PlayerState {
  return {
    character: p.character,
    health: p.health,
    handSize: p.handSize,
    hand: p.hand,
    deck: p.deck,
    discard: p.discard,
    removed: p.removed,
    cardPool: p.cardPool,
    stage: p.stage,
    momentum: p.momentum,
  };
}

/** A draft of `s`; the card instances never change after GameStarted and are shared. */
export function cloneState(s: UniversusState): UniversusState {
  const copy: Omit<UniversusState, 'cards'> = {
    config: s.config,
    seed: s.seed,
    seedCommitment: s.seedCommitment,
    players: { p1: clonePlayer(s.players.p1), p2: clonePlayer(s.players.p2) },
    turnPlayer: s.turnPlayer,
    turnNumber: s.turnNumber,
    phase: s.phase,
    pending: s.pending ? { ...s.pending } : null,
    check: s.check ? { ...s.check } : null,
    attack: s.attack ? { ...s.attack } : null,
    shuffles: s.shuffles,
    winner: s.winner,
    winReason: s.winReason,
  };
  return shareInstances(s, copy);
}

type ListKey = 'hand' | 'deck' | 'discard' | 'removed' | 'momentum';
/** The player's list, to change (copied first unless the draft owns it). */
const own = (owned: Owned, p: PlayerState, key: ListKey): string[] => ownList(owned, p, key);

const ownPool = (owned: Owned, p: PlayerState): PoolEntry[] => ownList<'cardPool', PoolEntry>(owned, p, 'cardPool');
const ownStage = (owned: Owned, p: PlayerState): StageEntry[] => ownList<'stage', StageEntry>(owned, p, 'stage');

function remove(list: string[], id: string): void {
  const i = list.indexOf(id);
  if (i < 0) throw new Error(`evolve: ${id} missing`);
  removeAt(list, i);
}

export function startState(
  e: Extract<UniversusEvent, { type: 'GameStarted' }>,
  handSizes: Record<Seat, number>,
  health: Record<Seat, number>,
): UniversusState {
  const player = (seat: Seat): PlayerState => ({
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
  });
  const players = { p1: player('p1'), p2: player('p2') };
  return withLazyInstances(
    {
      config: e.config,
      seed: e.seed,
      seedCommitment: e.seedCommitment,
      players,
      turnPlayer: e.firstPlayer,
      turnNumber: 0,
      phase: 'COMBAT' as const,
      pending: null,
      check: null,
      attack: null,
      shuffles: 0,
      winner: null,
      winReason: null,
    },
    // A Map, not a record keyed by the fresh ids (core/card-instances.ts says why), built when
    // first read: folding events never reads it. The event's decks never change after the deal.
    () => {
      const instances = new Map<string, string>();
      for (const seat of ['p1', 'p2'] as const) for (const c of e.decks[seat]) instances.set(c.id, c.card);
      return instances;
    },
  );
}

/**
 * Mutates `s` (a draft; callers pass a clone or a state of their own), copying first whatever of
 * it `s` shares with other states (`owned`: see core/copy-on-write.ts).
 */
export function evolveDraft(s: UniversusState, e: UniversusEvent, owned: Owned): void {
  // Cases in the order of how often they come in a game (most first): a replay compares each
  // event's type with every case above its own (a stored type is not an interned string).
  switch (e.type) {
    case 'CheckRevealed': {
      const p = s.players[e.seat];
      remove(own(owned, p, 'deck'), e.id);
      own(owned, p, 'discard').push(e.id); // U-CHECK-2 (UQ-8)
      return;
    }
    case 'PlayAttempted':
    case 'BlockAttempted':
      remove(own(owned, s.players[e.seat], 'hand'), e.id);
      s.check = { seat: e.seat, purpose: e.type === 'PlayAttempted' ? 'PLAY' : 'BLOCK', id: e.id, difficulty: e.difficulty };
      s.pending = null;
      return;
    case 'CheckPassed':
    case 'CheckFailed':
      s.pending = null;
      return;
    case 'CardPlacedInPool':
      ownPool(owned, s.players[e.seat]).push({ id: e.id, role: e.role, dealtDamage: false, built: false });
      if (s.check?.id === e.id) s.check = null;
      return;
    case 'CombatResumed':
      s.pending = { kind: 'PLAY', seat: e.seat };
      return;
    case 'CardPoolCleared': {
      const p = s.players[e.seat];
      p.cardPool = [];
      own(owned, p, 'discard').push(...e.toDiscard);
      if (e.toStage.length) {
        const stage = ownStage(owned, p);
        for (const id of e.toStage) stage.push({ id, committed: false });
      }
      return;
    }
    case 'FoundationBuilt': {
      const p = s.players[e.seat];
      const i = p.cardPool.findIndex((x) => x.id === e.id);
      if (i >= 0) ownItem(owned, ownPool(owned, p), i).built = true;
      if (e.toStage) ownStage(owned, p).push({ id: e.id, committed: false });
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
        const p = s.players[s.attack.attacker];
        const id = s.attack.id;
        const i = p.cardPool.findIndex((x) => x.id === id);
        if (i >= 0) ownItem(owned, ownPool(owned, p), i).dealtDamage = e.amount > 0; // U-DAMAGE-3
      }
      s.attack = null;
      return;
    }
    case 'HealthChanged':
      s.players[e.seat].health = e.health;
      return;
    case 'CardsDrawn': {
      const p = s.players[e.seat];
      const deck = own(owned, p, 'deck');
      const hand = own(owned, p, 'hand');
      for (const c of e.cards) {
        remove(deck, c.id);
        hand.push(c.id);
      }
      return;
    }
    case 'TurnStarted':
      s.turnPlayer = e.seat;
      s.turnNumber = e.turnNumber;
      s.phase = 'COMBAT';
      s.pending = { kind: 'PLAY', seat: e.seat };
      return;
    case 'AwaitingCommit':
      s.pending = { kind: 'AWAIT_COMMIT', seat: e.seat, shortfall: e.shortfall };
      return;
    case 'TurnEnded':
      s.phase = 'END';
      s.pending = null;
      return;
    case 'CardDiscarded':
      own(owned, s.players[e.seat], 'discard').push(e.id);
      if (s.check?.id === e.id) s.check = null;
      return;
    case 'FoundationsCommitted':
      setCommitted(owned, s.players[e.seat], e.ids, true);
      return;
    case 'MomentumChoice':
      s.phase = 'END';
      s.pending = { kind: 'AWAIT_MOMENTUM', seat: e.seat };
      return;
    case 'MovedToMomentum': {
      const p = s.players[e.seat];
      p.cardPool = p.cardPool.filter((x) => !e.ids.includes(x.id));
      own(owned, p, 'momentum').push(...e.ids);
      s.pending = null;
      return;
    }
    case 'StageReadied':
      setCommitted(owned, s.players[e.seat], e.ids, false);
      return;
    case 'GameWon':
      s.phase = 'OVER';
      s.pending = null;
      s.winner = e.winner;
      s.winReason = e.reason;
      return;
    case 'GameDrawn':
      s.phase = 'OVER';
      s.pending = null;
      s.winner = null;
      s.winReason = e.reason;
      return;
    case 'DeckCycled': {
      const p = s.players[e.seat];
      own(owned, p, 'removed').push(...e.deck.slice(0, e.removedCount));
      p.deck = e.deck.slice(e.removedCount);
      p.discard = [];
      s.shuffles = e.shuffle + 1;
      return;
    }
    case 'PlayerExhausted':
      return;
    case 'GameStarted':
    case 'PositionLoaded':
      throw new Error('evolve: GameStarted only opens a game');
  }
}

/** U-COMMIT-2/3: foundations committed or readied, by id. */
function setCommitted(owned: Owned, p: PlayerState, ids: readonly string[], committed: boolean): void {
  for (let i = 0; i < p.stage.length; i++) if (ids.includes(p.stage[i]!.id)) ownItem(owned, ownStage(owned, p), i).committed = committed;
}

export function evolve(s: UniversusState, e: UniversusEvent): UniversusState {
  const draft = cloneState(s);
  evolveDraft(draft, e, new Set()); // the copy shares its lists with `s`
  return draft;
}
