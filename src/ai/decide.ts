/**
 * The computer player: one decision from what one seat may know, at one of eight levels
 * (levels.ts). Pure like the engines it drives: no I/O, no clock, no Math.random; its dice are a
 * seeded stream, so the same input, level and seed give the same action.
 *
 * Honest by construction: the input (AiInput) holds the seat's view, its legal actions and the
 * events it may see, never a state. Every state the search plays on is sampled by the game
 * (Ruleset.hiddenInformation) from that knowledge, so nothing hidden can reach a decision.
 */
import { nextInt, sfc32Stream } from '../core/random.js';
import type { HiddenInformation, Ruleset, Seat, SeatEvent } from '../core/ruleset.js';
import { BUDGETS, isLevel, type Level, type LevelBudget } from './levels.js';

/** What a seat knows when it must decide: all the computer player is ever given. */
export interface AiInput<V, A> {
  /** `ruleset.view(state, seat)`: the seat's redacted view (its `viewer` is the seat). */
  readonly view: V;
  readonly seat: Seat;
  /** The seat's legal actions now (never empty: the seat is to decide). */
  readonly legal: readonly A[];
  /** The match's game events as `redactEvent(event, seat)` gave them, oldest first. */
  readonly events: readonly SeatEvent[];
}

/** A game the computer can play: a ruleset with hidden-information support. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PlayableRuleset<S, A extends { type: string }, V> = Ruleset<S, A, any, V, any> & {
  readonly hiddenInformation: HiddenInformation<S, V>;
};

const INPUT_KEYS = ['events', 'legal', 'seat', 'view'];

/**
 * Refuses anything but a seat's knowledge: exactly the four fields, a view whose viewer is the
 * seat (a state has no viewer), at least one legal action. The types say so already; this holds
 * for callers that come through `unknown` (a worker's message).
 */
export function checkInput(input: unknown): asserts input is AiInput<unknown, { type: string }> {
  if (typeof input !== 'object' || input === null) throw new TypeError('an AiInput is an object');
  const keys = Object.keys(input).sort();
  if (keys.join() !== INPUT_KEYS.join()) throw new TypeError(`an AiInput has exactly ${INPUT_KEYS.join(', ')}; got ${keys.join(', ')}`);
  const i = input as Record<string, unknown>;
  if (i.seat !== 'p1' && i.seat !== 'p2') throw new TypeError('seat must be p1 or p2');
  const viewer = typeof i.view === 'object' && i.view !== null ? (i.view as { viewer?: unknown }).viewer : undefined;
  if (viewer !== i.seat)
    throw new TypeError("view must be the seat's own view (its viewer is the seat), not a state or another seat's view");
  if (!Array.isArray(i.legal) || i.legal.length === 0) throw new TypeError("legal must list the seat's legal actions");
  if (!Array.isArray(i.events)) throw new TypeError("events must be the seat's redacted events");
}

/** Scores a heuristic value in [0, 1] for the search (a won game near 1). */
const squash = (h: number): number => 1 / (1 + Math.exp(-h / 3));

interface Node {
  visits: number;
  /** Sum of values for the deciding seat of the search. */
  value: number;
  /** Simulations in which this node's action was legal (IS-MCTS availability). */
  avail: number;
  children: Map<string, Node>;
}

const newNode = (): Node => ({ visits: 0, value: 0, avail: 0, children: new Map() });
const keyOf = (a: unknown): string => JSON.stringify(a);
const EXPLORATION = 0.7;

/** One decision. Throws only for a bad input or level; any legal position gets a legal action. */
export function decide<S, A extends { type: string }, V>(
  game: PlayableRuleset<S, A, V>,
  input: AiInput<V, A>,
  level: Level,
  seed: string,
): A {
  if (!isLevel(level)) throw new RangeError('level is 1 to 8');
  return decideWithBudget(game, input, BUDGETS[level], `${level}:${seed}`);
}

