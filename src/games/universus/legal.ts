/** Every action the pending decision accepts (the random player and tests rely on it being exact). */
import { instanceOf } from '../../core/card-instances.js';
import type { Seat } from '../../core/ruleset.js';
import type { UniversusAction } from './actions.js';
import { CARD_BY_ID } from './cards/index.js';
import { blockFit } from './combat.js';
import type { UniversusState } from './state.js';

/** All k-subsets of ids, capped (commit choices only differ in which foundations turn). */
function subsets(ids: string[], k: number, cap = 64): string[][] {
  const out: string[][] = [];
  const rec = (start: number, acc: string[]): void => {
    if (out.length >= cap) return;
    if (acc.length === k) {
      out.push([...acc]);
      return;
    }
    for (let i = start; i < ids.length; i++) rec(i + 1, [...acc, ids[i] as string]);
  };
  rec(0, []);
  return out;
}

export function legalActions(state: UniversusState, seat: Seat): UniversusAction[] {
  const pending = state.pending;
  if (state.phase === 'OVER' || !pending || pending.seat !== seat) return [];
  const me = state.players[seat];
  const card = (id: string) => CARD_BY_ID.get(instanceOf(state, id) ?? '');
  switch (pending.kind) {
    case 'PLAY':
      return [
        ...me.hand.filter((id) => card(id)?.type !== 'CHARACTER').map((cardId): UniversusAction => ({ type: 'PlayCard', cardId })),
        { type: 'PassCombat' },
      ];
    case 'AWAIT_BLOCK': {
      const attack = state.attack;
      const blocks = me.hand.filter((id) => {
        const c = card(id);
        return !!attack && !!c && c.type !== 'CHARACTER' && blockFit(attack.zone, c.blockZone, state.config) !== null;
      });
      return [...blocks.map((cardId): UniversusAction => ({ type: 'Block', cardId })), { type: 'NoBlock' }];
    }
    case 'AWAIT_COMMIT': {
      const ready = me.stage.filter((x) => !x.committed).map((x) => x.id);
      return [
        ...subsets(ready, pending.shortfall).map((foundationIds): UniversusAction => ({ type: 'CommitForCheck', foundationIds })),
        { type: 'DeclineCommit' },
      ];
    }
    case 'AWAIT_MOMENTUM': {
      const eligible = me.cardPool.filter((e) => e.dealtDamage && e.role === 'PLAYED').map((e) => e.id);
      const all: UniversusAction[] = [];
      for (let k = 0; k <= eligible.length; k++)
        for (const attackIds of subsets(eligible, k)) all.push({ type: 'ChooseMomentum', attackIds });
      return all;
    }
  }
}
