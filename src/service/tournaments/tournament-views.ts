/**
 * What anyone may see of a tournament, computed from what the store read: its view (field and
 * pairings, by handle), its standings and crosstable (from the decided boards, in the initial order
 * the ratings at entry and the seed give) and the standings as CSV. Pure: ./tournaments.ts
 * reads, caches and advances tournaments.
 */
import type { Seat } from '../../core/ruleset.js';
import type { TimeControl } from '../../core/clock.js';
import type {
  BoardRow,
  DeckRule,
  TournamentFormat,
  TournamentPlayerRow,
  TournamentRow,
  TournamentStatus,
} from '../../persistence/types.js';
import {
  crosstable,
  drawInitialOrder,
  ratingOrder,
  standings,
  type GameResult,
  type RoundResults,
  type StandingRow,
} from '../../tournaments/pairing/index.js';

/** A board as the API shows it: the stored board with handles for player ids (p2 null: p1 has the bye). */
export type TournamentBoardView = Omit<BoardRow, 'round' | 'matchStatus'>;

/** What anyone may see of a tournament: no deck, no token. */
export interface TournamentView {
  id: string;
  name: string;
  organizer: string;
  game: string;
  format: TournamentFormat;
  rounds: number | null;
  timeControl: TimeControl;
  rated: boolean;
  deckRule: DeckRule;
  maxPlayers: number;
  invited: string[];
  entryClosesAt: string | null;
  startsAt: string | null;
  roundHours: number | null;
  status: TournamentStatus;
  seed: string;
  round: number;
  roundEndsAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  players: { handle: string; bot: boolean; rating: number; withdrawn: boolean }[];
  pairings: { round: number; boards: TournamentBoardView[] }[];
}

/** A standings row as the API shows it: the player by handle, and whether they withdrew. */
export type StandingView = Omit<StandingRow, 'player'> & { handle: string; withdrawn: boolean };

export interface StandingsView {
  tournamentId: string;
  status: TournamentStatus;
  /** The rounds whose results are counted so far (a running round's ended matches count too). */
  round: number;
  final: boolean;
  standings: StandingView[];
  crosstable: { players: string[]; points: number[]; cells: string[][][] };
}

/** One page of the standings (the API's answer): the crosstable only for a field that fits a page. */
export interface StandingsPage extends Omit<StandingsView, 'crosstable'> {
  crosstable: StandingsView['crosstable'] | null;
  nextCursor: string | null;
}

/** Standings rows per answer at most (and by default); a larger field's crosstable is in the CSV only. */
export const STANDINGS_PAGE_MAX = 100;

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

/** The initial order: ratings at entry, highest first; equal ratings in the seed's draw. */
export function initialOrder(players: readonly Pick<TournamentPlayerRow, 'playerId' | 'rating'>[], seed: string): string[] {
  const rating = new Map(players.map((p) => [p.playerId, p.rating]));
  const drawn = drawInitialOrder([...rating.keys()].sort(), seed);
  return ratingOrder(drawn.map((id) => ({ id, rating: rating.get(id)! })));
}

/** The results the pairing core reads: one list per round, decided boards only. */
export function resultsOf(boards: readonly BoardRow[]): RoundResults[] {
  const out: GameResult[][] = [];
  for (const b of boards) {
    if (b.result === null) continue;
    const list = (out[b.round - 1] ??= []);
    if (b.result === 'bye' || b.p2 === null) list.push({ bye: b.p1 });
    else list.push({ p1: b.p1, p2: b.p2, outcome: b.result, ...(b.forfeit ? { forfeit: true } : {}) });
  }
  for (let i = 0; i < out.length; i++) out[i] ??= [];
  return out;
}

function handles(players: readonly TournamentPlayerRow[]): Map<string, string> {
  return new Map(players.map((p) => [p.playerId, p.handle]));
}

