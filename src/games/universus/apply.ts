/** Validates one action against the pending decision and turns it into events. */
import type { ApplyResult, RuleError, Seat } from '../../core/ruleset.js';
import { actionSchema, wellFormedAction, type UniversusAction } from './actions.js';
import {
  blockFit,
  endPhase,
  finishEndPhase,
  momentumEligible,
  onFail,
  onPass,
  progressiveDifficulty,
  readyFoundations,
  resolveBlock,
  runCheck,
} from './combat.js';
import type { UniversusEvent } from './events.js';
import type { UniversusState } from './state.js';
import { Tx } from './tx.js';

export type Result = ApplyResult<UniversusState, UniversusEvent>;
const fail = (code: string, message: string): { ok: false; error: RuleError } => ({ ok: false, error: { code, message } });

const EXPECTS: Record<string, UniversusAction['type'][]> = {
  PLAY: ['PlayCard', 'PassCombat'],
  AWAIT_COMMIT: ['CommitForCheck', 'DeclineCommit'],
  AWAIT_BLOCK: ['Block', 'NoBlock'],
  AWAIT_MOMENTUM: ['ChooseMomentum'],
};

export function apply(state: UniversusState, seat: Seat, input: unknown): Result {
  let action = wellFormedAction(input);
  if (!action) {
    const parsed = actionSchema.safeParse(input);
    if (!parsed.success) return fail('INVALID_ACTION', 'The action does not match any UniVersus action shape.');
    action = parsed.data;
  }
  if (state.phase === 'OVER') return fail('GAME_OVER', 'The game is over.');
  const pending = state.pending;
  if (!pending) return fail('NOTHING_PENDING', 'No decision is pending.');
  if (pending.seat !== seat) return fail('NOT_YOUR_DECISION', `Waiting for ${pending.seat} (${pending.kind}).`);
  if (!(EXPECTS[pending.kind] ?? []).includes(action.type))
    return fail('WRONG_DECISION', `${action.type} does not answer the pending ${pending.kind}.`);
  const tx = new Tx(state);
  const me = tx.s.players[seat];

  switch (action.type) {
    case 'PlayCard': {
      // U-PLAY-1, U-PLAY-2. Unknown and not-in-hand ids get the same answer: nothing about other cards leaks.
      if (!me.hand.includes(action.cardId)) return fail('CARD_NOT_IN_HAND', 'That card is not in your hand.');
      const card = tx.card(action.cardId);
      if (card.type === 'CHARACTER') return fail('NOT_PLAYABLE', 'That card cannot be played.');
      const difficulty = card.difficulty + progressiveDifficulty(tx, seat);
      tx.emit({ type: 'PlayAttempted', seat, id: action.cardId, card: card.id, difficulty });
      runCheck(tx);
      break;
    }
    case 'PassCombat':
      endPhase(tx);
      break;
    case 'Block': {
      const attack = tx.s.attack;
      if (!attack) return fail('NO_ATTACK', 'There is no attack to block.');
      if (!me.hand.includes(action.cardId)) return fail('CARD_NOT_IN_HAND', 'That card is not in your hand.');
      const card = tx.card(action.cardId);
      if (card.type === 'CHARACTER' || card.blockZone === null) return fail('NO_BLOCK_ZONE', 'That card has no block zone.');
      if (!blockFit(attack.zone, card.blockZone, tx.s.config))
        return fail('ZONE_NOT_ADJACENT', `A ${card.blockZone} block cannot block a ${attack.zone} attack.`); // U-BLOCK-2
      const difficulty = attack.speed + card.blockModifier + progressiveDifficulty(tx, seat); // U-BLOCK-3
      tx.emit({ type: 'BlockAttempted', seat, id: action.cardId, card: card.id, difficulty });
      runCheck(tx); // U-BLOCK-4
      break;
    }
    case 'NoBlock': {
      const attack = tx.s.attack;
      if (!attack) return fail('NO_ATTACK', 'There is no attack to block.');
      resolveBlock(tx, 'NONE'); // U-BLOCK-1: declining is always allowed
      break;
    }
    case 'CommitForCheck': {
      if (pending.kind !== 'AWAIT_COMMIT') return fail('WRONG_DECISION', 'No commit is pending.');
      const ids = action.foundationIds;
      if (new Set(ids).size !== ids.length) return fail('DUPLICATE_FOUNDATION', 'A foundation is listed twice.');
      if (ids.length !== pending.shortfall) return fail('WRONG_COMMIT_COUNT', `Commit exactly ${pending.shortfall} foundation(s).`); // UQ-4
      const ready = new Set(readyFoundations(tx, seat));
      if (!ids.every((id) => ready.has(id))) return fail('FOUNDATION_NOT_READY', 'Commit only ready foundations on your stage.');
      tx.emit({ type: 'FoundationsCommitted', seat, ids });
      tx.emit({ type: 'CheckPassed', seat, difficulty: tx.s.check?.difficulty ?? 0 });
      onPass(tx);
      break;
    }
    case 'DeclineCommit':
      tx.emit({ type: 'CheckFailed', seat, difficulty: tx.s.check?.difficulty ?? 0 });
      onFail(tx);
      break;
    case 'ChooseMomentum': {
      const eligible = new Set(momentumEligible(tx, seat));
      const ids = action.attackIds;
      if (new Set(ids).size !== ids.length) return fail('DUPLICATE_ATTACK', 'An attack is listed twice.');
      if (!ids.every((id) => eligible.has(id)))
        return fail('NOT_MOMENTUM_ELIGIBLE', 'Only attacks in your card pool that dealt damage this turn may go to momentum.');
      if (ids.length > 0) tx.emit({ type: 'MovedToMomentum', seat, ids });
      finishEndPhase(tx);
      break;
    }
  }
  return { ok: true, state: tx.s, events: tx.events };
}
