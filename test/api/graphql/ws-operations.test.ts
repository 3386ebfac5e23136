/**
 * A cap on GraphQL queries and mutations in flight per WebSocket (issue 33 item 4): one socket
 * sending thousands at once held every pooled database connection. Past
 * GRAPHQL_WS_MAX_OPERATIONS (here 2) an operation is refused at once with an `error` message
 * coded `too-many-operations` (status 429); the slot is free again once an answer is out. On
 * PostgreSQL, with the match row locked from outside so the admitted mutations stay in flight.
 *
 * Past the cap and OVER_CAP_ALLOWANCE more, the server reads no further (backpressure): what it
 * has read waits, and runs as slots free. More than MAX_HELD_MESSAGES waiting is a flood: the
 * socket closes with 1013 too-many-operations once its admitted operations are answered, and
 * nothing waiting runs.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { backends, createHotSeat, useHarness, waitFor } from '../helpers.js';
import { execute, gqlWsClient, rawSocket, type Next, type RawSocket } from '../../../bench/lib/graphql-ws.js';
import { MAX_HELD_MESSAGES, OVER_CAP_ALLOWANCE } from '../../../src/graphql/ws-connections.js';

const postgres = backends.find((b) => b.name === 'postgres')!;
const ACT = 'mutation Act($id: ID!, $a: JSON!, $key: String) { submitAction(matchId: $id, action: $a, idempotencyKey: $key) { version } }';
const LEGAL = 'query Legal($id: ID!) { match(id: $id) { version pending legalActions { action } } }';

/** A raw socket past connection_init with `token`. */
async function opened(base: string, token: string): Promise<RawSocket> {
  const r = rawSocket(base);
  await r.opened;
  r.send({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
  await waitFor(() => r.messages.some((m) => m.type === 'connection_ack'), 'connection_ack');
  return r;
}

/** Sends the messages in one write (one TCP segment on loopback: the server reads them at once). */
function sendAtOnce(r: RawSocket, msgs: unknown[]): void {
  const tcp = (r.socket as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
  tcp.cork();
  for (const m of msgs) r.send(m);
  tcp.uncork();
}

const codeOf = (m: { payload?: unknown }) => (m.payload as { extensions?: { code?: string } }[] | undefined)?.[0]?.extensions?.code;

type Settled = { ok: true; r: Next<unknown> } | { ok: false; errors: { extensions?: Record<string, unknown> }[] };

describe.skipIf(postgres.skipReason !== null)('GraphQL over WebSocket: operations in flight per connection', () => {
  const h = useHarness(postgres, { maxOperationsPerConnection: 2, webhooks: { worker: false } });
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.dispose();
  });

  it('past the cap: too-many-operations at once, the admitted ones answer, the slots come back', async () => {
    const m = await createHotSeat(h.http);
    const v = await h.http.get(`/v1/matches/${m.id}`).expect(200);
    const token = m.tokens[v.body.game.pending.seat as 'p1' | 'p2'];
    const c = gqlWsClient(h.baseUrl(), token, { persistent: true });
    clients.push(c);
    const legal = await execute<{ match: { legalActions: { action: unknown }[] } }>(c, LEGAL, { id: m.id });
    const action = legal.data!.match.legalActions[0]!.action;

    // An outside transaction holds the match row: the admitted mutations wait on it.
    const config = h.config as { url: string };
    const locker = new pg.Client({ connectionString: config.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM "match" WHERE "id" = $1 FOR UPDATE', [m.id]);
    const settled: Settled[] = [];
    let all: Promise<unknown>;
    try {
      all = Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          execute(c, ACT, { id: m.id, a: action, key: `k${i}` }).then(
            (r) => settled.push({ ok: true, r }),
            (e: { payload?: { extensions?: Record<string, unknown> }[] }) => settled.push({ ok: false, errors: e.payload ?? [] }),
          ),
        ),
      );
      // Three are refused while two wait on the lock.
      await waitFor(() => settled.length >= 3, 'the refusals');
      expect(settled.map((s) => (s.ok ? 'answered' : s.errors[0]?.extensions?.code))).toEqual([
        'too-many-operations',
        'too-many-operations',
        'too-many-operations',
      ]);
      expect((settled[0] as { errors: { extensions?: Record<string, unknown> }[] }).errors[0]!.extensions).toMatchObject({
        status: 429,
        limit: 2,
      });
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end().catch(() => {});
    }
    await all;
    // The two admitted ones answered (one move applied; the other a coded refusal, never internal).
    const rest = settled.slice(3);
    expect(rest).toHaveLength(2);
    for (const s of rest) {
      const code = s.ok ? s.r.errors?.[0]?.extensions?.code : s.errors[0]?.extensions?.code;
      expect(code).not.toBe('internal');
      expect(code).not.toBe('too-many-operations');
    }
    // Both slots are free again.
    const again = await Promise.all([execute(c, LEGAL, { id: m.id }), execute(c, LEGAL, { id: m.id })]);
    for (const r of again) expect(r.errors).toBeUndefined();
  });

  /** A match to move in, its mover's token, and an outside transaction holding its row (the admitted mutations wait). */
  async function locked() {
    const m = await createHotSeat(h.http);
    const v = await h.http.get(`/v1/matches/${m.id}`).expect(200);
    const token = m.tokens[v.body.game.pending.seat as 'p1' | 'p2'];
    const c = gqlWsClient(h.baseUrl(), token, { persistent: true });
    clients.push(c);
    const legal = await execute<{ match: { legalActions: { action: unknown }[] } }>(c, LEGAL, { id: m.id });
    const action = legal.data!.match.legalActions[0]!.action;
    const locker = new pg.Client({ connectionString: (h.config as { url: string }).url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT 1 FROM "match" WHERE "id" = $1 FOR UPDATE', [m.id]);
    const release = async () => {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end().catch(() => {});
    };
    return { m, token, action, release };
  }

  it('far past the cap: the server stops reading; what it read waits and runs as slots free', async () => {
    const { m, token, action, release } = await locked();
    const r = await opened(h.baseUrl(), token);
    const acts = [0, 1].map((i) => ({
      type: 'subscribe',
      id: `act${i}`,
      payload: { query: ACT, variables: { id: m.id, a: action, key: `b${i}` } },
    }));
    const over = Array.from({ length: OVER_CAP_ALLOWANCE }, (_, i) => ({
      type: 'subscribe',
      id: `over${i}`,
      payload: { query: LEGAL, variables: { id: m.id } },
    }));
    const waiting = Array.from({ length: 5 }, (_, i) => ({
      type: 'subscribe',
      id: `wait${i}`,
      payload: { query: LEGAL, variables: { id: m.id } },
    }));
    try {
      sendAtOnce(r, [...acts, ...over, ...waiting]);
      // The two mutations hold the slots (waiting on the lock); the allowance beyond is refused at once.
      await waitFor(() => r.messages.filter((x) => x.type === 'error').length >= OVER_CAP_ALLOWANCE, 'the refusals');
      const errors = r.messages.filter((x) => x.type === 'error');
      expect(errors.map((x) => x.id)).toEqual(over.map((o) => o.id));
      expect(errors.map(codeOf)).toEqual(over.map(() => 'too-many-operations'));
      expect(r.messages.filter((x) => x.id?.startsWith('wait'))).toEqual([]);
    } finally {
      await release();
    }
    // The held ones were not refused: each ran once a slot was free (two slots: their answers may
    // cross, so the check is that each was answered once).
    await waitFor(
      () => r.messages.filter((x) => x.type === 'complete' && x.id?.startsWith('wait')).length === waiting.length,
      'the held operations',
    );
    const answers = r.messages.filter((x) => x.type === 'next' && x.id?.startsWith('wait'));
    expect(answers.map((x) => String(x.id)).sort()).toEqual(waiting.map((w) => w.id));
    for (const a of answers) expect((a.payload as { errors?: unknown }).errors).toBeUndefined();
    expect(r.messages.filter((x) => x.type === 'error' && x.id?.startsWith('wait'))).toEqual([]);
    // And the connection is read on as before.
    r.send({ type: 'subscribe', id: 'after', payload: { query: LEGAL, variables: { id: m.id } } });
    await waitFor(() => r.messages.some((x) => x.type === 'complete' && x.id === 'after'), 'an operation after');
    r.socket.close();
  });

  it('a flood: closed with 1013 too-many-operations once its admitted operations are answered; nothing held runs', async () => {
    const { m, token, action, release } = await locked();
    const r = await opened(h.baseUrl(), token);
    const acts = [0, 1].map((i) => ({
      type: 'subscribe',
      id: `act${i}`,
      payload: { query: ACT, variables: { id: m.id, a: action, key: `f${i}` } },
    }));
    const rest = Array.from({ length: OVER_CAP_ALLOWANCE + MAX_HELD_MESSAGES + 20 }, (_, i) => ({
      type: 'subscribe',
      id: `q${i}`,
      payload: { query: LEGAL, variables: { id: m.id } },
    }));
    try {
      sendAtOnce(r, [...acts, ...rest]);
      await waitFor(() => r.messages.filter((x) => x.type === 'error').length >= OVER_CAP_ALLOWANCE, 'the refusals');
    } finally {
      await release();
    }
    expect(await r.closed).toEqual({ code: 1013, reason: 'too-many-operations' });
    // The admitted mutations were answered before the close (one move; the other a coded refusal).
    for (const id of ['act0', 'act1'])
      expect(r.messages.some((x) => x.id === id && (x.type === 'complete' || x.type === 'error'))).toBe(true);
    const answered = r.messages.filter((x) => x.id?.startsWith('q'));
    expect(answered.map(codeOf)).toEqual(Array.from({ length: OVER_CAP_ALLOWANCE }, () => 'too-many-operations'));
    // The match took one move at most, and the server answers as before.
    const after = await h.http.get(`/v1/matches/${m.id}`).expect(200);
    expect(after.body.version).toBeGreaterThanOrEqual(1);
  });
});
