/**
 * npm run bench:history — match history queries at scale: seeds a throw-away PostgreSQL database
 * with HISTORY_MATCHES matches (default 1,000,000; two seats each, handles from a pool, both
 * games, all time controls, results, a year of creation times) with set-based INSERTs, then runs
 * the common history queries through the store (the same code the API runs) with random handles
 * and prints p50/p95/max per query. Prints figures; asserts nothing; drops the database at the end.
 *
 *   HISTORY_MATCHES=1000000 HISTORY_RUNS=200 npm run bench:history
 *
 * BENCH_DATABASE_URL (or TEST_DATABASE_URL): the maintenance database for CREATE/DROP DATABASE,
 * default postgresql://postgres@127.0.0.1:5432/postgres.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openStore } from '../src/persistence/index.js';
import type { MatchListFilter, MatchOrder, MatchStore } from '../src/persistence/types.js';
import { Samples, fmtInt, fmtMs, table } from './lib/stats.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';

const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
const MATCHES = Math.max(1000, Math.floor(num(process.env.HISTORY_MATCHES, 1_000_000)));
const RUNS = Math.max(10, Math.floor(num(process.env.HISTORY_RUNS, 200)));
const HANDLES = Math.max(100, Math.floor(MATCHES / 50));

/** Set-based: one statement for the matches, one for their seats (handle i and a pseudo-random opponent). */
async function seed(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(
      `
      INSERT INTO "match" ("id", "game", "rules_version", "engine_version", "rules_hash", "config", "card_set_id", "card_set_hash",
                           "seed", "seed_commitment", "status", "winner", "to_move", "deadline", "time_control", "rated", "ending", "version", "created_at", "updated_at")
      SELECT 'm' || g, CASE WHEN g % 4 = 0 THEN 'universus' ELSE 'evons' END, 'r', 'e', 'h', '{}'::jsonb, 'set', 'hash', 's', 'c',
             CASE WHEN g % 10 < 7 THEN 'finished' WHEN g % 10 < 9 THEN 'active' ELSE 'waiting' END,
             CASE WHEN g % 10 < 7 THEN (CASE WHEN g % 3 = 0 THEN NULL WHEN g % 2 = 0 THEN 'p1' ELSE 'p2' END) END,
             CASE WHEN g % 10 BETWEEN 7 AND 8 THEN (CASE WHEN g % 2 = 0 THEN 'p1' ELSE 'p2' END) END,
             CASE WHEN g % 10 BETWEEN 7 AND 8 AND g % 3 = 1 THEN now() + (g % 1000) * interval '1 minute' END,
             CASE g % 3 WHEN 0 THEN 'none' WHEN 1 THEN 'correspondence' ELSE 'live' END,
             g % 3 <> 0 AND g % 5 = 0,
             CASE WHEN g % 10 < 7 THEN 'game' END,
             100, now() - (g % 525600) * interval '1 minute', now()
        FROM generate_series(1, $1::int) AS g`,
      [MATCHES],
    );
    await c.query(
      `
      INSERT INTO "seat" ("match_id", "seat", "token_hash", "handle", "joined_at")
      SELECT 'm' || g, s.seat, md5(g::text || s.seat), 'player' || (CASE WHEN s.seat = 'p1' THEN g % $2::int ELSE ((g::bigint * 7919 + 13) % $2::int)::int END), now()
        FROM generate_series(1, $1::int) AS g, (VALUES ('p1'), ('p2')) AS s(seat)`,
      [MATCHES, HANDLES],
    );
    await c.query('ANALYZE');
  } finally {
    await c.end();
  }
}

interface Query {
  name: string;
  filter: () => MatchListFilter;
  order?: MatchOrder;
}

const pick = () => `player${Math.floor(Math.random() * HANDLES)}`;
const QUERIES: Query[] = [
  { name: 'by handle (newest first)', filter: () => ({ handle: pick() }) },
  { name: 'by handle, finished', filter: () => ({ handle: pick(), status: 'finished' }) },
  { name: 'by handle and opponent', filter: () => ({ handle: pick(), opponent: pick() }) },
  { name: 'by handle, game universus', filter: () => ({ handle: pick(), game: 'universus' }) },
  { name: 'by handle, won', filter: () => ({ handle: pick(), result: 'won' }) },
  { name: 'by handle, rated', filter: () => ({ handle: pick(), rated: true }) },
  { name: 'by handle, last 30 days', filter: () => ({ handle: pick(), from: new Date(Date.now() - 30 * 86_400_000) }) },
  { name: 'my turn, soonest deadline first', filter: () => ({ toMoveHandle: pick() }), order: 'deadline' },
  { name: 'everything, newest first', filter: () => ({}) },
  { name: 'game universus, newest first', filter: () => ({ game: 'universus' }) },
  { name: 'rated, newest first', filter: () => ({ rated: true }) },
];

async function measure(store: MatchStore, q: Query): Promise<{ first: Samples; next: Samples }> {
  const first = new Samples();
  const next = new Samples();
  for (let i = 0; i < RUNS; i++) {
    const filter = q.filter();
    let t = performance.now();
    const page = await store.listMatches(filter, { limit: 20, ...(q.order ? { order: q.order } : {}) });
    first.add(performance.now() - t);
    if (page.nextCursor) {
      t = performance.now();
      await store.listMatches(filter, { limit: 20, cursor: page.nextCursor, ...(q.order ? { order: q.order } : {}) });
      next.add(performance.now() - t);
    }
  }
  return { first, next };
}

async function main(): Promise<void> {
  const name = `evons_bench_history_${randomBytes(6).toString('hex')}`;
  try {
    await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  } catch (e) {
    console.log(`PostgreSQL unreachable at ${MAINTENANCE_URL}: ${(e as Error).message}`);
    return;
  }
  const url = withDatabase(MAINTENANCE_URL, name);
  try {
    const opened = await openStore({ kind: 'postgres', url, connectTimeoutMs: 5_000, statementTimeoutMs: 600_000 });
    try {
      console.log(`history benchmark: ${fmtInt(MATCHES)} matches, ${fmtInt(MATCHES * 2)} seats, ${fmtInt(HANDLES)} handles; seeding …`);
      const t0 = performance.now();
      await seed(url);
      console.log(
        `seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${RUNS} random queries of each kind (page of 20, then the next page) …\n`,
      );
      const rows = [['query', 'p50 ms', 'p95 ms', 'max ms', 'next page p95 ms']];
      for (const q of QUERIES) {
        const { first, next } = await measure(opened.store, q);
        rows.push([
          q.name,
          fmtMs(first.percentile(50)),
          fmtMs(first.percentile(95)),
          fmtMs(first.max()),
          next.count ? fmtMs(next.percentile(95)) : '—',
        ]);
      }
      console.log(table(rows));
    } finally {
      await opened.close();
    }
  } finally {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

await main();