/** One decision on an explicit budget (a level's, or one being tried by bench:ai). */
export function decideWithBudget<S, A extends { type: string }, V>(
  game: PlayableRuleset<S, A, V>,
  input: AiInput<V, A>,
  budget: LevelBudget,
  seed: string,
): A {
  checkInput(input);
  const { legal, seat } = input;
  if (legal.length === 1) return legal[0]!;
  const rng = sfc32Stream(seed, 'ai:');
  // A lower level's deliberate slips: an action drawn from all legal ones.
  if (budget.slips > 0 && nextInt(rng, 1_000_000) < budget.slips * 1_000_000) return legal[nextInt(rng, legal.length)]!;
  const sample = game.hiddenInformation.sampler(input.view, seat, input.events);
  const evaluate = game.hiddenInformation.evaluate;

  /** The value for `seat` of `action` applied in `world`, or null when that world refuses it. */
  const onePly = (world: S, action: A): number | null => {
    const r = game.apply(world, seat, action);
    return r.ok ? evaluate(r.state, seat) : null;
  };

  /** One-ply values on `worlds` sampled worlds: the average per action (a refusal counts as very bad). */
  const greedyValues = (worlds: number): number[] => {
    const totals = legal.map(() => 0);
    for (let w = 0; w < worlds; w++) {
      const world = sample(rng);
      legal.forEach((a, i) => {
        let v: number | null = null;
        try {
          v = onePly(world, a);
        } catch {
          // As a refusal: see the simulations below.
        }
        totals[i]! += v ?? -1e6;
      });
    }
    return totals;
  };

  /** Indexes of the best values, ties broken by the dice. */
  const bestOf = (values: readonly number[], n: number): number[] => {
    const order = values.map((v, i) => ({ v, i, tie: nextInt(rng, 1 << 30) }));
    order.sort((x, y) => y.v - x.v || x.tie - y.tie);
    return order.slice(0, n).map((o) => o.i);
  };

  if (budget.algorithm === 'greedy') return legal[bestOf(greedyValues(budget.worlds), 1)[0]!]!;

  const candidates = bestOf(greedyValues(budget.worlds), Math.max(1, budget.candidates)).map((i) => legal[i]!);
  if (candidates.length === 1) return candidates[0]!;
  const candidateKeys = candidates.map(keyOf);
  const rollout = game.randomPlayer(`${seed}:rollout`);
  const root = newNode();
  let nodes = 1;

  const play = (s: S, mover: Seat, a: A): S | null => {
    const r = game.apply(s, mover, a);
    return r.ok ? r.state : null;
  };

  for (let sim = 0; sim < budget.simulations; sim++) {
    try {
      simulate();
    } catch {
      // A sampled world the engine cannot play on (never seen in the tests) costs one
      // simulation, not the decision.
    }
  }

  function simulate(): void {
    let s = sample(rng);
    const path: Node[] = [root];
    let node = root;
    let depth = 0;
    // Selection and expansion along the actions legal in this world.
    for (;;) {
      if (game.outcome(s)) break;
      const pending = game.pending(s);
      if (!pending) break;
      const mover = pending.seat;
      const acts: readonly A[] = depth === 0 ? candidates : game.legalActions(s, mover);
      if (acts.length === 0) break;
      const keys = depth === 0 ? candidateKeys : acts.map(keyOf);
      const untried: number[] = [];
      for (let i = 0; i < keys.length; i++) {
        const child = node.children.get(keys[i]!);
        if (child) child.avail++;
        else untried.push(i);
      }
      let pick: number;
      let child: Node;
      if (untried.length > 0) {
        if (nodes >= budget.maxNodes) break;
        pick = untried[nextInt(rng, untried.length)]!;
        child = newNode();
        child.avail = 1;
        node.children.set(keys[pick]!, child);
        nodes++;
      } else {
        let best = -Infinity;
        pick = 0;
        for (let i = 0; i < keys.length; i++) {
          const c = node.children.get(keys[i]!)!;
          const mean = c.value / c.visits;
          const own = mover === seat ? mean : 1 - mean;
          const ucb = own + EXPLORATION * Math.sqrt(Math.log(c.avail) / c.visits);
          if (ucb > best) {
            best = ucb;
            pick = i;
          }
        }
        child = node.children.get(keys[pick]!)!;
      }
      const next = play(s, mover, acts[pick]!);
      if (!next) break;
      s = next;
      path.push(child);
      node = child;
      depth++;
      if (untried.length > 0) break;
    }
    // Rollout: random moves, then the heuristic.
    for (let i = 0; i < budget.rollout && !game.outcome(s); i++) {
      const pending = game.pending(s);
      if (!pending) break;
      const next = play(s, pending.seat, rollout(s));
      if (!next) break;
      s = next;
    }
    const v = squash(evaluate(s, seat));
    for (const n of path) {
      n.visits++;
      n.value += v;
    }
  }

  let bestIndex = 0;
  let bestVisits = -1;
  let bestMean = -Infinity;
  candidateKeys.forEach((k, i) => {
    const c = root.children.get(k);
    const visits = c?.visits ?? 0;
    const mean = c && c.visits > 0 ? c.value / c.visits : -Infinity;
    if (visits > bestVisits || (visits === bestVisits && mean > bestMean)) {
      bestIndex = i;
      bestVisits = visits;
      bestMean = mean;
    }
  });
  return candidates[bestIndex]!;
}
