/**
 * Swiss pairing by the Monrad system: players are ranked by score, then by their initial order
 * (rating order or a seeded draw, see initial-order.ts); the top-ranked unpaired player meets the
 * highest-ranked player it has not met, backtracking whenever the players left could not all be
 * paired. The result is the first complete pairing in that order (the pairing a depth-first
 * search would find). Instead of an exponential search, the "can the rest be paired" question is
 * answered exactly by a blossom matching (matching.ts); a plain greedy pass runs first because it
 * finds the same pairing whenever it never gets stuck, which is almost always.
 *
 * Rules, in priority order:
 *   1. No two players meet twice (any earlier pairing counts, forfeits included). Absolute.
 *   2. Odd count: one bye, to the lowest-ranked player who has not had one and without whom the
 *      others can all be paired. A pairing-allocated bye is given at most once per player.
 *   3. Seat balance: a player whose seat difference (first seats minus second seats) is +2 must
 *      take the second seat next, at -2 the first; two such players needing the same seat are not
 *      paired together unless the round cannot be paired otherwise (then `seatRuleRelaxed`). This
 *      keeps every difference within ±2 whenever that is achievable with the chosen bye.
 * If rule 1 or 2 cannot be met, pairSwissRound throws NoPairingError.
 */
import { Matcher } from './matching.js';
import { scores } from './standings.js';
import { DEFAULT_SCORING, type Pairing, type PlayerId, type RoundResults, type Scoring } from './types.js';

export class NoPairingError extends Error {
  override readonly name = 'NoPairingError';
}

export interface SwissInput {
  /** The active players (withdrawn ones left out) in initial order, best first. */
  players: readonly PlayerId[];
  /** Results of every earlier round, withdrawn players' games included. */
  results: readonly RoundResults[];
  /** Points used for the ranking (byes and forfeits count as scored). */
  scoring?: Scoring;
}

export interface SwissRound {
  /** Boards in ranking order of their higher-ranked player; the bye, if any, last. */
  pairings: Pairing[];
  /** True when rule 3 had to be broken to pair the round at all. */
  seatRuleRelaxed: boolean;
}

/** +1 for the first seat, -1 for the second. */
type Seat = 1 | -1;

interface History {
  met: Set<PlayerId>;
  seats: Seat[];
  byes: number;
}

/** Opponents, seats and byes of every player from the results of earlier rounds. */
export function histories(results: readonly RoundResults[]): Map<PlayerId, History> {
  const out = new Map<PlayerId, History>();
  const of = (p: PlayerId): History => {
    let h = out.get(p);
    if (!h) out.set(p, (h = { met: new Set(), seats: [], byes: 0 }));
    return h;
  };
  for (const round of results) {
    for (const r of round) {
      if ('bye' in r) {
        of(r.bye).byes++;
        continue;
      }
      of(r.p1).met.add(r.p2);
      of(r.p2).met.add(r.p1);
      of(r.p1).seats.push(1);
      of(r.p2).seats.push(-1);
    }
  }
  return out;
}

const seatDiff = (seats: readonly Seat[]): number => seats.reduce<number>((t, s) => t + s, 0);

