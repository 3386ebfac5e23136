/**
 * Shutdown of the real server process (issue 7 defect 5): with a keep-alive client that stays
 * connected, an open event stream (its socket turns idle only after SIGTERM) and a request sent
 * on a kept-alive socket after SIGTERM, the process ends the stream with {"end":"shutdown"},
 * refuses the late request with problem+json 503 `shutting-down` + Retry-After (or closes the
 * socket first), closes the store and exits 0 instead of waiting for the clients.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib/server-process.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-shutdown-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function request(agent: http.Agent, port: number, method: string, p: string, body?: unknown) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, agent, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let b = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (b += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

describe('SIGTERM with keep-alive clients and an open stream', () => {
  it('ends the stream saying so, refuses late requests with 503 problem+json, exits 0 (issue 7 defect 5)', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      // A shutdown that waited on the clients would run into this and exit 1.
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: path.join(dir, 'data'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '30000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    for (let i = 0; i < 300; i++) {
      try {
        if ((await request(agent, port, 'GET', '/readyz')).status === 200) break;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const created = await request(agent, port, 'POST', '/v1/matches', { handle: 'alice', opponentHandle: 'bob', decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } } });
    expect(created.status, created.body).toBe(201);
    const id = (JSON.parse(created.body) as { id: string }).id;

    // An idle keep-alive client: connected, nothing in flight.
    const idle = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await request(idle, port, 'GET', '/healthz')).status).toBe(200);

    // An open stream on its own keep-alive socket.
    const streamAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let streamBody = '';
    const streamEnded = new Promise<void>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: `/v1/matches/${id}/stream`, agent: streamAgent }, (res) => {
          res.setEncoding('utf8');
          res.on('data', (c: string) => (streamBody += c));
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    for (let i = 0; i < 200 && !streamBody.includes('\n'); i++) await new Promise((r) => setTimeout(r, 25));

    child.kill('SIGTERM');
    await streamEnded;
    const lines = streamBody.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: 'shutdown' });

    // A request on the idle client after SIGTERM: refused with a problem, or its socket is gone.
    const late = await request(idle, port, 'GET', '/v1/decks').catch((e: NodeJS.ErrnoException) => ({ status: 0, headers: {} as http.IncomingHttpHeaders, body: String(e.code) }));
    if (late.status !== 0) {
      expect(late.status).toBe(503);
      expect(late.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(JSON.parse(late.body).code).toBe('shutting-down');
      expect(late.headers['retry-after']).toBeDefined();
    }

    expect(await exited, output).toBe(0);
    expect(output).toMatch(/bye/);
    expect(fs.existsSync(path.join(dir, 'data', 'evons.lock'))).toBe(false);
    agent.destroy();
    idle.destroy();
    streamAgent.destroy();
  });
});
