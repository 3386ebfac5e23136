/**
 * Tournaments, their players and their boards (migration tournaments). The database decides every
 * race: a join counts the field under the tournament's row lock, a withdrawal leaves under it, and
 * a round starts under it too, in one transaction that pairs only the field it was planned from
 * (else 'stale': the caller pairs again), moves `round` from k to k + 1 only if it is still k, writes the round's boards
 * (their primary key admits one set) and creates its matches, so two nodes starting the same
 * round, or a process killed half-way, leave one round or none, never half of one. Every change
 * to what a tournament shows bumps its `version` in the same transaction (or statement), so a
 * node's cached view (src/service/tournaments/tournaments.ts) is checked with the row read alone.
 */
import type { SqlQuery, SqlTx, Database } from './database.js';
import { named } from './named-sql.js';
import { asDate, asJson } from './sql-values.js';
import type { NewEvent, NewMatch } from './shared.js';

export type TournamentFormat = 'swiss' | 'round-robin' | 'double-round-robin';
export type TournamentStatus = 'open' | 'running' | 'finished' | 'canceled';
export type DeckRule = 'starter' | 'any';
/** A board's result: a seat won, a draw, both forfeited, or the bye. */
export type BoardResult = 'p1' | 'p2' | 'draw' | 'double-forfeit' | 'bye';

export interface NewTournament {
  id: string;
  organizerId: string;
  name: string;
  game: string;
  format: TournamentFormat;
  rounds: number | null;
  timeControl: unknown;
  rated: boolean;
  deckRule: DeckRule;
  maxPlayers: number;
  invited: string[];
  entryClosesAt: Date | null;
  startsAt: Date | null;
  roundHours: number | null;
  seed: string;
  createdAt: Date;
}

export interface TournamentRow extends NewTournament {
  organizer: string;
  status: TournamentStatus;
  round: number;
  roundEndsAt: Date | null;
  standings: unknown;
  startedAt: Date | null;
  finishedAt: Date | null;
  players: number;
  /** Bumped by every change to what the tournament shows (its field, rounds, results, status). */
  version: number;
}

export interface TournamentPlayerRow {
  playerId: string;
  handle: string;
  bot: boolean;
  /** The deck spec the player entered with (never shown). */
  deck: unknown;
  deckName: string;
  rating: number;
  joinedAt: Date;
  withdrawnAt: Date | null;
}

export interface BoardRow {
  round: number;
  board: number;
  p1: string;
  p2: string | null;
  matchId: string | null;
  result: BoardResult | null;
  forfeit: boolean;
  /** The match's status now (null for a bye). */
  matchStatus: string | null;
}

export type NewBoard = Omit<BoardRow, 'matchStatus'>;

export type JoinOutcome = 'joined' | 'already' | 'full' | 'closed';

export interface RoundStart {
  /** The round that must be running now (the start happens only if it still is). */
  from: number;
  /**
   * The field the pairings were made from: every entered player and whether they withdrew. The
   * start happens only if the field under the tournament's row lock is still this one (a join or
   * a withdrawal committed since answers 'stale', and the caller pairs again).
   */
  field: { playerId: string; withdrawn: boolean }[];
  rounds: number;
  roundEndsAt: Date | null;
  at: Date;
  boards: NewBoard[];
  matches: { match: NewMatch; events: NewEvent[] }[];
}

