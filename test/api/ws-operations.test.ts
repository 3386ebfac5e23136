/**
 * A cap on GraphQL queries and mutations in flight per WebSocket (issue 33 item 4): one socket
 * sending thousands at once held every pooled database connection. Past
 * GRAPHQL_WS_MAX_OPERATIONS (here 2) an operation is refused at once with an `error` message
 * coded `too-many-operations` (status 429); the slot is free again once an answer is out. On
 * PostgreSQL, with the match row locked from outside so the admitted mutations stay in flight.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { backends, createHotSeat, useHarness, waitFor } from './helpers.js';
import { execute, gqlWsClient, type Next } from '../../bench/lib/graphql-ws.js';

const postgres = backends.find((b) => b.name === 'postgres')!;
const ACT = 'mutation Act($id: ID!, $a: JSON!, $key: String) { submitAction(matchId: $id, action: $a, idempotencyKey: $key) { version } }';
const LEGAL = 'query Legal($id: ID!) { match(id: $id) { version pending legalActions { action } } }';

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
      expect(settled.map((s) => (s.ok ? 'answered' : s.errors[0]?.extensions?.code))).toEqual(['too-many-operations', 'too-many-operations', 'too-many-operations']);
      expect((settled[0] as { errors: { extensions?: Record<string, unknown> }[] }).errors[0]!.extensions).toMatchObject({ status: 429, limit: 2 });
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
});
