/**
 * A strategy picks one of the seat's legal actions from what the seat may know: its view, the
 * legal actions the server lists for it and its redacted event log. Nothing else reaches it, so
 * a strategy cannot cheat whether it plays through the API or directly against the engine.
 */
import type { EvonsAction, GameView, MatchEvent } from '../../clients/typescript/src/index.js';

export interface Observation {
  /** The seat's view of the game (the `game` of GET /v1/matches/{id} with its token). */
  view: GameView;
  /** What the seat may do now (GET /v1/matches/{id}/legal-actions): never empty when asked. */
  legal: EvonsAction[];
  /** Every event of the match as this seat may see it, oldest first. */
  events: readonly MatchEvent[];
}

export interface Strategy {
  readonly name: string;
  choose(o: Observation): EvonsAction;
}

/** Strategies by name, each made from a seed (their tie-breaks and dice are reproducible). */
export type StrategyFactory = (seed: string) => Strategy;

/** A small seeded PRNG (mulberry32) from a string seed: a strategy's own dice. */
export function dice(seed: string): () => number {
  let a = 0;
  for (let i = 0; i < seed.length; i++) a = (Math.imul(a ^ seed.charCodeAt(i), 0x9e3779b1) + 1) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