/** The active players in pairing order: score descending, then initial order. */
export function pairingRanking(
  players: readonly PlayerId[],
  results: readonly RoundResults[],
  scoring: Scoring = DEFAULT_SCORING,
): PlayerId[] {
  const pts = scores(results, scoring);
  return players
    .map((p, i) => ({ p, i, s: pts.get(p) ?? 0 }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.p);
}

/**
 * The Monrad pairing of `order` (ranked) under `edge`, as pairs of positions in `order`, or null
 * when no complete pairing exists.
 */
function monrad(k: number, edge: (u: number, v: number) => boolean): [number, number][] | null {
  // Greedy pass: the depth-first search's first branch. If it completes, it is the answer.
  const used = new Uint8Array(k);
  const pairs: [number, number][] = [];
  let stuck = false;
  for (let i = 0; i < k && !stuck; i++) {
    if (used[i]) continue;
    let j = i + 1;
    while (j < k && (used[j] || !edge(i, j))) j++;
    if (j === k) stuck = true;
    else {
      used[i] = used[j] = 1;
      pairs.push([i, j]);
    }
  }
  if (!stuck) return pairs;

  // Exact pass: keep a perfect matching of the unpaired players; fixing (top, c) is allowed iff
  // the rest still has one, i.e. iff the two players left exposed can be joined by an augmenting path.
  const alive = new Uint8Array(k).fill(1);
  const m = new Matcher(k, edge, alive);
  const match = m.match;
  for (let i = 0; i < k; i++) {
    if (match[i] !== -1) continue;
    for (let j = i + 1; j < k; j++) {
      if (match[j] === -1 && edge(i, j)) {
        match[i] = j;
        match[j] = i;
        break;
      }
    }
  }
  for (let i = 0; i < k; i++) if (match[i] === -1 && !m.augment(i)) return null;
  const out: [number, number][] = [];
  for (let top = 0; top < k; top++) {
    if (!alive[top]) continue;
    for (let c = top + 1; c < k; c++) {
      if (!alive[c] || !edge(top, c)) continue;
      if (match[c] === top) {
        alive[top] = alive[c] = 0;
        out.push([top, c]);
        break;
      }
      const saved = match.slice();
      const t2 = match[top]!;
      const c2 = match[c]!;
      alive[top] = alive[c] = 0;
      match[top] = match[c] = match[t2] = match[c2] = -1;
      if (m.augment(t2)) {
        out.push([top, c]);
        break;
      }
      match.set(saved);
      alive[top] = alive[c] = 1;
    }
    // The matching kept for the rest guarantees some c was accepted.
    if (alive[top]) throw new Error('unreachable: no partner although a perfect matching existed');
  }
  return out;
}

/**
 * Who takes the first seat when `a` (the higher-ranked) meets `b`: the player with the lower seat
 * difference; on equal differences, each takes the opposite of their seats in the latest round
 * (counting back from each one's last game) in which they differed; if they never differed, the
 * higher-ranked player alternates from its last seat, or else the lower-ranked from its own, or
 * else (no games yet: round 1's 1–2, 3–4, …) the lower-ranked player, the even number, takes the
 * first seat, as the Monrad rules of Norges Sjakkforbund give it (2 has the first seat against 1).
 */
export function seatPair(a: PlayerId, b: PlayerId, seatsA: readonly Seat[], seatsB: readonly Seat[]): { p1: PlayerId; p2: PlayerId } {
  const da = seatDiff(seatsA);
  const db = seatDiff(seatsB);
  if (da !== db) return da < db ? { p1: a, p2: b } : { p1: b, p2: a };
  for (let i = seatsA.length - 1, j = seatsB.length - 1; i >= 0 && j >= 0; i--, j--) {
    if (seatsA[i] !== seatsB[j]) return seatsA[i] === -1 ? { p1: a, p2: b } : { p1: b, p2: a };
  }
  const lastA = seatsA[seatsA.length - 1];
  if (lastA !== undefined) return lastA === -1 ? { p1: a, p2: b } : { p1: b, p2: a };
  const lastB = seatsB[seatsB.length - 1];
  if (lastB !== undefined) return lastB === -1 ? { p1: b, p2: a } : { p1: a, p2: b };
  return { p1: b, p2: a };
}

/** Pairs the next round of a Swiss tournament. Pure: the same input gives the same pairings. */
export function pairSwissRound(input: SwissInput): SwissRound {
  const { players, results } = input;
  if (new Set(players).size !== players.length) throw new RangeError('duplicate player id');
  const hist = histories(results);
  const empty: History = { met: new Set(), seats: [], byes: 0 };
  const ranked = pairingRanking(players, results, input.scoring ?? DEFAULT_SCORING);
  const h = ranked.map((p) => hist.get(p) ?? empty);
  const need = h.map((x) => {
    const d = seatDiff(x.seats);
    return d >= 2 ? -1 : d <= -2 ? 1 : 0;
  });

  // Opponents by ranking position: the blossom search asks edge() up to n² times, and number
  // sets answer faster than string sets.
  const position = new Map(ranked.map((p, i) => [p, i]));
  const met = h.map((x) => new Set([...x.met].flatMap((p) => position.get(p) ?? [])));

  /** Pairs `order` (indices into ranked), strictly (rule 3 kept) or not. */
  const pairOf = (order: number[], strict: boolean): [number, number][] | null => {
    const edge = (u: number, v: number): boolean => {
      const a = order[u]!;
      const b = order[v]!;
      if (met[a]!.has(b)) return false;
      return !strict || need[a] === 0 || need[a] !== need[b];
    };
    const local = monrad(order.length, edge);
    return local && local.map(([u, v]) => [order[u]!, order[v]!]);
  };

  const all = ranked.map((_, i) => i);
  let bye: number | null = null;
  let rest = all;
  if (ranked.length % 2 === 1) {
    for (let i = ranked.length - 1; i >= 0 && bye === null; i--) {
      if (h[i]!.byes > 0) continue;
      const others = all.filter((x) => x !== i);
      if (pairOf(others, false)) {
        bye = i;
        rest = others;
      }
    }
    if (bye === null) throw new NoPairingError('no player can take the bye with the others all paired without a repeat');
  }
  let seatRuleRelaxed = false;
  let pairs = pairOf(rest, true);
  if (!pairs) {
    seatRuleRelaxed = true;
    pairs = pairOf(rest, false);
  }
  if (!pairs) throw new NoPairingError('the players cannot all be paired without a repeat');
  const pairings: Pairing[] = pairs
    .map(([u, v]) => (u < v ? [u, v] : [v, u]))
    .sort((x, y) => x[0]! - y[0]!)
    .map(([u, v]) => seatPair(ranked[u!]!, ranked[v!]!, h[u!]!.seats, h[v!]!.seats));
  if (bye !== null) pairings.push({ bye: ranked[bye]! });
  return { pairings, seatRuleRelaxed };
}