export interface TournamentStore {
  create(t: NewTournament): Promise<void>;
  get(id: string): Promise<TournamentRow | null>;
  list(
    filter: { status?: TournamentStatus | undefined },
    limit: number,
    before?: { createdAt: Date; id: string },
  ): Promise<TournamentRow[]>;
  players(id: string): Promise<TournamentPlayerRow[]>;
  boards(id: string): Promise<BoardRow[]>;
  /** Enters a player while the tournament is open, its entry window open and its field not full. */
  join(id: string, p: { playerId: string; deck: unknown; deckName: string; rating: number }, at: Date): Promise<JoinOutcome>;
  /** Before the start: leaves the field; after it: withdrawn from the next round on. False: not entered (or already withdrawn). */
  withdraw(id: string, playerId: string, at: Date): Promise<boolean>;
  /** open -> canceled; with `fewerThan`, only while the field (read under the row lock) has fewer players. */
  cancel(id: string, at: Date, fewerThan?: number): Promise<boolean>;
  /**
   * Starts round `from + 1` (see RoundStart) under the tournament's row lock, the lock joins and
   * withdrawals take: 'lost' when another node started it first, 'stale' when the field changed
   * since it was read.
   */
  startRound(id: string, start: RoundStart): Promise<'started' | 'lost' | 'stale'>;
  /** Writes results of boards that have none (the same from any node). */
  setResults(id: string, results: { round: number; board: number; result: BoardResult; forfeit: boolean }[]): Promise<void>;
  /** running -> finished with the final standings and `rounds` = `round` (the rounds played), if round `round` is still the last started. */
  finish(id: string, round: number, standings: unknown, at: Date): Promise<boolean>;
  /**
   * Tournaments with something to do at `now`: open ones due to start, and running ones whose
   * round's deadline passed, with an ended match not scored yet, or with every board scored.
   */
  due(now: Date, limit: number): Promise<string[]>;
}

interface Raw {
  id: string;
  organizer_id: string;
  organizer: string;
  name: string;
  game: string;
  format: string;
  rounds: number | null;
  time_control: unknown;
  rated: boolean;
  deck_rule: string;
  max_players: number;
  invited: string[] | null;
  entry_closes_at: Date | string | null;
  starts_at: Date | string | null;
  round_hours: number | null;
  status: string;
  seed: string;
  round: number;
  round_ends_at: Date | string | null;
  standings: unknown;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  players: number | string;
  version: number;
}

const SELECT = `
  SELECT t.*, o."handle" AS organizer,
         (SELECT count(*) FROM "tournament_player" tp WHERE tp."tournament_id" = t."id")::int AS players
    FROM "tournament" t JOIN "player" o ON o."id" = t."organizer_id"`;

/** Bumps the version of tournament $1 (within the transaction of the change). */
const BUMP = `UPDATE "tournament" SET "version" = "version" + 1 WHERE "id" = $1`;

/** The columns of a new tournament row, by name (JSON texts for time_control and invited). */
interface CreateArgs {
  id: string;
  organizer_id: string;
  name: string;
  game: string;
  format: TournamentFormat;
  rounds: number | null;
  time_control: string;
  rated: boolean;
  deck_rule: DeckRule;
  max_players: number;
  invited: string;
  entry_closes_at: string | null;
  starts_at: string | null;
  round_hours: number | null;
  seed: string;
  created_at: string;
}

const CREATE = named<CreateArgs>()`
INSERT INTO "tournament" ("id", "organizer_id", "name", "game", "format", "rounds", "time_control", "rated", "deck_rule", "max_players",
                          "invited", "entry_closes_at", "starts_at", "round_hours", "seed", "created_at")
VALUES (${'id'}, ${'organizer_id'}, ${'name'}, ${'game'}, ${'format'}, ${'rounds'}, ${'time_control'}::jsonb, ${'rated'}, ${'deck_rule'}, ${'max_players'},
        ARRAY(SELECT jsonb_array_elements_text(${'invited'}::jsonb)), ${'entry_closes_at'}::timestamptz, ${'starts_at'}::timestamptz, ${'round_hours'},
        ${'seed'}, ${'created_at'}::timestamptz)`;

function createArgs(t: NewTournament): CreateArgs {
  return {
    id: t.id,
    organizer_id: t.organizerId,
    name: t.name,
    game: t.game,
    format: t.format,
    rounds: t.rounds,
    time_control: JSON.stringify(t.timeControl),
    rated: t.rated,
    deck_rule: t.deckRule,
    max_players: t.maxPlayers,
    invited: JSON.stringify(t.invited),
    entry_closes_at: t.entryClosesAt?.toISOString() ?? null,
    starts_at: t.startsAt?.toISOString() ?? null,
    round_hours: t.roundHours,
    seed: t.seed,
    created_at: t.createdAt.toISOString(),
  };
}

const orNull = (v: Date | string | null): Date | null => (v === null ? null : asDate(v));

