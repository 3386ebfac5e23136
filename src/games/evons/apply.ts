/**
 * apply: one player action → the new state and the events it produced, or a rule error.
 * Pure: the input state is never changed; bad input is a result, never an exception.
 */
import { instanceOf } from '../../core/card-instances.js';
import { ActionSchema, wellFormedAction, type Action } from './actions.js';
import { cellIndex, cellName } from './board.js';
import { cloneState } from './clone.js';
import { err, type RuleError } from './errors.js';
import type { GameEvent } from './events.js';
import { advance, endPhase } from './flow.js';
import { check } from './legal.js';
import { cellOf } from './locate.js';
import { frameCell, resolveConflict, useAbility } from './sequence.js';
import { other, topFrame, type GameState, type Seat } from './state.js';
import { playCard, pass, revealCard } from './turn.js';
import { endGame, openTx, type Tx } from './tx.js';
import { issueLines } from '../../core/issues.js';

export type ApplyResult = { ok: true; state: GameState; events: GameEvent[] } | { ok: false; error: RuleError };

export function apply(state: GameState, seat: Seat, input: Action | unknown): ApplyResult {
  let action = wellFormedAction(input);
  if (!action) {
    const parsed = ActionSchema.safeParse(input);
    if (!parsed.success) {
      return { ok: false, error: err('INVALID_ACTION', issueLines(parsed.error.issues, '', 'action').join('; ')) };
    }
    action = parsed.data;
  }
  if (seat !== 'p1' && seat !== 'p2') return { ok: false, error: err('NOT_YOUR_DECISION', 'unknown seat') };
  if (action.type === 'resign') {
    if (state.result) return { ok: false, error: err('GAME_OVER', 'the game is over') };
  } else {
    const e = check(state, seat, action);
    if (e) return { ok: false, error: e };
  }
  // The copy shares its lists and board cards with `state`: nothing of it is owned yet.
  const tx = openTx(cloneState(state), new Set());
  perform(tx, seat, action);
  advance(tx);
  return { ok: true, state: tx.s, events: tx.events };
}

function perform(tx: Tx, seat: Seat, a: Action): void {
  const s = tx.s;
  const f = topFrame(s);
  switch (a.type) {
    case 'resign':
      tx.emit({ type: 'Resigned', seat });
      endGame(tx, 'resignation', other(seat));
      return;
    case 'reveal':
      revealCard(tx, a.card);
      return;
    case 'play':
      playCard(tx, a.card, cellIndex(a.cell)!, a.covered);
      return;
    case 'pass':
      pass(tx, false);
      return;
    case 'ability':
      useAbility(tx, f!, frameCell(s, f!), {
        arrow: a.arrow,
        option: { target: cellIndex(a.target)!, card: a.card, pull: a.pull === undefined ? undefined : cellIndex(a.pull) },
      });
      return;
    case 'end-phase':
      endPhase(tx);
      return;
    case 'conflict':
      resolveConflict(tx, f!, a.defender);
      return;
    case 'activate':
      tx.emit({ type: 'ActivationStarted', card: a.card, cell: cellName(cellOf(s, a.card)), kind: 'reactivation' });
      return;
    case 'discard':
      tx.emit({ type: 'CardDiscarded', seat, card: a.card, defId: instanceOf(s, a.card)!.def });
      return;
  }
}
