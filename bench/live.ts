/**
 * npm run bench:live — event delivery latency of the live updates under load: Server-Sent Events
 * (GET …/stream with Accept: text/event-stream) and GraphQL subscriptions (`matchEvents` over
 * graphql-transport-ws), with 100 concurrent subscribers by default, on matches where moves are
 * made. Prints figures; asserts nothing; exit code 0 unless something crashed.
 *
 *   SSE=50 GQL=50 MATCHES=10 DURATION=20 npm run bench:live
 *
 * Two real server processes on one throw-away PostgreSQL database, as in production with two
 * nodes: moves go to node A (REST), every subscriber is connected to node B, so each event crosses
 * nodes through PostgreSQL LISTEN/NOTIFY. MATCHES matches are played at once (random legal moves,
 * MOVE_GAP_MS between a move's answer and the next move); each has SSE/MATCHES SSE streams and
 * GQL/MATCHES subscriptions (one WebSocket connection each), their credentials rotating p1, p2,
 * spectator, so every delivery is redacted for its reader. When a match ends, another one starts
 * with fresh subscribers.
 *
 * Latency = arrival at the subscriber (performance.timeOrigin + now(), this process) − the event
 * row's created_at (PostgreSQL now() in the append's statement, read back at the end): commit →
 * received, including the NOTIFY batching (5 ms), node B's read and redaction, and the transport.
 * created_at is stored with millisecond precision and taken at the statement's start, so figures
 * are high by up to a few ms. Only events committed after every subscriber of a match was attached
 * are counted (not the stored backlog each one receives first).
 *
 * Environment: SSE (50), GQL (50), MATCHES (10), DURATION seconds (20), MOVE_GAP_MS (50),
 * BENCH_DATABASE_URL (maintenance database; default TEST_DATABASE_URL or
 * postgresql://postgres@127.0.0.1:5432/postgres).
 */
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Client } from 'graphql-ws';
import { seededPick } from '../src/games/evons/index.js';
import { ensureBuilt, startServer, type ServerProcess } from './lib/server-process.js';
import { openSse, nowMs, type SseStream } from './lib/sse-reader.js';
import { gqlWsClient, subscribe } from './lib/graphql-ws.js';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';
import { cpuBetween, loadAverage, snapshot } from './lib/machine.js';
import { cleanUpOnSignals, cleanups, runCleanups } from './lib/cleanup.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
const SSE_N = Math.max(0, Math.floor(num(process.env.SSE, 50)));
const GQL_N = Math.max(0, Math.floor(num(process.env.GQL, 50)));
const MATCHES = Math.max(1, Math.floor(num(process.env.MATCHES, 10)));
const DURATION_S = Math.max(1, num(process.env.DURATION, 20));
const MOVE_GAP_MS = Math.max(0, num(process.env.MOVE_GAP_MS, 50));
const STARTERS = ['starter-verdant-quake', 'starter-storm-shade', 'starter-ember-tide'];
/** A subscriber that has not seen its match end this long after the last move is reported, not waited for. */
const END_WAIT_MS = 15_000;

type Seat = 'p1' | 'p2';
type Form = 'sse' | 'gql';
interface Arrival {
  form: Form;
  matchId: string;
  seq: number;
  at: number;
}

