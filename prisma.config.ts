/**
 * Prisma CLI configuration. Prisma 6.19 runs here with no engine download only with the
 * WebAssembly schema engine (`engine: 'js'`) and a driver adapter; we point the CLI at PGlite.
 *
 * - `prisma generate` (npm run db:generate, postinstall) does not touch the database.
 * - New migration: edit prisma/schema.prisma, then
 *     npx prisma migrate dev --create-only --name <what_changed>
 *   It runs against an in-memory PGlite by default (fresh on every run: Prisma replays
 *   prisma/migrations into it and diffs), so it never collides with a server holding ./data.
 *   Set PRISMA_PGLITE_DIR to use a directory instead (never one a running server has open:
 *   PGlite allows one opener per directory and a second one hangs).
 * - Migrations are applied to real databases by our runner (`npm run db:migrate`,
 *   src/persistence/migrate.ts), not by `prisma migrate deploy` (prisma/orm#27403).
 */
import path from 'node:path';
import { defineConfig, type PrismaConfig } from 'prisma/config';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';

// pglite-prisma-adapter 0.6 is typed against its own nested @prisma/driver-adapter-utils 6.10;
// at runtime it fits Prisma 6.19, so bridge the types here.
type Factory = Awaited<ReturnType<Extract<PrismaConfig, { engine: 'js' }>['adapter']>>;
type Connected = Awaited<ReturnType<Factory['connectToShadowDb']>>;

/**
 * The schema engine applies whole migration scripts with `executeRaw` and no arguments, which
 * pglite-prisma-adapter 0.6 sends as one prepared statement: PGlite rejects that ("cannot insert
 * multiple commands into a prepared statement", P3006 on the shadow database). Route
 * argument-less statements through `PGlite.exec`, which accepts several commands.
 */
function withScripts(connected: unknown, client: PGlite): Connected {
  const adapter = connected as Connected;
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    if (query.args.length > 0) return executeRaw(query);
    const results = await client.exec(query.sql);
    return results.reduce((n, r) => n + (r.affectedRows ?? 0), 0);
  };
  return adapter;
}

let dirClient: PGlite | undefined;

export default defineConfig({
  experimental: { adapter: true },
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  engine: 'js',
  async adapter() {
    // One PGlite per process and directory: the CLI may call adapter() more than once, and a
    // second PGlite on the same directory hangs.
    const dir = process.env.PRISMA_PGLITE_DIR;
    const client = dir ? (dirClient ??= new PGlite(dir)) : new PGlite();
    const factory = new PrismaPGlite(client);
    return {
      provider: factory.provider,
      adapterName: factory.adapterName,
      connect: async () => withScripts(await factory.connect(), client),
      connectToShadowDb: async () => {
        const shadow = new PGlite();
        return withScripts(await new PrismaPGlite(shadow).connect(), shadow);
      },
    };
  },
});
