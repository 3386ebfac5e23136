/**
 * npm run bench:peers — the peer comparison for `npm run bench:api`: boardgame.io 0.50.2 hosting
 * OUR Evons rules (bench/peers/boardgameio-game.ts), its server in a child process with in-memory
 * storage, MATCHES concurrent matches played with random legal moves by boardgame.io clients over
 * socket.io. Prints accepted moves/s, move latency and the server's CPU per move; asserts nothing.
 *
 *   MATCHES=24 DURATION=30 WARMUP=3 npm run bench:peers
 *   STORAGE=flatfile npm run bench:peers
 *   STORAGE=postgres npm run bench:peers
 *
 * boardgame.io is NOT a dependency of the project (see bench/peers/README.md): this script
 * installs boardgame.io@0.50.2 (with node-persist for FlatFile, bgio-postgres for PostgreSQL) with
 * npm into a temporary directory (bench/peers/install.ts), runs
 * `node --import tsx bench/peers/boardgameio-server.ts` from the repository with boardgame.io
 * resolved from that directory, loads boardgame.io's client from it too, and removes the directory
 * at exit (also on error and SIGINT/SIGTERM).
 *
 * Environment:
 *   MATCHES   concurrent matches (2 boardgame.io clients each, one per seat)    default 24
 *   DURATION  measured seconds (after WARMUP)                                    default 30
 *   WARMUP    seconds of load before measuring                                   default 3
 *   STORAGE   memory (boardgame.io's InMemory), flatfile (its FlatFile,
 *             node-persist files in the temp directory) or postgres
 *             (bgio-postgres 1.0.16 on a throw-away database evons_peers_<hex>,
 *             dropped at exit, also on error and SIGINT/SIGTERM)                 default memory
 *   STALL     seconds without any accepted move (while moves are outstanding)
 *             after which the run is stopped and reported as stalled            default 15
 *   BENCH_DATABASE_URL  maintenance db for CREATE/DROP DATABASE (STORAGE=postgres)
 *             default TEST_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/postgres
 *   BGIO_DIR  use this install (made by bench/peers/install.ts, e.g. by bench:side-by-side)
 *             instead of installing; it is not removed                           default none
 *
 * Per match: POST /games/evons/create (setupData: seed and starter decks) and two POST …/join on
 * boardgame.io's lobby API; a Client (boardgame.io/client, SocketIO multiplayer) per seat. When a
 * client's state says its seat is to decide (playerView gives that seat its legal actions), it
 * sends a uniformly random one with `moves.act`. Latency of a move: from sending it to that
 * client's receiving the state update that includes it (a higher _stateID). When the match ends,
 * both clients stop and the slot starts another match. Same decks, chain guard and resign cap as
 * bench/api.ts.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Samples, fmtInt, fmtMs, table } from '../lib/stats.js';
import { freePort } from '../lib/server-process.js';
import { loadAverage, measureCpuWindow, type CpuWindow } from '../lib/machine.js';
import { cleanUpOnSignals, cleanups, interrupted, runBench } from '../lib/cleanup.js';
import { MAINTENANCE_URL, admin, withDatabase } from '../lib/postgres.js';
import { seededPick } from '../../src/games/evons/index.js';
import { BenchPlayer, CHAIN_LIMIT } from '../lib/move-policy.js';
import { GAME_NAME, evonsGame, playerIdOf, type PlayerG, type SetupData } from './boardgameio-game.js';
import { BGIO_POSTGRES_VERSION, BGIO_VERSION, checkInstall, describeInstall, installPeers, parseStorage } from './install.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
const MATCHES = Math.max(1, Math.floor(num(process.env.MATCHES, 24)));
const DURATION_S = Math.max(1, num(process.env.DURATION, 30));
const WARMUP_S = Math.max(0, num(process.env.WARMUP, 3));
const STALL_S = Math.max(1, num(process.env.STALL, 15));
const STORAGE = parseStorage(process.env.STORAGE);
const STARTERS = ['starter-verdant-quake', 'starter-storm-shade', 'starter-ember-tide'];
const LOBBY_TIMEOUT_MS = 15_000;

// boardgame.io's client checks NODE_ENV like its server does: benchmark production behaviour.
process.env.NODE_ENV = 'production';

// ------------------------------------------------------------------ cleanup on any exit path

cleanUpOnSignals();

// ------------------------------------------------------------------ the server child

interface BgioServer {
  base: string;
  pid: number;
  child: ChildProcess;
  log(): string[];
  exited(): string | null;
  /** user + system CPU ms from /proc, NaN where unavailable. */
  cpuMs(): number;
  rssMiB(): number;
  stop(): Promise<void>;
}

