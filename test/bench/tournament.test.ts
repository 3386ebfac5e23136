/**
 * npm run bench:tournament in its quick mode (QUICK=1: Swiss pairing of 16 and 64 players over 5
 * rounds, a round robin of 64, and an 8-player, 3-round correspondence Swiss played end to end on
 * PGlite by computer players over HTTP), so the script cannot rot: its own checks (every player
 * paired once a round, no repeat pairing, the standings' points add up, the tournament finished
 * with every board's result its match's) decide its exit code. The figures are not asserted:
 * this machine is shared.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it('bench:tournament QUICK=1 pairs, plays a Swiss end to end and its checks pass', { timeout: 300_000 }, async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, QUICK: '1' };
  delete env.NODE_OPTIONS;
  for (const name of ['SIZES', 'SWISS_ROUNDS', 'EVENTS', 'PLAYERS', 'ROUNDS', 'AI_LEVEL', 'BACKENDS', 'PARTS', 'SEED']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'tournament.ts')], {
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
  // Two Swiss sizes and the round robin of the larger, each with its checks.
  const swiss = rows(/^\s+(16|64)\s+5\s+1\s/);
  const rr = rows(/^\s+64\s+63\s+2,016\s/);
  // The end-to-end row: 8 players, 3 rounds, 12 matches (4 boards a round, no bye).
  const e2e = rows(/^\s+PGlite \(memory\)\s+8\s+3\s+12\s/);
  expect(swiss.length, out).toBe(2);
  expect(rr.length, out).toBe(1);
  expect(e2e.length, out).toBe(1);
  for (const r of [...swiss, ...rr, ...e2e]) expect(r.trimEnd().endsWith('ok'), r).toBe(true);
  expect(out).toMatch(/command: QUICK=1 SIZES=16,64 SWISS_ROUNDS=5 EVENTS=1 PLAYERS=8 ROUNDS=3 .* npm run bench:tournament/);
});
