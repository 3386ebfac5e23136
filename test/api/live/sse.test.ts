/**
 * The event stream as Server-Sent Events (issue 12): with `Accept: text/event-stream` the same
 * redacted events as the NDJSON form, each with `id:` = its seq, resumable with Last-Event-ID
 * after a dropped connection, keep-alive comments, an `end` message when the game is over, and
 * problem+json for a malformed Last-Event-ID. Runs on PGlite and, when reachable, PostgreSQL.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { buildApp } from '../../../src/app.js';
import { openSse, type SseMessage, type SseStream } from '../../../bench/lib/sse-reader.js';
import { backends, waitFor, bearer, createHotSeat, expectProblem, type Created, useHarness } from '../helpers.js';

interface Ev {
  seq: number;
  actingSeat: string | null;
  event: { type: string; seat?: string; card?: string };
}

const eventsOf = (s: SseStream): SseMessage[] => s.messages.filter((m) => m.event === 'match-event');
const dataOf = (s: SseStream): Ev[] => eventsOf(s).map((m) => JSON.parse(m.data) as Ev);

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`event stream as Server-Sent Events [${backend.name}]`, () => {
    const h = useHarness(backend);

    const sse = (id: string, token?: string, headers: Record<string, string> = {}, query = '') =>
      openSse(`${h.baseUrl()}/v1/matches/${id}/stream${query}`, { ...(token ? bearer(token) : {}), ...headers });

    /** One decision by the seat to move (its first legal action), through `node`. */
    async function move(node: ReturnType<typeof supertest>, m: Created): Promise<void> {
      const v = await node.get(`/v1/matches/${m.id}`).expect(200);
      const seat = v.body.game.pending.seat as 'p1' | 'p2';
      const legal = await node.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200);
      await node.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[seat])).send({ action: legal.body.actions[0].action }).expect(200);
    }

    const logFor = async (m: Created, token?: string, after = 0): Promise<Ev[]> =>
      (
        await h.http
          .get(`/v1/matches/${m.id}/events?after=${after}&limit=500`)
          .set(token ? bearer(token) : {})
          .expect(200)
      ).body.events as Ev[];

    it('sends each seat its own redacted events (never the other hand), id = seq, keep-alive comments, and ends with the game', async () => {
      const m = await createHotSeat(h.http);
      const p1 = sse(m.id, m.tokens.p1);
      const p2 = sse(m.id, m.tokens.p2);
      const spectator = sse(m.id);
      const res = await p1.response;
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.headers['cache-control']).toBe('private, no-store');
      await waitFor(() => eventsOf(p1).length > 0 && eventsOf(p2).length > 0 && eventsOf(spectator).length > 0, 'the stored events');

      // Live moves from this node and from a second one on the same database.
      const other = await buildApp({ store: h.app.service.store, logger: false });
      await other.ready();
      try {
        for (let i = 0; i < 6; i++) await move(i % 2 === 0 ? h.http : supertest(other.server), m);
        await supertest(other.server)
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens.p2))
          .send({ action: { type: 'resign' } })
          .expect(200);
      } finally {
        await other.close();
      }
      await Promise.all([p1.ended, p2.ended, spectator.ended]);

      for (const [viewer, s, token] of [
        ['p1', p1, m.tokens.p1],
        ['p2', p2, m.tokens.p2],
        ['spectator', spectator, undefined],
      ] as const) {
        // The same objects as GET …/events for the same caller, in order, none twice.
        expect(dataOf(s), viewer).toEqual(await logFor(m, token));
        // id: is the seq of the event it carries.
        for (const msg of eventsOf(s)) expect(Number(msg.id), viewer).toBe((JSON.parse(msg.data) as Ev).seq);
        // The keep-alive sent at once is a comment.
        expect(s.comments[0], viewer).toBe('keep-alive');
        // Last: why it ended, the NDJSON form's last line, without an id (EventSource keeps the last seq).
        const last = s.messages.at(-1)!;
        expect({ event: last.event, id: last.id, data: JSON.parse(last.data) as unknown }, viewer).toEqual({
          event: 'end',
          id: eventsOf(s).at(-1)!.id,
          data: { end: 'finished' },
        });
      }
      // A seat never sees the other's draws; it sees its own.
      const draws = (evs: Ev[], seat: string) => evs.filter((e) => e.event.type === 'CardDrawn' && e.event.seat === seat);
      for (const [mine, theirs, s] of [
        ['p1', 'p2', p1],
        ['p2', 'p1', p2],
      ] as const) {
        expect(draws(dataOf(s), theirs).length, mine).toBeGreaterThan(0);
        expect(
          draws(dataOf(s), theirs).every((e) => e.event.card === undefined),
          `${mine} sees ${theirs}'s hand`,
        ).toBe(true);
        expect(
          draws(dataOf(s), mine).every((e) => typeof e.event.card === 'string'),
          `${mine}'s own draws`,
        ).toBe(true);
      }
      expect(
        dataOf(spectator)
          .filter((e) => e.event.type === 'CardDrawn')
          .every((e) => e.event.card === undefined),
      ).toBe(true);
    });

    it('resumes with Last-Event-ID after a dropped connection: exactly the missing events, then live ones', async () => {
      const m = await createHotSeat(h.http);
      const first = sse(m.id, m.tokens.p1);
      await waitFor(() => eventsOf(first).length > 0, 'the stored events');
      await move(h.http, m);
      const upTo = (await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.version as number;
      await waitFor(() => Number(eventsOf(first).at(-1)?.id) === upTo, 'the first move');
      first.close();
      await first.ended;
      const lastId = eventsOf(first).at(-1)!.id!;

      // Moves while nobody listens.
      for (let i = 0; i < 4; i++) await move(h.http, m);
      const missed = await logFor(m, m.tokens.p1, Number(lastId));
      expect(missed.length).toBeGreaterThan(0);

      // As an EventSource reconnects: the same URL (its ?after= is overridden) and Last-Event-ID.
      const again = sse(m.id, m.tokens.p1, { 'last-event-id': lastId }, '?after=0');
      await waitFor(() => eventsOf(again).length >= missed.length, 'the missed events');
      expect(dataOf(again)).toEqual(missed);
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await again.ended;
      // Both connections together: the whole log once, in order.
      expect([...dataOf(first), ...dataOf(again)]).toEqual(await logFor(m, m.tokens.p1));
      expect(again.messages.at(-1)!.event).toBe('end');

      // Reconnecting once more after the end: 204, which stops an EventSource; an earlier id gets the tail.
      const done = sse(m.id, m.tokens.p1, { 'last-event-id': eventsOf(again).at(-1)!.id! });
      expect((await done.response).status).toBe(204);
      await done.ended;
      expect(done.body()).toBe('');
      const tail = sse(m.id, m.tokens.p1, { 'last-event-id': lastId });
      await tail.ended;
      expect(dataOf(tail)).toEqual(await logFor(m, m.tokens.p1, Number(lastId)));
    });

    it('refuses a malformed or out-of-range Last-Event-ID with 400 problem+json, and a bad token with 401', async () => {
      const m = await createHotSeat(h.http);
      for (const bad of ['abc', '-1', '1.5', '1e3', ' ', '12345678901', '4294967295']) {
        const res = await h.http.get(`/v1/matches/${m.id}/stream`).set('accept', 'text/event-stream').set('last-event-id', bad);
        expectProblem(res, 400, 'validation-failed');
      }
      expectProblem(await h.http.get(`/v1/matches/${m.id}/stream`).set('accept', 'text/event-stream').set(bearer('nope')), 401);
    });

    it('NDJSON stays the default: without Accept, with */*, or when NDJSON is preferred', async () => {
      const m = await createHotSeat(h.http);
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      for (const accept of [undefined, '*/*', 'application/x-ndjson, text/event-stream;q=0.5', 'text/event-stream;q=0']) {
        const req = h.http.get(`/v1/matches/${m.id}/stream`);
        const res = await (accept ? req.set('accept', accept) : req).buffer(true).parse((r, cb) => {
          let t = '';
          r.on('data', (c: Buffer) => (t += c.toString()));
          r.on('end', () => cb(null, t));
        });
        expect(res.headers['content-type'], String(accept)).toMatch(/^application\/x-ndjson/);
        expect((res.body as string).trim().split('\n').at(-1)).toBe('{"end":"finished"}');
      }
      const res = await h.http
        .get(`/v1/matches/${m.id}/stream`)
        .set('accept', 'text/html, text/event-stream')
        .buffer(true)
        .parse((r, cb) => {
          let t = '';
          r.on('data', (c: Buffer) => (t += c.toString()));
          r.on('end', () => cb(null, t));
        });
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.body as string).toMatch(/event: end\ndata: \{"end":"finished"\}\n\n$/);
    });

    it('a server that stops ends its SSE streams with an end message saying so', async () => {
      const m = await createHotSeat(h.http);
      const node = await buildApp({ store: h.app.service.store, logger: false });
      await node.listen({ port: 0, host: '127.0.0.1' });
      const s = openSse(`http://127.0.0.1:${(node.server.address() as AddressInfo).port}/v1/matches/${m.id}/stream`);
      await waitFor(() => eventsOf(s).length > 0, 'the stored events');
      await node.close();
      await s.ended;
      const last = s.messages.at(-1)!;
      expect({ event: last.event, data: JSON.parse(last.data) as unknown }).toEqual({ event: 'end', data: { end: 'shutdown' } });
    });
  });
}
