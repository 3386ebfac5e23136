/**
 * A random player for tests, benchmarks and practice bots: uniform over legalActions, from a
 * seeded generator (reproducible). One exception, documented in docs/rules-decisions.md: deep
 * inside a chain it ends the ability phase, because the rules allow chains without end (two own
 * Swap cards can swap each other forever) and a uniform player would wander into them. Under the
 * default `maxChainDepth` (8) the engine already stops chains there; this is for configs with a
 * higher limit or none (null, and matches stored before the setting).
 */
import type { Action } from './actions.js';
import { nextInt, sfc32Stream } from '../../core/random.js';
import { pendingDecision } from './flow.js';
import { pickLegalAction } from './legal.js';
import type { GameState } from './state.js';

export const RANDOM_PLAYER_CHAIN_LIMIT = 8;

/** Returns a uniform choice function over `n` options, seeded (sfc32: not secret, and fast). */
export function seededPick(seed: string): (n: number) => number {
  const rng = sfc32Stream(seed, 'evons-rng:');
  return (n) => nextInt(rng, n);
}

/**
 * Returns a player that picks one of `actions` (the legal actions of `state`). Without
 * `actions` it makes the same choice from the pending decision's legal actions, without listing
 * them all (pickLegalAction).
 */
export function randomPlayer(seed: string): (state: GameState, actions?: readonly Action[]) => Action {
  const pick = seededPick(seed);
  return (state, actions) => {
    if (!actions) {
      const d = pendingDecision(state);
      if (!d) throw new Error('no legal action to choose from');
      // The chain limit below: an ability decision always lists end-phase.
      if (state.stack.length > RANDOM_PLAYER_CHAIN_LIMIT && d.kind === 'ability') return { type: 'end-phase' };
      return pickLegalAction(state, d, pick);
    }
    if (state.stack.length > RANDOM_PLAYER_CHAIN_LIMIT) {
      const end = actions.find((a) => a.type === 'end-phase');
      if (end) return end;
    }
    const a = actions[pick(actions.length)];
    if (!a) throw new Error('no legal action to choose from');
    return a;
  };
}
