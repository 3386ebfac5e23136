/**
 * npm run bench:notify at a tiny size (2 writers, one round of 0.5 s per arm: seconds), so the
 * script cannot rot: it runs end to end on a throw-away PostgreSQL database and the LISTEN
 * session's counts show each arm does what it says (no notification in (a), batched ones in (b),
 * one per append in (c)), and the database is gone afterwards. The figures are not asserted: this
 * machine is shared. Skipped, with the reason, when PostgreSQL is not reachable, except under CI,
 * where that fails it (test/persistence/pg-helper.ts).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { MAINTENANCE_URL, admin } from '../../bench/lib/postgres.js';
import { skipUnlessRequired, unreachableReason } from '../persistence/pg-helper.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const unreachable = await admin((c) => c.query('SELECT 1')).then(
  () => null,
  (e: unknown) => unreachableReason(MAINTENANCE_URL, e),
);
const skip = skipUnlessRequired(unreachable);
if (skip) console.warn(`[bench:notify test] skipped: ${skip}`);

it.skipIf(skip !== null)('bench:notify runs its three arms on a throw-away database and drops it', { timeout: 60_000 }, async () => {
  // Under CI an unreachable PostgreSQL is this test's failure, said as such.
  if (unreachable !== null) throw new Error(`${unreachable} (CI is set: PostgreSQL is required)`);
  const env: NodeJS.ProcessEnv = { ...process.env, CONCURRENCY: '2', SECONDS: '0.5', ROUNDS: '1', WARMUP_S: '0.2', PREWARM_S: '0.2' };
  delete env.NODE_OPTIONS;
  delete env.QUICK;
  delete env.ORDER;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'notify.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  expect(code, out).toBe(0);
  // notes/append is the fifth figure after the label: appends/s, range, vs (a), p50, p99, notes/append.
  const notesPerAppend = (label: string): number => {
    const row = out.split('\n').find((l) => l.trimStart().startsWith(label));
    expect(row, out).toBeDefined();
    return Number(
      row!
        .slice(row!.indexOf(label) + label.length)
        .trim()
        .split(/\s+/)[5],
    );
  };
  expect(notesPerAppend('(a) no notification')).toBeLessThan(0.05);
  expect(notesPerAppend('(b) batched (today)')).toBeGreaterThan(0);
  expect(notesPerAppend('(c) NOTIFY in the append')).toBeGreaterThanOrEqual(0.9);
  expect(out).toMatch(/command: CONCURRENCY=2 SECONDS=0\.5 ROUNDS=1 WARMUP_S=0\.2 PREWARM_S=0\.2 ORDER=fixed npm run bench:notify/);
  const name = /throw-away database (\S+)/.exec(out)?.[1];
  expect(name, out).toBeDefined();
  const left = await admin((c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
  expect(left.rowCount).toBe(0);
});
