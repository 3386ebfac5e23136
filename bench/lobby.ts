/**
 * npm run bench:lobby — the lobby under load (issue 23), against the real server in child
 * processes, on PGlite and (when reachable) a throw-away PostgreSQL database:
 *
 *   1. Seeks paired per second: SEEKS registered players each post one compatible correspondence
 *      seek (POST /v1/seeks), SEEK_CONCURRENCY at a time, on one node, and on PostgreSQL also
 *      spread over two nodes sharing the database. Then checked: every seek paired, exactly two
 *      seeks (of two different players) per match, those two players in its seats, matches =
 *      SEEKS / 2. pairs/s = matches ÷ (first POST sent → last answer received).
 *   2. Account feed delivery latency: ACCOUNTS registered players each hold GET /v1/me/events
 *      (NDJSON) open on one node. WRITES challenges (POST /v1/challenges {to}), from random
 *      accounts to random other accounts, are sent at a steady RATE per second (open loop: each
 *      leaves on schedule whether the earlier ones have been answered or not, so they overlap when
 *      the server is slower than the rate), on the same node. Each writes a challenge-received
 *      entry for the challenged player in its transaction. Latency = arrival of that entry on the
 *      challenged player's feed − arrival of the POST's answer (the commit, as the client sees it),
 *      both on this process's monotonic clock. An entry that arrives before the answer counts 0 ms
 *      (reported as "early"). Checked: every entry arrives exactly once, on its player's feed
 *      only, within DRAIN_S seconds after the last write.
 *
 * Prints a table per part and the command; exit code 1 when a check fails or something crashed.
 *
 *   ACCOUNTS=1000 SEEKS=400 WRITES=1000 RATE=50 npm run bench:lobby
 *   QUICK=1 npm run bench:lobby          (seconds: what test/bench/lobby.test.ts runs)
 *
 * Environment:
 *   ACCOUNTS          feeds held open on the node                                   default 1000
 *   SEEKS             seeks per round (one per player; rounded up to even)          default 400
 *   SEEK_CONCURRENCY  seek POSTs in flight at once                                  default 32
 *   WRITES            challenges sent while the feeds are open                      default 1000
 *   RATE              challenges sent per second                                    default 50
 *   DRAIN_S           how long to wait for entries after the last write             default 15
 *   BACKENDS          comma list of pglite,postgres                                 default both
 *   PARTS             comma list of seeks,feed                                      default both
 *   QUICK             1: ACCOUNTS=20 SEEKS=20 WRITES=20 RATE=40 DRAIN_S=10 (each still overridable)
 *   SERVER            dist (built first) or tsx                                     default dist
 *   BENCH_DATABASE_URL  maintenance db for CREATE/DROP DATABASE
 *                     default TEST_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/postgres
 *
 * Every client is on 127.0.0.1, so the per-address limits (off in startServer) and the per-client
 * limit (RATE_LIMIT_PER_MINUTE=0 here) would count the whole bench as one caller; the challenge
 * budget is raised (CHALLENGES_PER_HOUR=10000) since a few accounts may send many. The feed cap
 * (FEED_CONNECTIONS_PER_PLAYER, 5) is per player and each account holds one feed. The bench
 * holds ACCOUNTS sockets and the server as many: `ulimit -n` must allow them (checked).
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_KIND, ensureBuilt, startServer, type ServerProcess } from './lib/server-process.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';
import { cleanUpOnSignals, cleanups, interrupted, runBench, runCleanups } from './lib/cleanup.js';
import { httpClient } from './lib/http-call.js';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';
import { loadAverage } from './lib/machine.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.QUICK === '1' || process.argv.includes('--quick');
const num = (name: string, full: number, quick: number): number => {
  const v = process.env[name];
  return v === undefined || v === '' || !Number.isFinite(Number(v)) ? (QUICK ? quick : full) : Number(v);
};
const ACCOUNTS = Math.max(2, Math.floor(num('ACCOUNTS', 1000, 20)));
const SEEKS = Math.max(2, Math.ceil(num('SEEKS', 400, 20) / 2) * 2);
const SEEK_CONCURRENCY = Math.max(1, Math.floor(num('SEEK_CONCURRENCY', 32, 8)));
const WRITES = Math.max(1, Math.floor(num('WRITES', 1000, 20)));
const RATE = Math.max(0.1, num('RATE', 50, 40));
const DRAIN_S = Math.max(1, num('DRAIN_S', 15, 10));
const BACKENDS = (process.env.BACKENDS ?? 'pglite,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const PARTS = (process.env.PARTS ?? 'seeks,feed')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const CORR = (daysPerMove: number) => ({ kind: 'correspondence', daysPerMove });
const STARTER = 'starter-verdant-quake';

const stopAll = new AbortController();
cleanUpOnSignals(() => stopAll.abort());
const call = httpClient(stopAll.signal, 30_000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const RUN = randomBytes(3).toString('hex');

/** Whatever a check found wrong (the exit code is 1 when any). */
const failures: string[] = [];
const fail = (what: string) => {
  failures.push(what);
  console.log(`  CHECK FAILED: ${what}`);
};

