/**
 * Tournaments: an organizer (a registered player) creates a Swiss or a round robin; players enter
 * with the deck they will play every round; rounds start at the organizer's word or a set time,
 * and each next one when the last match of the round before ends or its deadline passes.
 *
 * Every step is taken by whichever node gets there first and is written once (the store's
 * conditional updates): a sweep on every node calls `advance`, which works out from what is
 * stored what the next step is (results of ended matches, the round's deadline, the next round's
 * pairings) and writes it. Pairings are pure (src/tournaments/pairing/): the initial order follows
 * from the ratings at entry and the tournament's seed, each round from the results before it, so
 * anyone can check them.
 */
import { LRUCache } from 'lru-cache';
import { randomBytes } from 'node:crypto';
import type { Seat } from '../../core/ruleset.js';
import type { TimeControl } from '../../core/clock.js';
import { DEFAULT_RATING } from '../../core/rating.js';
import { GAME_IDS, type GameId } from '../../games/registry.js';
import type { PlayerRow } from '../../persistence/types.js';
import type {
  BoardResult,
  BoardRow,
  DeckRule,
  NewBoard,
  TournamentFormat,
  TournamentPlayerRow,
  TournamentRow,
  TournamentStatus,
} from '../../persistence/types.js';
import { NoPairingError, isBye, pairSwissRound, roundRobin, type Pairing } from '../../tournaments/pairing/index.js';
import { TournamentIdSchema } from '../../contract/ids.js';
import { problems } from '../errors.js';
import { gameRuleset } from '../match/games.js';
import { dealPairedMatch, parseSettings, resolveDeck, toMoveOf, type LobbyDeps } from '../lobby/lobby.js';
import { endAtDeadline, expire, type MoveDeps } from '../match/moves.js';
import { deckLabel, ratingFamily } from '../accounts/ratings.js';
import type { DeckSpec } from '../match/types.js';
import {
  STANDINGS_PAGE_MAX,
  initialOrder,
  resultsOf,
  standingsView,
  view,
  type StandingsPage,
  type StandingsView,
  type TournamentView,
} from './tournament-views.js';

export type { TournamentFormat, TournamentStatus, DeckRule };

export interface TournamentSettings {
  /** The largest field a tournament may have. */
  maxPlayers: number;
  /** The most Swiss rounds. */
  maxRounds: number;
}

/** How many times a start reads and pairs the field again when a join or withdrawal got in between. */
const START_ATTEMPTS = 5;

export const DEFAULT_TOURNAMENT_SETTINGS: TournamentSettings = { maxPlayers: 1000, maxRounds: 30 };

export interface CreateTournamentInput {
  name: string;
  game?: string | undefined;
  format: TournamentFormat;
  /** Swiss only: how many rounds. */
  rounds?: number | undefined;
  timeControl: TimeControl;
  rated?: boolean | undefined;
  deckRule?: DeckRule | undefined;
  maxPlayers?: number | undefined;
  invited?: string[] | undefined;
  entryClosesAt?: string | undefined;
  startsAt?: string | undefined;
  roundHours?: number | undefined;
}

type Deps = LobbyDeps & Pick<MoveDeps, 'ratedMinDecisions'>;

/** The most rounds a Swiss of `n` players can pair without a repeat: n - 1 (even n), n (odd n, a bye each). */
export function swissRoundCap(n: number): number {
  return n % 2 === 0 ? n - 1 : n;
}

/** A tournament as read at one version: its field, its boards and its view (see Tournaments.load). */
interface Snapshot {
  version: number;
  players: TournamentPlayerRow[];
  boards: BoardRow[];
  view: TournamentView;
}

/** Bytes per node for the tournaments read (snapshots) and for their standings. */
export const TOURNAMENT_CACHE_BYTES = 64 * 1024 * 1024;

export class Tournaments {
  /**
   * Tournaments by id as last read, with their version: a read of an unchanged tournament costs
   * the row lookup alone (a 1,000-player Swiss's field and 5,000 boards were read, joined and
   * mapped on every GET, about 10 ms of this process's time each). Every change bumps the version
   * in its own transaction, on whichever node made it, so the next read anywhere sees it.
   * (`matchStatus` of a cached board may be old: only `advance` reads it, from the store.)
   */
  private readonly snapshots = new LRUCache<string, Snapshot>({
    maxSize: TOURNAMENT_CACHE_BYTES,
    sizeCalculation: (s) => 2048 + s.players.length * 400 + s.boards.length * 300,
  });

