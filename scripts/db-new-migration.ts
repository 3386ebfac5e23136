/**
 * Writes a new migration from the difference between prisma/migrations and prisma/schema.prisma:
 *   npm run db:new-migration -- <name>      e.g. add_match_deadline
 *   npm run db:new-migration -- --check     exit 1 if the schema has changes with no migration (CI)
 *
 * Uses `prisma migrate diff --from-migrations` (in-memory PGlite shadow database, see
 * prisma.config.ts) because `prisma migrate dev` with the WebAssembly engine and a driver
 * adapter stops with "PostgreSQL shadow DB must be provided through an external factory".
 * Review the SQL before committing; it is applied by src/persistence/migrate.ts.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const arg = process.argv[2];
if (!arg || (arg !== '--check' && !/^[a-z0-9_]+$/.test(arg))) {
  console.error('usage: npm run db:new-migration -- <snake_case_name> | --check');
  process.exit(2);
}

const sql = execFileSync(
  'npx',
  ['prisma', 'migrate', 'diff', '--from-migrations', 'prisma/migrations', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const empty = sql.split('\n').every((line) => line.trim() === '' || line.trim().startsWith('--'));

if (arg === '--check') {
  if (!empty) {
    console.error('prisma/schema.prisma has changes that no migration covers:\n' + sql);
    process.exit(1);
  }
  console.log('migrations match the schema');
  process.exit(0);
}
if (empty) {
  console.log('no schema changes: nothing written');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const dir = path.join('prisma', 'migrations', `${stamp}_${arg}`);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'migration.sql'), sql);
console.log(`wrote ${dir}/migration.sql`);
