/**
 * The reference bot's strategies.
 *
 * random: uniform over the legal actions.
 *
 * greedy: looks one decision ahead with the engine. It rebuilds what its seat may know as an
 * engine state (belief.ts: the view plus the public events, hidden cards as stand-ins), applies
 * each legal action to it with the engine's pure `apply`, and keeps the action after which its
 * score minus the opponent's is highest (a won game counts above any score, a lost one below).
 * The simulation stops where the seat's turn ends: what the opponent draws, reveals and decides
 * next is hidden, and a stand-in must not decide for it. Ties are broken by its dice. Both end
 * the ability phase deep in a chain: the rules allow chains without end (two Swap cards can
 * swap each other for ever), as the engine's own random player does.
 */
import { evons } from '../../src/games/evons/ruleset.js';
import { defaultCardSet, type Action, type GameState, type Seat } from '../../src/games/evons/index.js';
// The engine's own scoring (R-SCORE), not a copy of the rule; view() would give the same numbers
// but also hashes the rules on every call, which the greedy pays for hundreds of times a move.
import { scores } from '../../src/games/evons/stats.js';
import type { EvonsAction } from '../../clients/typescript/src/index.js';
import { beliefState } from './belief.js';
import { turnFacts } from './turn-facts.js';
import { dice, type Observation, type StrategyFactory } from './strategy.js';

/** Deeper than this in a chain, random ends the ability phase (the engine's random player's limit). */
const CHAIN_LIMIT = 8;

/** End-phase when the chain is past the limit and it is on offer. */
function chainBreak({ legal, events }: Observation): EvonsAction | undefined {
  const end = legal.find((a) => a.type === 'end-phase');
  return end && turnFacts(events).stack.length > CHAIN_LIMIT ? end : undefined;
}

export const random: StrategyFactory = (seed) => {
  const roll = dice(seed);
  return {
    name: 'random',
    choose(o) {
      return chainBreak(o) ?? o.legal[Math.floor(roll() * o.legal.length)]!;
    },
  };
};

const WIN = 1_000;

/** The seat's score lead in `s`: a decided game counts ±WIN beyond any score. */
function lead(s: GameState, seat: Seat): number {
  const other: Seat = seat === 'p1' ? 'p2' : 'p1';
  if (s.result) {
    const diff = s.result.scores[seat] - s.result.scores[other];
    return s.result.winner === null ? diff : s.result.winner === seat ? WIN + diff : -WIN + diff;
  }
  const now = scores(s);
  return now[seat] - now[other];
}

/** The state right after `action` and everything it sets off, up to the end of the seat's turn. */
function after(belief: GameState, seat: Seat, action: Action): GameState | null {
  const r = evons.apply(belief, seat, action);
  if (!r.ok) return null;
  const end = r.events.findIndex((e) => e.type === 'TurnEnded' || e.type === 'GameEnded');
  // The turn goes on: the state is the engine's own. It ended: replay only this turn's part.
  return end < 0 || r.events[end]!.type === 'GameEnded' ? r.state : evons.evolve(belief, r.events.slice(0, end + 1));
}

export const greedy: StrategyFactory = (seed) => {
  const roll = dice(seed);
  const cardSet = defaultCardSet();
  return {
    name: 'greedy',
    choose(o: Observation): EvonsAction {
      // A chain that changes nothing can go on for ever (equal leads, dice for tie-breaks).
      const stop = chainBreak(o);
      if (stop) return stop;
      const seat = o.view.viewer as Seat;
      const belief = beliefState(o.view, o.events, cardSet);
      let best: EvonsAction[] = [];
      let bestLead = -Infinity;
      for (const action of o.legal) {
        const s = after(belief, seat, action as Action);
        const value = s ? lead(s, seat) : -Infinity;
        if (value > bestLead) {
          bestLead = value;
          best = [action];
        } else if (value === bestLead) best.push(action);
      }
      // No simulation worked (a belief the engine disagrees with): fall back to any legal action.
      const pool = best.length > 0 ? best : o.legal;
      return pool[Math.floor(roll() * pool.length)]!;
    },
  };
};

export const STRATEGIES: Record<string, StrategyFactory> = { random, greedy };
