/**
 * npm run bench:tournament — tournaments (issue 25), in two parts:
 *
 *   1. Pairing, pure (src/tournaments/pairing): for each field size in SIZES, EVENTS Swisses of
 *      SWISS_ROUNDS rounds whose results are drawn from a seeded stream (keyedStream, so a run
 *      repeats: 45 % first seat, 45 % second, 10 % draw). pairSwissRound is timed per round
 *      (median, p95, max over every round of every event), then standings and crosstable after
 *      the last round (median over the events), and roundRobin's
 *      whole schedule for the largest size. Checked: in every round every player is on exactly
 *      one board (one bye when the field is odd), nobody meets anyone twice, nobody has two byes,
 *      the standings' points sum to the points handed out; the round robin has n−1 rounds (n
 *      even) and every pair meets exactly once.
 *   2. End to end: the app in this process (buildApp, listening on a local port) on PGlite (in
 *      memory) and, when reachable, on a throw-away PostgreSQL database. PLAYERS players register
 *      over HTTP, an organizer creates a correspondence Swiss of ROUNDS rounds (3 days per move),
 *      everyone enters with the default starter deck, the organizer starts it. Computer players
 *      (src/ai, level AI_LEVEL) play every match to its end over HTTP with their player tokens:
 *      the seat reads its own view, its legal actions and its redacted events, decides, and
 *      posts the action, nothing else (honest: it never sees the other seat). The matches of a
 *      round are played at once. When the last one ends the bench calls
 *      `service.tournaments.advance(id)` (what every node's sweep does) and times it: the round
 *      start, from the last match ending to the next round's matches existing. Checked: ROUNDS
 *      rounds played, the tournament finished, every player on one board per round (a bye
 *      counts), no repeat pairing, every board's result the match's own, the final standings'
 *      points sum to the games won or drawn plus the byes, each player's games + byes = ROUNDS.
 *
 * Prints a table per part and the command; exit code 1 when a check fails or something crashed.
 *
 *   npm run bench:tournament
 *   QUICK=1 npm run bench:tournament     (seconds: what test/bench/tournament.test.ts runs)
 *
 * Environment:
 *   SIZES          field sizes of part 1                                  default 64,250,1000
 *   SWISS_ROUNDS   rounds of part 1's Swiss                               default 9
 *   EVENTS         Swisses per size in part 1 (timings pooled)            default 5
 *   PLAYERS        players of part 2                                      default 64
 *   ROUNDS         rounds of part 2's Swiss                               default 7
 *   AI_LEVEL       the computer players' level (1–8)                      default 1
 *   BACKENDS       comma list of pglite,postgres (part 2)                 default both
 *   PARTS          comma list of pairing,e2e                              default both
 *   SEED           the seed of part 1's results and of every decision     default bench-1
 *   QUICK          1: SIZES=16,64 SWISS_ROUNDS=5 EVENTS=1 PLAYERS=8 ROUNDS=3 BACKENDS=pglite (each overridable)
 *   BENCH_DATABASE_URL  maintenance db for CREATE/DROP DATABASE
 *                  default TEST_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/postgres
 *
 * One process holds the server and the computer players: "CPU" is this process's, and the
 * computer's own share (the decide calls) is shown apart, so what is left is the server's (HTTP,
 * the engine, the store; PostgreSQL's own processes not included).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { buildApp, type App } from '../src/app.js';
import { openStore, type DatabaseConfig, type OpenedStore } from '../src/persistence/index.js';
import { keyedStream, nextInt } from '../src/core/random.js';
import {
  crosstable,
  isBye,
  pairSwissRound,
  roundRobin,
  standings,
  type GameResult,
  type PlayerId,
  type RoundResults,
} from '../src/tournaments/pairing/index.js';
import { decide, isLevel, type AiInput, type Level } from '../src/ai/index.js';
import { playableGame } from '../src/service/ai/games.js';
import type { Seat, SeatEvent } from '../src/core/ruleset.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';
import { cleanUpOnSignals, cleanups, interrupted, runBench, runCleanups } from './lib/cleanup.js';
import { httpClient } from './lib/http-call.js';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';
import { loadAverage } from './lib/machine.js';

const QUICK = process.env.QUICK === '1' || process.argv.includes('--quick');
const num = (name: string, full: number, quick: number): number => {
  const v = process.env[name];
  return v === undefined || v === '' || !Number.isFinite(Number(v)) ? (QUICK ? quick : full) : Number(v);
};
const list = (name: string, full: string, quick: string): string[] =>
  (process.env[name] || (QUICK ? quick : full))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const SIZES = list('SIZES', '64,250,1000', '16,64')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 2);
const SWISS_ROUNDS = Math.max(1, Math.floor(num('SWISS_ROUNDS', 9, 5)));
const EVENTS = Math.max(1, Math.floor(num('EVENTS', 5, 1)));
const PLAYERS = Math.max(2, Math.floor(num('PLAYERS', 64, 8)));
const ROUNDS = Math.max(1, Math.floor(num('ROUNDS', 7, 3)));
const AI_LEVEL = Math.floor(num('AI_LEVEL', 1, 1));
const BACKENDS = list('BACKENDS', 'pglite,postgres', 'pglite');
const PARTS = list('PARTS', 'pairing,e2e', 'pairing,e2e');
const SEED = process.env.SEED || 'bench-1';
if (!isLevel(AI_LEVEL)) throw new Error(`AI_LEVEL must be 1 to 8, not ${AI_LEVEL}`);
const LEVEL: Level = AI_LEVEL;
/** A match past this many actions is resigned by the seat to move (a safety net: the rules end every game). */
const MAX_ACTIONS_PER_MATCH = 3_000;

