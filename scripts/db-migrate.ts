/**
 * Applies pending migrations and exits: `npm run db:migrate`.
 * Target: DATABASE_URL (PostgreSQL) if set, else the PGlite directory DATA_DIR (default ./data;
 * fails fast if a server has it open). Safe to run from several nodes at once.
 * (Our runner, not `prisma migrate deploy`: see src/persistence/migrate.ts, prisma/orm#27403.)
 */
import { databaseConfigFromEnv, openDatabase } from '../src/persistence/database.js';
import { migrate } from '../src/persistence/migrate.js';

const config = databaseConfigFromEnv();
const target = config.kind === 'postgres' ? new URL(config.url).host + new URL(config.url).pathname : `PGlite ${config.dataDir}`;
try {
  const db = await openDatabase(config);
  try {
    const r = await migrate(db);
    for (const name of r.applied) console.log(`applied ${name}`);
    for (const name of r.modified) console.warn(`warning: ${name} was changed after it was applied`);
    console.log(`${target}: ${r.applied.length} applied, ${r.alreadyApplied.length} already applied`);
  } finally {
    await db.close();
  }
} catch (e) {
  console.error(`db:migrate failed on ${target}: ${(e as Error).message}`);
  process.exitCode = 1;
}