function tournamentRow(r: Raw): TournamentRow {
  return {
    id: r.id,
    organizerId: r.organizer_id,
    organizer: r.organizer,
    name: r.name,
    game: r.game,
    format: r.format as TournamentFormat,
    rounds: r.rounds,
    timeControl: asJson(r.time_control),
    rated: r.rated,
    deckRule: r.deck_rule as DeckRule,
    maxPlayers: r.max_players,
    invited: r.invited ?? [],
    entryClosesAt: orNull(r.entry_closes_at),
    startsAt: orNull(r.starts_at),
    roundHours: r.round_hours,
    status: r.status as TournamentStatus,
    seed: r.seed,
    round: r.round,
    roundEndsAt: orNull(r.round_ends_at),
    standings: r.standings === null ? null : asJson(r.standings),
    createdAt: asDate(r.created_at),
    startedAt: orNull(r.started_at),
    finishedAt: orNull(r.finished_at),
    players: Number(r.players),
    version: Number(r.version),
  };
}

export class PgTournamentStore implements TournamentStore {
  constructor(
    private readonly sql: SqlQuery,
    private readonly transaction: Database['transaction'],
    private readonly createMatchIn: (tx: SqlTx, match: NewMatch, events: NewEvent[], at: Date) => Promise<void>,
    /** Called after a round started (its matches were created): the feed and the AI players look. */
    private readonly onStarted: () => void = () => {},
  ) {}

  async create(t: NewTournament): Promise<void> {
    await this.sql(CREATE.text, CREATE.values(createArgs(t)));
  }

  async get(id: string): Promise<TournamentRow | null> {
    const [r] = await this.sql<Raw>(`${SELECT} WHERE t."id" = $1`, [id]);
    return r ? tournamentRow(r) : null;
  }

  async list(
    filter: { status?: TournamentStatus | undefined },
    limit: number,
    before?: { createdAt: Date; id: string },
  ): Promise<TournamentRow[]> {
    const rows = await this.sql<Raw>(
      `${SELECT}
        WHERE ($1::text IS NULL OR t."status" = $1)
          AND ($2::timestamptz IS NULL OR (t."created_at", t."id") < ($2::timestamptz, $3::text))
        ORDER BY t."created_at" DESC, t."id" DESC LIMIT $4`,
      [filter.status ?? null, before?.createdAt.toISOString() ?? null, before?.id ?? null, limit],
    );
    return rows.map(tournamentRow);
  }

  async players(id: string): Promise<TournamentPlayerRow[]> {
    const rows = await this.sql<{
      player_id: string;
      handle: string;
      bot: boolean;
      deck: unknown;
      deck_name: string;
      rating: number;
      joined_at: Date | string;
      withdrawn_at: Date | string | null;
    }>(
      `SELECT tp.*, p."handle", p."bot" FROM "tournament_player" tp JOIN "player" p ON p."id" = tp."player_id"
        WHERE tp."tournament_id" = $1 ORDER BY tp."joined_at", tp."player_id"`,
      [id],
    );
    return rows.map((r) => ({
      playerId: r.player_id,
      handle: r.handle,
      bot: r.bot,
      deck: asJson(r.deck),
      deckName: r.deck_name,
      rating: Number(r.rating),
      joinedAt: asDate(r.joined_at),
      withdrawnAt: orNull(r.withdrawn_at),
    }));
  }

  async boards(id: string): Promise<BoardRow[]> {
    const rows = await this.sql<{
      round: number;
      board: number;
      p1_id: string;
      p2_id: string | null;
      match_id: string | null;
      result: string | null;
      forfeit: boolean;
      match_status: string | null;
    }>(
      `SELECT b.*, m."status" AS match_status FROM "tournament_board" b LEFT JOIN "match" m ON m."id" = b."match_id"
        WHERE b."tournament_id" = $1 ORDER BY b."round", b."board"`,
      [id],
    );
    return rows.map((r) => ({
      round: r.round,
      board: r.board,
      p1: r.p1_id,
      p2: r.p2_id,
      matchId: r.match_id,
      result: r.result as BoardResult | null,
      forfeit: r.forfeit,
      matchStatus: r.match_status,
    }));
  }

