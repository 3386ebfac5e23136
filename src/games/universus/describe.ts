/** Words for an action, naming only cards the viewer may know (a hand card is named only to its owner until played). */
import { instanceOf } from '../../core/card-instances.js';
import { CARD_BY_ID } from './cards/index.js';
import type { Seat, Viewer } from '../../core/ruleset.js';
import type { UniversusAction } from './actions.js';
import type { UniversusState } from './state.js';

function actorOf(state: UniversusState): Seat {
  return state.pending?.seat ?? state.turnPlayer;
}

/** Names a card when `viewer` may know it: own hand, or public zones (pool, stage, discard). */
function name(state: UniversusState, viewer: Viewer, id: string): string {
  const known =
    (viewer !== 'spectator' && state.players[viewer].hand.includes(id)) ||
    (['p1', 'p2'] as const).some((s) => {
      const p = state.players[s];
      return p.discard.includes(id) || p.cardPool.some((e) => e.id === id) || p.stage.some((e) => e.id === id);
    });
  const card = known ? CARD_BY_ID.get(instanceOf(state, id) ?? '') : undefined;
  return card ? card.name : 'a card';
}

export function describeAction(state: UniversusState, viewer: Viewer, action: UniversusAction): string {
  const who = actorOf(state);
  switch (action.type) {
    case 'PlayCard':
      return `${who} attempts to play ${name(state, viewer, action.cardId)}`;
    case 'Block':
      return `${who} blocks with ${name(state, viewer, action.cardId)}`;
    case 'NoBlock':
      return `${who} does not block`;
    case 'PassCombat':
      return `${who} ends the Combat Phase`;
    case 'CommitForCheck':
      return `${who} commits ${action.foundationIds.map((id) => name(state, viewer, id)).join(', ') || 'nothing'} for the check`;
    case 'DeclineCommit':
      return `${who} declines to commit`;
    case 'ChooseMomentum':
      return action.attackIds.length === 0
        ? `${who} moves no attack to momentum`
        : `${who} moves ${action.attackIds.map((id) => name(state, viewer, id)).join(', ')} to momentum`;
  }
}
