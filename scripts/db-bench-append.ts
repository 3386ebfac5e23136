/**
 * Ad-hoc: time per appendEvents (one event, sequential) on PGlite and PostgreSQL; and with the turn
 * passing at every append between two registered players (the account feed's triggers write a
 * your-turn entry each time), with the triggers and without (disabled for the measurement).
 *   npx tsx scripts/db-bench-append.ts [n]      (PostgreSQL from BENCH_DATABASE_URL, default local)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore } from '../src/persistence/match-store.js';
import type { DatabaseConfig } from '../src/persistence/database.js';

const n = Number(process.argv[2] ?? 500);
const base = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function bench(label: string, config: DatabaseConfig): Promise<void> {
  const { store, db, close } = await openStore(config);
  try {
    const id = `bench_${Date.now()}`;
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
    let v = 1;
    const ev = {
      source: 'game' as const,
      type: 'Move',
      payload: { from: [1, 2], to: [2, 3], card: 'x' },
      visibility: 'public' as const,
      actingSeat: 'p1' as const,
    };
    for (let i = 0; i < 50; i++) v = await store.appendEvents(id, v, [ev]); // warm-up
    const t0 = performance.now();
    for (let i = 0; i < n; i++)
      v = await store.appendEvents(id, v, [ev], {
        idempotency: { key: `k${i}`, seat: 'p1', requestHash: 'h', response: JSON.stringify({ v }) },
      });
    const withIdem = (performance.now() - t0) / n;
    const t1 = performance.now();
    for (let i = 0; i < n; i++) v = await store.appendEvents(id, v, [ev]);
    const plain = (performance.now() - t1) / n;
    console.log(`${label}: appendEvents(1 event) ${plain.toFixed(2)} ms; with idempotency row ${withIdem.toFixed(2)} ms (n=${n})`);

    // The turn passes at every append, between two registered players: a your-turn entry each time.
    const fid = `${id}_feed`;
    for (const p of ['p1', 'p2']) {
      await db.query(`INSERT INTO "player" ("id", "handle", "handle_key") VALUES ($1, $1, $1)`, [`${fid}_${p}`]);
    }
    await store.createMatch(
      {
        id: fid,
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
        seats: (['p1', 'p2'] as const).map((seat) => ({
          seat,
          tokenHash: `${fid}_${seat}`,
          handle: `${fid}_${seat}`,
          playerId: `${fid}_${seat}`,
        })),
      },
      [{ source: 'game', type: 'MatchCreated', payload: {}, visibility: 'public', actingSeat: null }],
    );
    let fv = 1;
    const turns = async (count: number) => {
      const t = performance.now();
      for (let i = 0; i < count; i++) fv = await store.appendEvents(fid, fv, [ev], { row: { toMove: fv % 2 === 0 ? 'p1' : 'p2' } });
      return (performance.now() - t) / count;
    };
    await turns(50);
    const on = await turns(n);
    await db.query(`ALTER TABLE "match" DISABLE TRIGGER USER`);
    const off = await turns(n);
    await db.query(`ALTER TABLE "match" ENABLE TRIGGER USER`);
    const [counted] = await db.query<{ entries: number }>(
      `SELECT count(*)::int AS entries FROM "account_event" WHERE "player_id" LIKE $1`,
      [`${fid}%`],
    );
    console.log(
      `${label}: turn passing each append: feed triggers on ${on.toFixed(2)} ms, off ${off.toFixed(2)} ms (${counted!.entries} entries written)`,
    );
  } finally {
    await close();
  }
}

await bench('PGlite memory', { kind: 'pglite', dataDir: 'memory://' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-bench-'));
await bench('PGlite dir   ', { kind: 'pglite', dataDir: path.join(dir, 'data') });
fs.rmSync(dir, { recursive: true, force: true });

const name = `evons_bench_${process.pid}`;
const admin = new pg.Client(base);
await admin.connect();
await admin.query(`CREATE DATABASE "${name}"`);
try {
  const u = new URL(base);
  u.pathname = `/${name}`;
  await bench('PostgreSQL   ', { kind: 'postgres', url: u.toString() });
} finally {
  await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
  await admin.end();
}
