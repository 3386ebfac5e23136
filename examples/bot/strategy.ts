/**
 * A strategy picks one of the seat's legal actions from what the seat may know: its view, the
 * legal actions the server lists for it and its redacted event log. Nothing else reaches it, so
 * a strategy cannot cheat whether it plays through the API or directly against the engine.
 */
import type { EvonsAction, GameView, MatchEvent } from '../../clients/typescript/src/index.js';

/**
 * What a seat knows when it decides, as the API gives it. By default typed for Evons (the view
 * and actions its own strategies read); a strategy for several games reads `game` first.
 */
export interface Observation<V = GameView, A = EvonsAction> {
  /** The match's game (its gameId: evons, universus). */
  game: string;
  /** The seat's view of the game (the `game` of GET /v1/matches/{id} with its token). */
  view: V;
  /** What the seat may do now (GET /v1/matches/{id}/legal-actions): never empty when asked. */
  legal: A[];
  /** Every event of the match as this seat may see it, oldest first. */
  events: readonly MatchEvent[];
}

export interface Strategy<V = GameView, A = EvonsAction> {
  readonly name: string;
  /** The games it can play; absent: Evons only (a strategy written for Evons' view and actions). */
  readonly games?: readonly string[];
  choose(o: Observation<V, A>): A;
}

/** Any strategy, whatever game it is typed for (what the players in play.ts and listen.ts take). */
export type AnyStrategy = Strategy<unknown, { type: string }>;

/** The games `s` can play. */
export const gamesOf = (s: AnyStrategy): readonly string[] => s.games ?? ['evons'];

/** Strategies by name, each made from a seed (their tie-breaks and dice are reproducible). */
export type StrategyFactory<S extends AnyStrategy = Strategy> = (seed: string) => S;

/**
 * One strategy from several: for each game the first of `strategies` that plays it (say greedy
 * for Evons, then the search for the rest). Named after the first.
 */
export function perGame(strategies: readonly AnyStrategy[]): AnyStrategy {
  const games = [...new Set(strategies.flatMap(gamesOf))];
  const pick = (game: string): AnyStrategy => {
    const s = strategies.find((x) => gamesOf(x).includes(game));
    if (!s) throw new Error(`no strategy here plays ${game}`);
    return s;
  };
  return { name: strategies[0]!.name, games, choose: (o) => pick(o.game).choose(o) };
}

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
