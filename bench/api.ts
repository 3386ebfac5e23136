/**
 * npm run bench:api — the REST move path under load, against the real server in a child process,
 * on PGlite and (when reachable) PostgreSQL, with the raw single-row INSERT rate of the same
 * database as a baseline. Prints figures; asserts nothing; exit code 0 unless something crashed.
 *
 *   MATCHES=24 DURATION=20 WARMUP=3 npm run bench:api
 *
 * Environment:
 *   MATCHES      concurrent matches (one client loop each)                       default 24
 *                (each match always has one request in flight, so mean latency is
 *                about MATCHES ÷ requests per second: the bar is measured at 24)
 *   DURATION     measured seconds (after WARMUP)                                 default 20
 *   WARMUP       seconds of load before measuring                                default 3
 *   BASELINE     seconds per raw-insert baseline                                 default 3
 *   BACKENDS     comma list of pglite,postgres                                   default both
 *   PROTOCOL     full: each move is a legal-actions GET and an action POST answered with the whole
 *                match view (Prefer: return=representation); lean: the POST takes the default
 *                lean answer with the caller's next legal actions (?include=legal),
 *                so the legal-actions GET is needed only when the decision passes to the
 *                other seat; ws: each match opens one GraphQL WebSocket per seat (graphql-ws
 *                client, protocol graphql-transport-ws at /graphql: as boardgame.io keeps one
 *                socket.io connection per client) and each move is one submitAction mutation
 *                selecting version/status/pending/legalActions (expectedVersion, idempotencyKey),
 *                the other seat's `match { legalActions }` query on its own socket only when the
 *                decision passes to it                                          default full
 *   NODES        API server processes sharing the PostgreSQL database; match slot i plays
 *                against node i mod NODES (server CPU is their sum)            default 1
 *   IDEMPOTENCY  1: send an Idempotency-Key with every action (as a careful client does);
 *                0: none                                                        default 1
 *   BENCH_DATABASE_URL  maintenance db for CREATE/DROP DATABASE
 *                default TEST_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/postgres
 *   PROFILE      1: run the server with --cpu-prof and print the top self-time functions (V8's
 *                sampler: wall-clock samples, so a loaded machine inflates system calls);
 *                perf: a CPU-time profile of the first server's threads with Linux perf over the
 *                measured window, by area and function (bench/lib/perf-profile.ts)
 *   SERVER_FLAGS extra node flags for the server processes (e.g. --max-semi-space-size=32)
 *   WEBHOOKS     1: every seat of every match registers a webhook (all kinds) to a receiver in
 *                this process; reports deliveries and their latency from commit (the body's
 *                timestamp: the outbox row's creation in the append) to arrival     default 0
 *
 *   SERVER       dist: the compiled server production runs (built first with npm run build);
 *                tsx: src/server.ts through tsx                                 default dist
 *
 * Per backend: start the server (PORT=free, HOST=127.0.0.1, LOG_LEVEL=warn,
 * DATA_DIR=fresh temp dir or DATABASE_URL=throw-away database evons_bench_<hex>), wait for /readyz,
 * run MATCHES client loops in this process (create a match with both tokens → read pending.seat →
 * GET legal-actions with that seat's token → POST a uniformly random one with If-Match → … → when
 * the match ends, start another), stop the server, then measure raw INSERTs on the same database.
 * Everything (child, temp dir, database) is cleaned up, also on error and SIGINT/SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';
import { seededPick } from '../src/games/evons/index.js';
import { BenchPlayer, CHAIN_LIMIT } from './lib/move-policy.js';
import { SERVER_KIND, ensureBuilt, startServer, type ServerProcess } from './lib/server-process.js';
import { summariseCpuProfile } from './lib/cpuprofile.js';
import { PERF_NODE_FLAG, cleanUpPerf, perfAvailable, recordPerf, summarisePerf } from './lib/perf-profile.js';
import { loadAverage, measureCpuWindow, type CpuWindow } from './lib/machine.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';
import { cleanUpOnSignals, cleanups, interrupted, runBench, runCleanups } from './lib/cleanup.js';
import { httpClient, type Reply } from './lib/http-call.js';
import { execute, gqlWsClient, type Next } from './lib/graphql-ws.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
const MATCHES = Math.max(1, Math.floor(num(process.env.MATCHES, 24)));
const DURATION_S = Math.max(1, num(process.env.DURATION, 20));
const WARMUP_S = Math.max(0, num(process.env.WARMUP, 3));
const BASELINE_S = Math.max(0.5, num(process.env.BASELINE, 3));
const IDEMPOTENCY = process.env.IDEMPOTENCY !== '0';
const LEAN = process.env.PROTOCOL === 'lean';
const WS = process.env.PROTOCOL === 'ws';
const PROTOCOL_NAME = WS ? 'ws' : LEAN ? 'lean' : 'full';
const NODES = Math.max(1, Number(process.env.NODES ?? 1));
const PROFILE = process.env.PROFILE === '1';
const PERF = process.env.PROFILE === 'perf';
/** Extra node flags for the server processes (e.g. SERVER_FLAGS=--max-semi-space-size=32). */
const SERVER_FLAGS = (process.env.SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean);
const WEBHOOKS = process.env.WEBHOOKS === '1';
const BACKENDS = (process.env.BACKENDS ?? 'pglite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const REQUEST_TIMEOUT_MS = 15_000;
const STARTERS = ['starter-verdant-quake', 'starter-storm-shade', 'starter-ember-tide'];
const BAR = { movesPerSecond: 500, p95Ms: 50 };

// ------------------------------------------------------------------ cleanup on any exit path

/** Aborts every in-flight request (interrupt or hard deadline). */
const stopAll = new AbortController();
cleanUpOnSignals(() => stopAll.abort());

// ------------------------------------------------------------------ small HTTP client

const call = httpClient(stopAll.signal, REQUEST_TIMEOUT_MS);

// ------------------------------------------------------------------ load generator

type Seat = 'p1' | 'p2';
interface Pending {
  kind: string;
  seat: Seat;
}
interface MatchViewLite {
  version: number;
  status: string;
  game: { pending: Pending | null } | null;
}
interface LegalAction {
  action: { type: string };
  text: string;
}

interface LoadResult {
  measuredS: number;
  moves: number;
  post: Samples;
  legal: Samples;
  create: Samples;
  statuses: Map<string, number>;
  problems: Map<string, { count: number; example: string }>;
  matchesFinished: number;
  matchesStarted: number;
  matchesResigned: number;
  chainBreaks: number;
  /** Response body characters (POST actions, GET legal-actions) in the window. */
  bytes: { post: number; legal: number };
  serverCpuMs: number;
  benchCpuMs: number;
  machine: CpuWindow | null;
  loadBefore: string;
  /** The measured window on the monotonic clock (µs), to cut the server's CPU profile. */
  windowUs: { fromUs: number; toUs: number };
  networkErrors: Map<string, number>;
  /** WEBHOOKS=1: deliveries that arrived in the window, and commit → arrival latency. */
  webhooks: { latency: Samples; received: number } | null;
}

/** A receiver for the bench's webhooks: answers 204 and notes each delivery's latency. */
async function startReceiver(onDelivery: (latencyMs: number) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrived = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        onDelivery(arrived - Date.parse(body.timestamp));
      } catch {
        /* not ours */
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hook`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function runLoad(servers: ServerProcess[]): Promise<LoadResult> {
  // Several nodes: match slot i plays against node i mod n; CPU is summed over the nodes.
  const server = {
    cpuMs: () => servers.reduce((sum, x) => sum + x.cpuMs(), 0),
    exited: () => servers.map((x) => x.exited()).find((e) => e) ?? null,
  };
  const baseOf = (slot: number) => servers[slot % servers.length]!.baseUrl;
  const t0 = performance.now();
  const measureStart = t0 + WARMUP_S * 1000;
  const measureEnd = measureStart + DURATION_S * 1000;
  const inWindow = (start: number, end: number) => start >= measureStart && end <= measureEnd;
  const r: LoadResult = {
    measuredS: DURATION_S,
    moves: 0,
    post: new Samples(),
    legal: new Samples(),
    create: new Samples(),
    statuses: new Map(),
    problems: new Map(),
    matchesFinished: 0,
    matchesStarted: 0,
    matchesResigned: 0,
    chainBreaks: 0,
    bytes: { post: 0, legal: 0 },
    serverCpuMs: Number.NaN,
    benchCpuMs: Number.NaN,
    machine: null,
    loadBefore: loadAverage(),
    windowUs: { fromUs: 0, toUs: 0 },
    networkErrors: new Map(),
    webhooks: WEBHOOKS ? { latency: new Samples(), received: 0 } : null,
  };
  const receiver = WEBHOOKS
    ? await startReceiver((ms) => {
        const now = performance.now();
        if (now >= measureStart && now <= measureEnd && r.webhooks) {
          r.webhooks.received++;
          r.webhooks.latency.add(ms);
        }
      })
    : null;
  const HOOK_EVENTS = ['your-turn', 'opponent-joined', 'match-ended', 'deadline-near'];
  const countStatus = (what: string, status: number) => {
    const k = `${what} ${status}`;
    r.statuses.set(k, (r.statuses.get(k) ?? 0) + 1);
  };
  const problem = (what: string, rep: Pick<Reply, 'status' | 'body' | 'text'>, extra = '') => {
    const b = rep.body as { code?: string; detail?: string } | null;
    const k = `${what} ${rep.status} ${b?.code ?? ''}`.trim();
    const e = r.problems.get(k) ?? { count: 0, example: `${b?.detail ?? rep.text.slice(0, 300)}${extra}` };
    e.count++;
    r.problems.set(k, e);
  };
  const stopped = () => performance.now() >= measureEnd || stopAll.signal.aborted;

  // Server and bench CPU over the measured window.
  const cpuWindow = measureCpuWindow(() => server.cpuMs(), WARMUP_S * 1000, WARMUP_S * 1000 + DURATION_S * 1000, {
    start: () => (r.windowUs.fromUs = Number(process.hrtime.bigint() / 1000n)),
    end: (cpu) => {
      Object.assign(r, cpu);
      r.windowUs.toUs = Number(process.hrtime.bigint() / 1000n);
    },
  });

  async function playOneMatch(slot: number, pick: (n: number) => number, n: number): Promise<void> {
    const base = baseOf(slot);
    const created = await call(
      base,
      'POST',
      '/v1/matches',
      {},
      {
        openSeat: false,
        handle: `bench-${slot}a`,
        opponentHandle: `bench-${slot}b`,
        decks: { p1: { starter: STARTERS[(slot + n) % STARTERS.length]! }, p2: { starter: STARTERS[(slot + n + 1) % STARTERS.length]! } },
        ...(receiver ? { webhook: { url: receiver.url, events: HOOK_EVENTS } } : {}),
      },
    );
    const cEnd = performance.now();
    if (inWindow(cEnd - created.ms, cEnd)) {
      r.create.add(created.ms);
      countStatus('POST /matches', created.status);
    }
    if (created.status !== 201) {
      problem('POST /matches', created);
      await new Promise((res) => setTimeout(res, 100));
      return;
    }
    r.matchesStarted++;
    const c = created.body as { id: string; version: number; tokens: Record<Seat, string> };
    const auth = (s: Seat) => ({ authorization: `Bearer ${c.tokens[s]}` });
    if (receiver) {
      const hook = await call(base, 'POST', `/v1/matches/${c.id}/webhooks`, auth('p2'), { url: receiver.url, events: HOOK_EVENTS });
      if (hook.status !== 201) problem('POST webhooks', hook);
    }
    if (WS) return playOverWs(base, c, pick);
    // The create response has no view: one GET to learn who decides first.
    const first = await call(base, 'GET', `/v1/matches/${c.id}`, auth('p1'));
    if (first.status !== 200) {
      problem('GET /matches/{id}', first);
      return;
    }
    let view = first.body as MatchViewLite;
    // Lean protocol: the legal actions the last answer carried for the seat that decides next.
    let known: LegalAction[] | null = null;
    const player = new BenchPlayer(pick, r);
    while (!stopped()) {
      const pending = view.game?.pending ?? null;
      if (view.status !== 'active' || !pending) {
        if (view.status === 'finished') r.matchesFinished++;
        return;
      }
      const seat = pending.seat;
      let options: LegalAction[];
      let end: number;
      if (known) options = known;
      else {
        const legal = await call(base, 'GET', `/v1/matches/${c.id}/legal-actions`, auth(seat));
        end = performance.now();
        if (inWindow(end - legal.ms, end)) {
          r.legal.add(legal.ms);
          r.bytes.legal += legal.text.length;
          countStatus('GET legal-actions', legal.status);
        }
        if (legal.status !== 200) {
          problem('GET legal-actions', legal);
          return;
        }
        options = (legal.body as { actions: LegalAction[] }).actions;
      }
      if (options.length === 0) {
        problem('legal actions', {
          status: 0,
          body: null,
          text: `no legal action for the deciding seat ${seat} (pending ${pending.kind})`,
        });
        return;
      }
      const choice: { type: string } = player.choose(options, (o) => o.action.type)?.action ?? { type: 'resign' };
      const headers: Record<string, string> = { ...auth(seat), 'if-match': `"${view.version}"` };
      if (IDEMPOTENCY) headers['idempotency-key'] = `b-${c.id}-${view.version}`;
      // The lean answer is the default; full asks for the whole match view.
      if (!LEAN) headers.prefer = 'return=representation';
      const res = await call(base, 'POST', `/v1/matches/${c.id}/actions${LEAN ? '?include=legal' : ''}`, headers, { action: choice });
      end = performance.now();
      const counted = inWindow(end - res.ms, end);
      if (counted) {
        r.post.add(res.ms);
        r.bytes.post += res.text.length;
        countStatus('POST actions', res.status);
      }
      if (res.status === 200) {
        if (counted) r.moves++;
        player.accepted(choice.type);
        if (LEAN) {
          const b = res.body as { version: number; status: string; pending: Pending | null; legalActions: LegalAction[] };
          view = { version: b.version, status: b.status, game: { pending: b.pending } };
          known = b.pending?.seat === seat ? b.legalActions : null;
        } else view = (res.body as { match: MatchViewLite }).match;
        if (choice.type === 'resign' && view.status === 'finished') r.matchesFinished++;
        if (choice.type === 'resign') return;
        continue;
      }
      problem('POST actions', res, ` [action ${JSON.stringify(choice)} at version ${view.version}]`);
      // Re-sync from the server (should not be needed: one client per match).
      const again = await call(base, 'GET', `/v1/matches/${c.id}`, auth(seat));
      if (again.status !== 200) return;
      view = again.body as MatchViewLite;
      known = null;
      if (res.status >= 500) return;
    }
  }

  /** PROTOCOL=ws: the match over one GraphQL WebSocket per seat, each move one submitAction. */
  async function playOverWs(base: string, c: { id: string; tokens: Record<Seat, string> }, pick: (n: number) => number): Promise<void> {
    type Answer = { version: number; status: string; pending: Pending | null; legalActions: LegalAction[] };
    // One connection per seat for the whole match (not graphql-ws's lazy mode, which closes it between operations).
    const sockets = { p1: gqlWsClient(base, c.tokens.p1, { persistent: true }), p2: gqlWsClient(base, c.tokens.p2, { persistent: true }) };
    const DECISION = 'query Decision($id: ID!) { match(id: $id) { version status pending legalActions { action } } }';
    const ACT =
      'mutation Act($id: ID!, $a: JSON!, $key: String, $v: Int) { submitAction(matchId: $id, action: $a, idempotencyKey: $key, expectedVersion: $v) { version status pending legalActions { action } } }';
    const wsProblem = (what: string, res: Next<unknown> | unknown, extra = '') => {
      const e = (res as Next<unknown>).errors?.[0] ?? (res as { payload?: Next<unknown>['errors'] }).payload?.[0] ?? null;
      const status = typeof e?.extensions?.status === 'number' ? e.extensions.status : 0;
      problem(what, { status, body: { code: e?.extensions?.code, detail: e?.message ?? String(res) }, text: '' }, extra);
      return status;
    };
    /** The seat's view of the match (its legal actions: empty unless it decides), counted as the legal-actions read. */
    const decision = async (seat: Seat): Promise<Answer | null> => {
      const s0 = performance.now();
      const res = await execute<{ match: Answer }>(sockets[seat], DECISION, { id: c.id }).catch((e: unknown) => e);
      const end = performance.now();
      const ok = !(res instanceof Error) && !(res as Next<unknown>).errors && (res as Next<{ match: Answer }>).data;
      if (inWindow(s0, end)) {
        r.legal.add(end - s0);
        r.bytes.legal += JSON.stringify(res).length;
        countStatus('WS match { legalActions }', ok ? 200 : wsProblem('WS match query', res));
      } else if (!ok) wsProblem('WS match query', res);
      return ok ? (res as Next<{ match: Answer }>).data!.match : null;
    };
    try {
      const opening = await decision('p1');
      if (!opening) return;
      let view: Answer = opening;
      let known: LegalAction[] | null = view.pending?.seat === 'p1' ? view.legalActions : null;
      const player = new BenchPlayer(pick, r);
      while (!stopped()) {
        if (view.status !== 'active' || !view.pending) {
          if (view.status === 'finished') r.matchesFinished++;
          return;
        }
        const seat: Seat = view.pending.seat;
        let options = known;
        if (!options) {
          const d = await decision(seat);
          if (!d) return;
          options = d.legalActions;
        }
        if (options.length === 0) {
          problem('legal actions', {
            status: 0,
            body: null,
            text: `no legal action for the deciding seat ${seat} (pending ${view.pending.kind})`,
          });
          return;
        }
        const choice: { type: string } = player.choose(options, (o) => o.action.type)?.action ?? { type: 'resign' };
        const s0 = performance.now();
        const res: unknown = await execute<{ submitAction: Answer }>(sockets[seat], ACT, {
          id: c.id,
          a: choice,
          v: view.version,
          key: IDEMPOTENCY ? `b-${c.id}-${view.version}` : null,
        }).catch((e: unknown) => e);
        const end = performance.now();
        const ok = !(res instanceof Error) && !(res as Next<unknown>).errors && (res as Next<{ submitAction: Answer }>).data;
        const counted = inWindow(s0, end);
        let status = 200;
        if (!ok) status = wsProblem('WS submitAction', res, ` [action ${JSON.stringify(choice)} at version ${view.version}]`);
        if (counted) {
          r.post.add(end - s0);
          r.bytes.post += JSON.stringify(res).length;
          countStatus('WS submitAction', status);
        }
        if (ok) {
          if (counted) r.moves++;
          player.accepted(choice.type);
          const b = (res as Next<{ submitAction: Answer }>).data!.submitAction;
          view = b;
          known = b.pending?.seat === seat ? b.legalActions : null;
          if (choice.type === 'resign' && view.status === 'finished') r.matchesFinished++;
          if (choice.type === 'resign') return;
          continue;
        }
        // Re-sync from the server (should not be needed: one client per match).
        const again = await decision(seat);
        if (!again || status >= 500 || status === 0) return;
        view = again;
        known = null;
      }
    } finally {
      await Promise.all([sockets.p1.dispose(), sockets.p2.dispose()]);
    }
  }

  async function slot(i: number): Promise<void> {
    const pick = seededPick(`bench-slot-${i}-${Date.now()}`);
    let n = 0;
    while (!stopped()) {
      try {
        await playOneMatch(i, pick, n++);
      } catch (e) {
        if (stopAll.signal.aborted) return;
        const err = e as Error & { cause?: { code?: string } };
        const k = `${err.name}: ${err.cause?.code ?? err.message}`;
        r.networkErrors.set(k, (r.networkErrors.get(k) ?? 0) + 1);
        if (server.exited()) return;
        await new Promise((res) => setTimeout(res, 100));
      }
    }
  }

  // Hard deadline: the loops stop by themselves at measureEnd; this only guards a hang.
  const hard = setTimeout(() => stopAll.abort(), (WARMUP_S + DURATION_S) * 1000 + 2 * REQUEST_TIMEOUT_MS);
  try {
    await Promise.all(Array.from({ length: MATCHES }, (_, i) => slot(i)));
  } finally {
    clearTimeout(hard);
    cpuWindow.cancel();
    await receiver?.close();
  }
  return r;
}

// ------------------------------------------------------------------ raw INSERT baselines

interface InsertRate {
  label: string;
  rows: number;
  seconds: number;
  perSecond: number;
  meanMs: number;
}

const PAYLOAD = JSON.stringify({ type: 'BenchRow', note: 'x'.repeat(64) });
const RAW_TABLE_SQL = `CREATE TABLE IF NOT EXISTS bench_raw_insert (id bigserial PRIMARY KEY, k text NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`;
const RAW_INSERT_SQL = 'INSERT INTO bench_raw_insert (k, payload) VALUES ($1, $2)';

async function timed(
  label: string,
  seconds: number,
  workers: number,
  insertOne: (w: number, i: number) => Promise<void>,
): Promise<InsertRate> {
  const end = performance.now() + seconds * 1000;
  let rows = 0;
  let busyMs = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let i = 0;
      while (performance.now() < end) {
        const s = performance.now();
        await insertOne(w, i++);
        busyMs += performance.now() - s;
        rows++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return { label, rows, seconds: elapsed, perSecond: rows / elapsed, meanMs: busyMs / rows };
}

async function postgresBaseline(url: string): Promise<InsertRate[]> {
  const out: InsertRate[] = [];
  const one = new pg.Client({ connectionString: url });
  await one.connect();
  try {
    await one.query(RAW_TABLE_SQL);
    // A regular (WAL-logged, fsync'd on commit) table: what the server's writes pay for.
    out.push(
      await timed('sequential, 1 connection', BASELINE_S, 1, async (_w, i) => {
        await one.query(RAW_INSERT_SQL, [`s${i}`, PAYLOAD]);
      }),
    );
    // The brief's temp table, for reference: no WAL for its rows, so commits need not wait for a flush.
    await one.query(
      'CREATE TEMP TABLE bench_raw_temp (id bigserial PRIMARY KEY, k text NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
    );
    out.push(
      await timed('sequential, 1 connection, TEMP table', BASELINE_S, 1, async (_w, i) => {
        await one.query('INSERT INTO bench_raw_temp (k, payload) VALUES ($1, $2)', [`t${i}`, PAYLOAD]);
      }),
    );
  } finally {
    await one.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: 32 });
  pool.on('error', () => {});
  try {
    // Open all 32 connections before timing.
    const clients = await Promise.all(Array.from({ length: 32 }, () => pool.connect()));
    clients.forEach((c) => c.release());
    out.push(
      await timed('32 concurrent connections', BASELINE_S, 32, async (w, i) => {
        await pool.query(RAW_INSERT_SQL, [`c${w}-${i}`, PAYLOAD]);
      }),
    );
  } finally {
    await pool.end();
  }
  return out;
}

async function pgliteBaseline(dataDir: string): Promise<InsertRate[]> {
  // Opened directly with @electric-sql/pglite (not through Prisma), once the server has exited.
  const db = await PGlite.create(dataDir);
  try {
    await db.exec(RAW_TABLE_SQL);
    const seq = await timed('sequential (PGlite, direct)', BASELINE_S, 1, async (_w, i) => {
      await db.query(RAW_INSERT_SQL, [`s${i}`, PAYLOAD]);
    });
    // PGlite is one connection: 32 callers just queue on it.
    const conc = await timed('32 concurrent callers (one PGlite connection)', BASELINE_S, 32, async (w, i) => {
      await db.query(RAW_INSERT_SQL, [`c${w}-${i}`, PAYLOAD]);
    });
    return [seq, conc];
  } finally {
    await db.close();
  }
}

// ------------------------------------------------------------------ PostgreSQL throw-away db

const redactUrl = (u: string) => u.replace(/\/\/([^:@/]*)(:[^@/]*)?@/, '//$1@');

// ------------------------------------------------------------------ one backend

interface BackendReport {
  name: string;
  load: LoadResult;
  baseline: InsertRate[];
  serverLog: string[];
  profile: string | null;
}

async function runBackend(name: 'pglite' | 'postgres'): Promise<BackendReport | null> {
  const env: Record<string, string> = { LOG_LEVEL: 'warn', NODE_ENV: 'production', GRAPHIQL: 'false' };
  // The bench's own receiver listens on 127.0.0.1, which production refuses by default.
  if (WEBHOOKS) env.WEBHOOK_ALLOW_PRIVATE = 'true';
  let dataDir = '';
  let dbUrl = '';
  if (name === 'pglite') {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-bench-'));
    cleanups.push(async () => fs.rmSync(parent, { recursive: true, force: true }));
    dataDir = path.join(parent, 'data'); // the server's lock file <dataDir>.lock lands in `parent` too
    env.DATA_DIR = dataDir;
  } else {
    try {
      await admin((c) => c.query('SELECT 1'));
    } catch (e) {
      console.log(`\nPostgreSQL: skipped — unreachable at ${redactUrl(MAINTENANCE_URL)} (${(e as Error).message})`);
      return null;
    }
    const db = `evons_bench_${randomBytes(6).toString('hex')}`;
    await admin((c) => c.query(`CREATE DATABASE "${db}"`));
    cleanups.push(async () => {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
    });
    dbUrl = withDatabase(MAINTENANCE_URL, db);
    env.DATABASE_URL = dbUrl;
  }

  let profileDir: string | null = null;
  const nodeFlags: string[] = SERVER_FLAGS.slice();
  if (PROFILE) {
    profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-bench-prof-'));
    const dir = profileDir;
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
  }
  if (PERF) {
    if (!perfAvailable()) throw new Error('PROFILE=perf needs Linux perf (Debian: linux-perf)');
    nodeFlags.push(PERF_NODE_FLAG);
  }

  const where = name === 'pglite' ? `DATA_DIR=${dataDir}` : `DATABASE_URL=${redactUrl(dbUrl)}`;
  console.log(`\n${name}: starting the server (${where}) …`);
  // NODES > 1 (PostgreSQL only: PGlite is one process's database): API nodes sharing the database.
  const nodes = name === 'pglite' ? 1 : NODES;
  const servers: ServerProcess[] = [];
  for (let i = 0; i < nodes; i++) {
    const s = await startServer({ cwd: ROOT, env, nodeFlags: i === 0 ? nodeFlags : SERVER_FLAGS });
    cleanups.push(() => s.stop(5_000));
    servers.push(s);
  }
  console.log(
    `${name}: ${nodes} server node(s) ready at ${servers.map((x) => `${x.baseUrl} (pid ${x.pid})`).join(', ')}; ${MATCHES} matches, ${WARMUP_S} s warm-up + ${DURATION_S} s measured${IDEMPOTENCY ? ', Idempotency-Key on every action' : ''} …`,
  );
  // The measured window starts after the warm-up (perf starts within a few ms of it).
  const perf = PERF ? recordPerf(servers[0]!.pid, WARMUP_S * 1000, DURATION_S) : null;
  if (perf) cleanups.push(async () => cleanUpPerf(perf.file, servers[0]!.pid));
  const load = await runLoad(servers);
  await perf?.done;
  if (interrupted()) return null; // the signal handler cleans up and exits
  for (const x of servers) {
    if (x.exited())
      throw new Error(`a server died during the run: ${JSON.stringify(x.exited())}\n    ${x.log().slice(-20).join('\n    ')}`);
  }
  for (const x of servers) await x.stop();
  const serverLog = servers.flatMap((x) => x.log());

  let profile: string | null = null;
  if (perf) profile = formatPerf(summarisePerf(perf.file));
  if (profileDir) {
    const files = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
    if (files[0]) profile = formatProfile(path.join(profileDir, files[0]), load.windowUs);
    else profile = '(no .cpuprofile written — did the server exit gracefully?)';
  }

  console.log(`${name}: server stopped; measuring raw single-row INSERTs on the same database (${BASELINE_S} s each) …`);
  const baseline = name === 'pglite' ? await pgliteBaseline(dataDir) : await postgresBaseline(dbUrl);
  return { name, load, baseline, serverLog, profile };
}

function formatProfile(file: string, window: { fromUs: number; toUs: number }): string {
  const p = summariseCpuProfile(file, 25, window.toUs > 0 ? window : undefined);
  const rows = [['self ms', 'share', 'function', 'where']];
  for (const f of p.functions) rows.push([fmtInt(f.ms), `${(f.share * 100).toFixed(1)}%`, f.name, f.where]);
  const areas = [['self ms', 'share', 'area']];
  for (const a of p.areas.slice(0, 15)) areas.push([fmtInt(a.ms), `${(a.share * 100).toFixed(1)}%`, a.name]);
  const span = p.windowed ? 'measured window only' : 'whole server lifetime incl. start-up (window not found in the profile)';
  return (
    `server CPU profile (${fmtInt(p.total)} ms sampled, ${span}):\n` +
    `${table(areas.map((r) => [r[0]!, r[1]!, r[2]!]))}\n\n  top functions by self time:\n${table(rows)}`
  );
}

function formatPerf(p: ReturnType<typeof summarisePerf>): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const areas = [['share', 'area'], ...p.areas.map((a) => [pct(a.share), a.area])];
  const fns = [['share', 'innermost JavaScript function'], ...p.functions.map((f) => [pct(f.share), f.name])];
  return (
    `server CPU-time profile (perf, ${fmtInt(p.samples)} samples at 999/s of CPU time, measured window, all threads; ${pct(p.kernelShare)} in the kernel):\n` +
    `${table(areas)}\n\n  by function (each sample charged to its innermost JavaScript frame):\n${table(fns)}`
  );
}

// ------------------------------------------------------------------ report

function otherCores(L: LoadResult): number {
  if (!L.machine) return Number.NaN;
  const wallMs = L.measuredS * 1000;
  return Math.max(0, L.machine.machineBusy - L.serverCpuMs / wallMs - L.benchCpuMs / wallMs - L.machine.postgres);
}

function report(b: BackendReport): { movesPerS: number; p95: number } {
  const L = b.load;
  const movesPerS = L.moves / L.measuredS;
  const lat = (s: Samples) => [
    fmtInt(s.count),
    fmtMs(s.percentile(50)),
    fmtMs(s.percentile(95)),
    fmtMs(s.percentile(99)),
    fmtMs(s.max()),
    fmtMs(s.mean()),
  ];
  const label = b.name === 'pglite' ? 'PGlite' : 'PostgreSQL';
  console.log(
    `\n=== ${label} — ${b.name === 'postgres' && NODES > 1 ? `${NODES} API nodes, ` : ''}${MATCHES} concurrent matches, ${L.measuredS} s measured after ${WARMUP_S} s warm-up ===`,
  );
  console.log(
    table([
      ['request', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'mean ms'],
      [WS ? 'WS submitAction (one mutation per move)' : 'POST /v1/matches/{id}/actions', ...lat(L.post)],
      [WS ? 'WS match { legalActions } (other seat decides)' : 'GET  /v1/matches/{id}/legal-actions', ...lat(L.legal)],
      ['POST /v1/matches (create)', ...lat(L.create)],
      ...(L.webhooks ? [['webhook: commit → receiver', ...lat(L.webhooks.latency)]] : []),
    ]),
  );
  if (L.webhooks)
    console.log(
      `  webhooks on every seat: ${fmtInt(L.webhooks.received)} deliveries arrived in the window (${fmtInt(L.webhooks.received / L.measuredS)}/s)`,
    );
  const cores = (ms: number) => (Number.isFinite(ms) ? `${((ms / (L.measuredS * 1000)) * 100).toFixed(0)}% of one core` : 'n/a');
  console.log(
    table([
      ['figure', 'value'],
      [WS ? 'accepted moves/s (submitAction without errors)' : 'accepted moves/s (200 on POST actions)', fmtInt(movesPerS)],
      ['accepted moves in window', fmtInt(L.moves)],
      [
        'matches started / finished / resigned at cap',
        `${fmtInt(L.matchesStarted)} / ${fmtInt(L.matchesFinished)} / ${fmtInt(L.matchesResigned)}`,
      ],
      [`deep-chain breaks (> ${CHAIN_LIMIT} ability actions in a row → end-phase)`, fmtInt(L.chainBreaks)],
      [
        'mean response size: POST actions / GET legal-actions',
        `${fmtInt(L.bytes.post / Math.max(1, L.post.count))} / ${fmtInt(L.bytes.legal / Math.max(1, L.legal.count))} chars`,
      ],
      ['server CPU per accepted move (incl. its legal-actions GET)', `${fmtMs(L.serverCpuMs / Math.max(1, L.moves))} ms`],
      [
        'protocol; requests per accepted move (action + legal-actions read)',
        `${WS ? 'ws (GraphQL over one WebSocket per seat)' : LEAN ? 'lean (the default answer, ?include=legal)' : 'full (Prefer: return=representation)'}; ${((L.post.count + L.legal.count) / Math.max(1, L.moves)).toFixed(2)}`,
      ],
      ['server process CPU in window', cores(L.serverCpuMs)],
      ['bench process CPU in window', cores(L.benchCpuMs)],
      ...(L.machine
        ? [
            ['PostgreSQL processes CPU in window', `${(L.machine.postgres * 100).toFixed(0)}% of one core`],
            [`whole machine busy in window (${L.machine.cores} cores)`, `${(L.machine.machineBusy * 100).toFixed(0)}% of one core`],
            ['other processes (machine − server − bench − PostgreSQL)', `${(otherCores(L) * 100).toFixed(0)}% of one core`],
          ]
        : []),
      ['load average before the run', L.loadBefore],
    ]),
  );
  if (L.machine && otherCores(L) > 0.25) {
    console.log(
      `  !! other processes used ${otherCores(L).toFixed(2)} cores during the window: these figures understate what the service can do on an idle machine.`,
    );
  }
  const statusRows = [['responses in window', 'count']];
  for (const [k, v] of [...L.statuses.entries()].sort()) statusRows.push([k, fmtInt(v)]);
  console.log(table(statusRows));
  const post409 = L.statuses.get('POST actions 409') ?? 0;
  const post422 = L.statuses.get('POST actions 422') ?? 0;
  if (post409 > 0) console.log(`  !! ${post409} × 409 on actions: unexpected (one client per match)`);
  if (post422 > 0) console.log(`  !! ${post422} × 422 on actions: a legal action was refused — a bug`);
  if (L.problems.size > 0) {
    console.log('  problems (whole run, incl. warm-up):');
    for (const [k, v] of L.problems) console.log(`    ${v.count} × ${k}: ${v.example}`);
  }
  if (L.networkErrors.size > 0) {
    console.log('  network errors:');
    for (const [k, v] of L.networkErrors) console.log(`    ${v} × ${k}`);
  }
  const warnLines = b.serverLog.filter((l) => /"level":(4|5|6)0/.test(l) || !l.startsWith('{'));
  if (warnLines.length > 0) {
    console.log(`  server log (warn and above, last ${Math.min(5, warnLines.length)} of ${warnLines.length}):`);
    for (const l of warnLines.slice(-5)) console.log(`    ${l.slice(0, 300)}`);
  }

  const baseRows = [['raw single-row INSERT baseline', 'rows', 'rows/s', 'mean ms', 'moves/s ÷ rows/s']];
  for (const x of b.baseline)
    baseRows.push([x.label, fmtInt(x.rows), fmtInt(x.perSecond), fmtMs(x.meanMs), (movesPerS / x.perSecond).toFixed(3)]);
  console.log(table(baseRows));
  if (b.profile) console.log(`\n  ${b.profile}`);
  return { movesPerS, p95: L.post.percentile(95) };
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  console.log(
    `API benchmark: Node ${process.version}, ${os.cpus().length} cores, ${MATCHES} concurrent matches, PROTOCOL=${PROTOCOL_NAME}, ${WEBHOOKS ? 'webhooks on every seat, ' : ''}` +
      `${WARMUP_S} s warm-up + ${DURATION_S} s measured per backend; server = child process (${SERVER_KIND === 'dist' ? 'node dist/server.js, compiled as production runs' : 'node --import tsx src/server.ts'}), ` +
      `load generator = this process.`,
  );
  ensureBuilt(ROOT);
  const results: BackendReport[] = [];
  for (const name of ['pglite', 'postgres'] as const) {
    if (!BACKENDS.includes(name)) {
      console.log(`\n${name}: skipped (BACKENDS=${BACKENDS.join(',')})`);
      continue;
    }
    if (interrupted()) break;
    try {
      const r = await runBackend(name);
      if (r) {
        results.push(r);
        report(r);
      }
    } finally {
      await runCleanups();
    }
  }
  if (interrupted()) return;
  console.log('\n=== summary ===');
  for (const r of results) {
    const movesPerS = r.load.moves / r.load.measuredS;
    const p95 = r.load.post.percentile(95);
    const seq = r.baseline[0]!;
    const conc = r.baseline.find((x) => x.label.startsWith('32'));
    const label = r.name === 'pglite' ? 'PGlite' : 'PostgreSQL';
    const ratio =
      `${(movesPerS / seq.perSecond).toFixed(2)}× the sequential raw-insert rate (${fmtInt(seq.perSecond)}/s)` +
      (conc ? `, ${(movesPerS / conc.perSecond).toFixed(2)}× the 32-way rate (${fmtInt(conc.perSecond)}/s)` : '');
    if (r.name === 'postgres') {
      const ok = movesPerS >= BAR.movesPerSecond && p95 < BAR.p95Ms;
      console.log(
        `${label}: ${fmtInt(movesPerS)} moves/s, p95 ${fmtMs(p95)} ms — ${ok ? 'meets' : 'does NOT meet'} the bar (≥ ${BAR.movesPerSecond} moves/s, p95 < ${BAR.p95Ms} ms); ${ratio}`,
      );
    } else {
      console.log(`${label}: ${fmtInt(movesPerS)} moves/s, p95 ${fmtMs(p95)} ms (no bar for PGlite); ${ratio}`);
    }
  }
  if (!results.some((r) => r.name === 'postgres') && BACKENDS.includes('postgres'))
    console.log('PostgreSQL: not measured (see above) — the bar could not be checked.');
}

await runBench('bench:api', main);
