/**
 * Live connections (issue 21 item 7): what an address may hold open, and what its subscribers cost.
 * - Each address holds at most LIVE_STREAMS_PER_ADDRESS live streams (NDJSON and SSE streams and
 *   GraphQL subscriptions together) and WEBSOCKETS_PER_ADDRESS WebSockets; one more is refused
 *   with 429 too-many-streams (an HTTP problem, a GraphQL error over the socket, a 429 to the
 *   upgrade), and closing one frees its slot.
 * - Subscribers of one match share its reads: the store reads per append do not grow with their
 *   number (spectators, seats and player tokens mixed).
 * PGlite and, when reachable, PostgreSQL.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { buildApp, type App } from '../../../src/app.js';
import type { MatchStore } from '../../../src/persistence/types.js';
import { gqlWsClient, rawSocket, subscribe, waitFor, wsUrl } from '../../../bench/lib/graphql-ws.js';
import WebSocket from 'ws';
import { backends, baseUrlOf, bearer, createHotSeat, expectProblem, nextMove, useHarness } from '../helpers.js';

const EVENTS = 'subscription Events($id: ID!) { matchEvents(matchId: $id) { seq } }';

/** Opens an NDJSON stream and resolves once its headers are in; close() ends it from the client's side. */
function openStream(base: string, path: string): Promise<{ status: number; body: string; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      const out = { status: res.statusCode ?? 0, body: '', close: () => req.destroy() };
      if (res.statusCode !== 200) res.on('end', () => resolve({ ...out, body }));
      else resolve(out);
    });
    req.on('error', reject);
  });
}

