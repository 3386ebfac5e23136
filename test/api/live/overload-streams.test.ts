/**
 * Streams end with a retryable code when the database is overloaded (issue 33 item 5): an NDJSON
 * event stream's last line is {"error":{code:"overloaded"}} and a GraphQL subscription ends with
 * extensions.code "overloaded" and retryAfter, not `internal`. PGlite in memory, with a store
 * whose reads can be switched to fail as PostgreSQL does when it is out of connection slots (the
 * driver's own DatabaseError with SQLSTATE 53300; test/persistence/db-overload.test.ts provokes
 * the real thing on PostgreSQL).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { MatchStore } from '../../../src/persistence/types.js';
import { STARTERS, bearer, openStream, useHarness, useSecondApp, pglite, waitFor } from '../helpers.js';
import { gqlWsClient, subscribe } from '../../../bench/lib/graphql-ws.js';

const EVENTS = 'subscription ($id: ID!) { matchEvents(matchId: $id) { seq } }';

describe('streams end with overloaded when the database has no room', () => {
  /** While true, the store's reads fail as PostgreSQL refuses a connection past max_connections. */
  let full = false;
  const tooMany = () =>
    Object.assign(new pg.DatabaseError('sorry, too many clients already', 0, 'error'), { code: '53300', severity: 'FATAL' });
  const guarded = <K extends keyof MatchStore>(store: MatchStore, name: K) => ({
    value: (...args: unknown[]) => {
      if (full) return Promise.reject(tooMany());
      return (store[name] as (...a: unknown[]) => unknown).apply(store, args);
    },
  });
  const h = useHarness(pglite, {
    wrapStore: (store): MatchStore =>
      Object.create(store, { getVersion: guarded(store, 'getVersion'), getMatch: guarded(store, 'getMatch') }),
    webhooks: { worker: false },
  });
  // Another node on the same store, with room: it makes the moves.
  const other = useSecondApp(h, { webhooks: { worker: false } });
  afterAll(() => {
    full = false;
  });

  const hotSeat = async () => {
    const r = await other.http
      .post('/v1/matches')
      .send({ handle: 'alice', opponentHandle: 'bob', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } } })
      .expect(201);
    return r.body as { id: string; tokens: { p1: string; p2: string } };
  };
  const move = async (id: string, tokens: { p1: string; p2: string }) => {
    const o = other.http;
    const v = await o.get(`/v1/matches/${id}`).expect(200);
    const seat = v.body.game.pending.seat as 'p1' | 'p2';
    const legal = await o.get(`/v1/matches/${id}/legal-actions`).set(bearer(tokens[seat])).expect(200);
    await o.post(`/v1/matches/${id}/actions`).set(bearer(tokens[seat])).send({ action: legal.body.actions[0].action }).expect(200);
  };

  it('REST: 503 overloaded with Retry-After', async () => {
    const m = await hotSeat();
    full = true;
    try {
      const res = await h.http.get(`/v1/matches/${m.id}`);
      expect(res.status, res.text).toBe(503);
      expect(res.body.code).toBe('overloaded');
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      full = false;
    }
  });

  it('an NDJSON stream whose read fails ends with {"error":{code:"overloaded"}}', async () => {
    const m = await hotSeat();
    const s = openStream<{ seq?: number; error?: { code: string; status: number } }>(h.baseUrl(), `/v1/matches/${m.id}/stream`);
    try {
      await waitFor(() => s.lines.length > 0, 'the stored events');
      full = true;
      await move(m.id, m.tokens);
      await s.ended;
      expect(s.lines.at(-1)?.error).toMatchObject({ code: 'overloaded', status: 503 });
    } finally {
      full = false;
      s.close();
    }
  });

  it('a GraphQL subscription whose read fails ends with overloaded and retryAfter', async () => {
    const m = await hotSeat();
    const client = gqlWsClient(h.baseUrl());
    try {
      const s = subscribe<{ matchEvents: { seq: number } }>(client, EVENTS, { id: m.id });
      await waitFor(() => s.results.length > 0, 'the stored events');
      full = true;
      await move(m.id, m.tokens);
      await s.done;
      const ext = (s.error() as { extensions?: Record<string, unknown> }[] | null)?.[0]?.extensions;
      expect(ext).toMatchObject({ code: 'overloaded', status: 503, retryAfter: 1 });
    } finally {
      full = false;
      await client.dispose();
    }
  });
});
