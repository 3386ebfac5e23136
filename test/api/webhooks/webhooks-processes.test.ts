/**
 * Issue 9, durable webhooks across real server processes on one PostgreSQL database:
 * - nothing is lost when a node is killed (kill -9) between the append and the delivery: server
 *   A (WEBHOOK_WORKER=off) commits moves, whose outbox rows the append itself wrote; A dies by
 *   SIGKILL; server B delivers every one of them;
 * - workers on two nodes claim the outbox FOR UPDATE SKIP LOCKED: every delivery arrives, and
 *   the outbox shows each delivered exactly once (attempts 1).
 * Skips when PostgreSQL is unreachable, like the other PostgreSQL suites.
 */
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../../bench/lib/server-process.js';
import { productionImage } from '../../package/production-image.js';
import { createTempDatabase, postgresUnavailableReason, type TempDatabase } from '../../persistence/pg-helper.js';
import { STARTERS } from '../helpers.js';
import { Receiver, waitFor } from './webhook-receiver.js';

const ENV = {
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  SWEEP_INTERVAL_MS: '0',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '100',
};
const KINDS = ['your-turn', 'opponent-joined', 'match-ended', 'deadline-near'];
const pgReason = await postgresUnavailableReason();
if (pgReason) console.warn(`[webhooks-processes] skipping: ${pgReason}`);

type Seat = 'p1' | 'p2';

interface Outbox {
  id: string;
  status: string;
  attempts: number;
  webhook_id: string;
}

