/**
 * How a GraphQL subscription fails, and how that is logged (issue 21, items 8 and 16), against
 * REST on the same failure with a captured pino logger:
 * - the database not answering, at subscribe and while running: `database-unavailable`, logged
 *   at warn with a message, as REST logs it (it was an error-level line with no message);
 * - a token revoked while a subscription runs: `invalid-token`, logged at info (it was `internal`,
 *   logged as a server error).
 * PGlite in memory, with a store that can be switched to fail the way a cut connection does.
 */
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { MatchStore } from '../../../src/persistence/types.js';
import { STARTERS, bearer, useHarness, useSecondApp, pglite } from '../helpers.js';
import { gqlWsClient, subscribe, waitFor } from '../../../bench/lib/graphql-ws.js';

interface LogLine {
  level: number;
  msg?: string;
  code?: string;
  err?: unknown;
}

const LEVEL = { info: 30, warn: 40, error: 50 } as const;
const EVENTS = 'subscription ($id: ID!) { matchEvents(matchId: $id) { seq } }';

describe('GraphQL subscription failures: codes and logs as on REST', () => {
  const lines: LogLine[] = [];
  /** While true, the store's reads fail as a cut connection does. */
  let down = false;
  const cut = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
  const guarded = <K extends keyof MatchStore>(store: MatchStore, name: K) => ({
    value: (...args: unknown[]) => {
      if (down) return Promise.reject(cut());
      return (store[name] as (...a: unknown[]) => unknown).apply(store, args);
    },
  });
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l) as LogLine);
      done();
    },
  });
  const h = useHarness(pglite, {
    wrapStore: (store): MatchStore =>
      Object.create(store, { getVersion: guarded(store, 'getVersion'), getMatch: guarded(store, 'getMatch') }),
    loggerInstance: pino({ level: 'info' }, sink),
    webhooks: { worker: false },
  });
  // Another node on the same store that stays up: it makes the moves while ours is cut off.
  const other = useSecondApp(h, { webhooks: { worker: false } });
  afterAll(() => {
    down = false;
  });

  const since = (from: number) => lines.slice(from);
  const hotSeat = async () => {
    const r = await other.http
      .post('/v1/matches')
      .send({ handle: 'alice', opponentHandle: 'bob', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } } })
      .expect(201);
    return r.body as { id: string; tokens: { p1: string; p2: string } };
  };
  const move = async (id: string, tokens: { p1: string; p2: string }, token?: string) => {
    const o = other.http;
    const v = await o.get(`/v1/matches/${id}`).expect(200);
    const seat = v.body.game.pending.seat as 'p1' | 'p2';
    const legal = await o
      .get(`/v1/matches/${id}/legal-actions`)
      .set(bearer(token ?? tokens[seat]))
      .expect(200);
    await o
      .post(`/v1/matches/${id}/actions`)
      .set(bearer(token ?? tokens[seat]))
      .send({ action: legal.body.actions[0].action })
      .expect(200);
  };
  const codeOf = (s: { error(): unknown }) => (s.error() as { extensions?: { code?: string } }[] | null)?.[0]?.extensions?.code;

  it('database down at subscribe: database-unavailable, logged at warn with a message, as REST logs it', async () => {
    const m = await hotSeat();
    down = true;
    try {
      const restFrom = lines.length;
      expect((await h.http.get(`/v1/matches/${m.id}`)).status).toBe(503);
      const rest = since(restFrom).filter((l) => l.level >= LEVEL.warn);
      expect(rest.map((l) => [l.level, l.msg])).toEqual([[LEVEL.warn, 'database unavailable']]);

      const from = lines.length;
      const client = gqlWsClient(h.baseUrl());
      try {
        const s = subscribe(client, EVENTS, { id: m.id });
        await s.done;
        expect(codeOf(s)).toBe('database-unavailable');
      } finally {
        await client.dispose();
      }
      const gql = since(from).filter((l) => l.level >= LEVEL.warn);
      expect(gql.map((l) => [l.level, l.msg])).toEqual([[LEVEL.warn, 'database unavailable']]);
      expect(JSON.stringify(gql)).toContain('Connection terminated');
    } finally {
      down = false;
    }
  });

  it('database down while a subscription runs: the same code and the same warning', async () => {
    const m = await hotSeat();
    const client = gqlWsClient(h.baseUrl());
    try {
      const s = subscribe<{ matchEvents: { seq: number } }>(client, EVENTS, { id: m.id });
      await waitFor(() => s.results.length > 0, 'the stored events');
      const from = lines.length;
      down = true;
      // A move on the other node: this one is told, reads, and cannot.
      await move(m.id, m.tokens);
      await s.done;
      expect(codeOf(s)).toBe('database-unavailable');
      const logged = since(from).filter((l) => l.level >= LEVEL.warn);
      expect(logged.map((l) => [l.level, l.msg])).toEqual([[LEVEL.warn, 'database unavailable']]);
    } finally {
      down = false;
      await client.dispose();
    }
  });

  it('a player token revoked while its subscription runs ends it with invalid-token, logged at info, not as a server error', async () => {
    const o = other.http;
    const reg = await o.post('/v1/players').send({ handle: 'revokee' }).expect(201);
    const extra = await o
      .post('/v1/me/tokens')
      .set(bearer(reg.body.token))
      .send({ scopes: ['match:read', 'match:play'] })
      .expect(201);
    const c = await o
      .post('/v1/matches')
      .set(bearer(reg.body.token))
      .send({ opponentHandle: 'anon', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
      .expect(201);
    const client = gqlWsClient(h.baseUrl(), extra.body.token);
    try {
      const s = subscribe<{ matchEvents: { seq: number } }>(client, EVENTS, { id: c.body.id });
      await waitFor(() => s.results.length > 0, 'the stored events');
      const from = lines.length;
      await o.delete(`/v1/me/tokens/${extra.body.tokenInfo.id}`).set(bearer(reg.body.token)).expect(204);
      await move(c.body.id, { p1: reg.body.token, p2: c.body.tokens.p2 });
      await s.done;
      expect(codeOf(s)).toBe('invalid-token');
      expect(since(from).filter((l) => l.level >= LEVEL.warn)).toEqual([]);
      expect(since(from).some((l) => l.level === LEVEL.info && l.code === 'invalid-token')).toBe(true);
    } finally {
      await client.dispose();
    }
  });
});
