/**
 * evolve: the only code that changes a GameState. It applies one event to a draft in place.
 * Live play and replay both go through here, so they cannot disagree.
 */
import { cellIndex } from './board.js';
import type { GameEvent } from './events.js';
import { forgetDecision } from './decision-memo.js';
import { ownedByCaller, ownItem, ownList, type Owned } from '../../core/copy-on-write.js';
import { removeAt } from '../../core/lists.js';
import { topFrame, type BoardCard, type GameState, type Seat } from './state.js';

function at(name: string): number {
  const i = cellIndex(name);
  if (i === undefined) throw new Error(`bad cell ${name}`);
  return i;
}

function removeFrom(list: string[], id: string): void {
  const i = list.indexOf(id);
  if (i >= 0) removeAt(list, i);
}

/** The seat's list in `holder` (decks, hands, graveyards), copied first unless `s` owns it (core/copy-on-write.ts). */
function own(owned: Owned, holder: Record<Seat, string[]>, seat: Seat): string[] {
  return ownList(owned, holder, seat);
}

function ownRemoved(s: GameState, owned: Owned): string[] {
  return ownList<'removed', string>(owned, s, 'removed');
}

/** The card on cell `i`, to change: copied first unless `s` owns it. */
function ownCard(s: GameState, owned: Owned, i: number): BoardCard {
  return ownItem(owned, s.board, i);
}

function place(s: GameState, owned: Owned, cell: string, card: BoardCard): void {
  const i = at(cell);
  if (s.board[i]) throw new Error(`cell ${cell} is occupied`);
  s.board[i] = card;
  owned?.add(card);
}

function newCard(id: string, facing: Seat, covered: boolean, growth: boolean): BoardCard {
  return { id, facing, covered, growth, damage: 0, moved: false };
}

function top(s: GameState) {
  const f = topFrame(s);
  if (!f) throw new Error('no activation in progress');
  return f;
}

/** Applies `e` to `s` in place, copying first whatever of it `s` may share with other states. */
export function evolve(s: GameState, e: GameEvent): void {
  forgetDecision(s);
  evolveOwned(s, e, ownedByCaller(s));
}

/**
 * Event types that give a card damage or a moved mark, which TurnEnded clears with a scan of the
 * board (new cards come without either).
 */
export function marksCards(type: GameEvent['type']): boolean {
  return type === 'ConflictResolved' || type === 'FirestormDamage' || type === 'CardMoved' || type === 'CardsSwapped';
}

/**
 * evolve with the ownership already looked up (a transaction's draft, a replay's own state).
 * `marked`: false only when the caller knows no card has damage or a moved mark (replay follows
 * marksCards since the last TurnEnded); TurnEnded then skips its scan of the board.
 */
