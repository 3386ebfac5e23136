/**
 * What happens next: either a decision a player must make, or an automatic step the engine
 * takes. `advance` runs automatic steps until a decision is needed or the game is over.
 */
import type { Decision } from './decisions.js';
import { cellName } from './board.js';
import { abilityChoices, defenders, flipStep, frameCell, resolveConflict, cellOf } from './sequence.js';
import { other, type GameState } from './state.js';
import { discardCount, hasLegalPlay, pass, revealCard, startOfTurn, stillDue } from './turn.js';
import type { Tx } from './tx.js';
import { drawCard } from './turn.js';

export type Point = { decision: Decision; auto?: undefined } | { auto: (tx: Tx) => void; decision?: undefined } | null;

export function point(s: GameState): Point {
  if (s.result) return null;
  if (s.step === 'setup') return { auto: dealOpeningHands };

  // Triggered (re)activations start before the interrupted sequence goes on (R-ACT-4).
  if (s.triggers.length) {
    const stale = s.triggers.find((id) => !triggerValid(s, id));
    if (stale) return { auto: (tx) => tx.emit({ type: 'TriggerDropped', card: stale }) };
    if (s.triggers.length === 1) {
      const card = s.triggers[0]!;
      return { auto: (tx) => tx.emit({ type: 'ActivationStarted', card, cell: cellName(cellOf(s, card)), kind: 'reactivation' }) };
    }
    return { decision: { kind: 'trigger-order', seat: s.active, cards: [...s.triggers] } };
  }

  const f = s.stack[s.stack.length - 1];
  if (f) {
    const cell = frameCell(s, f);
    if (cell < 0) return { auto: (tx) => tx.emit({ type: 'ActivationEnded', card: f.card, reason: 'left-board' }) };
    switch (f.phase) {
      case 'ability1':
      case 'ability2': {
        if (abilityChoices(s, f, cell).length > 0) {
          return { decision: { kind: 'ability', seat: s.active, card: f.card, cell: cellName(cell), phase: f.phase === 'ability1' ? 1 : 2 } };
        }
        return { auto: (tx) => endPhase(tx) };
      }
      case 'conflicts': {
        if (f.conflicts === null) return { auto: (tx) => tx.emit({ type: 'ConflictsFixed', card: f.card, defenders: defenders(s, cell) }) };
        if (f.conflicts.length === 0) return { auto: (tx) => tx.emit({ type: 'PhaseStarted', card: f.card, phase: 'flip' }) };
        if (f.conflicts.length === 1) {
          const d = f.conflicts[0]!;
          return { auto: (tx) => resolveConflict(tx, f, d) };
        }
        return { decision: { kind: 'conflict-order', seat: s.active, card: f.card, defenders: [...f.conflicts] } };
      }
      case 'flip':
        return { auto: (tx) => flipStep(tx, f, cell) };
    }
  }

  switch (s.step) {
    case 'start':
      return { auto: startOfTurn };
    case 'reveal': {
      const stale = s.revealDue.find((id) => !stillDue(s, id));
      if (stale) return { auto: (tx) => tx.emit({ type: 'RevealDeferred', seat: s.active, card: stale, cell: cellName(Math.max(0, cellOf(s, stale))) }) };
      if (s.revealDue.length === 0) return { auto: (tx) => tx.emit({ type: 'StepStarted', step: 'play' }) };
      if (s.revealDue.length === 1) {
        const id = s.revealDue[0]!;
        return { auto: (tx) => revealCard(tx, id) };
      }
      return { decision: { kind: 'reveal-order', seat: s.active, cards: [...s.revealDue] } };
    }
    case 'play':
      if (hasLegalPlay(s, s.active)) return { decision: { kind: 'play', seat: s.active } };
      return { auto: (tx) => pass(tx, true) };
    case 'activate':
      return { auto: (tx) => tx.emit({ type: 'StepStarted', step: 'discard' }) };
    case 'discard': {
      const count = discardCount(s);
      if (count > 0) return { decision: { kind: 'discard', seat: s.active, count } };
      return { auto: (tx) => tx.emit({ type: 'TurnEnded', turn: s.turn, seat: s.active }) };
    }
    case 'end':
      return { auto: (tx) => tx.emit({ type: 'TurnStarted', turn: s.turn + 1, seat: other(s.active) }) };
    case 'over':
      return null;
  }
}

/** R-ACT-11 (b) and (a) both need the card face-up, on the board and facing the active player. */
function triggerValid(s: GameState, id: string): boolean {
  const i = cellOf(s, id);
  if (i < 0) return false;
  const bc = s.board[i]!;
  return !bc.covered && bc.facing === s.active;
}

/** Ends the current Ability Phase: phase 1 → conflicts; phase 2 → the sequence is complete. */
export function endPhase(tx: Tx): void {
  const f = tx.s.stack[tx.s.stack.length - 1]!;
  if (f.phase === 'ability1') tx.emit({ type: 'PhaseStarted', card: f.card, phase: 'conflicts' });
  else tx.emit({ type: 'ActivationEnded', card: f.card, reason: 'completed' });
}

/** Opening hands (R-HAND-4, OQ-10), first player first, then turn 1. */
function dealOpeningHands(tx: Tx): void {
  const s = tx.s;
  for (const seat of [s.first, other(s.first)]) {
    for (let i = 0; i < s.config.startingHandSize; i++) drawCard(tx, seat);
  }
  tx.emit({ type: 'TurnStarted', turn: 1, seat: s.first });
}

export function pendingDecision(s: GameState): Decision | null {
  return point(s)?.decision ?? null;
}

const MAX_AUTO_STEPS = 1_000_000;

export function advance(tx: Tx): void {
  for (let i = 0; i < MAX_AUTO_STEPS; i++) {
    const p = point(tx.s);
    if (!p || p.decision) return;
    p.auto(tx);
  }
  throw new Error('engine did not reach a decision (internal error)');
}