/** Runs `fn` on each of `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length && !interrupted()) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

async function waitUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until || interrupted()) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

interface Account {
  handle: string;
  token: string;
}

let registered = 0;
async function registerAll(base: string, n: number, prefix: string): Promise<Account[]> {
  const out: Account[] = [];
  await pool(
    Array.from({ length: n }, () => `${prefix}-${RUN}-${++registered}`),
    32,
    async (handle) => {
      const r = await call(base, 'POST', '/v1/players', {}, { handle });
      if (r.status !== 201) throw new Error(`register ${handle}: ${r.status} ${r.text.slice(0, 300)}`);
      out.push({ handle, token: (r.body as { token: string }).token });
    },
  );
  return out;
}

// ------------------------------------------------------------------ part 1: seeks

interface SeekRow {
  label: string;
  nodes: number;
  seeks: number;
  matches: number;
  seconds: number;
  ok: boolean;
}

/** One round: fresh players, one seek each on its own pool (daysPerMove), sent over `nodes` round robin. */
async function seekRound(label: string, nodes: ServerProcess[], daysPerMove: number): Promise<SeekRow> {
  const players = await registerAll(nodes[0]!.baseUrl, SEEKS, `sk${daysPerMove}`);
  const posted = new Map<string, { owner: string; status: string; matchId: string | null }>();
  const t0 = performance.now();
  await pool(players, SEEK_CONCURRENCY, async (p, i) => {
    const r = await call(nodes[i % nodes.length]!.baseUrl, 'POST', '/v1/seeks', bearer(p.token), {
      timeControl: CORR(daysPerMove),
      deck: { starter: STARTER },
    });
    if (r.status !== 201) throw new Error(`seek by ${p.handle}: ${r.status} ${r.text.slice(0, 300)}`);
    const b = r.body as { id: string; status: string; matchId: string | null };
    posted.set(b.id, { owner: p.handle, status: b.status, matchId: b.matchId });
  });
  const seconds = (performance.now() - t0) / 1000;

  // Every seek as its owner sees it now, and every match's seats.
  const before = failures.length;
  const byMatch = new Map<string, string[]>();
  await pool(players, 32, async (p) => {
    const r = await call(nodes[0]!.baseUrl, 'GET', '/v1/me/seeks', bearer(p.token));
    const seeks = (r.body as { seeks: { id: string; status: string; matchId: string | null; timeControl: { daysPerMove: number } }[] })
      .seeks;
    const mine = seeks.filter((s) => s.timeControl.daysPerMove === daysPerMove);
    if (mine.length !== 1) return fail(`${label}: ${p.handle} has ${mine.length} seeks in the pool, not 1`);
    const s = mine[0]!;
    if (!posted.has(s.id)) return fail(`${label}: ${p.handle}'s seek ${s.id} was never answered to a POST`);
    if (s.status !== 'paired' || !s.matchId) return fail(`${label}: seek ${s.id} of ${p.handle} is ${s.status}`);
    byMatch.set(s.matchId, [...(byMatch.get(s.matchId) ?? []), p.handle]);
  });
  for (const [matchId, owners] of byMatch) {
    if (owners.length !== 2) fail(`${label}: match ${matchId} holds ${owners.length} seeks (${owners.join(', ')})`);
    else if (owners[0] === owners[1]) fail(`${label}: match ${matchId} pairs ${owners[0]} with itself`);
  }
  await pool([...byMatch.keys()], 16, async (matchId) => {
    const r = await call(nodes[0]!.baseUrl, 'GET', `/v1/matches/${matchId}`, {});
    const seats = ((r.body as { seats?: { handle?: string | null }[] }).seats ?? []).map((s) => s.handle ?? null);
    const want = [...byMatch.get(matchId)!].sort();
    if (JSON.stringify([...seats].sort()) !== JSON.stringify(want))
      fail(`${label}: match ${matchId} seats ${JSON.stringify(seats)}, its seeks' owners ${JSON.stringify(want)}`);
  });
  if (byMatch.size !== SEEKS / 2) fail(`${label}: ${byMatch.size} matches for ${SEEKS} seeks (want ${SEEKS / 2})`);
  return { label, nodes: nodes.length, seeks: SEEKS, matches: byMatch.size, seconds, ok: failures.length === before };
}

