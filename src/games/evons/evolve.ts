/**
 * evolve: the only code that changes a GameState. It applies one event to a draft in place.
 * Live play and replay both go through here, so they cannot disagree.
 */
import { cellIndex } from './board.js';
import type { GameEvent } from './events.js';
import type { BoardCard, GameState, Seat } from './state.js';

function at(name: string): number {
  const i = cellIndex(name);
  if (i === undefined) throw new Error(`bad cell ${name}`);
  return i;
}

function removeFrom(list: string[], id: string): void {
  const i = list.indexOf(id);
  if (i >= 0) list.splice(i, 1);
}

function place(s: GameState, cell: string, card: BoardCard): void {
  const i = at(cell);
  if (s.board[i]) throw new Error(`cell ${cell} is occupied`);
  s.board[i] = card;
}

function newCard(id: string, facing: Seat, covered: boolean, growth: boolean): BoardCard {
  return { id, facing, covered, growth, damage: 0, moved: false };
}

function top(s: GameState) {
  const f = s.stack[s.stack.length - 1];
  if (!f) throw new Error('no activation in progress');
  return f;
}

export function evolve(s: GameState, e: GameEvent): void {
  switch (e.type) {
    case 'MatchCreated':
    case 'PositionLoaded':
      throw new Error(`${e.type} starts a game; it is not applied to one`);
    case 'TurnStarted':
      s.turn = e.turn;
      s.active = e.seat;
      s.played = false;
      s.step = 'start';
      s.revealDue = [];
      return;
    case 'CreditsGained':
      s.credits[e.seat] = e.total;
      return;
    case 'CardDrawn': {
      const deck = s.decks[e.seat];
      if (deck[0] !== e.card) throw new Error(`${e.card} is not on top of ${e.seat}'s deck`);
      deck.shift();
      s.hands[e.seat].push(e.card);
      return;
    }
    case 'DrawSkipped':
      return;
    case 'StepStarted':
      s.step = e.step;
      s.revealDue = e.step === 'reveal' ? [...(e.due ?? [])] : [];
      return;
    case 'CardRevealed': {
      const bc = s.board[at(e.cell)]!;
      bc.covered = false;
      bc.growth = false;
      s.credits[e.seat] = e.total;
      removeFrom(s.revealDue, e.card);
      return;
    }
    case 'RevealDeferred':
      removeFrom(s.revealDue, e.card);
      return;
    case 'CardPlayed':
      removeFrom(s.hands[e.seat], e.card);
      place(s, e.cell, newCard(e.card, e.seat, e.covered, false));
      s.credits[e.seat] = e.total;
      s.played = true;
      s.step = 'activate';
      s.stalled = 0;
      return;
    case 'Passed':
      s.stalled = e.stalled ? s.stalled + 1 : 0;
      return;
    case 'ActivationStarted': {
      const parent = s.stack[s.stack.length - 1];
      if (parent) removeFrom(parent.triggers, e.card);
      s.stack.push({ card: e.card, kind: e.kind, phase: 'ability1', used: [], revivedCost: 0, conflicts: null, triggers: [] });
      return;
    }
      return;
    case 'PhaseStarted': {
      const f = top(s);
      f.phase = e.phase;
      if (e.phase === 'conflicts') f.conflicts = null;
      return;
    }
    case 'AbilityUsed':
      top(s).used.push(e.arrow);
      return;
    case 'CardGrown':
      removeFrom(s.hands[e.seat], e.card);
      place(s, e.cell, newCard(e.card, e.seat, true, true));
      return;
    case 'BlockPlaced':
      removeFrom(s.hands[e.seat], e.card);
      place(s, e.cell, newCard(e.card, e.seat, false, false));
      return;
    case 'CardRevived':
      removeFrom(s.graveyards[e.seat], e.card);
      place(s, e.cell, newCard(e.card, e.seat, false, false));
      top(s).revivedCost += e.cost;
      return;
    case 'CardMoved': {
      const from = at(e.from);
      const bc = s.board[from]!;
      s.board[from] = null;
      bc.moved = true;
      place(s, e.to, bc);
      return;
    }
    case 'CardsSwapped': {
      const a = at(e.from);
      const b = at(e.to);
      const ca = s.board[a]!;
      const cb = s.board[b]!;
      ca.moved = true;
      cb.moved = true;
      s.board[a] = cb;
      s.board[b] = ca;
      return;
    }
    case 'FirestormDamage':
      s.board[at(e.cell)]!.damage += e.amount;
      return;
    case 'ConflictsFixed':
      top(s).conflicts = [...e.defenders];
      return;
    case 'ConflictResolved': {
      const f = top(s);
      for (const bc of s.board) {
        if (!bc) continue;
        if (bc.id === e.attacker) bc.damage += e.attackerDamage;
        else if (bc.id === e.defender) bc.damage += e.defenderDamage;
      }
      if (f.conflicts) removeFrom(f.conflicts, e.defender);
      return;
    }
    case 'CardDestroyed':
      s.board[at(e.cell)] = null;
      s.graveyards[e.owner].push(e.card);
      removeFrom(s.revealDue, e.card);
      return;
    case 'CardRemovedFromGame':
      s.board[at(e.cell)] = null;
      s.removed.push(e.card);
      removeFrom(s.revealDue, e.card);
      return;
    case 'CardFlipped':
      s.board[at(e.cell)]!.facing = e.to;
      return;
    case 'TriggersQueued':
      top(s).triggers.push(...e.cards);
      return;
    case 'TriggerDropped':
      removeFrom(top(s).triggers, e.card);
      return;
    case 'ActivationEnded': {
      const f = s.stack.pop();
      if (!f || f.card !== e.card) throw new Error(`activation of ${e.card} is not on top of the chain`);
      return;
    }
    case 'CardDiscarded':
      removeFrom(s.hands[e.seat], e.card);
      s.graveyards[e.seat].push(e.card);
      return;
    case 'TurnEnded':
      for (const bc of s.board) {
        if (!bc) continue;
        bc.damage = 0;
        bc.moved = false;
      }
      s.step = 'end';
      return;
    case 'Resigned':
      return;
    case 'GameEnded':
      s.result = { reason: e.reason, winner: e.winner, scores: { ...e.scores } };
      s.step = 'over';
      s.stack = [];
      s.revealDue = [];
      return;
    case 'SeedRevealed':
      return;
  }
}
