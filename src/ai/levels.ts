/**
 * The eight levels of the computer player and what each may spend on one decision. Budgets are
 * counts (sampled worlds, simulations, tree nodes, rollout moves), never time: a decision is a
 * function of its input and seed, on any machine and under any load.
 */

export type Level = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
export const LEVELS: readonly Level[] = [1, 2, 3, 4, 5, 6, 7, 8];

export interface LevelBudget {
  /**
   * `greedy`: every legal action applied once in each of `worlds` sampled worlds, the best
   * average heuristic value wins. `ismcts`: information-set Monte Carlo tree search (one tree for
   * the seat's information set; every simulation samples a new world consistent with what the
   * seat knows, walks the tree along the actions legal in that world, expands one node, plays
   * `rollout` random moves on and scores the end with the game's heuristic).
   */
  algorithm: 'greedy' | 'ismcts';
  /** Sampled worlds for `greedy`; for `ismcts`, the one world that ranks the candidates. */
  worlds: number;
  /** ismcts: simulations per decision (each on a world of its own). */
  simulations: number;
  /** ismcts: at most this many tree nodes; past it, simulations roll out from the leaf they reach. */
  maxNodes: number;
  /** ismcts: random moves played after the tree before the heuristic scores the position. */
  rollout: number;
  /** ismcts: the search considers the seat's best `candidates` actions by one-ply heuristic (all if fewer). */
  candidates: number;
  /** Share of decisions (0–1) that play a legal action drawn at random instead: a level's slips. */
  slips: number;
}

/**
 * Measured with bench:ai (docs/benchmarks.md, "The computer's levels"): past about a hundred simulations
 * more search barely wins more games (448 simulations against 160 scored 50 % in 60 Evons
 * games), so search alone cannot make eight distinguishable steps. Slips can, as lichess's
 * lower levels do: each level plays a random legal action in a share of its decisions, a share
 * that falls to none at level 8, while the search grows from one ply to 256 simulations.
 * Short rollouts: the heuristic scores a position better than a few more random moves do, so
 * the budget goes to simulations and candidates instead.
 */
export const BUDGETS: Readonly<Record<Level, LevelBudget>> = {
  1: { algorithm: 'greedy', worlds: 2, simulations: 0, maxNodes: 0, rollout: 0, candidates: 0, slips: 0.66 },
  2: { algorithm: 'greedy', worlds: 4, simulations: 0, maxNodes: 0, rollout: 0, candidates: 0, slips: 0.55 },
  3: { algorithm: 'greedy', worlds: 4, simulations: 0, maxNodes: 0, rollout: 0, candidates: 0, slips: 0.45 },
  4: { algorithm: 'greedy', worlds: 8, simulations: 0, maxNodes: 0, rollout: 0, candidates: 0, slips: 0.32 },
  5: { algorithm: 'ismcts', worlds: 1, simulations: 32, maxNodes: 300, rollout: 2, candidates: 4, slips: 0.27 },
  6: { algorithm: 'ismcts', worlds: 1, simulations: 64, maxNodes: 600, rollout: 2, candidates: 6, slips: 0.17 },
  7: { algorithm: 'ismcts', worlds: 1, simulations: 128, maxNodes: 1200, rollout: 3, candidates: 8, slips: 0.08 },
  8: { algorithm: 'ismcts', worlds: 1, simulations: 256, maxNodes: 4800, rollout: 4, candidates: 12, slips: 0 },
};

export function isLevel(n: unknown): n is Level {
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 8;
}
