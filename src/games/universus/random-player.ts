/** A seeded random player: picks uniformly among legal actions, with a mild lean towards playing on. */
import { keyedStream, nextInt } from '../../core/random.js';
import type { UniversusAction } from './actions.js';
import { legalActions } from './legal.js';
import type { UniversusState } from './state.js';

/** Without `actions`, the legal actions of the pending decision (the same choice either way). */
export function randomPlayer(seed: string): (state: UniversusState, actions?: readonly UniversusAction[]) => UniversusAction {
  const rng = keyedStream(seed, 'random-player');
  return (state, given) => {
    const actions = given ?? (state.pending ? legalActions(state, state.pending.seat) : []);
    if (actions.length === 0) throw new Error('no legal action');
    // Passing is one option among many; without a lean, games would rarely end by damage.
    const nonPass = actions.filter((a) => a.type !== 'PassCombat');
    const pool = nonPass.length > 0 && nextInt(rng, 8) !== 0 ? nonPass : actions;
    return pool[nextInt(rng, pool.length)] as UniversusAction;
  };
}