/** Counts calls of the store's read methods (the match store and the player store). */
function countReads(store: MatchStore): { count(): number; restore(): void } {
  let n = 0;
  const restores: (() => void)[] = [];
  const wrap = <T extends object>(target: T, names: string[]) => {
    for (const name of names) {
      const original = (target as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
      if (typeof original !== 'function') continue;
      (target as Record<string, unknown>)[name] = (...a: unknown[]) => {
        n++;
        return original.apply(target, a);
      };
      restores.push(() => ((target as Record<string, unknown>)[name] = original));
    }
  };
  wrap(store, ['getMatch', 'getVersion', 'loadEvents', 'listMatches']);
  wrap(store.players, ['byToken', 'byHandle']);
  return { count: () => n, restore: () => restores.forEach((r) => r()) };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`live connections [${backend.name}]`, () => {
    const h = useHarness(backend);

    /** Another node on the same store, with the given caps. */
    async function node(budgets: {
      streamsPerAddress?: number;
      socketsPerAddress?: number;
    }): Promise<{ app: App; base: string; close(): Promise<void> }> {
      const app = await buildApp({ store: h.app.service.store, logger: false, budgets, maxSubscriptionsPerConnection: 50 });
      await app.ready();
      const base = await baseUrlOf(app);
      return { app, base, close: () => app.close() };
    }

    it('an address holds at most LIVE_STREAMS_PER_ADDRESS streams and subscriptions together: one more is 429 too-many-streams; closing one frees it', async () => {
      const n = await node({ streamsPerAddress: 2 });
      const r = rawSocket(n.base);
      try {
        const m = await createHotSeat(h.http);
        const s1 = await openStream(n.base, `/v1/matches/${m.id}/stream`);
        expect(s1.status).toBe(200);
        await r.opened;
        r.send({ type: 'connection_init', payload: {} });
        await waitFor(() => r.messages.some((x) => x.type === 'connection_ack'), 'the ack');
        const of = (id: string) => r.messages.filter((x) => x.id === id);
        r.send({ type: 'subscribe', id: 'a', payload: { query: EVENTS, variables: { id: m.id } } });
        await waitFor(() => of('a').length > 0, 'subscription a');
        expect(of('a')[0]!.type).toBe('next');
        // The third: a stream and a subscription are both refused.
        const s2 = await openStream(n.base, `/v1/matches/${m.id}/stream`);
        expect(s2.status).toBe(429);
        expectProblem(
          { status: s2.status, headers: { 'content-type': 'application/problem+json' }, body: JSON.parse(s2.body) },
          429,
          'too-many-streams',
        );
        r.send({ type: 'subscribe', id: 'b', payload: { query: EVENTS, variables: { id: m.id } } });
        await waitFor(() => of('b').length > 0, 'the refusal');
        expect(of('b')).toEqual([
          {
            type: 'error',
            id: 'b',
            payload: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'too-many-streams', status: 429 }) })],
          },
        ]);
        // Completing the subscription frees its slot; closing the stream frees another.
        r.send({ type: 'complete', id: 'a' });
        r.send({ type: 'subscribe', id: 'c', payload: { query: EVENTS, variables: { id: m.id } } });
        await waitFor(() => of('c').length > 0, 'subscription c');
        expect(of('c')[0]!.type).toBe('next');
        s1.close();
        await waitFor(() => n.app.budgets.streams.count('127.0.0.1') === 1, 'the closed stream to free its slot');
        const s3 = await openStream(n.base, `/v1/matches/${m.id}/stream`);
        expect(s3.status).toBe(200);
        s3.close();
      } finally {
        r.socket.close();
        await n.close();
      }
    });

    it('an address holds at most WEBSOCKETS_PER_ADDRESS sockets: the next upgrade is refused with 429 too-many-streams', async () => {
      const n = await node({ socketsPerAddress: 2 });
      const open: WebSocket[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          const r = rawSocket(n.base);
          await r.opened;
          open.push(r.socket);
        }
        const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const ws = new WebSocket(wsUrl(n.base), 'graphql-transport-ws');
          ws.on('open', () => reject(new Error('the third socket opened')));
          ws.on('unexpected-response', (_req, res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          ws.on('error', () => {});
        });
        expect(refused.status).toBe(429);
        expect(JSON.parse(refused.body).errors[0].extensions).toMatchObject({ code: 'too-many-streams', status: 429 });
        // One closed: the next is accepted.
        open.shift()!.close();
        await waitFor(() => n.app.budgets.sockets.count('127.0.0.1') === 1, 'the closed socket to free its slot');
        const again = rawSocket(n.base);
        await again.opened;
        open.push(again.socket);
      } finally {
        open.forEach((s) => s.close());
        await n.close();
      }
    });

    it('subscribers of one match share its reads: store reads per append do not grow with their number', async () => {
      const base = h.baseUrl();
      const reg = (
        await h.http
          .post('/v1/players')
          .send({ handle: `watcher${backend.name.replace(/\W/g, '')}` })
          .expect(201)
      ).body as { token: string };
      const playerTokens: string[] = [];
      for (let i = 0; i < 4; i++) {
        playerTokens.push(
          (
            (
              await h.http
                .post('/v1/me/tokens')
                .set(bearer(reg.token))
                .send({ scopes: ['match:read'] })
                .expect(201)
            ).body as { token: string }
          ).token,
        );
      }
      /** Store reads during `appends` moves with `n` subscribers (spectators, both seats, player tokens). */
      async function readsWith(n: number, appends: number): Promise<number> {
        const m = await createHotSeat(h.http);
        const clients: Client[] = [];
        // What each subscriber sees: a seat's view, or the spectator's (no token; a player without a seat here).
        const views = Array.from({ length: n }, (_, i) => (['spectator', 'p1', 'p2', 'spectator'] as const)[i % 4]);
        const subs = views.map((_, i) => {
          const token = [undefined, m.tokens.p1, m.tokens.p2, playerTokens[i % playerTokens.length]][i % 4];
          const c = gqlWsClient(base, token);
          clients.push(c);
          return subscribe<{ matchEvents: { seq: number } }>(c, EVENTS, { id: m.id });
        });
        const last = (s: (typeof subs)[number]) => s.results.at(-1)?.data?.matchEvents.seq ?? 0;
        /** The last seq each view may see now (the same three requests whatever n is). */
        const lastSeen = async () => {
          const out: Record<string, number> = {};
          for (const view of ['spectator', 'p1', 'p2'] as const) {
            const req = h.http.get(`/v1/matches/${m.id}/events?limit=500`);
            const events = (await (view === 'spectator' ? req : req.set(bearer(m.tokens[view]))).expect(200)).body.events as {
              seq: number;
            }[];
            out[view] = events.at(-1)?.seq ?? 0;
          }
          return out;
        };
        const caughtUp = (seen: Record<string, number>) => subs.every((s, i) => s.error() === null && last(s) >= seen[views[i]!]!);
        try {
          const seen0 = await lastSeen();
          await waitFor(() => caughtUp(seen0), 'the stored events');
          let moves = 0;
          const reads = countReads(h.app.service.store);
          try {
            for (let i = 0; i < appends; i++) {
              const mv = await nextMove(h, m.id, m.tokens);
              await h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[mv.seat])).send({ action: mv.action }).expect(200);
              const seen = await lastSeen();
              // Every subscriber has everything it may see before the next move.
              await waitFor(() => caughtUp(seen), `every subscriber after move ${i + 1}`);
              moves++;
            }
            return reads.count() / moves;
          } finally {
            reads.restore();
          }
        } finally {
          for (const c of clients) await c.dispose();
        }
      }
      const one = await readsWith(1, 4);
      const many = await readsWith(16, 4);
      // The moves' own requests read the same in both runs; sixteen subscribers add no reads per append.
      expect(many, `reads per append: 1 subscriber ${one}, 16 subscribers ${many}`).toBeLessThanOrEqual(one + 2);
    });
  });
}
