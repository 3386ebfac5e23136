/**
 * npm run bench:notify — what PostgreSQL's NOTIFY costs the append path (issue "performance",
 * item 5). On a throw-away PostgreSQL database, through the real store (openStore, the migrations
 * applied as at start), C writers each append one event at a time to their own match (the
 * expected version each time, as a move does) and the appends per second and the latency per
 * append are measured in three arms:
 *
 *   (a) none     no notification: the store's `announce` replaced by a no-op on this process's
 *                store object only (production code unchanged);
 *   (b) batched  the store as it is: `announce` collects `matchId:version` and one
 *                `SELECT pg_notify(…) FROM unnest(…)` per 5 ms goes out after the commits;
 *   (c) in-tx    one NOTIFY inside every append's own transaction: `announce` a no-op as in (a),
 *                and an AFTER INSERT trigger on "event" (created in the throw-away database only)
 *                calls pg_notify('evons_appends', match_id || ':' || seq). The append stays one
 *                statement and one round trip, so the difference to (a) is the NOTIFY and its
 *                commit-time lock (plus one PL/pgSQL call per row), not extra round trips.
 *
 * A LISTEN session on the channel (store.watchAppends, as every node holds) is open throughout and
 * counts what arrives. Before a writer count's first round its writers run PREWARM_S untimed (the
 * store as it is); then each round runs the arms in turn (a, b, c), every arm WARMUP_S untimed and
 * then SECONDS timed; the table gives per arm the median over ROUNDS rounds (and the range of
 * appends/s), the cores used over the timed windows by PostgreSQL (this database's backends and
 * the server's own processes such as the WAL writer) and by the whole machine, and the wait
 * events of the writers' backends, sampled from pg_stat_activity every 50 ms on a separate
 * connection. Prints figures; asserts nothing; drops the database at the end (also on
 * Ctrl-C or failure).
 *
 *   npm run bench:notify                     (CONCURRENCY=24,96 SECONDS=10 ROUNDS=5: about 6 min)
 *   QUICK=1 npm run bench:notify             (SECONDS=2 ROUNDS=2 WARMUP_S=0.5 PREWARM_S=1: under a minute)
 *
 * Environment:
 *   CONCURRENCY   comma list of writer counts                                 default 24,96
 *   SECONDS       timed seconds per arm and round                             default 10 (quick 2)
 *   ROUNDS        rounds of (a, b, c) per writer count                        default 5 (quick 2)
 *   WARMUP_S      untimed seconds before each timed window                    default 1 (quick 0.5)
 *   PREWARM_S     untimed seconds before each writer count's first round     default 3 (quick 1)
 *   ORDER         fixed (a, b, c every round) or rotate (b, c, a next, …)    default fixed
 *   QUICK         1: the quick defaults above (each still overridable)
 *   BENCH_DATABASE_URL  maintenance db for CREATE/DROP DATABASE
 *                 default TEST_DATABASE_URL or postgresql://postgres@127.0.0.1:5432/postgres
 *
 * The store's pool holds max(C) + 1 connections (one for the batched flush beside the writers),
 * capped by what the server has free (printed when capped): the listener and the sampler take one
 * more each.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { PgMatchStore, openStore, type OpenedStore } from '../src/persistence/match-store.js';
import type { NewEvent } from '../src/persistence/types.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';
import { cleanUpOnSignals, cleanups, interrupted, runBench } from './lib/cleanup.js';
import { loadAverage } from './lib/machine.js';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';

const QUICK = process.env.QUICK === '1' || process.argv.includes('--quick');
const num = (name: string, full: number, quick: number): number => {
  const v = process.env[name];
  return v === undefined || v === '' || !Number.isFinite(Number(v)) ? (QUICK ? quick : full) : Number(v);
};
const CONCURRENCY = (process.env.CONCURRENCY ?? '24,96')
  .split(',')
  .map((s) => Math.floor(Number(s.trim())))
  .filter((n) => Number.isFinite(n) && n > 0);
const SECONDS = Math.max(0.5, num('SECONDS', 10, 2));
const ROUNDS = Math.max(1, Math.floor(num('ROUNDS', 5, 2)));
const WARMUP_S = Math.max(0, num('WARMUP_S', 1, 0.5));
/** Untimed seconds before a writer count's first round: the pool's connections opened, statements prepared. */
const PREWARM_S = Math.max(0, num('PREWARM_S', 3, 1));
/** fixed: a, b, c in every round; rotate: a, b, c, then b, c, a, then c, a, b, … (an order effect would show). */
const ORDER = process.env.ORDER === 'rotate' ? 'rotate' : 'fixed';
const CHANNEL = 'evons_appends';
const SAMPLE_MS = 50;

