/** The opening after GameStarted: opening hands (U-SETUP-4), then the first turn (U-TURN-1). */
import type { CreateResult } from '../../core/ruleset.js';
import { startTurn } from './combat.js';
import type { UniversusEvent } from './events.js';
import type { UniversusState } from './state.js';
import { Tx } from './tx.js';

export function startTurnOpening(state: UniversusState, started: UniversusEvent): CreateResult<UniversusState, UniversusEvent> {
  const tx = new Tx(state);
  const first = state.turnPlayer;
  const second = first === 'p1' ? 'p2' : 'p1';
  if (tx.drawUp(first) && tx.drawUp(second)) startTurn(tx, first);
  return { ok: true, state: tx.s, events: [started, ...tx.events] };
}
