/**
 * Scores, tiebreaks, standings and a crosstable from the results of finished rounds. Results of
 * players who have since withdrawn still count (their opponents keep what they earned).
 *
 * Tiebreaks, as computed here:
 *   - Buchholz: the sum of the final scores of every opponent the player was paired with (a game
 *     won or lost by forfeit counts; the opponent's whole score, byes included). A bye has no
 *     opponent and adds nothing.
 *   - Sonneborn-Berger: the sum, over the same games, of (points the player earned in that game) ×
 *     (that opponent's final score). A bye adds nothing.
 *   - Direct encounter: among the players with the same points, the points each earned in games
 *     against the others of that group. It orders the group only when every two of its players
 *     have met (otherwise it is reported but skipped), because a partial count compares unlike
 *     things.
 * Ties left after every tiebreak keep the input order of `players` (the initial ranking).
 */
import { DEFAULT_SCORING, type GameResult, type PlayerId, type RoundResults, type Scoring } from './types.js';

/** One game seen from one player. */
interface GameView {
  opponent: PlayerId;
  points: number;
  /** Symbol for a crosstable cell: 1, ½, 0, + (forfeit win), - (forfeit loss). */
  symbol: string;
}

/** What each player earned in each game (byes separately). */
function gamesOf(results: readonly RoundResults[], scoring: Scoring): { games: Map<PlayerId, GameView[]>; byes: Map<PlayerId, number> } {
  const games = new Map<PlayerId, GameView[]>();
  const byes = new Map<PlayerId, number>();
  const add = (p: PlayerId, g: GameView) => {
    const list = games.get(p);
    if (list) list.push(g);
    else games.set(p, [g]);
  };
  for (const round of results) {
    for (const r of round) {
      if ('bye' in r) {
        byes.set(r.bye, (byes.get(r.bye) ?? 0) + 1);
        continue;
      }
      const [a, b] = sides(r, scoring);
      add(r.p1, { opponent: r.p2, ...a });
      add(r.p2, { opponent: r.p1, ...b });
    }
  }
  return { games, byes };
}

/** Points and crosstable symbols for the two seats of one game. */
function sides(
  r: Exclude<GameResult, { bye: PlayerId }>,
  s: Scoring,
): [{ points: number; symbol: string }, { points: number; symbol: string }] {
  const win = r.forfeit ? { points: s.forfeitWin, symbol: '+' } : { points: s.win, symbol: '1' };
  const loss = r.forfeit ? { points: s.forfeitLoss, symbol: '-' } : { points: s.loss, symbol: '0' };
  switch (r.outcome) {
    case 'p1':
      return [win, loss];
    case 'p2':
      return [loss, win];
    case 'draw':
      return [
        { points: s.draw, symbol: '½' },
        { points: s.draw, symbol: '½' },
      ];
    case 'double-forfeit':
      return [
        { points: s.forfeitLoss, symbol: '-' },
        { points: s.forfeitLoss, symbol: '-' },
      ];
  }
}

/** Each player's points over all results (players never seen score 0). */
export function scores(results: readonly RoundResults[], scoring: Scoring = DEFAULT_SCORING): Map<PlayerId, number> {
  const { games, byes } = gamesOf(results, scoring);
  const out = new Map<PlayerId, number>();
  for (const [p, list] of games)
    out.set(
      p,
      list.reduce((t, g) => t + g.points, 0),
    );
  for (const [p, count] of byes) out.set(p, (out.get(p) ?? 0) + count * scoring.bye);
  return out;
}

export type Tiebreak = 'direct-encounter' | 'buchholz' | 'sonneborn-berger';

export interface StandingsOptions {
  scoring?: Scoring;
  /** Order in which tiebreaks separate equal points. */
  tiebreaks?: readonly Tiebreak[];
}