export function view(t: TournamentRow, players: TournamentPlayerRow[], boards: BoardRow[]): TournamentView {
  const h = handles(players);
  const rounds = new Map<number, TournamentBoardView[]>();
  for (const b of boards) {
    const list = rounds.get(b.round) ?? [];
    list.push({
      board: b.board,
      p1: h.get(b.p1) ?? b.p1,
      p2: b.p2 === null ? null : (h.get(b.p2) ?? b.p2),
      matchId: b.matchId,
      result: b.result,
      forfeit: b.forfeit,
    });
    rounds.set(b.round, list);
  }
  return {
    id: t.id,
    name: t.name,
    organizer: t.organizer,
    game: t.game,
    format: t.format,
    rounds: t.rounds,
    timeControl: t.timeControl as TimeControl,
    rated: t.rated,
    deckRule: t.deckRule,
    maxPlayers: t.maxPlayers,
    invited: t.invited,
    entryClosesAt: iso(t.entryClosesAt),
    startsAt: iso(t.startsAt),
    roundHours: t.roundHours,
    status: t.status,
    seed: t.seed,
    round: t.round,
    roundEndsAt: iso(t.roundEndsAt),
    createdAt: t.createdAt.toISOString(),
    startedAt: iso(t.startedAt),
    finishedAt: iso(t.finishedAt),
    players: players.map((p) => ({ handle: p.handle, bot: p.bot, rating: Math.round(p.rating), withdrawn: p.withdrawnAt !== null })),
    pairings: [...rounds].map(([round, list]) => ({ round, boards: list })),
  };
}

export function standingsView(t: TournamentRow, players: TournamentPlayerRow[], boards: BoardRow[]): StandingsView {
  const h = handles(players);
  const ids = t.status === 'open' ? players.map((p) => p.playerId) : initialOrder(players, t.seed);
  const results = resultsOf(boards);
  const withdrawn = new Set(players.filter((p) => p.withdrawnAt !== null).map((p) => p.playerId));
  const rows = standings(ids, results);
  const cross = crosstable(ids, results);
  const named = ({ player, ...row }: StandingRow): StandingView => ({ ...row, handle: h.get(player)!, withdrawn: withdrawn.has(player) });
  return {
    tournamentId: t.id,
    status: t.status,
    round: t.round,
    final: t.status === 'finished',
    standings: rows.map(named),
    crosstable: { players: cross.players.map((p) => h.get(p)!), points: cross.points, cells: cross.cells },
  };
}

/** The standings as CSV (RFC 4180): a row per player, then one column per round (symbol and opponent). */
export function standingsCsv(s: StandingsView, t: TournamentView): string {
  const quote = (v: string | number) => {
    const text = String(v);
    // A leading =, +, - or @ would be a formula in a spreadsheet: quoted with a leading apostrophe.
    const safe = /^[=+\-@]/.test(text) && typeof v === 'string' ? `'${text}` : text;
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const rounds = t.pairings.map((r) => r.round);
  const cell = (handle: string, round: number): string => {
    const b = t.pairings.find((r) => r.round === round)?.boards.find((x) => x.p1 === handle || x.p2 === handle);
    if (!b) return '';
    if (b.p2 === null) return 'bye';
    const mine: Seat = b.p1 === handle ? 'p1' : 'p2';
    const opp = mine === 'p1' ? b.p2 : b.p1;
    const sym =
      b.result === null
        ? '*'
        : b.result === 'draw'
          ? '½'
          : b.result === 'double-forfeit'
            ? '-'
            : b.result === mine
              ? b.forfeit
                ? '+'
                : '1'
              : b.forfeit
                ? '-'
                : '0';
    return `${sym} ${opp}`;
  };
  const head = [
    'rank',
    'handle',
    'points',
    'buchholz',
    'sonneborn_berger',
    'direct_encounter',
    'games',
    'byes',
    'withdrawn',
    ...rounds.map((r) => `round_${r}`),
  ];
  const lines = [head.join(',')];
  for (const r of s.standings) {
    lines.push(
      [
        r.rank,
        r.handle,
        r.points,
        r.buchholz,
        r.sonnebornBerger,
        r.directEncounter,
        r.games,
        r.byes,
        r.withdrawn ? 'yes' : 'no',
        ...rounds.map((k) => cell(r.handle, k)),
      ]
        .map(quote)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}