function procStat(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** A throw-away PostgreSQL database for bgio-postgres, dropped by the cleanups. */
async function createDatabase(): Promise<string> {
  try {
    await admin((c) => c.query('SELECT 1'));
  } catch (e) {
    throw new Error(`PostgreSQL unreachable at ${redactUrl(MAINTENANCE_URL)} (${(e as Error).message}); set BENCH_DATABASE_URL`);
  }
  const db = `evons_peers_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${db}"`));
  cleanups.push(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
  });
  return withDatabase(MAINTENANCE_URL, db);
}

function redactUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

async function startBgioServer(dir: string, pgUrl: string | null): Promise<BgioServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, BGIO_DIR: dir, PORT: String(port), NODE_ENV: 'production', STORAGE };
  delete env.NODE_OPTIONS; // the parent's tsx loader options must not leak in twice
  if (STORAGE === 'flatfile') {
    const files = fs.mkdtempSync(path.join(dir, 'flatfile-db-'));
    cleanups.push(() => fs.rmSync(files, { recursive: true, force: true }));
    env.FLATFILE_DIR = files;
  }
  if (pgUrl) env.PG_URL = pgUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'peers', 'boardgameio-server.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let ready: (() => void) | null = null;
  const readyP = new Promise<void>((resolve) => (ready = resolve));
  const keep = (chunk: Buffer) => {
    for (const l of chunk.toString('utf8').split('\n')) {
      if (!l.trim()) continue;
      if (l.startsWith(`ready ${port}`)) ready?.();
      lines.push(l.length > 400 ? `${l.slice(0, 400)}…` : l);
      if (lines.length > 200) lines.shift();
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exit: string | null = null;
  const exitedP = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `code ${code}, signal ${signal}`;
      resolve();
    }),
  );
  const pid = child.pid ?? -1;
  const s: BgioServer = {
    base: `http://127.0.0.1:${port}`,
    pid,
    child,
    log: () => [...lines],
    exited: () => exit,
    cpuMs: () => {
      const f = procStat(pid);
      return f ? ((Number(f[11]) + Number(f[12])) * 1000) / 100 : Number.NaN; // utime + stime, USER_HZ 100
    },
    rssMiB: () => {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
        return m ? Number(m[1]) / 1024 : Number.NaN;
      } catch {
        return Number.NaN;
      }
    },
    async stop() {
      if (exit) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => !exit && child.kill('SIGKILL'), 5_000);
      await exitedP;
      clearTimeout(t);
    },
  };
  cleanups.push(() => s.stop());
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`boardgame.io server not ready after 60 s:\n    ${lines.slice(-20).join('\n    ')}`)),
      60_000,
    ).unref(),
  );
  const died = exitedP.then(() => {
    throw new Error(`boardgame.io server exited during start-up (${exit}):\n    ${lines.slice(-20).join('\n    ')}`);
  });
  await Promise.race([readyP, timeout, died]);
  return s;
}

// ------------------------------------------------------------------ load generator