  /**
   * Standings by tournament, with the version they were computed from: computed once per change
   * (a result, a withdrawal, a round), not per read (a 1,000-player crosstable took 1.8 s).
   */
  private readonly computed = new LRUCache<string, { version: number; view: StandingsView }>({
    maxSize: TOURNAMENT_CACHE_BYTES,
    // The crosstable: an array per pair of players (about 40 bytes each), then the rows.
    sizeCalculation: (c) => 2048 + c.view.standings.length * (300 + c.view.standings.length * 40),
  });

  constructor(
    private readonly deps: Deps,
    private readonly settings: TournamentSettings,
  ) {}

  /** The standings of what `load` read, from the memo when the tournament's version is the same. */
  private standingsOf(t: TournamentRow, players: TournamentPlayerRow[], boards: BoardRow[]): StandingsView {
    const hit = this.computed.get(t.id);
    if (hit && hit.version === t.version) return hit.view;
    const view = standingsView(t, players, boards);
    this.computed.set(t.id, { version: t.version, view });
    return view;
  }

  private get store() {
    return this.deps.store.tournaments;
  }

  async create(me: PlayerRow, input: CreateTournamentInput): Promise<TournamentView> {
    const ruleset = gameRuleset(input.game ?? GAME_IDS[0]!);
    const rated = input.rated ?? false;
    if (input.timeControl.kind === 'none')
      throw problems.validation('timeControl: a tournament needs a clock (correspondence or live), so that every round ends.');
    if (rated && ratingFamily(input.timeControl.kind) === null)
      throw problems.ratedMatchInvalid('a rated tournament needs a time control.');
    if (input.format === 'swiss') {
      if (input.rounds === undefined) throw problems.validation('rounds: a Swiss tournament needs its number of rounds.');
      if (input.rounds > this.settings.maxRounds) throw problems.validation(`rounds: at most ${this.settings.maxRounds}.`);
    } else if (input.rounds !== undefined) {
      throw problems.validation('rounds: a round robin has as many rounds as its field needs; leave rounds out.');
    }
    const maxPlayers = input.maxPlayers ?? 64;
    if (maxPlayers > this.settings.maxPlayers) throw problems.validation(`maxPlayers: at most ${this.settings.maxPlayers}.`);
    const at = this.deps.now();
    const startsAt = input.startsAt === undefined ? null : new Date(input.startsAt);
    const entryClosesAt = input.entryClosesAt === undefined ? null : new Date(input.entryClosesAt);
    if (startsAt && startsAt.getTime() <= at) throw problems.validation('startsAt: must be in the future.');
    if (entryClosesAt && startsAt && entryClosesAt.getTime() > startsAt.getTime())
      throw problems.validation('entryClosesAt: must not be after startsAt.');
    const id = `tn_${randomBytes(12).toString('base64url')}`;
    await this.store.create({
      id,
      organizerId: me.id,
      name: input.name,
      game: ruleset.id,
      format: input.format,
      rounds: input.format === 'swiss' ? input.rounds! : null,
      timeControl: input.timeControl,
      rated,
      deckRule: input.deckRule ?? 'starter',
      maxPlayers,
      invited: [...new Set((input.invited ?? []).map((h) => h.toLowerCase()))],
      entryClosesAt,
      startsAt,
      roundHours: input.roundHours ?? null,
      seed: randomBytes(16).toString('hex'),
      createdAt: new Date(at),
    });
    return this.get(id);
  }

  private async row(id: string): Promise<TournamentRow> {
    const t = TournamentIdSchema.safeParse(id).success ? await this.store.get(id) : null;
    if (!t) throw problems.tournamentNotFound(id);
    return t;
  }

  /**
   * The tournament, its players, its boards and its view: the row always (one lookup by primary
   * key), the rest from this node's snapshot when the row's version is the one it was read at.
   * The field and boards are read after the row, so a snapshot is never older than its version
   * (at worst newer: the next read finds the version changed and reads again).
   */
  private async load(id: string): Promise<{ t: TournamentRow; players: TournamentPlayerRow[]; boards: BoardRow[]; view: TournamentView }> {
    const t = await this.row(id);
    let snap = this.snapshots.get(id);
    if (!snap || snap.version !== t.version) {
      const [players, boards] = await Promise.all([this.store.players(id), this.store.boards(id)]);
      snap = { version: t.version, players, boards, view: view(t, players, boards) };
      this.snapshots.set(id, snap);
    }
    return { t, players: snap.players, boards: snap.boards, view: snap.view };
  }

  async get(id: string): Promise<TournamentView> {
    return (await this.load(id)).view;
  }

