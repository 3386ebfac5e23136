/**
 * The reference bot's strategies.
 *
 * random: uniform over the legal actions (any game).
 *
 * greedy: looks one decision ahead with the engine. It rebuilds what its seat may know as an
 * engine state (belief.ts: the view plus the public events, hidden cards as stand-ins), applies
 * each legal action to it with the engine's pure `apply`, and keeps the action after which its
 * score minus the opponent's is highest (a won game counts above any score, a lost one below).
 * The simulation stops where the seat's turn ends: what the opponent draws, reveals and decides
 * next is hidden, and a stand-in must not decide for it. Ties are broken by its dice. Both end
 * the ability phase deep in a chain: the rules allow chains without end (two Swap cards can
 * swap each other for ever), as the engine's own random player does. Evons only.
 *
 * level:1 … level:8: the computer player's search (src/ai, the same code and levels the server's
 * computer seats run), given what the seat read over the API. Any game the search plays.
 */
import { evons } from '../../src/games/evons/ruleset.js';
import { defaultCardSet, type Action, type GameState, type Seat } from '../../src/games/evons/index.js';
// The engine's own scoring (R-SCORE), not a copy of the rule; view() would give the same numbers
// but also hashes the rules on every call, which the greedy pays for hundreds of times a move.
import { scores } from '../../src/games/evons/stats.js';
import type { EvonsAction } from '../../clients/typescript/src/index.js';
import { beliefState } from './belief.js';
import { turnFacts } from './turn-facts.js';
import { decide, isLevel, LEVELS, type AiInput, type Level } from '../../src/ai/index.js';
import { playableGame, playableGames } from '../../src/service/ai/games.js';
import { dice, type AnyStrategy, type Observation, type Strategy, type StrategyFactory } from './strategy.js';

/** Deeper than this in a chain, random ends the ability phase (the engine's random player's limit). */
const CHAIN_LIMIT = 8;

/** End-phase when the chain is past the limit and it is on offer. */
function chainBreak({ game, legal, events }: Observation<unknown, { type: string }>): { type: string } | undefined {
  if (game !== 'evons') return undefined;
  const end = legal.find((a) => a.type === 'end-phase');
  return end && turnFacts(events).stack.length > CHAIN_LIMIT ? end : undefined;
}

export const random: StrategyFactory<AnyStrategy> = (seed) => {
  const roll = dice(seed);
  return {
    name: 'random',
    games: playableGames(),
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

export const greedy: StrategyFactory<Strategy> = (seed) => {
  const roll = dice(seed);
  const cardSet = defaultCardSet();
  return {
    name: 'greedy',
    games: ['evons'],
    choose(o: Observation): EvonsAction {
      // A chain that changes nothing can go on for ever (equal leads, dice for tie-breaks).
      const stop = chainBreak(o);
      if (stop) return stop as EvonsAction;
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

/**
 * What the search is given, from what the API gave the seat: the view (the `game` of the match
 * read with the seat's token, its viewer the seat), the legal actions, and the game's events of
 * the seat's log (the match's own records, such as a clock, are not the game's). The server's
 * computer builds the same from its job (src/service/ai/decide.ts).
 */
export function searchInput(o: Observation<unknown, { type: string }>): AiInput<unknown, { type: string }> {
  const seat = (o.view as { viewer?: unknown }).viewer;
  if (seat !== 'p1' && seat !== 'p2') throw new Error("the view is not a seat's own (read the match with the seat's token)");
  return {
    view: o.view,
    seat,
    legal: o.legal,
    events: o.events.filter((e) => e.source === 'game').map((e) => e.event) as AiInput<unknown, { type: string }>['events'],
  };
}

/**
 * The search at `level` (1 to 8; src/ai/levels.ts says what each spends). Each decision is seeded
 * by the strategy's seed and the last event the seat saw, as the server's computer seeds it by
 * the match and its version: the same position and seed give the same action.
 */
export function level(n: Level): StrategyFactory<AnyStrategy> {
  if (!isLevel(n)) throw new RangeError(`a level is 1 to 8, not ${String(n)}`);
  return (seed) => ({
    name: `level:${n}`,
    games: playableGames(),
    choose(o) {
      const game = playableGame(o.game);
      if (!game) throw new Error(`the search does not play ${o.game}`);
      return decide(game, searchInput(o), n, `${seed}:${o.events.at(-1)?.seq ?? 0}`);
    },
  });
}

export const STRATEGIES: Record<string, StrategyFactory<AnyStrategy>> = {
  random,
  greedy,
  ...Object.fromEntries(LEVELS.map((n) => [`level:${n}`, level(n)])),
};