cleanUpOnSignals();

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the bench reads a few fields of several answers
function call(base: string, method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (payload !== undefined)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
    const req = http.request(base + url, { method, agent, headers, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

async function waitUntil(cond: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/** Share `total` over MATCHES slots: slot i gets its part. */
const share = (total: number, i: number) => Math.floor(total / MATCHES) + (i < total % MATCHES ? 1 : 0);

interface Stats {
  arrivals: Arrival[];
  /** The version each match had when all its subscribers were attached: later seqs are counted. */
  liveFrom: Map<string, number>;
  moves: number;
  matches: number;
  unfinishedSubscribers: number;
  errors: Map<string, number>;
}

/** One slot: matches one after another until the deadline, each with fresh subscribers on B and moves on A. */
async function slot(i: number, a: ServerProcess, b: ServerProcess, deadline: number, stats: Stats): Promise<void> {
  const pick = seededPick(`bench-live-${i}`);
  const note = (what: string) => stats.errors.set(what, (stats.errors.get(what) ?? 0) + 1);
  while (Date.now() < deadline) {
    const created = await call(a.baseUrl, 'POST', '/v1/matches', undefined, {
      handle: `live-${i}`,
      opponentHandle: `live-${i}-b`,
      decks: { p1: { starter: STARTERS[i % 3] }, p2: { starter: STARTERS[(i + 1) % 3] } },
    });
    if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.id as string;
    const tokens = created.body.tokens as Record<Seat, string>;
    const viewer = (k: number) => [tokens.p1, tokens.p2, undefined][k % 3];
    stats.matches++;

    const sse: SseStream[] = [];
    for (let k = 0; k < share(SSE_N, i); k++) {
      const token = viewer(k);
      const s = openSse(`${b.baseUrl}/v1/matches/${id}/stream`, token ? { authorization: `Bearer ${token}` } : {});
      s.onMessage = (m) => {
        if (m.event === 'match-event') stats.arrivals.push({ form: 'sse', matchId: id, seq: Number(m.id), at: m.receivedAt });
      };
      sse.push(s);
    }
    const gql: { client: Client; sub: ReturnType<typeof subscribe<{ matchEvents: { seq: number } }>> }[] = [];
    for (let k = 0; k < share(GQL_N, i); k++) {
      const client = gqlWsClient(b.baseUrl, viewer(k + 1));
      const sub = subscribe<{ matchEvents: { seq: number } }>(
        client,
        'subscription($id: ID!) { matchEvents(matchId: $id) { seq } }',
        { id },
        (r) => {
          if (r.data) stats.arrivals.push({ form: 'gql', matchId: id, seq: r.data.matchEvents.seq, at: nowMs() });
        },
      );
      gql.push({ client, sub });
    }
    // Attached: each has received the stored events (its watch was registered before the first one left).
    const attached = await waitUntil(() => sse.every((s) => s.messages.length > 0) && gql.every((g) => g.sub.results.length > 0), 30_000);
    if (!attached) note('subscribers not attached within 30 s');
    stats.liveFrom.set(id, created.body.version as number);

    let over = false;
    while (!over && Date.now() < deadline) {
      const v = await call(a.baseUrl, 'GET', `/v1/matches/${id}`);
      const seat = v.body?.game?.pending?.seat as Seat | undefined;
      if (!seat || v.body.status === 'finished') break;
      const legal = await call(a.baseUrl, 'GET', `/v1/matches/${id}/legal-actions`, tokens[seat]);
      const actions = (legal.body?.actions ?? []) as { action: unknown }[];
      if (actions.length === 0) break;
      const r = await call(a.baseUrl, 'POST', `/v1/matches/${id}/actions`, tokens[seat], { action: actions[pick(actions.length)]!.action });
      if (r.status === 200) stats.moves++;
      else note(`action ${r.status} ${r.body?.code ?? ''}`);
      over = r.body?.status === 'finished';
      if (MOVE_GAP_MS > 0) await new Promise((res) => setTimeout(res, MOVE_GAP_MS));
    }
    if (!over) await call(a.baseUrl, 'POST', `/v1/matches/${id}/actions`, tokens.p1, { action: { type: 'resign' } });
    // Every subscriber sees the end (SSE: the end message; GraphQL: complete).
    await Promise.race([
      Promise.all([...sse.map((s) => s.ended), ...gql.map((g) => g.sub.done)]),
      new Promise((r) => setTimeout(r, END_WAIT_MS)),
    ]);
    stats.unfinishedSubscribers += sse.filter((s) => s.messages.at(-1)?.event !== 'end').length;
    for (const g of gql) if (g.sub.error()) note(`subscription error ${JSON.stringify(g.sub.error()).slice(0, 120)}`);
    for (const s of sse) s.close();
    await Promise.all(gql.map((g) => g.client.dispose()));
  }
}

async function main(): Promise<void> {
  const name = `evons_bench_live_${randomBytes(4).toString('hex')}`;
  try {
    await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  } catch (e) {
    console.log(`bench:live needs PostgreSQL (two server processes share it): ${(e as Error).message}`);
    return;
  }
  cleanups.push(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });
  const env = {
    DATABASE_URL: withDatabase(MAINTENANCE_URL, name),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    SWEEP_INTERVAL_MS: '0',
    WEBHOOK_WORKER: 'off',
    GRAPHQL_MAX_SUBSCRIPTIONS: '20',
  };
  ensureBuilt(ROOT);
  const a = await startServer({ cwd: ROOT, env });
  cleanups.push(() => a.stop(5_000));
  const b = await startServer({ cwd: ROOT, env });
  cleanups.push(() => b.stop(5_000));

  console.log(
    `bench:live — ${SSE_N} SSE streams + ${GQL_N} GraphQL subscriptions on node B, moves on node A (PostgreSQL), ${MATCHES} matches at a time, ${DURATION_S} s, ${MOVE_GAP_MS} ms between moves; load ${loadAverage()}`,
  );
  const stats: Stats = { arrivals: [], liveFrom: new Map(), moves: 0, matches: 0, unfinishedSubscribers: 0, errors: new Map() };
  const cpu0 = { a: a.cpuMs(), b: b.cpuMs(), bench: process.cpuUsage(), machine: snapshot() };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: MATCHES }, (_, i) => slot(i, a, b, t0 + DURATION_S * 1000, stats)));
  const elapsedS = (Date.now() - t0) / 1000;
  const benchCpu = process.cpuUsage(cpu0.bench);
  const cpu = {
    a: a.cpuMs() - cpu0.a,
    b: b.cpuMs() - cpu0.b,
    bench: (benchCpu.user + benchCpu.system) / 1000,
    machine: cpuBetween(cpu0.machine, snapshot()),
  };

  // Commit times, from the rows themselves.
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  const rows = (
    await db.query<{ match_id: string; seq: number; t: string }>(
      `SELECT match_id, seq, (extract(epoch from created_at) * 1000)::text AS t FROM "event" WHERE match_id = ANY($1)`,
      [[...stats.liveFrom.keys()]],
    )
  ).rows;
  await db.end();
  const committed = new Map(rows.map((r) => [`${r.match_id}:${r.seq}`, Number(r.t)]));

  const latency: Record<Form, Samples> = { sse: new Samples(), gql: new Samples() };
  for (const x of stats.arrivals) {
    if (x.seq <= (stats.liveFrom.get(x.matchId) ?? Infinity)) continue;
    const at = committed.get(`${x.matchId}:${x.seq}`);
    if (at !== undefined) latency[x.form].add(x.at - at);
  }
  console.log('');
  console.log(
    table([
      ['transport', 'subscribers', 'deliveries', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
      ...(['sse', 'gql'] as const).map((f) => [
        f === 'sse' ? 'SSE' : 'GraphQL subscription',
        String(f === 'sse' ? SSE_N : GQL_N),
        fmtInt(latency[f].count),
        fmtMs(latency[f].percentile(50)),
        fmtMs(latency[f].percentile(95)),
        fmtMs(latency[f].percentile(99)),
        fmtMs(latency[f].max()),
      ]),
    ]),
  );
  console.log('');
  console.log(
    `${fmtInt(stats.moves)} moves in ${elapsedS.toFixed(1)} s (${(stats.moves / elapsedS).toFixed(0)}/s) over ${stats.matches} matches; ` +
      `${fmtInt((latency.sse.count + latency.gql.count) / elapsedS)} live deliveries/s`,
  );
  const core = (ms: number) => `${((ms / 1000 / elapsedS) * 100).toFixed(0)}%`;
  console.log(
    `CPU, in % of one core: node A ${core(cpu.a)}, node B ${core(cpu.b)}, this load generator ${core(cpu.bench)}, PostgreSQL ${(cpu.machine.postgres * 100).toFixed(0)}%; ` +
      `the whole machine ${(cpu.machine.machineBusy * 100).toFixed(0)}% of ${cpu.machine.cores * 100}% (other work included); load ${loadAverage()}`,
  );
  if (stats.unfinishedSubscribers > 0)
    console.log(`SSE streams that had not ended ${END_WAIT_MS / 1000} s after their match: ${stats.unfinishedSubscribers}`);
  for (const [what, n] of stats.errors) console.log(`  ${n} × ${what}`);
}

try {
  await main();
} finally {
  await runCleanups();
}