export function evolveOwned(s: GameState, e: GameEvent, owned: Owned, marked = true): void {
  // Cases in the order of how often they come in a game (most first): a replay compares each
  // event's type with every case above its own (a stored type is not an interned string).
  switch (e.type) {
    case 'StepStarted':
      s.step = e.step;
      s.revealDue = e.step === 'reveal' ? [...(e.due ?? [])] : [];
      return;
    case 'PhaseStarted': {
      const f = top(s);
      f.phase = e.phase;
      if (e.phase === 'conflicts') f.conflicts = null;
      return;
    }
    case 'CardDrawn': {
      if (s.decks[e.seat][0] !== e.card) throw new Error(`${e.card} is not on top of ${e.seat}'s deck`);
      own(owned, s.decks, e.seat).shift();
      own(owned, s.hands, e.seat).push(e.card);
      return;
    }
    case 'TurnStarted':
      s.turn = e.turn;
      s.active = e.seat;
      s.played = false;
      s.step = 'start';
      s.revealDue = [];
      s.turnAbilities = 0;
      return;
    case 'ActivationStarted': {
      const parent = topFrame(s);
      if (parent) removeFrom(parent.triggers, e.card);
      s.stack.push({ card: e.card, kind: e.kind, phase: 'ability1', used: [], revivedCost: 0, conflicts: null, triggers: [] });
      return;
    }
    case 'ActivationEnded': {
      const f = s.stack.pop();
      if (!f || f.card !== e.card) throw new Error(`activation of ${e.card} is not on top of the chain`);
      return;
    }
    case 'ConflictsFixed':
      top(s).conflicts = [...e.defenders];
      return;
    case 'TurnEnded':
      for (let i = 0; marked && i < s.board.length; i++) {
        const bc = s.board[i];
        if (!bc || (bc.damage === 0 && !bc.moved)) continue;
        const mine = ownCard(s, owned, i);
        mine.damage = 0;
        mine.moved = false;
      }
      s.step = 'end';
      return;
    case 'CreditsGained':
      s.credits[e.seat] = e.total;
      return;
    case 'CardPlayed':
      removeFrom(own(owned, s.hands, e.seat), e.card);
      place(s, owned, e.cell, newCard(e.card, e.seat, e.covered, false));
      s.credits[e.seat] = e.total;
      s.played = true;
      s.step = 'activate';
      s.stalled = 0;
      return;
    case 'CardRevealed': {
      const bc = ownCard(s, owned, at(e.cell));
      bc.covered = false;
      bc.growth = false;
      s.credits[e.seat] = e.total;
      removeFrom(s.revealDue, e.card);
      return;
    }
    case 'AbilityUsed':
      top(s).used.push(e.arrow);
      s.turnAbilities++;
      return;
    case 'CardDestroyed':
      s.board[at(e.cell)] = null;
      own(owned, s.graveyards, e.owner).push(e.card);
      removeFrom(s.revealDue, e.card);
      return;
    case 'ConflictResolved': {
      const f = top(s);
      // A card is on one cell at most: the scan stops once both are found.
      let found = 0;
      for (let i = 0; i < s.board.length && found < 2; i++) {
        const bc = s.board[i];
        if (!bc) continue;
        if (bc.id === e.attacker) {
          ownCard(s, owned, i).damage += e.attackerDamage;
          found++;
        } else if (bc.id === e.defender) {
          ownCard(s, owned, i).damage += e.defenderDamage;
          found++;
        }
      }
      if (f.conflicts) removeFrom(f.conflicts, e.defender);
      return;
    }
    case 'CardMoved': {
      const from = at(e.from);
      const bc = ownCard(s, owned, from);
      s.board[from] = null;
      bc.moved = true;
      place(s, owned, e.to, bc);
      return;
    }
    case 'CardFlipped':
      ownCard(s, owned, at(e.cell)).facing = e.to;
      return;
    case 'Passed':
      s.stalled = e.stalled ? s.stalled + 1 : 0;
      return;
    case 'TriggersQueued':
      top(s).triggers.push(...e.cards);
      return;
    case 'CardGrown':
      removeFrom(own(owned, s.hands, e.seat), e.card);
      place(s, owned, e.cell, newCard(e.card, e.seat, true, true));
      return;
    case 'CardRevived':
      removeFrom(own(owned, s.graveyards, e.seat), e.card);
      place(s, owned, e.cell, newCard(e.card, e.seat, false, false));
      top(s).revivedCost += e.cost;
      return;
    case 'BlockPlaced':
      removeFrom(own(owned, s.hands, e.seat), e.card);
      place(s, owned, e.cell, newCard(e.card, e.seat, false, false));
      return;
    case 'CardRemovedFromGame':
      s.board[at(e.cell)] = null;
      ownRemoved(s, owned).push(e.card);
      removeFrom(s.revealDue, e.card);
      return;
    case 'GameEnded':
      s.result = { reason: e.reason, winner: e.winner, scores: { ...e.scores } };
      s.step = 'over';
      s.stack = [];
      s.revealDue = [];
      return;
    case 'SeedRevealed':
      return;

    case 'FirestormDamage':
      ownCard(s, owned, at(e.cell)).damage += e.amount;
      return;
    case 'CardsSwapped': {
      const a = at(e.from);
      const b = at(e.to);
      const ca = ownCard(s, owned, a);
      const cb = ownCard(s, owned, b);
      ca.moved = true;
      cb.moved = true;
      s.board[a] = cb;
      s.board[b] = ca;
      return;
    }
    case 'DrawSkipped':
      return;
    case 'MatchCreated':
    case 'PositionLoaded':
      throw new Error(`${e.type} starts a game; it is not applied to one`);
    case 'RevealDeferred':
      removeFrom(s.revealDue, e.card);
      return;
    case 'TriggerDropped':
      removeFrom(top(s).triggers, e.card);
      return;
    case 'CardDiscarded':
      removeFrom(own(owned, s.hands, e.seat), e.card);
      own(owned, s.graveyards, e.seat).push(e.card);
      return;
    case 'Resigned':
      return;
  }
}
