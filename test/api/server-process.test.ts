/**
 * `npm start` as a user runs it: the real src/server.ts in a child process on a fresh PGlite
 * directory. It serves, refuses a second process on the same directory with a clear message,
 * refuses a bad environment naming the variable, and shuts down cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/server-process.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    // DATABASE_URL emptied: these tests are about the embedded database.
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Start-up (tsx, migrations) can take long on a loaded machine: wait while the process lives. */
async function waitReady(port: number, child: { exitCode: number | null }): Promise<void> {
  for (let i = 0; i < 1500 && child.exitCode === null; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become ready');
}

describe('the server process', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evons-server-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves on a fresh data directory, refuses a second process on it, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(dir, 'data');
    const port = await freePort();
    const first = start({ PORT: String(port), DATA_DIR: dataDir });
    try {
      await waitReady(port, first.child);
      const decks = await (await fetch(`http://127.0.0.1:${port}/v1/decks`)).json();
      expect((decks as { decks: unknown[] }).decks.length).toBeGreaterThanOrEqual(2);

      const second = start({ PORT: String(await freePort()), DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/in use by another process/);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/bye/);
    expect(fs.existsSync(path.join(dataDir, 'evons.lock'))).toBe(false);
  }, 240_000);

  it('answers a 5 MiB body 413 with its problem, which fetch reads (no EPIPE while still sending)', async () => {
    const port = await freePort();
    const server = start({ PORT: String(port), DATA_DIR: path.join(dir, 'big-body') });
    try {
      await waitReady(port, server.child);
      // Whether the client is still sending when the answer comes is a race: tried several times.
      const body = 'x'.repeat(5 * 1024 * 1024);
      for (let i = 0; i < 8; i++) {
        const r = await fetch(`http://127.0.0.1:${port}/v1/matches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(r.status).toBe(413);
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await r.json()) as { code: string }).code).toBe('body-too-large');
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 240_000);

  it('refuses a bad environment, naming the variable', async () => {
    const bad = start({ PORT: 'eighty', DATA_DIR: path.join(dir, 'unused') });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/PORT/);
  });
});