async function call(
  base: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

describe.skipIf(pgReason !== null)('issue 9 webhooks across server processes [postgres]', () => {
  let db: TempDatabase;
  let rx: Receiver;
  let client: pg.Client;
  const servers: ServerProcess[] = [];
  /** Secrets by webhook id, to verify what the receiver got. */
  const secrets = new Map<string, string>();
  let paths = 0;
  let app: string;

  beforeAll(async () => {
    app = await productionImage();
    db = await createTempDatabase();
    rx = await Receiver.start();
  }, 600_000);
  afterAll(async () => {
    for (const s of servers) await s.stop(5_000).catch(() => {});
    await client?.end().catch(() => {});
    await rx?.close();
    await db?.drop();
  });

  const start = async (env: Record<string, string>) => {
    const s = await startServer({ cwd: app, env: { ...ENV, DATABASE_URL: db.url, ...env } });
    servers.push(s);
    return s;
  };
  const outbox = async (): Promise<Outbox[]> => {
    if (!client) {
      client = new pg.Client({ connectionString: db.url });
      await client.connect();
    }
    return (await client.query<Outbox>(`SELECT "id", "status", "attempts", "webhook_id" FROM "webhook_delivery" ORDER BY "created_at"`))
      .rows;
  };

  /** A hot-seat match on `base` with a webhook on each seat (each its own receiver path). */
  async function match(base: string): Promise<{ id: string; tokens: Record<Seat, string> }> {
    const c = await call(base, 'POST', '/v1/matches', undefined, {
      handle: 'alice',
      opponentHandle: 'bob',
      decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } },
    });
    expect(c.status).toBe(201);
    const id = c.body.id as string;
    const tokens = c.body.tokens as Record<Seat, string>;
    for (const seat of ['p1', 'p2'] as const) {
      const w = await call(base, 'POST', `/v1/matches/${id}/webhooks`, tokens[seat], { url: rx.url(`/proc-${++paths}`), events: KINDS });
      expect(w.status).toBe(201);
      secrets.set(w.body.id as string, w.body.secret as string);
    }
    return { id, tokens };
  }

  /** One legal decision by the seat to move (the first legal action), on `base`. */
  async function move(base: string, id: string, tokens: Record<Seat, string>): Promise<boolean> {
    const v = await call(base, 'GET', `/v1/matches/${id}`);
    const pending = (v.body.game as { pending?: { seat: Seat } | null }).pending;
    if (!pending) return false;
    const legal = await call(base, 'GET', `/v1/matches/${id}/legal-actions`, tokens[pending.seat]);
    const action = (legal.body.actions as { action: unknown }[])[0]!.action;
    const r = await call(base, 'POST', `/v1/matches/${id}/actions`, tokens[pending.seat], { action });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return true;
  }

  /** Each outbox row has reached the receiver (by webhook-id) with a signature its endpoint's secret verifies. */
  function checkReceived(rows: Outbox[]): void {
    for (const row of rows) {
      const got = rx.received.filter((r) => r.headers['webhook-id'] === row.id);
      expect(got.length, `delivery ${row.id}`).toBeGreaterThanOrEqual(1);
      for (const r of got) new Webhook(secrets.get(row.webhook_id)!).verify(r.body, r.headers);
    }
  }

  it('kill -9 between the append and the delivery loses nothing: A (WEBHOOK_WORKER=off) commits the moves and their outbox rows, B delivers every one', async () => {
    const a = await start({ WEBHOOK_WORKER: 'off' });
    const games = [await match(a.baseUrl), await match(a.baseUrl)];
    for (let i = 0; i < 12; i++) for (const g of games) await move(a.baseUrl, g.id, g.tokens);
    // A resignation too: match-ended rows for both seats.
    const r = await call(a.baseUrl, 'POST', `/v1/matches/${games[0]!.id}/actions`, games[0]!.tokens.p1, { action: { type: 'resign' } });
    expect(r.status).toBe(200);
    const written = await outbox();
    expect(written.length).toBeGreaterThanOrEqual(4);
    expect(written.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
    a.child.kill('SIGKILL');
    await waitFor(() => a.exited(), 'A to die');
    expect(a.exited()!.signal).toBe('SIGKILL');
    expect(rx.received).toEqual([]);

    const b = await start({ WEBHOOK_WORKER: 'on' });
    const done = await waitFor(
      async () => {
        const rows = await outbox();
        return rows.every((d) => d.status === 'delivered') && rows;
      },
      'B to deliver every row',
      60_000,
    );
    expect(done.map((d) => d.id).sort()).toEqual(written.map((d) => d.id).sort());
    checkReceived(done);
    await b.stop();
  });

  it('FOR UPDATE SKIP LOCKED: two nodes with workers on, several matches and moves on both, every delivery arrives and each is delivered exactly once (attempts 1)', async () => {
    // A backlog first (a node without a worker), so that both workers start on the same due rows
    // and claim against each other round after round (a claim without its row locks fails here).
    const e = await start({ WEBHOOK_WORKER: 'off' });
    const known = new Set((await outbox()).map((x) => x.id));
    const backlog = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(() => match(e.baseUrl)));
    await Promise.all(
      backlog.map(async (g) => {
        for (let i = 0; i < 20; i++) if (!(await move(e.baseUrl, g.id, g.tokens))) break;
      }),
    );
    await e.stop();
    const [c, d] = await Promise.all([
      start({ WEBHOOK_WORKER: 'on', WEBHOOK_POLL_MS: '10' }),
      start({ WEBHOOK_WORKER: 'on', WEBHOOK_POLL_MS: '10' }),
    ]);
    const nodes = [c.baseUrl, d.baseUrl];
    const games = await Promise.all([0, 1, 2, 3].map((i) => match(nodes[i % 2]!)));
    // Moves on both nodes at once, each match alternating between them.
    await Promise.all(
      games.map(async (g, gi) => {
        for (let i = 0; i < 10; i++) if (!(await move(nodes[(gi + i) % 2]!, g.id, g.tokens))) break;
      }),
    );
    await call(c.baseUrl, 'POST', `/v1/matches/${games[1]!.id}/actions`, games[1]!.tokens.p2, { action: { type: 'resign' } });
    const rows = await waitFor(
      async () => {
        const all = (await outbox()).filter((x) => !known.has(x.id));
        return all.length > 0 && all.every((x) => x.status === 'delivered') && all;
      },
      'both nodes to deliver every row',
      60_000,
    );
    expect(rows.length).toBeGreaterThanOrEqual(30);
    checkReceived(rows);
    for (const row of rows) expect(row, row.id).toMatchObject({ status: 'delivered', attempts: 1 });
    // Delivered once: each webhook-id reached the receiver exactly once (nothing failed, no lease ran out).
    for (const row of rows)
      expect(
        rx.received.filter((r) => r.headers['webhook-id'] === row.id),
        row.id,
      ).toHaveLength(1);
  });
});
