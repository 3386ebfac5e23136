/**
 * Test helpers for the Swiss pairer: random results from a seeded stream, a constraint checker,
 * and a brute-force reference of the Monrad rules (a plain depth-first search, exponential, for
 * small fields) to compare the pairer's blossom-backed search against.
 */
import { expect } from 'vitest';
import { keyedStream, nextInt, type RandomSource } from '../../src/core/random.js';
import { pairingRanking, type GameResult, type Pairing, type PlayerId, type RoundResults } from '../../src/tournaments/pairing/index.js';

/** Results for a round's pairings: first seat wins, second seat wins or draw, a few forfeits. */
export function playRound(pairings: readonly Pairing[], rng: RandomSource): GameResult[] {
  return pairings.map((g): GameResult => {
    if ('bye' in g) return { bye: g.bye };
    const roll = nextInt(rng, 20);
    if (roll === 0) return { ...g, outcome: 'p1', forfeit: true };
    return { ...g, outcome: roll < 8 ? 'p1' : roll < 15 ? 'p2' : 'draw' };
  });
}

export const ids = (n: number): PlayerId[] => Array.from({ length: n }, (_, i) => `p${String(i + 1).padStart(4, '0')}`);
export const stream = (seed: string) => keyedStream(seed, 'test:results');

const pairKey = (a: PlayerId, b: PlayerId) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/** Seat differences (first seats minus second seats) after `results`. */
export function seatDiffs(results: readonly RoundResults[]): Map<PlayerId, number> {
  const d = new Map<PlayerId, number>();
  for (const round of results) {
    for (const g of round) {
      if ('bye' in g) continue;
      d.set(g.p1, (d.get(g.p1) ?? 0) + 1);
      d.set(g.p2, (d.get(g.p2) ?? 0) - 1);
    }
  }
  return d;
}

/** The absolute rules: every active player once, no repeat, no second bye, one bye only when odd. */
export function checkRound(active: readonly PlayerId[], results: readonly RoundResults[], pairings: readonly Pairing[]): void {
  const seen = pairings.flatMap((g) => ('bye' in g ? [g.bye] : [g.p1, g.p2]));
  expect([...seen].sort()).toEqual([...active].sort());
  const met = new Set<string>();
  const byes = new Set<PlayerId>();
  for (const round of results)
    for (const g of round)
      if ('bye' in g) byes.add(g.bye);
      else met.add(pairKey(g.p1, g.p2));
  const roundByes = pairings.filter((g) => 'bye' in g);
  expect(roundByes.length).toBe(active.length % 2);
  for (const g of pairings) {
    if ('bye' in g) expect(byes.has(g.bye)).toBe(false);
    else expect(met.has(pairKey(g.p1, g.p2))).toBe(false);
  }
}

/**
 * The Monrad rules by exhaustive search: the bye to the lowest-ranked eligible player for whom
 * the rest can be paired; then the first complete pairing in ranking order, keeping the seat rule
 * if any pairing can. Returns unordered pairs (seats are checked separately), or null.
 */
export function referenceMonrad(
  active: readonly PlayerId[],
  results: readonly RoundResults[],
): { pairs: string[]; bye: PlayerId | null; strict: boolean } | null {
  const ranked = pairingRanking(active, results);
  const met = new Set<string>();
  const hadBye = new Set<PlayerId>();
  for (const round of results)
    for (const g of round)
      if ('bye' in g) hadBye.add(g.bye);
      else met.add(pairKey(g.p1, g.p2));
  const diff = seatDiffs(results);
  const need = (p: PlayerId) => {
    const d = diff.get(p) ?? 0;
    return d >= 2 ? -1 : d <= -2 ? 1 : 0;
  };
  const dfs = (left: PlayerId[], strict: boolean): string[] | null => {
    if (left.length === 0) return [];
    const [top, ...others] = left as [PlayerId, ...PlayerId[]];
    for (const c of others) {
      if (met.has(pairKey(top, c))) continue;
      if (strict && need(top) !== 0 && need(top) === need(c)) continue;
      const rest = dfs(
        others.filter((x) => x !== c),
        strict,
      );
      if (rest) return [pairKey(top, c), ...rest];
    }
    return null;
  };
  let bye: PlayerId | null = null;
  let rest = ranked;
  if (ranked.length % 2 === 1) {
    for (let i = ranked.length - 1; i >= 0 && bye === null; i--) {
      const b = ranked[i]!;
      if (hadBye.has(b)) continue;
      const others = ranked.filter((x) => x !== b);
      if (dfs(others, false)) {
        bye = b;
        rest = others;
      }
    }
    if (bye === null) return null;
  }
  const strict = dfs(rest, true);
  if (strict) return { pairs: strict, bye, strict: true };
  const loose = dfs(rest, false);
  return loose ? { pairs: loose, bye, strict: false } : null;
}

export const unordered = (pairings: readonly Pairing[]) => pairings.flatMap((g) => ('bye' in g ? [] : [pairKey(g.p1, g.p2)]));