type ArmKey = 'a' | 'b' | 'c';
const ARMS: { key: ArmKey; label: string }[] = [
  { key: 'a', label: '(a) no notification' },
  { key: 'b', label: '(b) batched (today)' },
  { key: 'c', label: '(c) NOTIFY in the append' },
];

const EVENT: NewEvent = {
  source: 'game',
  type: 'Move',
  payload: { from: [1, 2], to: [2, 3], card: 'x' },
  visibility: 'public',
  actingSeat: 'p1',
};

/** One arm's timed window. */
interface ArmRun {
  appends: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Payloads the LISTEN session received for this arm's appends (window and drain). */
  notes: number;
  /** Cores used over the window: this database's PostgreSQL processes, and the whole machine. */
  pgCores: number;
  machineCores: number;
  /** Wait-event samples of the writers' active backends: "type:event" (or "CPU") → count. */
  waits: Map<string, number>;
}

/** The bench's handle on the store's batching (a private method; replaced on this object only). */
interface Announcing {
  announce(id: string, version: number): void;
}

/** Arms (a) and (c): no batched notification from the store. */
function silence(store: Announcing): void {
  store.announce = () => {};
}

/** Arm (b): the class's own announce again. */
function restore(store: Announcing): void {
  delete (store as Partial<Announcing>).announce;
}

const HZ = 100; // USER_HZ

/**
 * CPU ms per PostgreSQL process that works for this bench: the bench database's backends (their
 * title names the database) and the server's own processes (WAL writer, checkpointer, … : no
 * client address in the title). Other databases' backends on a shared server are left out.
 */