/* eslint-disable @typescript-eslint/no-explicit-any -- boardgame.io's client is loaded untyped from the temp install */
interface Bgio {
  Client: (opts: any) => any;
  SocketIO: (opts: any) => any;
  game: any;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function loadClient(dir: string): Bgio {
  const req = createRequire(path.join(dir, 'package.json'));
  /* eslint-disable @typescript-eslint/no-explicit-any -- as above */
  const client: any = req('boardgame.io/client');
  const multiplayer: any = req('boardgame.io/multiplayer');
  const core: any = req('boardgame.io/core');
  const immer: any = req('immer');
  /* eslint-enable @typescript-eslint/no-explicit-any */
  // The client needs the game's moves and flow; `act` is client: false, so it never runs there.
  const game = evonsGame({ INVALID_MOVE: core.INVALID_MOVE, ActivePlayers: core.ActivePlayers, original: immer.original });
  return { Client: client.Client, SocketIO: multiplayer.SocketIO, game };
}

interface LoadResult {
  moves: number;
  latency: Samples;
  lobby: Samples;
  matchesStarted: number;
  matchesFinished: number;
  matchesResigned: number;
  chainBreaks: number;
  /** Accepted moves per 5 s bucket over the whole run (warm-up included). */
  timeline: number[];
  updateChars: Samples;
  serverCpuMs: number;
  benchCpuMs: number;
  machine: CpuWindow | null;
  loadBefore: string;
  stalled: string | null;
  /** Moves sent but not reflected in any update when the run stopped, and the oldest one's age. */
  outstanding: { count: number; oldestMs: number };
  problems: Map<string, { count: number; example: string }>;
  rssMiB: number;
}

interface StateLike {
  _stateID: number;
  log?: unknown;
  isActive?: boolean;
  isConnected?: boolean;
  G: PlayerG;
  ctx: { gameover?: unknown };
}

/** Aborts lobby requests in flight when the run stops. */
const lobbyStop = new AbortController();

async function postJson(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.any([AbortSignal.timeout(LOBBY_TIMEOUT_MS), lobbyStop.signal]),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${new URL(url).pathname} → ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

async function runLoad(bgio: Bgio, server: BgioServer): Promise<LoadResult> {
  const t0 = performance.now();
  const measureStart = t0 + WARMUP_S * 1000;
  const measureEnd = measureStart + DURATION_S * 1000;
  const inWindow = (start: number, end: number) => start >= measureStart && end <= measureEnd;
  const r: LoadResult = {
    moves: 0,
    latency: new Samples(),
    lobby: new Samples(),
    matchesStarted: 0,
    matchesFinished: 0,
    matchesResigned: 0,
    chainBreaks: 0,
    timeline: [],
    updateChars: new Samples(),
    serverCpuMs: Number.NaN,
    benchCpuMs: Number.NaN,
    machine: null,
    loadBefore: loadAverage(),
    stalled: null,
    outstanding: { count: 0, oldestMs: 0 },
    problems: new Map(),
    rssMiB: Number.NaN,
  };
  const problem = (k: string, example: string) => {
    const p = r.problems.get(k) ?? { count: 0, example };
    p.count++;
    r.problems.set(k, p);
  };
  let stop = false;
  const stopWaiters = new Set<() => void>();
  const stopNow = () => {
    stop = true;
    clearInterval(watchdog);
    lobbyStop.abort();
    for (const w of stopWaiters) w();
  };
  /** Moves in flight, by an id, with their send time. */
  const inflight = new Map<number, number>();
  let inflightSeq = 0;
  let lastProgress = performance.now();

  const cpuWindow = measureCpuWindow(() => server.cpuMs(), WARMUP_S * 1000, (WARMUP_S + DURATION_S) * 1000, {
    end: (cpu) => {
      Object.assign(r, cpu);
      r.rssMiB = server.rssMiB();
      stopNow();
    },
  });
  const watchdog = setInterval(() => {
    const now = performance.now();
    if (server.exited()) {
      r.stalled = `the server exited (${server.exited()})`;
      stopNow();
    } else if (inflight.size > 0 && now - lastProgress > STALL_S * 1000) {
      r.stalled = `no move was accepted for ${STALL_S} s while ${inflight.size} were outstanding; stopped ${((now - t0) / 1000).toFixed(0)} s into the run (${WARMUP_S} s warm-up)`;
      stopNow();
    }
  }, 500);

  async function playOneMatch(slot: number, pick: (n: number) => number, n: number): Promise<void> {
    const setupData: SetupData = {
      seed: `bench-peers-${slot}-${n}-${Date.now()}`,
      decks: { p1: STARTERS[(slot + n) % STARTERS.length]!, p2: STARTERS[(slot + n + 1) % STARTERS.length]! },
    };
    const l0 = performance.now();
    const { matchID } = (await postJson(`${server.base}/games/${GAME_NAME}/create`, { numPlayers: 2, setupData })) as { matchID: string };
    const creds: string[] = [];
    for (const seat of ['p1', 'p2'] as const) {
      const j = (await postJson(`${server.base}/games/${GAME_NAME}/${matchID}/join`, {
        playerID: playerIdOf(seat),
        playerName: `bench-${slot}-${seat}`,
      })) as { playerCredentials: string };
      creds.push(j.playerCredentials);
    }
    const l1 = performance.now();
    if (stop) return; // the run ended while this match was being set up
    if (inWindow(l0, l1)) r.lobby.add(l1 - l0);
    r.matchesStarted++;

    const player = new BenchPlayer(pick, r);
    let seatsAtEnd = 0;
    let done: () => void = () => {};
    const over = new Promise<void>((resolve) => (done = resolve));
    stopWaiters.add(done);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- boardgame.io client objects
    const clients: any[] = [];
    for (const playerID of ['0', '1']) {
      const client = bgio.Client({
        game: bgio.game,
        numPlayers: 2,
        multiplayer: bgio.SocketIO({ server: server.base }),
        matchID,
        playerID,
        credentials: creds[Number(playerID)],
        debug: false,
      });
      clients.push(client);
      let acted = -1; // the last _stateID this seat moved at
      let mine: { id: number; stateID: number; sent: number } | null = null;
      let seen = 0;
      let sawEnd = false;
      client.subscribe((st: StateLike | null) => {
        if (!st || stop) return;
        if (mine && st._stateID > mine.stateID) {
          const now = performance.now();
          inflight.delete(mine.id);
          lastProgress = now;
          r.timeline[Math.floor((now - t0) / 5000)] = (r.timeline[Math.floor((now - t0) / 5000)] ?? 0) + 1;
          if (inWindow(mine.sent, now)) {
            r.latency.add(now - mine.sent);
            r.moves++;
          }
          mine = null;
          if (++seen % 50 === 1) {
            // What came over the wire, about: the client adds its whole log and two flags.
            const { log: _log, isActive: _active, isConnected: _connected, ...wire } = st;
            r.updateChars.add(JSON.stringify(wire).length);
          }
        }
        if (st.ctx.gameover !== undefined) {
          // Stop the clients once both seats have the final state (the mover's latency included).
          if (!sawEnd) {
            sawEnd = true;
            if (++seatsAtEnd === 2) {
              r.matchesFinished++;
              done();
            }
          }
          return;
        }
        const legal = st.G?.legal as { type: string }[] | null | undefined;
        if (mine || !legal || st._stateID === acted) return;
        if (legal.length === 0) {
          problem('no legal action', `seat ${playerID} of ${matchID} is to decide with no legal action`);
          return;
        }
        const choice = player.choose(legal, (a) => a.type) ?? { type: 'resign' };
        // boardgame.io's clients send without waiting for an answer: counted as accepted when sent.
        player.accepted(choice.type);
        acted = st._stateID;
        mine = { id: inflightSeq++, stateID: st._stateID, sent: performance.now() };
        inflight.set(mine.id, mine.sent);
        // Out of the subscriber: the client dispatches into its redux store.
        queueMicrotask(() => client.moves.act(choice));
      });
      client.start();
    }
    try {
      await over;
    } finally {
      stopWaiters.delete(done);
      for (const c of clients) c.stop();
    }
  }

  async function slot(i: number): Promise<void> {
    const pick = seededPick(`bench-peers-slot-${i}-${Date.now()}`);
    let n = 0;
    while (!stop) {
      try {
        await playOneMatch(i, pick, n++);
      } catch (e) {
        if (stop) return;
        problem('lobby', (e as Error).message);
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  }

  try {
    await Promise.all(Array.from({ length: MATCHES }, (_, i) => slot(i)));
  } finally {
    cpuWindow.cancel();
    clearInterval(watchdog);
  }
  const now = performance.now();
  r.outstanding = { count: inflight.size, oldestMs: inflight.size ? now - Math.min(...inflight.values()) : 0 };
  if (r.stalled && !Number.isFinite(r.serverCpuMs)) r.rssMiB = server.rssMiB();
  return r;
}

// ------------------------------------------------------------------ report

/** PostgreSQL's CPU (every `postgres` process, as bench:api counts it) per accepted move. */
const pgMsPerMove = (r: LoadResult): number => (r.machine ? (r.machine.postgres * DURATION_S * 1000) / Math.max(1, r.moves) : Number.NaN);

function report(r: LoadResult, server: BgioServer): void {
  const storage =
    STORAGE === 'flatfile'
      ? 'FlatFile (node-persist files)'
      : STORAGE === 'postgres'
        ? `bgio-postgres ${BGIO_POSTGRES_VERSION} (PostgreSQL)`
        : 'InMemory';
  console.log(
    `\n=== boardgame.io ${BGIO_VERSION} (${storage}), Evons rules, ${MATCHES} concurrent matches, ${DURATION_S} s measured after ${WARMUP_S} s warm-up ===`,
  );
  if (r.stalled) console.log(`  !! STALLED: ${r.stalled}. The figures below cover the run up to then.`);
  const lat = (s: Samples) => [
    fmtInt(s.count),
    fmtMs(s.percentile(50)),
    fmtMs(s.percentile(95)),
    fmtMs(s.percentile(99)),
    fmtMs(s.max()),
    fmtMs(s.mean()),
  ];
  console.log(
    table([
      ['latency', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'mean ms'],
      ['move: moves.act → update with it (socket.io)', ...lat(r.latency)],
      ['new match: lobby create + 2 joins (HTTP)', ...lat(r.lobby)],
    ]),
  );
  const wallMs = DURATION_S * 1000;
  const cores = (ms: number) =>
    Number.isFinite(ms) ? `${((ms / wallMs) * 100).toFixed(0)}% of one core` : 'n/a (run did not reach the end of the window)';
  const pgShare = STORAGE === 'postgres' && r.machine ? r.machine.postgres : 0;
  const rows = [
    ['figure', 'value'],
    ['accepted moves/s (state update received by the mover)', fmtInt(r.moves / DURATION_S)],
    ['accepted moves in window', fmtInt(r.moves)],
    [
      'matches started / finished / resigned at cap',
      `${fmtInt(r.matchesStarted)} / ${fmtInt(r.matchesFinished)} / ${fmtInt(r.matchesResigned)}`,
    ],
    [`deep-chain breaks (> ${CHAIN_LIMIT} ability actions in a row → end-phase)`, fmtInt(r.chainBreaks)],
    ['mean state update size (JSON, sampled)', `${fmtInt(r.updateChars.mean())} chars`],
    ['server CPU per accepted move', Number.isFinite(r.serverCpuMs) ? `${fmtMs(r.serverCpuMs / Math.max(1, r.moves))} ms` : 'n/a'],
    ['server process CPU in window', cores(r.serverCpuMs)],
    ['server RSS at the end', `${fmtInt(r.rssMiB)} MiB`],
    [`bench process CPU in window (${MATCHES * 2} clients)`, cores(r.benchCpuMs)],
    ...(r.machine && STORAGE === 'postgres'
      ? [
          ['PostgreSQL processes CPU in window (all databases of the cluster)', `${(r.machine.postgres * 100).toFixed(0)}% of one core`],
          ['PostgreSQL CPU per accepted move', `${fmtMs(pgMsPerMove(r))} ms`],
        ]
      : []),
    ...(r.machine
      ? [
          [`whole machine busy in window (${r.machine.cores} cores)`, `${(r.machine.machineBusy * 100).toFixed(0)}% of one core`],
          [
            `other processes (machine − server − bench${pgShare ? ' − PostgreSQL' : ''})`,
            `${(Math.max(0, r.machine.machineBusy - r.serverCpuMs / wallMs - r.benchCpuMs / wallMs - pgShare) * 100).toFixed(0)}% of one core`,
          ],
        ]
      : []),
    ['load average before the run', r.loadBefore],
    ['moves outstanding when stopped (oldest)', `${r.outstanding.count} (${fmtMs(r.outstanding.oldestMs)} ms)`],
  ];
  console.log(table(rows));
  console.log(`  accepted moves per 5 s, whole run: ${Array.from(r.timeline, (x) => fmtInt(x ?? 0)).join(' ')}`);
  if (r.problems.size > 0) {
    console.log('  problems (whole run, incl. warm-up):');
    for (const [k, v] of r.problems) console.log(`    ${v.count} × ${k}: ${v.example}`);
  }
  const errors = server.log().filter((l) => !l.startsWith('ready '));
  if (errors.length > 0) {
    console.log(`  server output (last ${Math.min(5, errors.length)} of ${errors.length} lines):`);
    for (const l of errors.slice(-5)) console.log(`    ${l.slice(0, 300)}`);
  }
  const summary =
    `boardgame.io ${BGIO_VERSION} ${storage}: ${fmtInt(r.moves / DURATION_S)} moves/s, move p50 ${fmtMs(r.latency.percentile(50))} / p95 ${fmtMs(r.latency.percentile(95))} / p99 ${fmtMs(r.latency.percentile(99))} ms` +
    (Number.isFinite(r.serverCpuMs) ? `, ${fmtMs(r.serverCpuMs / Math.max(1, r.moves))} ms server CPU per move` : '') +
    (STORAGE === 'postgres' && r.machine ? `, ${fmtMs(pgMsPerMove(r))} ms PostgreSQL CPU per move` : '') +
    (r.stalled ? ' — STALLED' : '');
  console.log(
    `\n=== summary ===\n${summary}\n(compare: npm run bench:api, the same matches, decks and random legal moves over our REST API)`,
  );
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  console.log(
    `peer benchmark: boardgame.io ${BGIO_VERSION} hosting our Evons rules; Node ${process.version}, ${os.cpus().length} cores, ${MATCHES} concurrent matches ` +
      `(${MATCHES * 2} socket.io clients), ${WARMUP_S} s warm-up + ${DURATION_S} s measured, storage ${STORAGE}; server = child process, clients = this process.`,
  );
  let dir = process.env.BGIO_DIR;
  if (dir) {
    checkInstall(dir, STORAGE);
    console.log(`using the install in BGIO_DIR=${dir}: ${describeInstall(dir)}`);
  } else {
    dir = await installPeers([STORAGE]);
  }
  if (interrupted()) return;
  const bgio = loadClient(dir);
  const pgUrl = STORAGE === 'postgres' ? await createDatabase() : null;
  if (pgUrl) console.log(`bgio-postgres on the throw-away database ${redactUrl(pgUrl)} (dropped at exit)`);
  console.log('starting the boardgame.io server …');
  const server = await startBgioServer(dir, pgUrl);
  console.log(`boardgame.io server ready at ${server.base} (pid ${server.pid}); playing …`);
  const r = await runLoad(bgio, server);
  if (interrupted()) return;
  await server.stop();
  report(r, server);
}

await runBench('bench:peers', main);
// socket.io clients and timers may hold the event loop: the run is over.
if (!interrupted()) process.exit(process.exitCode ?? 0);
