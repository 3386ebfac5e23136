/**
 * The computer player's ladder, one game at a time: players (a level, the game's random player,
 * or the reference bot's greedy strategy for Evons) play a whole game directly on the engine,
 * each seat given only what the API would give it. bench/ai.ts runs the ladder on worker
 * threads; test/bench/ai-ladder.test.ts runs a tiny one so this cannot rot.
 */
import { decide, decideWithBudget, type Level, type LevelBudget } from '../../src/ai/index.js';
import { playableGame } from '../../src/service/ai/games.js';
import { keyedStream, nextInt } from '../../src/core/random.js';
import { expandDeck, type Seat, type SeatEvent } from '../../src/core/ruleset.js';
import { greedy } from '../../examples/bot/strategies.js';
import type { EvonsAction, GameView, MatchEvent } from '../../clients/typescript/src/index.js';

/**
 * `ai`: a level of the service. `random`: the game's own seeded random player
 * (Ruleset.randomPlayer: uniform in Evons; in UniVersus it leans towards playing on, choosing
 * among the actions other than a pass 7 times in 8). `uniform`: a uniformly random legal action,
 * in every game. `bot`: examples/bot's greedy (Evons only). `budget`: the computer on a
 * budget being tried. `oracle`: the computer on `budget` with every sampled world replaced by the
 * true state, deck order and the other hand included: never a player of the service, only a
 * measure of how much a game's luck caps an honest player.
 */
export type PlayerSpec =
  | { kind: 'ai'; level: Level }
  | { kind: 'random' }
  | { kind: 'uniform' }
  | { kind: 'bot' }
  | { kind: 'budget'; name: string; budget: LevelBudget }
  | { kind: 'oracle'; name: string; budget: LevelBudget };

export const nameOf = (p: PlayerSpec): string =>
  p.kind === 'ai' ? `L${p.level}` : p.kind === 'budget' || p.kind === 'oracle' ? p.name : p.kind;

export interface GameSpec {
  game: string;
  players: Record<Seat, PlayerSpec>;
  seed: string;
}

export interface GameResult {
  winner: Seat | null;
  decisions: number;
  /** CPU microseconds of each computer decision with a real choice (two or more legal actions), per seat. */
  cpu: Record<Seat, number[]>;
}

/** A safety net against a pair that never ends a game (the rules end every game). */
const MAX_DECISIONS = 5_000;

/** Deck choice from the seed: starter decks, one per seat. */
function deckIndex(seed: string, salt: number, n: number): number {
  let h = salt;
  for (let i = 0; i < seed.length; i++) h = (Math.imul(h ^ seed.charCodeAt(i), 0x9e3779b1) + 1) >>> 0;
  return h % n;
}

export function playGame(spec: GameSpec): GameResult {
  const rs = playableGame(spec.game);
  if (!rs) throw new Error(`${spec.game}: the computer cannot play it`);
  const decks = rs.starterDecks;
  const deck = (seat: Seat) => expandDeck(decks[deckIndex(spec.seed, seat === 'p1' ? 1 : 2, decks.length)]!.cards);
  const created = rs.create({ config: rs.configSchema.parse({}), decks: { p1: deck('p1'), p2: deck('p2') }, seed: spec.seed });
  if (!created.ok) throw new Error(created.errors.join('; '));
  let state = created.state;
  const logs: Record<Seat, SeatEvent[]> = { p1: [], p2: [] };
  // The reference bot reads events in the API's envelope.
  const envelopes: Record<Seat, MatchEvent[]> = { p1: [], p2: [] };
  let seq = 0;
  const record = (events: readonly unknown[], acting: Seat | null) => {
    for (const e of events) {
      seq++;
      for (const s of ['p1', 'p2'] as const) {
        const r = rs.redactEvent(e, s);
        if (!r) continue;
        logs[s].push(r as SeatEvent);
        envelopes[s].push({ seq, actingSeat: acting, source: 'game', event: r } as unknown as MatchEvent);
      }
    }
  };
  record(created.events, null);
  const random = { p1: rs.randomPlayer(`${spec.seed}:random:p1`), p2: rs.randomPlayer(`${spec.seed}:random:p2`) };
  const uniform = { p1: keyedStream(spec.seed, 'uniform:p1'), p2: keyedStream(spec.seed, 'uniform:p2') };
  const bots = { p1: greedy(`${spec.seed}:bot:p1`), p2: greedy(`${spec.seed}:bot:p2`) };
  const cpu: Record<Seat, number[]> = { p1: [], p2: [] };
  let decisions = 0;
  while (!rs.outcome(state)) {
    if (decisions++ > MAX_DECISIONS) return { winner: null, decisions, cpu };
    const seat = rs.pending(state)!.seat;
    const legal = rs.legalActions(state, seat);
    const p = spec.players[seat];
    let action: { type: string };
    if (p.kind === 'random') action = random[seat](state, legal);
    else if (p.kind === 'uniform') action = legal[nextInt(uniform[seat], legal.length)]!;
    else if (p.kind === 'bot') {
      action = bots[seat].choose({
        game: 'evons',
        view: rs.view(state, seat) as GameView,
        legal: legal as EvonsAction[],
        events: envelopes[seat],
      });
    } else {
      const t0 = process.cpuUsage();
      const input = { view: rs.view(state, seat), seat, legal, events: logs[seat] };
      const decisionSeed = `${spec.seed}:${decisions}`;
      if (p.kind === 'ai') action = decide(rs, input, p.level, decisionSeed);
      else if (p.kind === 'budget') action = decideWithBudget(rs, input, p.budget, decisionSeed);
      else {
        const seen = state;
        action = decideWithBudget(
          { ...rs, hiddenInformation: { ...rs.hiddenInformation, sampler: () => () => seen } },
          input,
          p.budget,
          decisionSeed,
        );
      }
      const t = process.cpuUsage(t0);
      if (legal.length > 1) cpu[seat].push(t.user + t.system);
    }
    const r = rs.apply(state, seat, action);
    if (!r.ok) throw new Error(`${nameOf(p)} chose an illegal action in ${spec.game} (seed ${spec.seed}): ${r.error.code}`);
    state = r.state;
    record(r.events, seat);
  }
  return { winner: rs.outcome(state)!.winner, decisions, cpu };
}

/** One pairing of the ladder: `a` against `b`, seats alternating. */
export interface Pairing {
  game: string;
  a: PlayerSpec;
  b: PlayerSpec;
  games: number;
}

/** The games of a pairing, seats alternating (a is p1 in even games). */
export function gamesOf(p: Pairing, baseSeed: string): GameSpec[] {
  return Array.from({ length: p.games }, (_, i) => {
    const aSeat: Seat = i % 2 === 0 ? 'p1' : 'p2';
    const players = (aSeat === 'p1' ? { p1: p.a, p2: p.b } : { p1: p.b, p2: p.a }) as Record<Seat, PlayerSpec>;
    return { game: p.game, players, seed: `${baseSeed}:${p.game}:${nameOf(p.a)}-${nameOf(p.b)}:${i}` };
  });
}

/** 95 % Wilson interval of a proportion (draws count half). */
export function wilson(score: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = score / n;
  const d = 1 + (z * z) / n;
  const c = p + (z * z) / (2 * n);
  const r = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [(c - r) / d, (c + r) / d];
}

/** The Elo difference a score share implies (±∞ clamped to ±800). */
export function eloGap(share: number): number {
  if (share <= 0) return -800;
  if (share >= 1) return 800;
  return Math.max(-800, Math.min(800, 400 * Math.log10(share / (1 - share))));
}

export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
