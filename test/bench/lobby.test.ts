/**
 * npm run bench:lobby in its quick mode (QUICK=1: 20 feeds, 20 seeks, 20 writes, seconds), so the
 * script cannot rot: it runs against the real server on PGlite and (when reachable) PostgreSQL,
 * and its own checks (every seek paired exactly once, every feed entry delivered once to the
 * right player) decide its exit code. The figures are not asserted: this machine is shared.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { backends } from '../persistence/backends.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('bench:lobby QUICK=1 runs every part on every reachable database and its checks pass', { timeout: 300_000 }, async () => {
  const names = backends.filter((b) => b.skipReason === null).map((b) => b.name);
  const env: NodeJS.ProcessEnv = { ...process.env, QUICK: '1', SERVER: 'tsx', BACKENDS: names.join(',') };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'lobby.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  expect(code, out).toBe(0);
  expect(out).not.toContain('CHECK FAILED');
  const rows = (label: RegExp) => out.split('\n').filter((l) => label.test(l));
  // One seek row per database (two on PostgreSQL: one node and two), one feed row per database.
  const seekRows = rows(/^\s+(PGlite|PostgreSQL), \d nodes?\s+20\s+10\s/);
  const feedRows = rows(/^\s+(PGlite|PostgreSQL), 1 node\s+20\s+20\s+0\s/); // 20 feeds, 20 writes answered, none failed
  expect(seekRows.length, out).toBe(names.includes('postgres') ? 3 : 1);
  expect(feedRows.length, out).toBe(names.length);
  for (const r of [...seekRows, ...feedRows]) expect(r.trimEnd().endsWith('ok'), r).toBe(true);
  expect(out).toMatch(/command: QUICK=1 ACCOUNTS=20 SEEKS=20 .* npm run bench:lobby/);
});