const stopAll = new AbortController();
cleanUpOnSignals(() => stopAll.abort());
const call = httpClient(stopAll.signal, 60_000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const RUN = randomBytes(3).toString('hex');

/** Whatever a check found wrong (the exit code is 1 when any). */
const failures: string[] = [];
const fail = (what: string) => {
  failures.push(what);
  console.log(`  CHECK FAILED: ${what}`);
};

const ms = (t0: number) => performance.now() - t0;
const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

// ------------------------------------------------------------------ part 1: pairing, pure

interface PairingRow {
  players: number;
  rounds: number;
  swiss: Samples;
  standingsMs: number;
  crosstableMs: number;
  seatRuleRelaxed: number;
  ok: boolean;
}

/** Checks one round's boards: everyone once, byes as the field's parity says, no repeat pairing, no second bye. */
function checkRound(
  label: string,
  players: readonly PlayerId[],
  boards: readonly ({ p1: string; p2: string } | { bye: string })[],
  met: Set<string>,
  byes: Set<string>,
): void {
  const seen = new Set<string>();
  let roundByes = 0;
  const see = (p: string) => {
    if (seen.has(p)) fail(`${label}: ${p} is on two boards`);
    seen.add(p);
  };
  for (const b of boards) {
    if ('bye' in b) {
      see(b.bye);
      roundByes++;
      if (byes.has(b.bye)) fail(`${label}: ${b.bye} has a second bye`);
      byes.add(b.bye);
      continue;
    }
    see(b.p1);
    see(b.p2);
    if (b.p1 === b.p2) fail(`${label}: ${b.p1} paired with itself`);
    const k = pairKey(b.p1, b.p2);
    if (met.has(k)) fail(`${label}: ${b.p1} and ${b.p2} meet again`);
    met.add(k);
  }
  if (seen.size !== players.length || players.some((p) => !seen.has(p))) fail(`${label}: ${seen.size} of ${players.length} players paired`);
  if (roundByes !== players.length % 2) fail(`${label}: ${roundByes} byes for ${players.length} players`);
}

/** EVENTS Swisses of `n` players (each its own results stream), their timings pooled. */
function pairingRun(n: number): PairingRow {
  const before = failures.length;
  const players = Array.from({ length: n }, (_, i) => `p${String(i + 1).padStart(4, '0')}`);
  const swiss = new Samples();
  const standingsMs = new Samples();
  const crosstableMs = new Samples();
  let relaxed = 0;
  for (let k = 1; k <= EVENTS; k++) {
    const label = `Swiss of ${n} #${k}`;
    const rng = keyedStream(SEED, `bench:tournament:swiss:${n}:${k}`);
    const results: RoundResults[] = [];
    const met = new Set<string>();
    const byes = new Set<string>();
    let handedOut = 0;
    for (let r = 1; r <= SWISS_ROUNDS; r++) {
      const t0 = performance.now();
      const round = pairSwissRound({ players, results });
      swiss.add(ms(t0));
      if (round.seatRuleRelaxed) relaxed++;
      checkRound(`${label}, round ${r}`, players, round.pairings, met, byes);
      results.push(
        round.pairings.map((p): GameResult => {
          handedOut++; // a bye, a win or a draw: one point in all
          if (isBye(p)) return { bye: p.bye };
          const x = nextInt(rng, 100);
          return { p1: p.p1, p2: p.p2, outcome: x < 45 ? 'p1' : x < 90 ? 'p2' : 'draw' };
        }),
      );
    }
    let t0 = performance.now();
    const table = standings(players, results);
    standingsMs.add(ms(t0));
    t0 = performance.now();
    const cross = crosstable(players, results);
    crosstableMs.add(ms(t0));
    const sum = table.reduce((t, row) => t + row.points, 0);
    if (Math.abs(sum - handedOut) > 1e-9) fail(`${label}: the standings' points sum to ${sum}, ${handedOut} were handed out`);
    if (table.some((row) => row.games + row.byes !== SWISS_ROUNDS)) fail(`${label}: a player's games + byes is not ${SWISS_ROUNDS}`);
    if (cross.players.length !== n || cross.cells.length !== n) fail(`${label}: the crosstable has ${cross.players.length} players`);
  }
  return {
    players: n,
    rounds: SWISS_ROUNDS,
    swiss,
    standingsMs: standingsMs.percentile(50),
    crosstableMs: crosstableMs.percentile(50),
    seatRuleRelaxed: relaxed,
    ok: failures.length === before,
  };
}

interface RoundRobinRow {
  players: number;
  rounds: number;
  boards: number;
  ms: number;
  ok: boolean;
}

function roundRobinRun(n: number): RoundRobinRow {
  const before = failures.length;
  const players = Array.from({ length: n }, (_, i) => `p${String(i + 1).padStart(4, '0')}`);
  const t0 = performance.now();
  const schedule = roundRobin(players);
  const took = ms(t0);
  const met = new Set<string>();
  let boards = 0;
  const wantRounds = n % 2 === 0 ? n - 1 : n;
  if (schedule.length !== wantRounds) fail(`round robin of ${n}: ${schedule.length} rounds, not ${wantRounds}`);
  schedule.forEach((round, i) => {
    // Byes may repeat in a round robin's check (one per round to a different player): the shared check holds.
    checkRound(`round robin of ${n}, round ${i + 1}`, players, round, met, new Set());
    boards += round.filter((b) => !isBye(b)).length;
  });
  if (met.size !== (n * (n - 1)) / 2) fail(`round robin of ${n}: ${met.size} pairs met, not ${(n * (n - 1)) / 2}`);
  return { players: n, rounds: schedule.length, boards, ms: took, ok: failures.length === before };
}

// ------------------------------------------------------------------ part 2: end to end

interface E2eRow {
  label: string;
  players: number;
  rounds: number;
  matches: number;
  moves: number;
  seconds: number;
  /** The organizer's start call, then each advance that started a round (ms). */
  roundStarts: number[];
  /** The advance that finished the tournament (ms). */
  finishMs: number;
  moveMs: Samples;
  cpuMs: number;
  aiCpuMs: number;
  ok: boolean;
}

interface Account {
  handle: string;
  token: string;
}

interface Board {
  board: number;
  p1: string;
  p2: string | null;
  matchId: string | null;
  result: string | null;
  forfeit: boolean;
}

interface TournamentBody {
  id: string;
  status: string;
  round: number;
  rounds: number | null;
  pairings: { round: number; boards: Board[] }[];
  players: { handle: string; withdrawn: boolean }[];
}

interface ApiEvent {
  seq: number;
  source: string;
  event: unknown;
}

interface MatchBody {
  id: string;
  gameId: string;
  version: number;
  status: string;
  winner: Seat | null;
  seats: { seat: Seat; handle: string | null }[];
  game: { viewer?: string; pending?: { seat: Seat } | null } | null;
}

/** The full answer to an action with ?include=legal. */
interface ActionAnswer {
  version: number;
  events: ApiEvent[];
  match: MatchBody;
  legalActions?: { action: { type: string } }[];
}

/** Stats the computer players add to. */
interface Play {
  moves: number;
  moveMs: Samples;
  aiCpuUs: number;
}

async function expectOk<T>(what: string, p: Promise<{ status: number; body: unknown; text: string }>, want = 200): Promise<T> {
  const r = await p;
  if (r.status !== want) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 300)}`);
  return r.body as T;
}

/**
 * One match played to its end by two computer players, each through the API with its own token:
 * the seat's view (whose decision it is), its legal actions and its events (kept per seat, read
 * on from the last seq), then the decision of `src/ai` at LEVEL, posted with If-Match and
 * ?include=legal. The answer to a seat's own action is its view, the events that action made
 * as it may see them, and its legal actions next: when the same seat decides again (most of a
 * turn), it decides from that answer alone; the other seat reads the three for itself.
 */
async function playMatch(base: string, matchId: string, tokens: Record<Seat, string>, play: Play): Promise<MatchBody> {
  const events: Record<Seat, { after: number; list: SeatEvent[] }> = { p1: { after: 0, list: [] }, p2: { after: 0, list: [] } };
  const held: Record<Seat, { view: MatchBody; legal: { type: string }[] } | null> = { p1: null, p2: null };
  const take = (seat: Seat, list: readonly ApiEvent[]) => {
    const mine = events[seat];
    for (const e of list) {
      if (e.seq <= mine.after) continue;
      if (e.source === 'game') mine.list.push(e.event as SeatEvent);
      mine.after = e.seq;
    }
  };
  let seat: Seat = 'p1';
  let idle = 0;
  let actions = 0;
  for (;;) {
    if (interrupted()) throw new Error('interrupted');
    const t0 = performance.now();
    let v: MatchBody;
    let legal: { type: string }[];
    const h = held[seat];
    held[seat] = null;
    if (h) ({ view: v, legal } = h);
    else {
      v = await expectOk<MatchBody>(`view of ${matchId}`, call(base, 'GET', `/v1/matches/${matchId}`, bearer(tokens[seat])));
      if (v.status !== 'active') return v;
      const toMove = v.game?.pending?.seat ?? null;
      if (toMove !== seat) {
        // The other seat's decision: it reads its own view next.
        if (toMove === null || ++idle > 2) throw new Error(`${matchId}: active but no seat to move (${JSON.stringify(v.game?.pending)})`);
        seat = toMove;
        continue;
      }
      legal = (
        await expectOk<{ actions: { action: { type: string } }[] }>(
          `legal actions of ${matchId}`,
          call(base, 'GET', `/v1/matches/${matchId}/legal-actions`, bearer(tokens[seat])),
        )
      ).actions.map((a) => a.action);
      for (;;) {
        const page = await expectOk<{ events: ApiEvent[]; next: number; hasMore: boolean }>(
          `events of ${matchId}`,
          call(base, 'GET', `/v1/matches/${matchId}/events?after=${events[seat].after}&limit=500`, bearer(tokens[seat])),
        );
        take(seat, page.events);
        events[seat].after = Math.max(events[seat].after, page.next);
        if (!page.hasMore) break;
      }
    }
    idle = 0;
    let action: { type: string };
    if (++actions > MAX_ACTIONS_PER_MATCH) action = { type: 'resign' };
    else {
      const rs = playableGame(v.gameId);
      if (!rs) throw new Error(`the computer cannot play ${v.gameId}`);
      const input: AiInput<unknown, { type: string }> = { view: v.game, seat, legal, events: events[seat].list };
      const c0 = process.cpuUsage();
      action = decide(rs, input, LEVEL, `${SEED}:${matchId}:${v.version}`);
      const c = process.cpuUsage(c0);
      play.aiCpuUs += c.user + c.system;
    }
    const res: ActionAnswer = await expectOk<ActionAnswer>(
      `${seat}'s action in ${matchId}`,
      call(
        base,
        'POST',
        `/v1/matches/${matchId}/actions?include=legal`,
        { ...bearer(tokens[seat]), 'if-match': `"${v.version}"`, prefer: 'return=representation' },
        { action },
      ),
    );
    play.moveMs.add(ms(t0));
    play.moves++;
    // Nothing happened between the version this seat saw and its action (If-Match): these events are all that is new to it.
    take(seat, res.events);
    if (res.match.status !== 'active') return res.match;
    const toMove: Seat | null = res.match.game?.pending?.seat ?? null;
    if (toMove === seat) held[seat] = { view: res.match, legal: (res.legalActions ?? []).map((a) => a.action) };
    else if (toMove !== null) seat = toMove;
  }
}

