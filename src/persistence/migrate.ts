/**
 * Applies the committed Prisma migrations (prisma/migrations/<name>/migration.sql) in name order.
 *
 * Why our own runner: `prisma migrate deploy` through @prisma/adapter-pg fails against a real
 * PostgreSQL ("Column type 'name' could not be deserialized", prisma/orm#27403), and Prisma 6.19
 * cannot download its native engine here. Migrations are still *generated* by the Prisma CLI
 * against PGlite (see prisma.config.ts); this runner only applies them, for PGlite and
 * PostgreSQL alike. DELETE IT when #27403 is fixed and use `prisma migrate deploy`.
 *
 * Compatibility: rows go into Prisma's own `_prisma_migrations` table with Prisma's columns
 * (id uuid, checksum = sha256 hex of the file, finished_at, migration_name, logs,
 * rolled_back_at, started_at, applied_steps_count), so `prisma migrate status/deploy` can take
 * over later.
 *
 * Concurrency: everything runs in ONE transaction that first takes
 * pg_advisory_xact_lock(72707369) (the key Prisma Migrate itself locks), so several nodes
 * starting at once apply each migration exactly once: the others wait, then see it recorded.
 * PostgreSQL DDL is transactional, so a failing migration leaves nothing behind.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

const PRISMA_MIGRATE_LOCK_KEY = 72707369;

export const DEFAULT_MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/migrations');

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
  /** Applied migrations whose file changed since (Prisma warns about these too). */
  modified: string[];
}

export function loadMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = fs.readFileSync(path.join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface Row {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export async function migrate(db: Database, opts: { dir?: string } = {}): Promise<MigrateResult> {
  const migrations = loadMigrations(opts.dir);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    await tx.exec(CREATE_TABLE);
    const rows = await tx.query<Row>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length > 0) {
      throw new Error(
        `migration ${failed.map((r) => r.migration_name).join(', ')} failed earlier and is not rolled back ` +
          '(like Prisma P3009): fix the database by hand, then mark the row rolled back',
      );
    }
    const done = new Map(rows.filter((r) => r.finished_at !== null).map((r) => [r.migration_name, r.checksum]));
    const result: MigrateResult = { applied: [], alreadyApplied: [], modified: [] };
    for (const m of migrations) {
      const checksum = done.get(m.name);
      if (checksum !== undefined) {
        result.alreadyApplied.push(m.name);
        if (checksum !== m.checksum) result.modified.push(m.name);
        continue;
      }
      const id = randomUUID();
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), 0)`,
        [id, m.checksum, m.name],
      );
      try {
        await tx.exec(m.sql);
      } catch (e) {
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`, { cause: e });
      }
      await tx.query(`UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`, [id]);
      result.applied.push(m.name);
    }
    return result;
  });
}
