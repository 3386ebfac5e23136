/**
 * What happens next: either a decision a player must make, or an automatic step the engine
 * takes. `next(s)` names the decision; `next(s, tx)` also performs the automatic step, if that
 * is what comes next. `advance` runs automatic steps until a decision is needed or the game ends.
 * (One function for both, so "what is pending" and "what the engine does" cannot drift apart.)
 */
import { rememberDecision, rememberedDecision } from './decision-memo.js';
import type { Decision } from './decisions.js';
import { cellName } from './board.js';
import { chainDepthLimit, turnAbilityLimit, turnLimit } from './config.js';
import { cellOf } from './locate.js';
import { abilityChoices, defenders, flipStep, frameCell, resolveConflict } from './sequence.js';
import { other, topFrame, type GameState } from './state.js';
import { discardCount, drawCard, hasLegalPlay, pass, revealCard, startOfTurn, stillDue } from './turn.js';
import { endGame, type Tx } from './tx.js';

/** Returned by next() when it took (or, without a transaction, would take) an automatic step. */
const AUTO = 'auto' as const;

function next(s: GameState, tx?: Tx): Decision | typeof AUTO | null {
  if (s.result) return null;
  if (s.step === 'setup') {
    if (tx) dealOpeningHands(tx);
    return AUTO;
  }

  const f = topFrame(s);
  if (f) {
    // Cards this sequence triggered run first, each to its end (R-ACT-4, R-CHAIN-2, R-ACT-17).
    if (f.triggers.length) {
      const stale = firstStaleTrigger(s, f.triggers);
      if (stale !== undefined) {
        tx?.emit({ type: 'TriggerDropped', card: stale });
        return AUTO;
      }
      // maxChainDepth: a reactivation would open a sequence deeper than the limit; none is offered.
      if (s.stack.length >= chainDepthLimit(s.config)) {
        tx?.emit({ type: 'TriggerDropped', card: f.triggers[0]!, reason: 'chain-depth' });
        return AUTO;
      }
      if (f.triggers.length > 1) return { kind: 'trigger-order', seat: s.active, cards: [...f.triggers] };
      const card = f.triggers[0]!;
      tx?.emit({ type: 'ActivationStarted', card, cell: cellName(cellOf(s, card)), kind: 'reactivation' });
      return AUTO;
    }
    const cell = frameCell(s, f);
    if (cell < 0) {
      tx?.emit({ type: 'ActivationEnded', card: f.card, reason: 'left-board' });
      return AUTO;
    }
    switch (f.phase) {
      case 'ability1':
      case 'ability2':
        // maxTurnAbilities: once the turn has used that many, no ability is offered.
        if (s.turnAbilities < turnAbilityLimit(s.config) && abilityChoices(s, f, cell, true).length > 0) {
          return { kind: 'ability', seat: s.active, card: f.card, cell: cellName(cell), phase: f.phase === 'ability1' ? 1 : 2 };
        }
        if (tx) endPhase(tx);
        return AUTO;
      case 'conflicts':
        if (f.conflicts === null) tx?.emit({ type: 'ConflictsFixed', card: f.card, defenders: defenders(s, cell) });
        else if (f.conflicts.length === 0) tx?.emit({ type: 'PhaseStarted', card: f.card, phase: 'flip' });
        else if (f.conflicts.length === 1) {
          if (tx) resolveConflict(tx, f, f.conflicts[0]!);
        } else return { kind: 'conflict-order', seat: s.active, card: f.card, defenders: [...f.conflicts] };
        return AUTO;
      case 'flip':
        if (tx) flipStep(tx, f, cell);
        return AUTO;
    }
  }

  switch (s.step) {
    case 'start':
      if (tx) startOfTurn(tx);
      return AUTO;
    case 'reveal': {
      const stale = firstNoLongerDue(s);
      if (stale !== undefined)
        tx?.emit({ type: 'RevealDeferred', seat: s.active, card: stale, cell: cellName(Math.max(0, cellOf(s, stale))) });
      else if (s.revealDue.length === 0) tx?.emit({ type: 'StepStarted', step: 'play' });
      else if (s.revealDue.length === 1) {
        if (tx) revealCard(tx, s.revealDue[0]!);
      } else return { kind: 'reveal-order', seat: s.active, cards: [...s.revealDue] };
      return AUTO;
    }
    case 'play':
      if (hasLegalPlay(s, s.active)) return { kind: 'play', seat: s.active };
      if (tx) pass(tx, true);
      return AUTO;
    case 'activate':
      tx?.emit({ type: 'StepStarted', step: 'discard' });
      return AUTO;
    case 'discard': {
      const count = discardCount(s);
      if (count > 0) return { kind: 'discard', seat: s.active, count };
      tx?.emit({ type: 'TurnEnded', turn: s.turn, seat: s.active });
      return AUTO;
    }
    case 'end':
      // maxTurns: the match's last turn has ended; the game is scored as it stands.
      if (s.turn >= turnLimit(s.config)) {
        if (tx) endGame(tx, 'turn-limit');
      } else tx?.emit({ type: 'TurnStarted', turn: s.turn + 1, seat: other(s.active) });
      return AUTO;
    case 'over':
      return null;
  }
}

/** The first queued trigger that is no longer valid (plain loops, not find with a closure: asked at every automatic step). */
function firstStaleTrigger(s: GameState, triggers: readonly string[]): string | undefined {
  for (const id of triggers) if (!triggerValid(s, id)) return id;
  return undefined;
}

/** The first card due for reveal that no longer is (R-FACE-3). */
function firstNoLongerDue(s: GameState): string | undefined {
  for (const id of s.revealDue) if (!stillDue(s, id)) return id;
  return undefined;
}

/** R-ACT-11 (a) and (b) both need the card face-up, on the board and facing the active player. */
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

/** The decision the game waits for; null when it is over. States handed out are always at one. */
export function pendingDecision(s: GameState): Decision | null {
  const known = rememberedDecision(s);
  if (known !== undefined) return known;
  const n = next(s);
  const d = n === AUTO ? null : n;
  rememberDecision(s, d);
  return d;
}

const MAX_AUTO_STEPS = 1_000_000;

export function advance(tx: Tx): void {
  for (let i = 0; i < MAX_AUTO_STEPS; i++) {
    const d = next(tx.s, tx);
    if (d !== AUTO) {
      // The transaction's state is final from here on (it is what apply and create hand out).
      rememberDecision(tx.s, d);
      return;
    }
  }
  throw new Error('engine did not reach a decision (internal error)');
}