  /** The tournament and its version (what a cache of anything rendered from it is keyed by). */
  async versioned(id: string): Promise<{ tournament: TournamentView; standings: StandingsView; version: number }> {
    const { t, players, boards, view: v } = await this.load(id);
    return { tournament: v, standings: this.standingsOf(t, players, boards), version: t.version };
  }

  async list(filter: {
    status?: TournamentStatus | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  }): Promise<{ tournaments: TournamentView[]; nextCursor: string | null }> {
    const limit = filter.limit ?? 20;
    let before: { createdAt: Date; id: string } | undefined;
    if (filter.cursor !== undefined) {
      const [at, id] = Buffer.from(filter.cursor, 'base64url').toString('utf8').split('|');
      const when = new Date(Number(at));
      if (!id || !TournamentIdSchema.safeParse(id).success || Number.isNaN(when.getTime())) throw problems.invalidCursor();
      before = { createdAt: when, id };
    }
    const rows = await this.store.list({ status: filter.status }, limit + 1, before);
    const page = rows.slice(0, limit);
    const views = await Promise.all(page.map(async (t) => view(t, await this.store.players(t.id), await this.store.boards(t.id))));
    const last = page[page.length - 1];
    return {
      tournaments: views,
      nextCursor: rows.length > limit && last ? Buffer.from(`${last.createdAt.getTime()}|${last.id}`).toString('base64url') : null,
    };
  }

  async join(me: PlayerRow, id: string, input: { deck?: DeckSpec | undefined }): Promise<TournamentView> {
    const t = await this.row(id);
    if (t.status !== 'open') throw problems.tournamentClosed(`The tournament is ${t.status}: entries are closed.`);
    if (t.invited.length > 0 && !t.invited.includes(me.handle.toLowerCase())) throw problems.notInvited();
    const ruleset = gameRuleset(t.game);
    const deck: DeckSpec = input.deck ?? { starter: ruleset.starterDecks[0]!.id };
    if (t.deckRule === 'starter' && !('starter' in deck))
      throw problems.validation('deck: this tournament is played with the starter decks only ({"starter": id}).');
    const cards = resolveDeck(ruleset, deck, parseSettings(ruleset, {}), 'deck');
    const family = ratingFamily((t.timeControl as TimeControl).kind);
    const own = family ? (await this.deps.store.ratings.ofPlayer(me.id)).find((r) => r.game === t.game && r.family === family) : undefined;
    const outcome = await this.store.join(
      id,
      { playerId: me.id, deck, deckName: deckLabel(deck, cards), rating: own?.rating ?? DEFAULT_RATING.rating },
      new Date(this.deps.now()),
    );
    if (outcome === 'already') throw problems.alreadyEntered();
    if (outcome === 'full') throw problems.tournamentFull(t.maxPlayers);
    if (outcome === 'closed') throw problems.tournamentClosed('Entries are closed.');
    return this.get(id);
  }

  async withdraw(me: PlayerRow, id: string): Promise<TournamentView> {
    const t = await this.row(id);
    if (t.status === 'finished' || t.status === 'canceled') throw problems.tournamentClosed(`The tournament is ${t.status}.`);
    if (!(await this.store.withdraw(id, me.id, new Date(this.deps.now())))) throw problems.notEntered();
    return this.get(id);
  }

  async cancel(me: PlayerRow, id: string): Promise<TournamentView> {
    const t = await this.row(id);
    if (t.organizerId !== me.id) throw problems.notOrganizer();
    if (!(await this.store.cancel(id, new Date(this.deps.now()))))
      throw problems.tournamentClosed('Only a tournament that has not started can be cancelled.');
    return this.get(id);
  }

  /**
   * The organizer starts the first round now. The round pairs the field as it stands under the
   * tournament's row lock (the lock joins and withdrawals take): when one committed between
   * reading the field and taking the lock, the field is read and paired again, a few times at
   * most, then 503 tournament-busy.
   */
  async start(me: PlayerRow, id: string): Promise<TournamentView> {
    for (let attempt = 1; ; attempt++) {
      const t = await this.row(id);
      if (t.organizerId !== me.id) throw problems.notOrganizer();
      if (t.status !== 'open') throw problems.tournamentClosed(`The tournament is ${t.status} already.`);
      const players = await this.store.players(id);
      if (players.length < 2) throw problems.tooFewPlayers(players.length);
      const outcome = await this.startNext(t, players, [], this.deps.now());
      if (outcome === false) {
        // Lost under the lock: another node's scheduled start (running: the answer stands) or a cancel.
        const now = await this.row(id);
        if (now.status !== 'running') throw problems.tournamentClosed(`The tournament is ${now.status}.`);
      }
      if (outcome !== 'stale') break;
      if (attempt >= START_ATTEMPTS) throw problems.tournamentBusy(1);
    }
    return this.get(id);
  }