// ------------------------------------------------------------------ part 2: account feed latency

interface Feed {
  account: Account;
  snapshot: boolean;
  /** challenge id → arrival (performance.now()) of its challenge-received entry; a second arrival is a duplicate. */
  received: Map<string, number>;
  duplicates: number;
  ended: string | null;
  req: http.ClientRequest;
}

function openFeed(base: string, account: Account, onEntry: (feed: Feed, challengeId: string, at: number) => void): Feed {
  let buf = '';
  const feed: Feed = {
    account,
    snapshot: false,
    received: new Map(),
    duplicates: 0,
    ended: null,
    req: null as unknown as http.ClientRequest,
  };
  // agent false: a socket of its own, outside the keep-alive pool the writes use.
  feed.req = http.get(`${base}/v1/me/events`, { agent: false, headers: bearer(account.token) }, (res) => {
    if (res.statusCode !== 200) feed.ended = `status ${res.statusCode}`;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const at = performance.now();
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.trim() === '') continue;
        const m = JSON.parse(line) as { type?: string; data?: { id?: string }; end?: string; error?: unknown };
        if (m.type === 'snapshot') feed.snapshot = true;
        else if (m.type === 'challenge-received' && m.data?.id) onEntry(feed, m.data.id, at);
        else if (m.end !== undefined || m.error !== undefined) feed.ended = JSON.stringify(m);
      }
    });
    res.on('end', () => (feed.ended ??= 'closed'));
  });
  feed.req.on('error', (e) => (feed.ended ??= e.message));
  return feed;
}

interface FeedRow {
  label: string;
  feeds: number;
  writes: number;
  /** POSTs that got no answer (timed out: the server did not keep up). */
  failedWrites: number;
  sentPerS: number;
  writeP50: number;
  latency: Samples;
  early: number;
  missing: number;
  /** The server's CPU from the first write to the last delivery, in % of one core. */
  serverCpu: number;
  ok: boolean;
}

