import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/persistence/database.js';
import { DEFAULT_MIGRATIONS_DIR, loadMigrations, migrate } from '../../src/persistence/migrate.js';
import { PgMatchStore } from '../../src/persistence/match-store.js';
import { backends } from './backends.js';

const migrations = loadMigrations();

describe('committed migrations', () => {
  it('exist and are Prisma-shaped', () => {
    expect(migrations.length).toBeGreaterThan(0);
    for (const m of migrations) {
      expect(m.name).toMatch(/^\d{14}_\w+$/);
      expect(m.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });
});

for (const backend of backends) {
  const suite = backend.skipReason ? describe.skip : describe;
  suite(`migrate() on ${backend.name}`, () => {
    const cleanup: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const f of cleanup.reverse()) await f();
    });

    async function fresh(): Promise<{ open(): Promise<Database> }> {
      const f = await backend.fresh();
      cleanup.push(f.dispose);
      return {
        open: async () => {
          const db = await openDatabase(f.config);
          cleanup.push(() => db.close());
          return db;
        },
      };
    }

    it('applies everything once; a second run is a no-op', async () => {
      const db = await (await fresh()).open();
      const first = await migrate(db);
      expect(first.applied).toEqual(migrations.map((m) => m.name));
      const second = await migrate(db);
      expect(second).toEqual({ applied: [], alreadyApplied: migrations.map((m) => m.name), modified: [] });
      const rows = await db.transaction((tx) =>
        tx.query<{
          migration_name: string;
          checksum: string;
          finished_at: Date | null;
          applied_steps_count: number;
          rolled_back_at: Date | null;
        }>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name'),
      );
      expect(rows.map((r) => [r.migration_name, r.checksum, r.applied_steps_count, r.rolled_back_at])).toEqual(
        migrations.map((m) => [m.name, m.checksum, 1, null]),
      );
      expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
      // the schema is really there
      await db.prisma.match.count();
    });

    it('rolls a failing migration back completely', async () => {
      const db = await (await fresh()).open();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-mig-'));
      try {
        fs.cpSync(migrations.length ? path.join('prisma', 'migrations') : '', dir, { recursive: true });
        fs.mkdirSync(path.join(dir, '99990101000000_broken'));
        fs.writeFileSync(path.join(dir, '99990101000000_broken', 'migration.sql'), 'CREATE TABLE t1 (a int);\nSELECT nope FROM nowhere;');
        await expect(migrate(db, { dir })).rejects.toThrow(/99990101000000_broken/);
        const tables = await db.transaction((tx) =>
          tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename IN ('match', 't1', '_prisma_migrations')`),
        );
        expect(tables[0]!.n).toBe(0);
        expect((await migrate(db)).applied).toHaveLength(migrations.length);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('keeps answering the idempotency records stored with an HTTP status, after that column is dropped', async () => {
      const db = await (await fresh()).open();
      const drop = migrations.find((m) => m.name.endsWith('_idempotency_key_without_status'))!;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-mig-'));
      try {
        for (const m of migrations.filter((m) => m.name < drop.name))
          fs.cpSync(path.join(DEFAULT_MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
        await migrate(db, { dir });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      const store = new PgMatchStore(db.prisma, db.query, db.listen, (fn) => db.transaction(fn));
      const seats = [
        { seat: 'p1' as const, tokenHash: 'h1', handle: 'ann' },
        { seat: 'p2' as const, tokenHash: 'h2', handle: 'bob' },
      ];
      const match = { id: 'm-old-key', seats };
      // Written as that schema had it (today's createMatch writes columns added later).
      await db.query(
        `INSERT INTO "match" ("id", "game", "rules_version", "engine_version", "rules_hash", "config", "card_set_id", "card_set_hash", "seed", "seed_commitment", "status", "version")
         VALUES ($1, 'evons', '1', '1', 'r', '{}'::jsonb, 'c', 'ch', 's', 'sc', 'active', 1)`,
        [match.id],
      );
      await db.query(
        `INSERT INTO "seat" ("match_id", "seat", "token_hash", "handle") VALUES ($1, 'p1', 'h1', 'ann'), ($1, 'p2', 'h2', 'bob')`,
        [match.id],
      );
      await db.query(
        `INSERT INTO "event" ("match_id", "seq", "source", "type", "payload", "visibility") VALUES ($1, 1, 'game', 'Start', '{}'::jsonb, 'public')`,
        [match.id],
      );
      await db.query(
        `INSERT INTO "idempotency_key" (match_id, key, seat, request_hash, status_code, response) VALUES ($1, 'k1', 'p1', 'rh', 200, '{"stored":2}')`,
        [match.id],
      );

      // The drop and every migration written after it.
      expect((await migrate(db)).applied).toEqual(migrations.filter((m) => m.name >= drop.name).map((m) => m.name));
      expect(await store.findIdempotency(match.id, 'p1', 'k1')).toEqual({
        key: 'k1',
        seat: 'p1',
        requestHash: 'rh',
        response: '{"stored":2}',
      });
      // The key stays taken, and new keys are stored without a status.
      const move = { source: 'game' as const, type: 'Move', payload: {}, visibility: 'public' as const, actingSeat: 'p1' as const };
      await expect(
        store.appendEvents(match.id, 1, [move], { idempotency: { key: 'k1', seat: 'p1', requestHash: 'rh', response: '{}' } }),
      ).rejects.toThrow();
      expect(
        await store.appendEvents(match.id, 1, [move], { idempotency: { key: 'k2', seat: 'p1', requestHash: 'rh2', response: '{"v":2}' } }),
      ).toBe(2);
      expect(await store.findIdempotency(match.id, 'p1', 'k2')).toEqual({ key: 'k2', seat: 'p1', requestHash: 'rh2', response: '{"v":2}' });
    });

    if (backend.name === 'postgres') {
      it('two nodes migrating a fresh database at once both succeed (advisory lock)', async () => {
        const f = await fresh();
        const nodes = await Promise.all([f.open(), f.open(), f.open()]);
        const results = await Promise.all(nodes.map((db) => migrate(db)));
        const appliedBy = results.filter((r) => r.applied.length > 0);
        expect(appliedBy).toHaveLength(1);
        expect(appliedBy[0]!.applied).toEqual(migrations.map((m) => m.name));
        for (const r of results) expect([...r.applied, ...r.alreadyApplied]).toEqual(migrations.map((m) => m.name));
        const rows = await nodes[0]!.transaction((tx) => tx.query('SELECT id FROM "_prisma_migrations"'));
        expect(rows).toHaveLength(migrations.length);
      });
    }
  });
}
