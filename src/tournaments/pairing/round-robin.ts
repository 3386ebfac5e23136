/**
 * Round robin by the Berger tables (FIDE Handbook C.05, Annex 1). Players are numbered 1..n by
 * their position in the input list; an odd field gets a phantom player n + 1 whose opponent has
 * the bye in that round. The tables are generated rather than stored (they exist for any even n):
 *
 *   - m = n - 1 (odd). In round r, player n meets the player p with 2p ≡ r + 1 (mod m); player n
 *     takes the second seat in odd rounds and the first in even rounds. That game is board 1.
 *   - Every other game pairs i and j with i + j ≡ r + 1 (mod m). Board k ≥ 2 has in the first
 *     seat the player ((p + k - 2) mod m) + 1, where p is player n's opponent.
 *
 * These two rules reproduce the published tables seat for seat and board for board (the tests
 * check the 4-, 6-, 8- and 10-player tables as printed).
 */
import type { Pairing, PlayerId } from './types.js';

/** Numbers in 1..m for a residue mod m (0 is m). */
const mod1 = (x: number, m: number): number => ((((x - 1) % m) + m) % m) + 1;

/**
 * The Berger table for an even number of players: rounds of [first seat, second seat] number
 * pairs, board order as printed.
 */
export function bergerTable(n: number): [number, number][][] {
  if (!Number.isInteger(n) || n < 2 || n % 2 !== 0) throw new RangeError('bergerTable needs an even number of players, at least 2');
  if (n === 2) return [[[1, 2]]];
  const m = n - 1;
  const rounds: [number, number][][] = [];
  for (let r = 1; r <= m; r++) {
    // 2 has the inverse (m + 1) / 2 modulo the odd m.
    const p = mod1(((r + 1) * (m + 1)) / 2, m);
    const boards: [number, number][] = [r % 2 === 1 ? [p, n] : [n, p]];
    for (let k = 2; k <= n / 2; k++) {
      const first = mod1(p + k - 1, m);
      boards.push([first, mod1(r + 1 - first, m)]);
    }
    rounds.push(boards);
  }
  return rounds;
}

export interface RoundRobinOptions {
  /** Play every pairing twice: the second cycle is the first again with the seats swapped. */
  double?: boolean;
}

/**
 * All rounds of a round robin for `players` in draw-number order (player 1 first). Odd fields:
 * the player drawn against the phantom n + 1 has a bye, listed after the real boards.
 */
export function roundRobin(players: readonly PlayerId[], options: RoundRobinOptions = {}): Pairing[][] {
  if (new Set(players).size !== players.length) throw new RangeError('duplicate player id');
  if (players.length < 2) throw new RangeError('a round robin needs at least two players');
  const n = players.length % 2 === 0 ? players.length : players.length + 1;
  const id = (k: number): PlayerId | null => (k <= players.length ? players[k - 1]! : null);
  const cycle = bergerTable(n).map((round) => {
    const boards: Pairing[] = [];
    let bye: Pairing | null = null;
    for (const [a, b] of round) {
      const p1 = id(a);
      const p2 = id(b);
      if (p1 === null) bye = { bye: p2! };
      else if (p2 === null) bye = { bye: p1 };
      else boards.push({ p1, p2 });
    }
    return bye ? [...boards, bye] : boards;
  });
  if (!options.double) return cycle;
  const swapped = cycle.map((round) => round.map((g): Pairing => ('bye' in g ? { bye: g.bye } : { p1: g.p2, p2: g.p1 })));
  return [...cycle, ...swapped];
}