  /** A page of the standings: `limit` rows (at most STANDINGS_PAGE_MAX) from `cursor`. */
  async standings(id: string, page: { cursor?: string | undefined; limit?: number | undefined } = {}): Promise<StandingsPage> {
    const limit = Math.min(Math.max(1, page.limit ?? STANDINGS_PAGE_MAX), STANDINGS_PAGE_MAX);
    const offset = page.cursor === undefined ? 0 : standingsOffset(page.cursor);
    const { t, players, boards } = await this.load(id);
    const all = this.standingsOf(t, players, boards);
    const rows = all.standings.slice(offset, offset + limit);
    const more = offset + limit < all.standings.length;
    return {
      ...all,
      standings: rows,
      crosstable: all.standings.length <= STANDINGS_PAGE_MAX ? all.crosstable : null,
      nextCursor: more ? Buffer.from(JSON.stringify({ o: offset + limit })).toString('base64url') : null,
    };
  }

  /** The tournament and all its standings from one read (the CSV export and the public page show both). */
  async withStandings(id: string): Promise<{ tournament: TournamentView; standings: StandingsView }> {
    const { tournament, standings } = await this.versioned(id);
    return { tournament, standings };
  }

  /** One pass over every tournament with something to do (the sweeper calls it on every node). */
  async sweep(limit = 50, failed: (id: string, err: unknown) => void = () => {}): Promise<number> {
    let n = 0;
    for (const id of await this.store.due(new Date(this.deps.now()), limit)) {
      try {
        if (await this.advance(id)) n++;
      } catch (err) {
        // One tournament that cannot advance (a game this node does not host) must not stop the others.
        failed(id, err);
      }
    }
    return n;
  }