/** Direct encounter first (it is the one a player understands), then Buchholz, then Sonneborn-Berger. */
export const DEFAULT_TIEBREAKS: readonly Tiebreak[] = ['direct-encounter', 'buchholz', 'sonneborn-berger'];

export interface StandingRow {
  /** 1-based position in the table (no shared places: leftover ties keep the input order). */
  rank: number;
  player: PlayerId;
  points: number;
  games: number;
  byes: number;
  buchholz: number;
  sonnebornBerger: number;
  directEncounter: number;
}

/** The ranked table for `players` (every player of the event, withdrawn ones included). */
export function standings(players: readonly PlayerId[], results: readonly RoundResults[], options: StandingsOptions = {}): StandingRow[] {
  const scoring = options.scoring ?? DEFAULT_SCORING;
  const order = options.tiebreaks ?? DEFAULT_TIEBREAKS;
  const { games, byes } = gamesOf(results, scoring);
  const pts = scores(results, scoring);
  const score = (p: PlayerId) => pts.get(p) ?? 0;
  const rows = players.map((player) => {
    const list = games.get(player) ?? [];
    return {
      rank: 0,
      player,
      points: score(player),
      games: list.length,
      byes: byes.get(player) ?? 0,
      buchholz: list.reduce((t, g) => t + score(g.opponent), 0),
      sonnebornBerger: list.reduce((t, g) => t + g.points * score(g.opponent), 0),
      directEncounter: 0,
    };
  });
  // Direct encounter, per group of equal points.
  const applies = new Set<number>();
  const groups = new Map<number, StandingRow[]>();
  for (const r of rows) {
    const group = groups.get(r.points);
    if (group) group.push(r);
    else groups.set(r.points, [r]);
  }
  for (const [points, group] of groups) {
    const members = new Set(group.map((r) => r.player));
    let allMet = true;
    for (const r of group) {
      const met = new Set<PlayerId>();
      for (const g of games.get(r.player) ?? []) {
        if (!members.has(g.opponent)) continue;
        r.directEncounter += g.points;
        met.add(g.opponent);
      }
      if (met.size !== members.size - 1) allMet = false;
    }
    if (allMet && group.length > 1) applies.add(points);
  }
  const index = new Map(players.map((p, i) => [p, i]));
  const value = (r: StandingRow, t: Tiebreak): number =>
    t === 'buchholz' ? r.buchholz : t === 'sonneborn-berger' ? r.sonnebornBerger : applies.has(r.points) ? r.directEncounter : 0;
  rows.sort((a, b) => {
    if (a.points !== b.points) return b.points - a.points;
    for (const t of order) {
      const d = value(b, t) - value(a, t);
      if (d !== 0) return d;
    }
    return index.get(a.player)! - index.get(b.player)!;
  });
  rows.forEach((r, i) => (r.rank = i + 1));
  return rows;
}

export interface Crosstable {
  /** Players in standings order; row i and column i are the same player. */
  players: PlayerId[];
  points: number[];
  /** cells[i][j]: player i's results against player j in round order (1, ½, 0, +, -); [] if they never met. */
  cells: string[][][];
}

/** The crosstable in standings order (a double round robin shows two symbols per cell). */
export function crosstable(players: readonly PlayerId[], results: readonly RoundResults[], options: StandingsOptions = {}): Crosstable {
  const scoring = options.scoring ?? DEFAULT_SCORING;
  const table = standings(players, results, options);
  const order = table.map((r) => r.player);
  const at = new Map(order.map((p, i) => [p, i]));
  const cells = order.map(() => order.map((): string[] => []));
  for (const round of results) {
    for (const r of round) {
      if ('bye' in r) continue;
      const i = at.get(r.p1);
      const j = at.get(r.p2);
      if (i === undefined || j === undefined) continue;
      const [a, b] = sides(r, scoring);
      cells[i]![j]!.push(a.symbol);
      cells[j]![i]!.push(b.symbol);
    }
  }
  return { players: order, points: table.map((r) => r.points), cells };
}
