/**
 * npm run bench:startup — the production command against the development one: cold start to a
 * ready /readyz and resident memory at idle, for `node dist/server.js` (compiled by `npm run build`)
 * and `node --import tsx src/server.ts` (TypeScript compiled at start), each on a fresh PostgreSQL
 * database (production's; migrations included, as a first start) and on a fresh PGlite directory
 * (the embedded default, whose WebAssembly PostgreSQL dominates both figures). Then what a production image
 * holds: dist/ + production dependencies (`npm ci --omit=dev`, in a temp dir) against src/ + every
 * dependency (the image before). Prints figures; asserts nothing.
 *
 *   RUNS=5 npm run bench:startup        (builds dist/ first when it is missing)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { Samples, fmtMs, table } from './lib/stats.js';
import { MAINTENANCE_URL, admin, withDatabase } from './lib/postgres.js';
import { freePort } from './lib/server-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RUNS ?? 5);
const IDLE_MS = 2_000;

/** A throw-away database (its URL and how to drop it), or null when PostgreSQL is unreachable. */
async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const name = `evons_startup_${randomBytes(4).toString('hex')}`;
  try {
    await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  } catch {
    return null;
  }
  return {
    url: withDatabase(MAINTENANCE_URL, name),
    drop: async () => void (await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}

function rssKiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

/** One cold start: spawn, poll /readyz every 10 ms, then idle and read the RSS; always stopped. */
async function coldStart(args: string[], databaseUrl: string): Promise<{ readyMs: number; rssMiB: number }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-startup-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (performance.now() - t0 > 60_000) throw new Error('not ready after 60 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const readyMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { readyMs, rssMiB: rssKiB(child.pid!) / 1024 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function du(paths: string[]): number {
  const out = execFileSync('du', ['-sk', '--total', ...paths], { encoding: 'utf8' });
  return Number(/(\d+)\s+total/.exec(out)?.[1] ?? NaN) / 1024;
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist/server.js'))) execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  const variants = [
    { name: 'node dist/server.js (npm run build)', args: ['--enable-source-maps', 'dist/server.js'] },
    { name: 'node --import tsx src/server.ts', args: ['--import', 'tsx', 'src/server.ts'] },
  ];
  const rows: string[][] = [['database', 'command', 'ready p50 ms', 'ready max ms', 'RSS idle p50 MiB']];
  for (const backend of ['postgres', 'pglite'] as const) {
    for (const v of variants) {
      const ready = new Samples();
      const rss = new Samples();
      for (let i = 0; i < RUNS; i++) {
        const db = backend === 'postgres' ? await freshPostgres() : null;
        if (backend === 'postgres' && !db) break;
        try {
          const r = await coldStart(v.args, db?.url ?? '');
          ready.add(r.readyMs);
          rss.add(r.rssMiB);
        } finally {
          await db?.drop();
        }
      }
      if (ready.count > 0)
        rows.push([backend, v.name, fmtMs(ready.percentile(50)), fmtMs(ready.percentile(100)), rss.percentile(50).toFixed(0)]);
    }
  }
  console.log(`cold start to /readyz on a fresh database (migrations applied at start), ${RUNS} runs each\n`);
  console.log(table(rows));

  // The image's application layer: before, every dependency and the TypeScript sources; now,
  // production dependencies only and dist/.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-proddeps-'));
  try {
    for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, f), path.join(tmp, f));
    execFileSync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: tmp,
      stdio: 'inherit',
    });
    const before = du([path.join(root, 'node_modules'), path.join(root, 'src')]);
    const after = du([path.join(tmp, 'node_modules'), path.join(root, 'dist'), path.join(root, 'prisma/migrations')]);
    console.log(
      `\nimage contents (application layer): before ${before.toFixed(0)} MiB (all dependencies + src/), now ${after.toFixed(0)} MiB (production dependencies + dist/ + migrations)`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