  /**
   * Takes the tournament's next due step, if any: the scheduled start; the results of ended
   * matches; at the round's deadline, the end of its running matches; then the next round or
   * the finish. Returns whether it wrote anything (another node may have been first).
   */
  async advance(id: string): Promise<boolean> {
    // A join or withdrawal committed while the round was being paired: read and pair again (the
    // next sweep tries once more if the field keeps changing).
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      const step = await this.advanceOnce(id);
      if (step !== 'stale') return step;
    }
    return false;
  }

  private async advanceOnce(id: string): Promise<boolean | 'stale'> {
    const now = this.deps.now();
    const t = await this.store.get(id);
    if (!t) return false;
    const players = await this.store.players(id);
    if (t.status === 'open') {
      if (t.startsAt === null || t.startsAt.getTime() > now) return false;
      // A join committed since the field was read: not cancelled; read it again and start.
      if (players.length < 2) return (await this.store.cancel(id, new Date(now), 2)) ? true : 'stale';
      return this.startNext(t, players, [], now);
    }
    if (t.status !== 'running') return false;
    let boards = await this.store.boards(id);
    const current = boards.filter((b) => b.round === t.round && b.result === null);
    const deadline = t.roundEndsAt !== null && t.roundEndsAt.getTime() <= now;
    const decided: { round: number; board: number; result: BoardResult; forfeit: boolean }[] = [];
    for (const b of current) {
      let entry = await this.deps.loader.current(b.matchId!);
      if (entry.row.status === 'active' && deadline) {
        entry =
          (await expire(this.deps, entry, now)) ??
          (await endAtDeadline(this.deps, entry, now)) ??
          (await this.deps.loader.current(b.matchId!));
      }
      if (entry.row.status !== 'finished') continue;
      decided.push({ round: b.round, board: b.board, ...boardResult(entry) });
    }
    await this.store.setResults(id, decided);
    if (decided.length < current.length) return decided.length > 0;
    boards = await this.store.boards(id);
    return this.startNext(t, players, boards, now);
  }

  /**
   * Round `t.round + 1`, or the finish when the last round is done or nobody can be paired.
   * 'stale': the field changed since `players` was read; nothing was written.
   */
  private async startNext(t: TournamentRow, players: TournamentPlayerRow[], boards: BoardRow[], now: number): Promise<boolean | 'stale'> {
    const order = initialOrder(players, t.seed);
    const withdrawn = new Set(players.filter((p) => p.withdrawnAt !== null).map((p) => p.playerId));
    const results = resultsOf(boards);
    const next = t.round + 1;
    const active = order.filter((p) => !withdrawn.has(p));
    // A Swiss asked for more rounds than its field can play without a repeat says so from the
    // start: at most n - 1 rounds for an even field, n for an odd one (every pair met, a bye each).
    const totalRounds =
      t.format !== 'swiss'
        ? roundRobin(order, { double: t.format === 'double-round-robin' }).length
        : t.round === 0
          ? Math.min(t.rounds!, swissRoundCap(active.length))
          : t.rounds!;
    if (t.round > 0 && (next > totalRounds || active.length < 2)) return this.finishNow(t, players, boards, now);
    let pairings: Pairing[];
    if (t.format === 'swiss') {
      try {
        pairings = pairSwissRound({ players: active, results }).pairings;
      } catch (e) {
        // Everyone has met everyone they could: the tournament ends after the rounds it could pair.
        if (e instanceof NoPairingError && t.round > 0) return this.finishNow(t, players, boards, now);
        throw e;
      }
    } else {
      pairings = roundRobin(order, { double: t.format === 'double-round-robin' })[next - 1]!;
    }
    const game = t.game as GameId;
    const ruleset = gameRuleset(game);
    const control = t.timeControl as TimeControl;
    const byId = new Map(players.map((p) => [p.playerId, p]));
    const seat = (id: string) => {
      const p = byId.get(id)!;
      const spec = p.deck as DeckSpec;
      return { playerId: id, handle: p.handle, deck: resolveDeck(ruleset, spec, parseSettings(ruleset, {}), 'deck'), deckName: p.deckName };
    };
    const newBoards: NewBoard[] = [];
    const matches: ReturnType<typeof dealPairedMatch>[] = [];
    pairings.forEach((g, i) => {
      const board = i + 1;
      if (isBye(g)) {
        newBoards.push({ round: next, board, p1: g.bye, p2: null, matchId: null, result: 'bye', forfeit: false });
        return;
      }
      // A round robin keeps its schedule: a withdrawn player's boards are forfeits, not matches.
      const out1 = withdrawn.has(g.p1);
      const out2 = withdrawn.has(g.p2);
      if (out1 || out2) {
        const result: BoardResult = out1 && out2 ? 'double-forfeit' : out1 ? 'p2' : 'p1';
        newBoards.push({ round: next, board, p1: g.p1, p2: g.p2, matchId: null, result, forfeit: true });
        return;
      }
      const dealt = dealPairedMatch({ game, control, rated: t.rated, seats: { p1: seat(g.p1), p2: seat(g.p2) }, now });
      matches.push(dealt);
      newBoards.push({ round: next, board, p1: g.p1, p2: g.p2, matchId: dealt.match.id, result: null, forfeit: false });
    });
    const outcome = await this.store.startRound(t.id, {
      from: t.round,
      field: players.map((p) => ({ playerId: p.playerId, withdrawn: p.withdrawnAt !== null })),
      rounds: totalRounds,
      roundEndsAt: t.roundHours === null ? null : new Date(now + t.roundHours * 3_600_000),
      at: new Date(now),
      boards: newBoards,
      matches,
    });
    return outcome === 'stale' ? 'stale' : outcome === 'started';
  }

  private async finishNow(t: TournamentRow, players: TournamentPlayerRow[], boards: BoardRow[], now: number): Promise<boolean> {
    const table = standingsView(t, players, boards).standings;
    return this.store.finish(t.id, t.round, table, new Date(now));
  }
}

/** A finished match's board result: its winner, a draw, or a forfeit by the seat that never showed. */
function boardResult(entry: Awaited<ReturnType<LobbyDeps['loader']['current']>>): { result: BoardResult; forfeit: boolean } {
  if (entry.end?.reason === 'aborted') {
    // The seat that called it off, or the one whose first decision never came.
    const noShow: Seat | null = entry.end.seat ?? (entry.state === null ? null : toMoveOf(entry.ruleset, entry.state));
    if (noShow === null) return { result: 'double-forfeit', forfeit: true };
    return { result: noShow === 'p1' ? 'p2' : 'p1', forfeit: true };
  }
  const w = entry.row.winner;
  return { result: w === 'p1' || w === 'p2' ? w : 'draw', forfeit: false };
}

/** The row a standings cursor starts at, or invalid-cursor for one this service did not issue. */
function standingsOffset(cursor: string): number {
  try {
    const o = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown }).o;
    if (typeof o === 'number' && Number.isSafeInteger(o) && o > 0) return o;
  } catch {
    // not one of ours
  }
  throw problems.invalidCursor();
}
