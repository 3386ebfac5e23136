/**
 * `npm start` as a user runs it: the real src/server.ts in a child process on a fresh PGlite
 * directory. It serves, refuses a second process on the same directory with a clear message,
 * refuses a bad environment naming the variable, and shuts down cleanly on SIGTERM.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../bench/lib/server-process.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

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
        const r = await fetch(`http://127.0.0.1:${port}/v1/matches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(r.status).toBe(413);
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(((await r.json()) as { code: string }).code).toBe('body-too-large');
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 240_000);

  it('on SIGTERM answers every connection still in the accept queue (200 or 503), resetting none', async () => {
    const port = await freePort();
    const server = start({ PORT: String(port), DATA_DIR: path.join(dir, 'queued') });
    const pid = server.child.pid!;
    let stopped = false;
    let terminated = false;
    try {
      await waitReady(port, server.child);
      // Stopped, the process accepts nothing: the kernel completes the connections and queues
      // them (and their requests) in the listening socket's backlog. SIGTERM arrives with them.
      process.kill(pid, 'SIGSTOP');
      stopped = true;
      const requests = Array.from({ length: 40 }, () => {
        let connected!: () => void;
        const onConnect = new Promise<void>((r) => (connected = r));
        const answer = new Promise<number | string>((resolve) => {
          const req = http.request({ host: '127.0.0.1', port, path: '/v1/decks', agent: false }, (res) => {
            res.resume();
            // A 503 is the documented one: the client may retry elsewhere, on a new connection.
            const as =
              res.statusCode === 503 ? `${res.statusCode} ${res.headers.connection} ${res.headers['retry-after']}` : res.statusCode;
            res.on('end', () => resolve(as === '503 close 1' ? 503 : (as ?? 0)));
            res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
          });
          req.on('socket', (socket) => socket.once('connect', connected));
          req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
          req.end();
        });
        return { onConnect, answer };
      });
      await Promise.all(requests.map((r) => r.onConnect));
      process.kill(pid, 'SIGTERM');
      terminated = true;
      process.kill(pid, 'SIGCONT');
      stopped = false;
      const answers = await Promise.all(requests.map((r) => r.answer));
      expect(answers.filter((a) => a !== 200 && a !== 503)).toEqual([]);
    } finally {
      if (stopped) process.kill(pid, 'SIGCONT');
      // A second SIGTERM would kill it (the handler is a once): sent only if the test failed before its own.
      if (!terminated) server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 240_000);

  it('refuses a bad environment, naming the variable', async () => {
    const bad = start({ PORT: 'eighty', DATA_DIR: path.join(dir, 'unused') });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/PORT/);
  });
});