async function openBackend(name: 'pglite' | 'postgres'): Promise<DatabaseConfig | null> {
  if (name === 'pglite') return { kind: 'pglite', dataDir: 'memory://' };
  try {
    await admin((c) => c.query('SELECT 1'));
  } catch (e) {
    console.log(`\nPostgreSQL: skipped — unreachable (${(e as Error).message})`);
    return null;
  }
  const db = `evons_bench_tournament_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${db}"`));
  cleanups.push(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
  });
  return { kind: 'postgres', url: withDatabase(MAINTENANCE_URL, db) };
}

async function endToEnd(name: 'pglite' | 'postgres'): Promise<E2eRow | null> {
  const label = name === 'pglite' ? 'PGlite (memory)' : 'PostgreSQL';
  const config = await openBackend(name);
  if (!config) return null;
  const opened: OpenedStore = await openStore(config);
  cleanups.push(() => opened.close());
  // No computer seats (the players here are clients), no webhook worker, no sweeper: the bench advances.
  const app: App = await buildApp({ logger: false, store: opened.store, ai: false, webhooks: { worker: false } });
  cleanups.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('no TCP address');
  const base = `http://127.0.0.1:${addr.port}`;
  const before = failures.length;
  console.log(`\n${label}: app ready on ${base}; load ${loadAverage()}`);

  const register = async (prefix: string, i: number): Promise<Account> => {
    const handle = `${prefix}${RUN}x${i}`;
    const b = await expectOk<{ token: string }>(`register ${handle}`, call(base, 'POST', '/v1/players', {}, { handle }), 201);
    return { handle, token: b.token };
  };
  const organizer = await register('org', 0);
  const players = await Promise.all(Array.from({ length: PLAYERS }, (_, i) => register('ai', i + 1)));
  const tokenOf = new Map(players.map((p) => [p.handle.toLowerCase(), p.token]));
  const created = await expectOk<TournamentBody>(
    'create',
    call(base, 'POST', '/v1/tournaments', bearer(organizer.token), {
      name: `Bench ${RUN}`,
      format: 'swiss',
      rounds: ROUNDS,
      maxPlayers: Math.max(PLAYERS, 2),
      timeControl: { kind: 'correspondence', daysPerMove: 3 },
    }),
    201,
  );
  const id = created.id;
  for (const p of players) await expectOk(`join ${p.handle}`, call(base, 'POST', `/v1/tournaments/${id}/join`, bearer(p.token), {}));
  const get = () => expectOk<TournamentBody>('tournament', call(base, 'GET', `/v1/tournaments/${id}`, {}));

  const play: Play = { moves: 0, moveMs: new Samples(), aiCpuUs: 0 };
  const roundStarts: number[] = [];
  let finishMs = Number.NaN;
  const matchWinner = new Map<string, MatchBody>();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let s = performance.now();
  await expectOk('start', call(base, 'POST', `/v1/tournaments/${id}/start`, bearer(organizer.token), {}));
  roundStarts.push(ms(s));
  let t = await get();
  for (let guard = 0; t.status === 'running' && guard <= ROUNDS + 1 && !interrupted(); guard++) {
    const round = t.pairings.find((r) => r.round === t.round);
    if (!round) throw new Error(`round ${t.round} has no pairings`);
    await Promise.all(
      round.boards.map(async (b) => {
        if (b.matchId === null || b.result !== null || b.p2 === null) return;
        const m = await expectOk<MatchBody>(`match ${b.matchId}`, call(base, 'GET', `/v1/matches/${b.matchId}`, {}));
        const tokens = {} as Record<Seat, string>;
        for (const seat of m.seats) tokens[seat.seat] = tokenOf.get((seat.handle ?? '').toLowerCase())!;
        if (!tokens.p1 || !tokens.p2) throw new Error(`match ${b.matchId}: seats ${JSON.stringify(m.seats)} are not the board's players`);
        matchWinner.set(b.matchId, await playMatch(base, b.matchId, tokens, play));
      }),
    );
    const r = t.round;
    // Progress on stderr (a full run takes minutes on a shared machine).
    process.stderr.write(`  ${label}: round ${r} played, ${play.moves} moves so far (${(ms(t0) / 1000).toFixed(0)} s)\n`);
    s = performance.now();
    await app.service.tournaments.advance(id);
    const took = ms(s);
    t = await get();
    if (t.status === 'finished') finishMs = took;
    else if (t.round === r + 1) roundStarts.push(took);
    else fail(`${label}: after round ${r} ended and advance, the tournament is ${t.status} at round ${t.round}`);
  }
  const seconds = ms(t0) / 1000;
  const c = process.cpuUsage(cpu0);

  // ---- the checks
  if (t.status !== 'finished') fail(`${label}: the tournament is ${t.status}, not finished`);
  if (t.pairings.length !== ROUNDS) fail(`${label}: ${t.pairings.length} rounds played, not ${ROUNDS}`);
  const handles = players.map((p) => p.handle.toLowerCase());
  const met = new Set<string>();
  const byes = new Set<string>();
  let expectedPoints = 0;
  let matches = 0;
  for (const r of t.pairings) {
    const boards = r.boards.map((b) => (b.p2 === null ? { bye: b.p1.toLowerCase() } : { p1: b.p1.toLowerCase(), p2: b.p2.toLowerCase() }));
    checkRound(`${label}, round ${r.round}`, handles, boards, met, byes);
    for (const b of r.boards) {
      if (b.p2 === null) {
        if (b.result !== 'bye') fail(`${label}: round ${r.round}: ${b.p1}'s bye is scored ${b.result}`);
        expectedPoints += 1;
        continue;
      }
      matches++;
      if (b.result === 'p1' || b.result === 'p2' || b.result === 'draw') expectedPoints += 1;
      else fail(`${label}: round ${r.round} board ${b.board} has result ${b.result}`);
      if (b.forfeit) fail(`${label}: round ${r.round} board ${b.board} was scored by forfeit`);
      const m = b.matchId ? matchWinner.get(b.matchId) : undefined;
      if (!m) {
        fail(`${label}: round ${r.round} board ${b.board} has no match played by the bench`);
        continue;
      }
      // The board's result names the winner's handle by board seat; the match names its seat.
      const winnerHandle = m.winner === null ? null : m.seats.find((x) => x.seat === m.winner)?.handle?.toLowerCase();
      const boardWinner = b.result === 'draw' ? null : (b.result === 'p1' ? b.p1 : b.p2).toLowerCase();
      if (m.status !== 'finished' || winnerHandle !== boardWinner)
        fail(`${label}: round ${r.round} board ${b.board}: board says ${b.result}, the match ${m.status} won by ${winnerHandle}`);
    }
  }
  const st = await expectOk<{ final: boolean; standings: { handle: string; points: number; games: number; byes: number }[] }>(
    'standings',
    call(base, 'GET', `/v1/tournaments/${id}/standings`, {}),
  );
  if (!st.final) fail(`${label}: the standings are not final`);
  if (st.standings.length !== PLAYERS) fail(`${label}: ${st.standings.length} rows in the standings`);
  const sum = st.standings.reduce((a, row) => a + row.points, 0);
  if (Math.abs(sum - expectedPoints) > 1e-9) fail(`${label}: the standings' points sum to ${sum}; the boards scored ${expectedPoints}`);
  for (const row of st.standings)
    if (row.games + row.byes !== ROUNDS) fail(`${label}: ${row.handle} has ${row.games} games and ${row.byes} byes, not ${ROUNDS} boards`);
  const csv = await call(base, 'GET', `/v1/tournaments/${id}/standings.csv`, {});
  if (csv.status !== 200 || csv.text.trim().split('\r\n').length !== PLAYERS + 1)
    fail(`${label}: standings.csv: ${csv.status}, ${csv.text.trim().split('\r\n').length} lines`);

  return {
    label,
    players: PLAYERS,
    rounds: t.pairings.length,
    matches,
    moves: play.moves,
    seconds,
    roundStarts,
    finishMs,
    moveMs: play.moveMs,
    cpuMs: (c.user + c.system) / 1000,
    aiCpuMs: play.aiCpuUs / 1000,
    ok: failures.length === before,
  };
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const command = `${QUICK ? 'QUICK=1 ' : ''}SIZES=${SIZES.join(',')} SWISS_ROUNDS=${SWISS_ROUNDS} EVENTS=${EVENTS} PLAYERS=${PLAYERS} ROUNDS=${ROUNDS} AI_LEVEL=${LEVEL} BACKENDS=${BACKENDS.join(',')} PARTS=${PARTS.join(',')} SEED=${SEED} npm run bench:tournament`;
  console.log(`bench:tournament — ${os.cpus().length} cores, load ${loadAverage()}`);

  if (PARTS.includes('pairing')) {
    const rows = SIZES.map(pairingRun);
    console.log(
      `\nSwiss pairing (pairSwissRound, Monrad + blossom), ${EVENTS} events of ${SWISS_ROUNDS} rounds per size, results drawn from seed ${SEED}; pairing times over every round, standings and crosstable after the last round (median of the events)`,
    );
    console.log(
      table([
        [
          'players',
          'rounds',
          'events',
          'pair median ms',
          'p95 ms',
          'max ms',
          'standings ms',
          'crosstable ms',
          'seat rule relaxed',
          'checks',
        ],
        ...rows.map((r) => [
          fmtInt(r.players),
          String(r.rounds),
          String(EVENTS),
          fmtMs(r.swiss.percentile(50)),
          fmtMs(r.swiss.percentile(95)),
          fmtMs(r.swiss.max()),
          fmtMs(r.standingsMs),
          fmtMs(r.crosstableMs),
          String(r.seatRuleRelaxed),
          r.ok ? 'ok' : 'FAILED',
        ]),
      ]),
    );
    const largest = Math.max(...SIZES);
    const rr = roundRobinRun(largest);
    console.log(`\nRound robin (roundRobin, Berger tables): the whole schedule`);
    console.log(
      table([
        ['players', 'rounds', 'boards', 'ms', 'checks'],
        [fmtInt(rr.players), fmtInt(rr.rounds), fmtInt(rr.boards), fmtMs(rr.ms), rr.ok ? 'ok' : 'FAILED'],
      ]),
    );
  }

  if (PARTS.includes('e2e')) {
    const rows: E2eRow[] = [];
    for (const name of ['pglite', 'postgres'] as const) {
      if (!BACKENDS.includes(name) || interrupted()) continue;
      try {
        const row = await endToEnd(name);
        if (row) rows.push(row);
      } finally {
        await runCleanups();
      }
    }
    if (interrupted()) return;
    if (rows.length > 0) {
      console.log(
        `\nEnd to end: ${PLAYERS} players, a correspondence Swiss of ${ROUNDS} rounds, every match played by computer players (level ${LEVEL}) over HTTP; round start = the advance after the last match ended`,
      );
      console.log(
        table([
          [
            'database',
            'players',
            'rounds',
            'matches',
            'moves',
            'seconds',
            'moves/s',
            'move p50 ms',
            'move p95 ms',
            'start ms (first)',
            'round start median ms',
            'max ms',
            'finish ms',
            'CPU s',
            'of which AI s',
            'checks',
          ],
          ...rows.map((r) => {
            const next = new Samples();
            for (const x of r.roundStarts.slice(1)) next.add(x);
            return [
              r.label,
              fmtInt(r.players),
              String(r.rounds),
              fmtInt(r.matches),
              fmtInt(r.moves),
              r.seconds.toFixed(1),
              fmtInt(r.moves / r.seconds),
              fmtMs(r.moveMs.percentile(50)),
              fmtMs(r.moveMs.percentile(95)),
              fmtMs(r.roundStarts[0] ?? Number.NaN),
              fmtMs(next.percentile(50)),
              fmtMs(next.max()),
              fmtMs(r.finishMs),
              (r.cpuMs / 1000).toFixed(1),
              (r.aiCpuMs / 1000).toFixed(1),
              r.ok ? 'ok' : 'FAILED',
            ];
          }),
        ]),
      );
      for (const r of rows)
        console.log(`  ${r.label}: round starts (ms) ${r.roundStarts.map(fmtMs).join(', ')}; finish ${fmtMs(r.finishMs)}`);
    }
  }

  console.log(`\nload ${loadAverage()}; command: ${command}`);
  if (failures.length > 0) {
    console.log(`\n${failures.length} check(s) failed`);
    process.exitCode = 1;
  }
}

await runBench('bench:tournament', main);