  async join(id: string, p: { playerId: string; deck: unknown; deckName: string; rating: number }, at: Date): Promise<JoinOutcome> {
    return this.transaction(async (tx) => {
      // The row lock orders joins: each counts the field after the one before committed.
      const [t] = await tx.query<{ status: string; max_players: number; entry_closes_at: Date | string | null }>(
        `SELECT "status", "max_players", "entry_closes_at" FROM "tournament" WHERE "id" = $1 FOR UPDATE`,
        [id],
      );
      if (!t || t.status !== 'open' || (t.entry_closes_at !== null && asDate(t.entry_closes_at).getTime() <= at.getTime())) return 'closed';
      const [{ n } = { n: 0 }] = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "tournament_player" WHERE "tournament_id" = $1`,
        [id],
      );
      const inserted = await tx.query(
        `INSERT INTO "tournament_player" ("tournament_id", "player_id", "deck", "deck_name", "rating", "joined_at")
         SELECT $1, $2, $3::jsonb, $4, $5, $6::timestamptz WHERE $7::int < $8::int
         ON CONFLICT DO NOTHING RETURNING "player_id"`,
        [id, p.playerId, JSON.stringify(p.deck), p.deckName, p.rating, at.toISOString(), Number(n), t.max_players],
      );
      if (inserted.length > 0) {
        await tx.query(BUMP, [id]);
        return 'joined';
      }
      const [already] = await tx.query(`SELECT 1 FROM "tournament_player" WHERE "tournament_id" = $1 AND "player_id" = $2`, [
        id,
        p.playerId,
      ]);
      return already ? 'already' : 'full';
    });
  }

  async withdraw(id: string, playerId: string, at: Date): Promise<boolean> {
    return this.transaction(async (tx) => {
      const [t] = await tx.query<{ status: string }>(`SELECT "status" FROM "tournament" WHERE "id" = $1 FOR UPDATE`, [id]);
      if (!t) return false;
      if (t.status === 'open') {
        const left =
          (await tx.query(`DELETE FROM "tournament_player" WHERE "tournament_id" = $1 AND "player_id" = $2 RETURNING 1`, [id, playerId]))
            .length > 0;
        if (left) await tx.query(BUMP, [id]);
        return left;
      }
      if (t.status !== 'running') return false;
      const rows = await tx.query(
        `UPDATE "tournament_player" SET "withdrawn_at" = $3::timestamptz
          WHERE "tournament_id" = $1 AND "player_id" = $2 AND "withdrawn_at" IS NULL RETURNING 1`,
        [id, playerId, at.toISOString()],
      );
      if (rows.length > 0) await tx.query(BUMP, [id]);
      return rows.length > 0;
    });
  }

  async cancel(id: string, at: Date, fewerThan?: number): Promise<boolean> {
    return this.transaction(async (tx) => {
      // Under the row lock joins take: a scheduled start cancels only a field still too small.
      const [t] = await tx.query<{ status: string }>(`SELECT "status" FROM "tournament" WHERE "id" = $1 FOR UPDATE`, [id]);
      if (!t || t.status !== 'open') return false;
      if (fewerThan !== undefined) {
        const [{ n } = { n: 0 }] = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "tournament_player" WHERE "tournament_id" = $1`,
          [id],
        );
        if (Number(n) >= fewerThan) return false;
      }
      const rows = await tx.query(
        `UPDATE "tournament" SET "status" = 'canceled', "finished_at" = $2::timestamptz, "version" = "version" + 1 WHERE "id" = $1 AND "status" = 'open' RETURNING 1`,
        [id, at.toISOString()],
      );
      return rows.length > 0;
    });
  }

  async startRound(id: string, s: RoundStart): Promise<'started' | 'lost' | 'stale'> {
    const lost = Symbol('lost');
    const stale = Symbol('stale');
    try {
      await this.transaction(async (tx) => {
        // The row lock joins and withdrawals take: the field read under it is the one paired.
        const [t] = await tx.query<{ round: number; status: string }>(
          `SELECT "round", "status" FROM "tournament" WHERE "id" = $1 FOR UPDATE`,
          [id],
        );
        if (!t || t.round !== s.from || (t.status !== 'open' && t.status !== 'running')) throw lost;
        const field = await tx.query<{ player_id: string; withdrawn: boolean }>(
          `SELECT "player_id", "withdrawn_at" IS NOT NULL AS "withdrawn" FROM "tournament_player" WHERE "tournament_id" = $1`,
          [id],
        );
        const planned = new Map(s.field.map((p) => [p.playerId, p.withdrawn]));
        if (field.length !== planned.size || field.some((p) => planned.get(p.player_id) !== p.withdrawn)) throw stale;
        const won = await tx.query(
          `UPDATE "tournament" SET "round" = $2 + 1, "rounds" = $3, "round_ends_at" = $4::timestamptz, "status" = 'running',
                  "started_at" = COALESCE("started_at", $5::timestamptz), "version" = "version" + 1
            WHERE "id" = $1 AND "round" = $2 AND "status" IN ('open', 'running') RETURNING 1`,
          [id, s.from, s.rounds, s.roundEndsAt?.toISOString() ?? null, s.at.toISOString()],
        );
        if (won.length === 0) throw lost;
        // Matches first: the boards name them, and the boards' trigger tells each player their match.
        for (const m of s.matches) await this.createMatchIn(tx, m.match, m.events, s.at);
        for (const b of s.boards) {
          await tx.query(
            `INSERT INTO "tournament_board" ("tournament_id", "round", "board", "p1_id", "p2_id", "match_id", "result", "forfeit")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [id, b.round, b.board, b.p1, b.p2, b.matchId, b.result, b.forfeit],
          );
        }
      });
    } catch (e) {
      if (e === lost) return 'lost';
      if (e === stale) return 'stale';
      throw e;
    }
    this.onStarted();
    return 'started';
  }

  async setResults(id: string, results: { round: number; board: number; result: BoardResult; forfeit: boolean }[]): Promise<void> {
    if (results.length === 0) return;
    // One statement: the results and the version bump commit together (no bump when none was new).
    await this.sql(
      `WITH scored AS (
         UPDATE "tournament_board" b SET "result" = r."result", "forfeit" = r."forfeit"
           FROM jsonb_to_recordset($2::jsonb) AS r("round" int, "board" int, "result" text, "forfeit" boolean)
          WHERE b."tournament_id" = $1 AND b."round" = r."round" AND b."board" = r."board" AND b."result" IS NULL
         RETURNING 1)
       UPDATE "tournament" SET "version" = "version" + 1 WHERE "id" = $1 AND EXISTS (SELECT 1 FROM scored)`,
      [id, JSON.stringify(results)],
    );
  }

  async finish(id: string, round: number, standings: unknown, at: Date): Promise<boolean> {
    const rows = await this.sql(
      `UPDATE "tournament" SET "status" = 'finished', "rounds" = $2, "standings" = $3::jsonb, "finished_at" = $4::timestamptz, "round_ends_at" = NULL,
                             "version" = "version" + 1
        WHERE "id" = $1 AND "round" = $2 AND "status" = 'running' RETURNING 1`,
      [id, round, JSON.stringify(standings), at.toISOString()],
    );
    if (rows.length > 0) this.onStarted();
    return rows.length > 0;
  }

  async due(now: Date, limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }>(
      `SELECT t."id" FROM "tournament" t
        WHERE (t."status" = 'open' AND t."starts_at" <= $1::timestamptz)
           OR (t."status" = 'running' AND (t."round_ends_at" <= $1::timestamptz
                 -- A match of the round ended and is not scored yet.
                 OR EXISTS (SELECT 1 FROM "tournament_board" b JOIN "match" m ON m."id" = b."match_id"
                             WHERE b."tournament_id" = t."id" AND b."round" = t."round" AND b."result" IS NULL AND m."status" = 'finished')
                 -- Every board is scored: the next round (or the finish) is due.
                 OR NOT EXISTS (SELECT 1 FROM "tournament_board" b
                                 WHERE b."tournament_id" = t."id" AND b."round" = t."round" AND b."result" IS NULL)))
        ORDER BY t."created_at" LIMIT $2`,
      [now.toISOString(), limit],
    );
    return rows.map((r) => r.id);
  }
}