async function feedRound(label: string, node: ServerProcess): Promise<FeedRow> {
  const accounts = await registerAll(node.baseUrl, ACCOUNTS, 'fd');
  const feeds = new Map<string, Feed>();
  /** challenge id → the challenged handle and the arrival of the POST's answer (undefined while in flight). */
  const sent = new Map<string, { to: string; answeredAt: number }>();
  const arrivals: { id: string; to: string; at: number }[] = [];
  let misdelivered = 0;
  const onEntry = (feed: Feed, id: string, at: number) => {
    if (feed.received.has(id)) feed.duplicates++;
    feed.received.set(id, at);
    arrivals.push({ id, to: feed.account.handle, at });
  };
  for (const a of accounts) feeds.set(a.handle, openFeed(node.baseUrl, a, onEntry));
  cleanups.push(() => {
    for (const f of feeds.values()) f.req.destroy();
  });
  const attached = await waitUntil(() => [...feeds.values()].every((f) => f.snapshot || f.ended), 120_000);
  const notOpen = [...feeds.values()].filter((f) => !f.snapshot);
  if (!attached || notOpen.length > 0) {
    fail(`${label}: ${notOpen.length} of ${ACCOUNTS} feeds did not open (${notOpen[0]?.ended ?? 'no snapshot within 120 s'})`);
  }

  // Open loop: write k leaves at t0 + k / RATE.
  const writeMs = new Samples();
  const writeErrors = new Map<string, number>();
  const cpu0 = node.cpuMs();
  const t0 = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let k = 0; k < WRITES && !interrupted(); k++) {
    const wait = t0 + (k * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const from = accounts[Math.floor(Math.random() * accounts.length)]!;
    let to = accounts[Math.floor(Math.random() * (accounts.length - 1))]!;
    if (to === from) to = accounts[accounts.length - 1]!;
    inFlight.push(
      call(node.baseUrl, 'POST', '/v1/challenges', bearer(from.token), {
        to: to.handle,
        timeControl: CORR(3),
        deck: { starter: STARTER },
      }).then(
        (r) => {
          const at = performance.now();
          if (r.status !== 201) return fail(`${label}: challenge ${from.handle} → ${to.handle}: ${r.status} ${r.text.slice(0, 200)}`);
          writeMs.add(r.ms);
          sent.set((r.body as { id: string }).id, { to: to.handle, answeredAt: at });
        },
        (e: Error) => {
          // An overloaded server (the rate above what it sustains): reported, not a crash.
          writeErrors.set(e.message, (writeErrors.get(e.message) ?? 0) + 1);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const sentPerS = WRITES / ((performance.now() - t0) / 1000);
  const delivered = () => [...sent].filter(([id, s]) => feeds.get(s.to)!.received.has(id)).length;
  await waitUntil(() => delivered() === sent.size, DRAIN_S * 1000);
  const serverCpu = ((node.cpuMs() - cpu0) / (performance.now() - t0)) * 100;

  const latency = new Samples();
  let early = 0;
  const before = failures.length;
  for (const a of arrivals) {
    const s = sent.get(a.id);
    if (!s) {
      // Every entry seen is one of this round's challenges (none other was made), unless its POST failed.
      if (writeErrors.size === 0) fail(`${label}: entry for unknown challenge ${a.id} on ${a.to}'s feed`);
      continue;
    }
    if (s.to !== a.to) misdelivered++;
  }
  for (const [id, s] of sent) {
    const at = feeds.get(s.to)!.received.get(id);
    if (at === undefined) continue;
    if (at < s.answeredAt) early++;
    latency.add(Math.max(0, at - s.answeredAt));
  }
  const missing = sent.size - latency.count;
  const duplicates = [...feeds.values()].reduce((n, f) => n + f.duplicates, 0);
  const ended = [...feeds.values()].filter((f) => f.ended !== null);
  if (missing > 0) fail(`${label}: ${missing} of ${sent.size} entries not delivered within ${DRAIN_S} s after the last write`);
  if (duplicates > 0) fail(`${label}: ${duplicates} entries delivered twice`);
  if (misdelivered > 0) fail(`${label}: ${misdelivered} entries on another player's feed`);
  if (ended.length > 0) fail(`${label}: ${ended.length} feeds ended during the run (${ended[0]!.ended})`);
  for (const f of feeds.values()) f.req.destroy();
  for (const [what, n] of writeErrors) console.log(`  ${label}: ${n} writes failed (${what}): the server did not keep up with ${RATE}/s`);
  return {
    label,
    feeds: ACCOUNTS,
    writes: sent.size,
    failedWrites: [...writeErrors.values()].reduce((a, b) => a + b, 0),
    sentPerS,
    writeP50: writeMs.percentile(50),
    latency,
    early,
    missing,
    serverCpu,
    ok: failures.length === before,
  };
}

// ------------------------------------------------------------------ backends

async function runBackend(name: 'pglite' | 'postgres', seekRows: SeekRow[], feedRows: FeedRow[]): Promise<void> {
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GRAPHIQL: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    CHALLENGES_PER_HOUR: '10000',
    SWEEP_INTERVAL_MS: '0',
    WEBHOOK_WORKER: 'off',
  };
  const label = name === 'pglite' ? 'PGlite' : 'PostgreSQL';
  if (name === 'pglite') {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-bench-lobby-'));
    cleanups.push(async () => fs.rmSync(parent, { recursive: true, force: true }));
    env.DATA_DIR = path.join(parent, 'data');
  } else {
    try {
      await admin((c) => c.query('SELECT 1'));
    } catch (e) {
      console.log(`\nPostgreSQL: skipped — unreachable (${(e as Error).message})`);
      return;
    }
    const db = `evons_bench_lobby_${randomBytes(6).toString('hex')}`;
    await admin((c) => c.query(`CREATE DATABASE "${db}"`));
    cleanups.push(async () => {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
    });
    env.DATABASE_URL = withDatabase(MAINTENANCE_URL, db);
  }
  const a = await startServer({ cwd: ROOT, env });
  cleanups.push(() => a.stop(5_000));
  console.log(`\n${label}: node ready (pid ${a.pid}); load ${loadAverage()}`);

  if (PARTS.includes('seeks')) {
    seekRows.push(await seekRound(`${label}, 1 node`, [a], 1));
    console.log(`  seeks, 1 node: ${seekRows.at(-1)!.matches} matches in ${seekRows.at(-1)!.seconds.toFixed(2)} s`);
  }
  if (PARTS.includes('seeks') && name === 'postgres' && !interrupted()) {
    // Two nodes on one database (PGlite is one process's database: one node only).
    const b = await startServer({ cwd: ROOT, env });
    cleanups.push(() => b.stop(5_000));
    seekRows.push(await seekRound(`${label}, 2 nodes`, [a, b], 2));
    console.log(`  seeks, 2 nodes: ${seekRows.at(-1)!.matches} matches in ${seekRows.at(-1)!.seconds.toFixed(2)} s`);
    // The database's own count: no match beyond the pairs of the two rounds.
    const c = new pg.Client({ connectionString: env.DATABASE_URL });
    await c.connect();
    try {
      const m = await c.query<{ n: string }>('SELECT count(*)::text AS n FROM "match"');
      if (Number(m.rows[0]!.n) !== SEEKS) fail(`${label}: ${m.rows[0]!.n} match rows after two rounds of ${SEEKS / 2} pairs`);
    } finally {
      await c.end();
    }
    await b.stop(5_000);
  }
  if (PARTS.includes('feed') && !interrupted()) {
    feedRows.push(await feedRound(`${label}, 1 node`, a));
    const r = feedRows.at(-1)!;
    console.log(`  feed: ${r.latency.count} of ${r.writes} delivered, p50 ${fmtMs(r.latency.percentile(50))} ms`);
  }
  if (interrupted()) return;
  if (a.exited()) fail(`${label}: the server died: ${JSON.stringify(a.exited())}\n    ${a.log().slice(-20).join('\n    ')}`);
  await a.stop();
}

function openFileLimit(): number {
  try {
    return Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
  } catch {
    return Number.NaN;
  }
}

async function main(): Promise<void> {
  const limit = openFileLimit();
  // This process holds a socket per feed plus the writes' pool; the server as many.
  if (Number.isFinite(limit) && limit < ACCOUNTS + 200) {
    throw new Error(`ulimit -n is ${limit}: ${ACCOUNTS} feeds need at least ${ACCOUNTS + 200} (raise it: ulimit -n ${ACCOUNTS * 2 + 500})`);
  }
  const command = `${QUICK ? 'QUICK=1 ' : ''}ACCOUNTS=${ACCOUNTS} SEEKS=${SEEKS} SEEK_CONCURRENCY=${SEEK_CONCURRENCY} WRITES=${WRITES} RATE=${RATE} BACKENDS=${BACKENDS.join(',')} PARTS=${PARTS.join(',')} SERVER=${SERVER_KIND} npm run bench:lobby`;
  console.log(`bench:lobby — ${os.cpus().length} cores, load ${loadAverage()}, ulimit -n ${limit}`);
  ensureBuilt(ROOT);
  const seekRows: SeekRow[] = [];
  const feedRows: FeedRow[] = [];
  for (const name of ['pglite', 'postgres'] as const) {
    if (!BACKENDS.includes(name) || interrupted()) continue;
    try {
      await runBackend(name, seekRows, feedRows);
    } finally {
      await runCleanups();
    }
  }
  if (interrupted()) return;
  if (seekRows.length > 0) {
    console.log(`\nSeeks: ${SEEKS} players post one compatible correspondence seek each, ${SEEK_CONCURRENCY} in flight`);
    console.log(
      table([
        ['database', 'seeks', 'matches', 'seconds', 'pairs/s', 'checks'],
        ...seekRows.map((r) => [
          r.label,
          fmtInt(r.seeks),
          fmtInt(r.matches),
          r.seconds.toFixed(2),
          fmtInt(r.matches / r.seconds),
          r.ok ? 'ok' : 'FAILED',
        ]),
      ]),
    );
  }
  if (feedRows.length > 0) {
    console.log(
      `\nAccount feed: ${ACCOUNTS} NDJSON feeds on one node; challenges at ${RATE}/s; latency = entry on the challenged feed − the POST's answer; server CPU in % of one core`,
    );
    console.log(
      table([
        [
          'database',
          'feeds',
          'writes',
          'failed',
          'sent/s',
          'POST p50 ms',
          'delivered',
          'p50 ms',
          'p95 ms',
          'max ms',
          'early',
          'server CPU',
          'checks',
        ],
        ...feedRows.map((r) => [
          r.label,
          fmtInt(r.feeds),
          fmtInt(r.writes),
          fmtInt(r.failedWrites),
          r.sentPerS.toFixed(1),
          fmtMs(r.writeP50),
          fmtInt(r.latency.count),
          fmtMs(r.latency.percentile(50)),
          fmtMs(r.latency.percentile(95)),
          fmtMs(r.latency.max()),
          fmtInt(r.early),
          `${r.serverCpu.toFixed(0)}%`,
          r.ok ? 'ok' : 'FAILED',
        ]),
      ]),
    );
  }
  console.log(`\nload ${loadAverage()}; command: ${command}`);
  if (failures.length > 0) {
    console.log(`\n${failures.length} check(s) failed`);
    process.exitCode = 1;
  }
}

await runBench('bench:lobby', main);