function pgCpu(database: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      const title = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (!title.includes(` ${database} `) && title.includes('(')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(d), ((Number(f[11]) + Number(f[12])) * 1000) / HZ);
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** Busy CPU ms of the whole machine (all cores summed). */
function machineBusyMs(): number {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return ((total - (f[3] ?? 0) - (f[4] ?? 0)) * 1000) / HZ;
}

/** Cores used since `a` (processes present at both ends only: none of the bench's exits mid-window). */
function coresSince(a: { at: number; pg: Map<number, number>; machine: number }, database: string): { pg: number; machine: number } {
  const wall = performance.now() - a.at;
  let pgMs = 0;
  for (const [pid, ms] of pgCpu(database)) {
    const before = a.pg.get(pid);
    if (before !== undefined) pgMs += ms - before;
  }
  return { pg: pgMs / wall, machine: (machineBusyMs() - a.machine) / wall };
}

/** Samples the wait events of the backends running a statement in the bench database. */
async function startWaitSampler(url: string): Promise<{ take(): Map<string, number>; stop(): Promise<void> }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  let counts = new Map<string, number>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t = performance.now();
      try {
        const r = await c.query<{ w: string; n: number }>(
          `SELECT COALESCE(wait_event_type || ':' || wait_event, 'CPU') AS w, count(*)::int AS n
             FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state = 'active'
              AND query NOT LIKE 'LISTEN%'
            GROUP BY 1`,
        );
        for (const row of r.rows) counts.set(row.w, (counts.get(row.w) ?? 0) + row.n);
      } catch {
        if (stopped) break;
      }
      await new Promise((res) => setTimeout(res, Math.max(0, SAMPLE_MS - (performance.now() - t))));
    }
  })();
  return {
    take() {
      const out = counts;
      counts = new Map();
      return out;
    },
    async stop() {
      stopped = true;
      await loop;
      await c.end().catch(() => {});
    },
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

async function main(): Promise<void> {
  if (CONCURRENCY.length === 0) throw new Error('CONCURRENCY names no writer count');
  const maxC = Math.max(...CONCURRENCY);
  const command = `${QUICK ? 'QUICK=1 ' : ''}CONCURRENCY=${CONCURRENCY.join(',')} SECONDS=${SECONDS} ROUNDS=${ROUNDS} WARMUP_S=${WARMUP_S} PREWARM_S=${PREWARM_S} ORDER=${ORDER} npm run bench:notify`;
  const loadStart = loadAverage();
  console.log(`bench:notify — ${os.cpus().length} cores, load ${loadStart}, Node ${process.version}`);

  let free: number;
  try {
    free = await admin(async (c) => {
      const r = await c.query<{ free: number }>(
        `SELECT current_setting('max_connections')::int - (SELECT count(*)::int FROM pg_stat_activity WHERE backend_type = 'client backend') AS free`,
      );
      return r.rows[0]!.free;
    });
  } catch (e) {
    console.log(`PostgreSQL unreachable at ${MAINTENANCE_URL.replace(/\/\/[^@]*@/, '//***@')}: ${(e as Error).message}`);
    return;
  }
  // The writers, the batched flush; the listener and the sampler outside the pool; one spare.
  const wanted = maxC + 1;
  const pool = Math.max(1, Math.min(wanted, free - 3));
  if (pool < wanted) console.log(`pool capped at ${pool} connections (wanted ${wanted}): the server had ${free} free`);

  const name = `evons_bench_notify_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  cleanups.push(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  });
  const url = withDatabase(MAINTENANCE_URL, name);
  console.log(`throw-away database ${name}`);

  const opened: OpenedStore = await openStore({ kind: 'postgres', url, maxConnections: pool });
  cleanups.push(() => opened.close());
  const { store, db } = opened;
  if (!(store instanceof PgMatchStore)) throw new Error('openStore did not return a PgMatchStore');
  const announcing = store as unknown as Announcing;

  // Arm (c)'s NOTIFY, in the append's own statement and transaction; off except during (c).
  await db.query(`
    CREATE FUNCTION bench_notify_append() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${CHANNEL}', NEW.match_id || ':' || NEW.seq);
      RETURN NULL;
    END $$`);
  await db.query(`CREATE TRIGGER bench_notify_append AFTER INSERT ON "event" FOR EACH ROW EXECUTE FUNCTION bench_notify_append()`);
  await db.query(`ALTER TABLE "event" DISABLE TRIGGER bench_notify_append`);

  const [ver] = await db.query<{ v: string; sc: string; fsync: string; mc: string; sb: string }>(
    `SELECT version() AS v, current_setting('synchronous_commit') AS sc, current_setting('fsync') AS fsync,
            current_setting('max_connections') AS mc, current_setting('shared_buffers') AS sb`,
  );
  console.log(`${ver!.v}`);
  console.log(`synchronous_commit=${ver!.sc} fsync=${ver!.fsync} max_connections=${ver!.mc} shared_buffers=${ver!.sb}; store pool ${pool}`);

  let notes = 0;
  let listenUp = false;
  const unlisten = await store.watchAppends(
    () => notes++,
    (s) => (listenUp = s === 'up'),
  );
  cleanups.push(() => unlisten());
  if (!listenUp) throw new Error('the LISTEN session did not come up');
  const sampler = await startWaitSampler(url);
  cleanups.push(() => sampler.stop());

  const ids: string[] = [];
  const versions: number[] = [];
  for (let i = 0; i < maxC; i++) {
    const id = `notify_${i}_${randomBytes(4).toString('hex')}`;
    await store.createMatch(
      {
        id,
        game: 'evons',
        rulesVersion: 'r',
        engineVersion: 'b',
        rulesHash: 'r',
        config: {},
        cardSetId: 'c',
        cardSetHash: 'h',
        seed: 's',
        seedCommitment: 'sc',
        status: 'active',
        seats: [],
      },
      [{ source: 'game', type: 'MatchCreated', payload: {}, visibility: 'public', actingSeat: null }],
    );
    ids.push(id);
    versions.push(1);
  }

  let stop = false;
  cleanUpOnSignals(() => (stop = true));

  /** C writers for `warmup` s untimed and `seconds` s timed; appends finishing in the window count. */
  async function runArm(c: number, arm: ArmKey, warmup = WARMUP_S, seconds = SECONDS): Promise<ArmRun> {
    if (arm === 'b') restore(announcing);
    else silence(announcing);
    if (arm === 'c') await db.query(`ALTER TABLE "event" ENABLE TRIGGER bench_notify_append`);
    let done = false;
    try {
      const lat = new Samples();
      let measuring = false;
      let appends = 0;
      const writer = async (i: number): Promise<void> => {
        const id = ids[i]!;
        while (!done && !stop) {
          const t = performance.now();
          versions[i] = await store.appendEvents(id, versions[i]!, [EVENT]);
          if (measuring && !done) {
            lat.add(performance.now() - t);
            appends++;
          }
        }
      };
      const writers = Array.from({ length: c }, (_, i) => writer(i));
      const failed = Promise.all(writers).then(() => undefined);
      failed.catch(() => {});
      await Promise.race([sleep(warmup * 1000), failed]);
      const notesBefore = notes;
      sampler.take();
      const cpu0 = { at: performance.now(), pg: pgCpu(name), machine: machineBusyMs() };
      const t0 = performance.now();
      measuring = true;
      await Promise.race([sleep(seconds * 1000), failed]);
      done = true;
      const t1 = performance.now();
      const cores = coresSince(cpu0, name);
      const waits = sampler.take();
      await failed; // in-flight appends finish (uncounted); a writer's error ends the bench
      await sleep(100); // the last batch (5 ms) and the last notifications arrive
      return {
        appends,
        perSecond: appends / ((t1 - t0) / 1000),
        p50: lat.percentile(50),
        p99: lat.percentile(99),
        notes: notes - notesBefore,
        pgCores: cores.pg,
        machineCores: cores.machine,
        waits,
      };
    } finally {
      done = true; // on a failure too: the other writers stop
      if (arm === 'c') await db.query(`ALTER TABLE "event" DISABLE TRIGGER bench_notify_append`);
      restore(announcing);
    }
  }

  const summaries: string[] = [];
  for (const c of CONCURRENCY) {
    if (interrupted()) return;
    console.log(`\nC = ${c} writers (load ${loadAverage()})`);
    const runs = new Map<ArmKey, ArmRun[]>(ARMS.map((a) => [a.key, []]));
    if (PREWARM_S > 0) await runArm(c, 'b', 0, PREWARM_S);
    for (let r = 1; r <= ROUNDS; r++) {
      const line: string[] = [];
      const shift = ORDER === 'rotate' ? (r - 1) % ARMS.length : 0;
      for (const a of [...ARMS.slice(shift), ...ARMS.slice(0, shift)]) {
        if (interrupted()) return;
        const run = await runArm(c, a.key);
        runs.get(a.key)!.push(run);
        line.push(`${a.key} ${fmtInt(run.perSecond)}/s p99 ${fmtMs(run.p99)} ms`);
      }
      console.log(`  round ${r}/${ROUNDS}: ${line.join('; ')} (load ${loadAverage()})`);
    }
    const base = median(runs.get('a')!.map((x) => x.perSecond));
    const rows = [
      [
        'arm',
        'appends/s',
        'range',
        'vs (a)',
        'p50 ms',
        'p99 ms',
        'notes/append',
        'PG cores',
        'machine',
        'writers waiting on (share of samples)',
      ],
    ];
    for (const a of ARMS) {
      const rs = runs.get(a.key)!;
      const per = rs.map((x) => x.perSecond);
      const waits = new Map<string, number>();
      for (const x of rs) for (const [k, n] of x.waits) waits.set(k, (waits.get(k) ?? 0) + n);
      const total = [...waits.values()].reduce((s, n) => s + n, 0);
      const top = [...waits]
        .sort((x, y) => y[1] - x[1])
        .slice(0, 3)
        .map(([k, n]) => `${k} ${Math.round((100 * n) / total)}%`)
        .join(', ');
      const appends = rs.reduce((s, x) => s + x.appends, 0);
      const notesAll = rs.reduce((s, x) => s + x.notes, 0);
      rows.push([
        a.label,
        fmtInt(median(per)),
        `${fmtInt(Math.min(...per))}–${fmtInt(Math.max(...per))}`,
        `${((100 * median(per)) / base).toFixed(0)}%`,
        fmtMs(median(rs.map((x) => x.p50))),
        fmtMs(median(rs.map((x) => x.p99))),
        appends > 0 ? (notesAll / appends).toFixed(2) : '–',
        median(rs.map((x) => x.pgCores)).toFixed(2),
        `${median(rs.map((x) => x.machineCores)).toFixed(2)}/${os.cpus().length}`,
        top || '–',
      ]);
    }
    const summary = `C = ${c} writers, ${ROUNDS} rounds of ${SECONDS} s per arm (median over rounds; range = slowest–fastest round)\n${table(rows)}`;
    console.log(`\n${summary}`);
    summaries.push(summary);
  }
  if (CONCURRENCY.length > 1) console.log(`\nAll:\n\n${summaries.join('\n\n')}`);
  console.log(
    `\nload ${loadStart} at start, ${loadAverage()} at end; ${os.cpus().length} cores; Node ${process.version}; command: ${command}`,
  );
}

await runBench('bench:notify', main);
