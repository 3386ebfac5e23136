/**
 * Chaos suite (issue 7): the real server process under random legal-move load while the
 * process or the database is killed, stopped, hung or shut down. Each scenario prints its figures
 * and fails on any lost or double-applied move. Run with `npm run test:chaos`.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import http from 'node:http';
import pg from 'pg';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, type ServerProcess } from '../../bench/lib/server-process.js';
import { chaosBase, createCluster, findPgBin, type Cluster } from './cluster.js';
import { Load, pause } from './load.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENV = {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  DB_CONNECT_TIMEOUT_MS: '1000',
  DB_STATEMENT_TIMEOUT_MS: '1500',
  READY_TIMEOUT_MS: '500',
};
const pgBin = findPgBin();
if (!pgBin) console.warn('[chaos] SKIPPING the PostgreSQL scenarios: no initdb/pg_ctl under /usr/lib/postgresql/*/bin');

function report(name: string, figures: Record<string, unknown>): void {
  console.log(`[chaos] ${name}: ${JSON.stringify(figures)}`);
}

async function until(cond: () => Promise<boolean> | boolean, what: string, tries = 300): Promise<number> {
  const t0 = Date.now();
  for (let i = 0; i < tries; i++) {
    if (await cond()) return Date.now() - t0;
    await pause(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const status = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
};

/** Opens an NDJSON stream; returns its lines as they come. */
function stream(url: string) {
  const lines: string[] = [];
  let buf = '';
  const req = http.get(url, (res) => {
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      buf += c;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        if (buf.slice(0, i).trim()) lines.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
  });
  req.on('error', () => {});
  return { lines, close: () => req.destroy() };
}

async function killUnderLoad(env: Record<string, string>, name: string) {
  let server: ServerProcess = await startServer({ cwd: ROOT, env: { ...ENV, ...env } });
  const load = new Load(() => server.baseUrl);
  load.start();
  await until(() => load.acks.length >= 20, 'some acknowledged moves');
  server.child.kill('SIGKILL');
  await until(() => server.exited() !== null, 'the kill');
  const t0 = Date.now();
  server = await startServer({ cwd: ROOT, env: { ...ENV, ...env } });
  const recoveryMs = Date.now() - t0;
  await until(() => load.acks.length >= 40, 'moves after the restart');
  await load.stop();
  const { lost, doubleApplied } = await load.verify();
  report(name, { acknowledged: load.acks.length, lost, doubleApplied, statuses: load.statuses, recoveryMs });
  await server.stop();
  expect(lost).toBe(0);
  expect(doubleApplied).toBe(0);
}

/**
 * A computer decision pending when its node is killed: node A claims it and its worker hangs
 * (AI_DECIDER_MODULE), A is killed with -9, and node B (restarted on the same database) takes
 * the decision once A's claim has run out, and plays it.
 */
async function computerDecisionAfterKill(env: Record<string, string>, name: string) {
  const hang = pathToFileURL(path.join(ROOT, 'test/fixtures/ai/hang-decider.mjs')).href;
  let server = await startServer({ cwd: ROOT, env: { ...ENV, ...env, AI_LEASE_SECONDS: '3', AI_DECIDER_MODULE: hang } });
  // The computer moves first: create until a deal leaves it to move (who starts is drawn per deal).
  let id = '';
  let version = 0;
  for (let i = 0; i < 20 && !id; i++) {
    const r = await (
      await fetch(`${server.baseUrl}/v1/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ai: { level: 1 }, decks: { p1: { starter: 'starter-verdant-quake' } } }),
      })
    ).json();
    const v = await (await fetch(`${server.baseUrl}/v1/matches/${r.id}`)).json();
    if (v.game.pending.seat === 'p2') ({ id, version } = { id: r.id, version: v.version });
  }
  expect(id).not.toBe('');
  // A's worker is deciding (hung) when A dies.
  await pause(1_000);
  server.child.kill('SIGKILL');
  await until(() => server.exited() !== null, 'the kill');
  server = await startServer({ cwd: ROOT, env: { ...ENV, ...env, AI_LEASE_SECONDS: '3' } });
  const waitedMs = await until(
    async () => (await (await fetch(`${server.baseUrl}/v1/matches/${id}`)).json()).version > version,
    'the computer decision after the restart',
  );
  const events = (await (await fetch(`${server.baseUrl}/v1/matches/${id}/events?after=${version}`)).json()).events as {
    actingSeat: string | null;
  }[];
  report(name, { waitedMs, events: events.length });
  await server.stop();
  expect(events[0]!.actingSeat).toBe('p2');
}

describe('chaos: PGlite', () => {
  it('a computer decision pending when its node is killed -9 is made after the restart', async () => {
    const dir = fs.mkdtempSync(path.join(chaosBase(), 'evons-chaos-ai-'));
    try {
      await computerDecisionAfterKill({ DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' }, 'pglite computer decision after kill -9');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('kill -9 under load, restart: every acknowledged move present, retries never double-apply', async () => {
    const dir = fs.mkdtempSync(path.join(chaosBase(), 'evons-chaos-pglite-'));
    try {
      await killUnderLoad({ DATA_DIR: path.join(dir, 'data'), DATABASE_URL: '' }, 'pglite kill -9');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!pgBin)('chaos: PostgreSQL (own cluster)', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = createCluster(pgBin!, await freePort());
  });
  afterAll(() => cluster?.destroy());

  it('kill -9 under load, restart', async () => {
    await killUnderLoad({ DATABASE_URL: cluster.url }, 'postgres kill -9');
  });

  it('PostgreSQL stopped and restarted mid-load: 503 + Retry-After meanwhile, recovery without a server restart, streams push', async () => {
    const server = await startServer({ cwd: ROOT, env: { ...ENV, DATABASE_URL: cluster.url } });
    const load = new Load(() => server.baseUrl);
    load.start();
    await until(() => load.acks.length >= 10, 'moves');
    // A stream on a match nobody else plays.
    const m = (await (
      await fetch(`${server.baseUrl}/v1/matches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          handle: 's',
          opponentHandle: 't',
          decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } },
        }),
      })
    ).json()) as { id: string; tokens: { p1: string; p2: string } };
    const s = stream(`${server.baseUrl}/v1/matches/${m.id}/stream`);
    await until(() => s.lines.length > 0, 'the stream');
    cluster.stop();
    await pause(2_000);
    const readyDown = await status(`${server.baseUrl}/readyz`);
    cluster.start();
    const t0 = Date.now();
    await until(async () => (await status(`${server.baseUrl}/readyz`)) === 200, 'readiness');
    const recoveryMs = Date.now() - t0;
    const before = s.lines.length;
    // As a client would: retry (same key) until answered; pooled connections from before the
    // restart may fail once.
    await until(async () => {
      const r = await fetch(`${server.baseUrl}/v1/matches/${m.id}/actions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${m.tokens.p1}`, 'idempotency-key': 'resign' },
        body: JSON.stringify({ action: { type: 'resign' } }),
      });
      return r.status === 200;
    }, 'the resign');
    const pushMs = await until(
      () => s.lines.length > before,
      `a push after the restart (stream so far ends ${s.lines.at(-1)?.slice(0, 120)})`,
      100,
    );
    const ackBefore = load.acks.length;
    await until(() => load.acks.length > ackBefore + 10, 'moves after the restart');
    await load.stop();
    s.close();
    const { lost, doubleApplied } = await load.verify();
    report('postgres stop/start', {
      acknowledged: load.acks.length,
      lost,
      doubleApplied,
      statuses: load.statuses,
      readyzWhileDown: readyDown,
      recoveryMs,
      streamPushMs: pushMs,
      retryAfterMissing: load.retryAfterMissing,
      streamLastLine: s.lines.at(-1)?.slice(0, 80),
    });
    await server.stop();
    expect(lost).toBe(0);
    expect(doubleApplied).toBe(0);
    expect(readyDown).toBe(503);
    expect(load.statuses['500'] ?? 0).toBe(0);
    expect(load.statuses['503'] ?? 0).toBeGreaterThan(0);
    expect(load.retryAfterMissing).toBe(0);
    expect(pushMs).toBeLessThan(1_000);
  });

  it('PostgreSQL hung (SIGSTOP): /readyz 503 within its deadline, requests 503, nothing lost after SIGCONT', async () => {
    const server = await startServer({ cwd: ROOT, env: { ...ENV, DATABASE_URL: cluster.url } });
    const load = new Load(() => server.baseUrl);
    load.start();
    await until(() => load.acks.length >= 10, 'moves');
    const pids = cluster.pids();
    for (const p of pids) process.kill(p, 'SIGSTOP');
    let readyMs = 0;
    let ready = 0;
    try {
      await pause(500);
      const t0 = Date.now();
      ready = await status(`${server.baseUrl}/readyz`);
      readyMs = Date.now() - t0;
      await pause(3_000);
    } finally {
      for (const p of pids) process.kill(p, 'SIGCONT');
    }
    const ackBefore = load.acks.length;
    await until(() => load.acks.length > ackBefore + 10, 'moves after SIGCONT');
    await load.stop();
    const { lost, doubleApplied } = await load.verify();
    report('postgres SIGSTOP', {
      acknowledged: load.acks.length,
      lost,
      doubleApplied,
      statuses: load.statuses,
      readyz: ready,
      readyzMs: readyMs,
    });
    await server.stop();
    expect(lost).toBe(0);
    expect(doubleApplied).toBe(0);
    expect(ready).toBe(503);
    expect(load.statuses['503'] ?? 0).toBeGreaterThan(0);
    expect(load.statuses['500'] ?? 0).toBe(0);
  });

  it('SIGTERM with idle keep-alive clients and open streams: exit 0, every in-flight request answered', async () => {
    const server = await startServer({ cwd: ROOT, env: { ...ENV, DATABASE_URL: cluster.url } });
    const load = new Load(() => server.baseUrl);
    load.start(6);
    await until(() => load.acks.length >= 10, 'moves');
    const agent = new http.Agent({ keepAlive: true });
    await new Promise<void>((r) => http.get(`${server.baseUrl}/healthz`, { agent }, (res) => (res.resume(), res.on('end', r))));
    const m = load.acks[0]!.match;
    const s = stream(`${server.baseUrl}/v1/matches/${m}/stream`);
    await until(() => s.lines.length > 0, 'the stream');
    const t0 = Date.now();
    server.child.kill('SIGTERM');
    await until(() => server.exited() !== null, 'the exit', 200);
    const exitMs = Date.now() - t0;
    await load.stop();
    agent.destroy();
    // Requests already sent when SIGTERM arrived were all answered (a 200, or a 503 shutting-down).
    const inFlightUnanswered = load.unanswered.filter((t) => t < t0).length;
    report('SIGTERM', { exit: server.exited(), exitMs, statuses: load.statuses, inFlightUnanswered, streamLastLine: s.lines.at(-1) });
    expect(inFlightUnanswered).toBe(0);
    expect(server.exited()?.code).toBe(0);
    expect(exitMs).toBeLessThan(5_000);
    expect(s.lines.at(-1)).toBe('{"end":"shutdown"}');
  });

  it('a round start killed -9 half-way (its matches written, its boards not yet) leaves nothing; after the restart the round starts once', async () => {
    const env = { ...ENV, DATABASE_URL: cluster.url, DB_STATEMENT_TIMEOUT_MS: '60000' };
    let server = await startServer({ cwd: ROOT, env });
    const db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
    const holder = new pg.Client({ connectionString: cluster.url });
    await holder.connect();
    try {
      const call = async (method: string, url: string, token?: string, body?: unknown) => {
        const r = await fetch(`${server.baseUrl}${url}`, {
          method,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
      };
      const handles = ['org', 'ann', 'bob', 'cy', 'dee'].map((h) => `${h}${Date.now() % 100_000}`);
      const tokens: string[] = [];
      for (const handle of handles) tokens.push((await call('POST', '/v1/players', undefined, { handle })).body.token as string);
      const t = (
        await call('POST', '/v1/tournaments', tokens[0], {
          name: 'Kill cup',
          format: 'round-robin',
          timeControl: { kind: 'correspondence', daysPerMove: 3 },
        })
      ).body;
      for (const token of tokens.slice(1)) expect((await call('POST', `/v1/tournaments/${t.id}/join`, token, {})).status).toBe(200);
      const count = async (sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]!.n);
      const matchesBefore = await count('SELECT count(*) AS n FROM "match"');

      // The boards' table is held: the round start blocks after writing its matches, before its boards.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE "tournament_board" IN ACCESS EXCLUSIVE MODE');
      const started = call('POST', `/v1/tournaments/${t.id}/start`, tokens[0], {}).catch(() => null);
      await until(
        async () =>
          (await count(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%tournament_board%' AND query LIKE 'INSERT%'`,
          )) > 0,
        'the round start waiting on its boards',
      );
      server.child.kill('SIGKILL');
      await until(() => server.exited() !== null, 'the kill');
      await started;
      await holder.query('ROLLBACK');
      // The half-done start is gone: no round, no board, no match.
      await until(
        async () => (await count(`SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE 'INSERT%tournament_board%'`)) === 0,
        'the dead connection to end',
      );
      const after = (
        await db.query<{ status: string; round: number }>('SELECT "status", "round" FROM "tournament" WHERE "id" = $1', [t.id])
      ).rows[0]!;
      const boardsAfterKill = await count('SELECT count(*) AS n FROM "tournament_board"');
      const matchesAfterKill = (await count('SELECT count(*) AS n FROM "match"')) - matchesBefore;
      expect(after).toEqual({ status: 'open', round: 0 });
      expect(boardsAfterKill).toBe(0);
      expect(matchesAfterKill).toBe(0);

      server = await startServer({ cwd: ROOT, env });
      const res = await call('POST', `/v1/tournaments/${t.id}/start`, tokens[0], {});
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'running', round: 1 });
      const boards = await count('SELECT count(*) AS n FROM "tournament_board"');
      const matches = (await count('SELECT count(*) AS n FROM "match"')) - matchesBefore;
      report('tournament round start killed -9', {
        matchesAfterKill,
        boardsAfterKill,
        boardsAfterRestart: boards,
        matchesAfterRestart: matches,
      });
      expect(boards).toBe(2);
      expect(matches).toBe(2);
    } finally {
      await holder.end().catch(() => undefined);
      await db.end();
      await server.stop();
    }
  });

  it('two nodes: stream on one, moves on the other, database restart in between', async () => {
    const a = await startServer({ cwd: ROOT, env: { ...ENV, DATABASE_URL: cluster.url } });
    const b = await startServer({ cwd: ROOT, env: { ...ENV, DATABASE_URL: cluster.url } });
    try {
      const m = (await (
        await fetch(`${b.baseUrl}/v1/matches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            handle: 's',
            opponentHandle: 't',
            decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } },
          }),
        })
      ).json()) as { id: string; tokens: { p1: string; p2: string } };
      const s = stream(`${a.baseUrl}/v1/matches/${m.id}/stream`);
      await until(() => s.lines.length > 0, 'the stream');
      cluster.stop();
      cluster.start();
      await until(async () => (await status(`${a.baseUrl}/readyz`)) === 200 && (await status(`${b.baseUrl}/readyz`)) === 200, 'both ready');
      const before = s.lines.length;
      const r = await fetch(`${b.baseUrl}/v1/matches/${m.id}/actions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${m.tokens.p1}` },
        body: JSON.stringify({ action: { type: 'resign' } }),
      });
      expect(r.status).toBe(200);
      const pushMs = await until(() => s.lines.length > before, 'the cross-node push', 100);
      report('two nodes + db restart', { streamPushMs: pushMs, streamLastLine: s.lines.at(-1) });
      s.close();
      expect(pushMs).toBeLessThan(1_000);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
