/**
 * Shutdown of the real server process (issue 7 defect 5, issue 21 item 14): with keep-alive
 * clients connected before SIGTERM, an open event stream and a request in flight, the process
 * ends the stream with {"end":"shutdown"}, lets the request in flight finish, answers every
 * request that arrives on a kept-alive socket during the drain with problem+json 503
 * `shutting-down` + Retry-After + Connection: close (never a reset), refuses new connections,
 * closes the store and exits 0 once the clients are gone, instead of waiting for them.
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
let child: ReturnType<typeof spawn> | undefined;
afterAll(async () => {
  // A failed run leaves the server up: stop it before removing its data directory.
  if (child && child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function collect(res: http.IncomingMessage, resolve: (a: Answer) => void, reject: (e: Error) => void): void {
  let b = '';
  res.setEncoding('utf8');
  res.on('data', (c: string) => (b += c));
  res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b }));
  res.on('error', reject);
}

function request(agent: http.Agent, port: number, method: string, p: string, body?: unknown) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: p, agent, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => collect(res, resolve, reject),
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const DECKS = { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } };
const KEPT_ALIVE = 5;

describe('SIGTERM with keep-alive clients, a request in flight and an open stream', () => {
  it('ends the stream saying so, finishes the request in flight, answers late requests on kept-alive sockets 503 + Connection: close, exits 0', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      // The drain window is long (the process leaves as soon as every client has gone, so it is never
      // waited out here, and a loaded machine cannot close it before the late requests arrive); a
      // shutdown that waited on the clients would run into the timeout and exit 1.
      env: {
        ...process.env,
        DATABASE_URL: '',
        DATA_DIR: path.join(dir, 'data'),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_MS: '60000',
        SHUTDOWN_TIMEOUT_MS: '120000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));

    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    // Start-up (tsx, migrations) can take long on a loaded machine: wait while the process lives.
    for (let i = 0; i < 1500 && child.exitCode === null; i++) {
      try {
        if ((await request(agent, port, 'GET', '/readyz')).status === 200) break;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const created = await request(agent, port, 'POST', '/v1/matches', { handle: 'alice', opponentHandle: 'bob', decks: DECKS });
    expect(created.status, created.body).toBe(201);
    const id = (JSON.parse(created.body) as { id: string }).id;

    // Keep-alive clients connected before SIGTERM, nothing in flight: KEPT_ALIVE sockets, all idle.
    const idle = new http.Agent({ keepAlive: true, maxSockets: KEPT_ALIVE });
    const warm = await Promise.all(Array.from({ length: KEPT_ALIVE }, () => request(idle, port, 'GET', '/healthz')));
    expect(warm.map((r) => r.status)).toEqual(Array(KEPT_ALIVE).fill(200));
    expect(Object.values(idle.freeSockets).flat()).toHaveLength(KEPT_ALIVE);

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

    // A request in flight across SIGTERM: its headers are in (the server answered 100 Continue, which
    // it does as it dispatches the request), its body comes after SIGTERM.
    const flightAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    let dispatchedNow = () => {};
    const dispatched = new Promise<void>((resolve) => (dispatchedNow = resolve));
    const flight = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/matches',
      agent: flightAgent,
      headers: { 'content-type': 'application/json', expect: '100-continue' },
    });
    const inFlightAnswer = new Promise<Answer>((resolve, reject) => {
      flight.on('response', (res) => collect(res, resolve, reject));
      flight.on('error', reject);
    });
    flight.on('continue', () => dispatchedNow());
    flight.flushHeaders();
    await dispatched;

    child.kill('SIGTERM');
    await streamEnded;
    const lines = streamBody.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: 'shutdown' });

    // The request in flight completes, and says its connection closes.
    flight.end(JSON.stringify({ handle: 'carol', opponentHandle: 'dan', decks: DECKS }));
    const finished = await inFlightAnswer;
    expect(finished.status, finished.body).toBe(201);
    expect(finished.headers.connection).toBe('close');

    // Every kept-alive socket gets an answer, not a reset: 503 shutting-down, Retry-After, Connection: close.
    const late = await Promise.all(Array.from({ length: KEPT_ALIVE }, () => request(idle, port, 'GET', '/v1/decks')));
    for (const r of late) {
      expect(r.status, r.body).toBe(503);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(JSON.parse(r.body).code).toBe('shutting-down');
      expect(r.headers['retry-after']).toBe('1');
      expect(r.headers.connection).toBe('close');
    }

    // The listening socket is closed: a new connection is refused (documented).
    const fresh = new http.Agent({ keepAlive: false });
    const refused = await request(fresh, port, 'GET', '/healthz').then(
      (r) => `answered ${r.status}`,
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(refused).toBe('ECONNREFUSED');

    // The clients go; the process does not wait out the drain window.
    for (const a of [agent, idle, streamAgent, flightAgent, fresh]) a.destroy();
    expect(await exited, output).toBe(0);
    expect(output).toMatch(/bye/);
    expect(fs.existsSync(path.join(dir, 'data', 'evons.lock'))).toBe(false);
  }, 240_000);
});
