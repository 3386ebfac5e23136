/**
 * The NDJSON event stream: stored events first, then each new one as it is committed (on this
 * node or another one sharing the database), redacted for the caller, ending with the game.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { buildApp } from '../../../src/app.js';
import { backends, waitFor, bearer, createHotSeat, expectProblem, openStream as openNdjson, useHarness } from '../helpers.js';

const openStream = (base: string, path: string, token?: string) => openNdjson<Line>(base, path, token);
import type { Seat } from '../../../src/games/evons/index.js';

interface Line {
  seq: number;
  event: { type: string; card?: string };
}
type Last = { end?: string; error?: { code: string; status: number } };
/** The events, and the final line that says why the stream ended (issue 7 defect 2). */
function split(lines: Line[]): { events: Line[]; last: Last } {
  return { events: lines.slice(0, -1), last: lines.at(-1) as unknown as Last };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`event stream [${backend.name}]`, () => {
    const h = useHarness(backend);

    it('sends stored events, then live ones from this node and another, redacted, and ends with the game', async () => {
      const m = await createHotSeat(h.http);
      const spectator = openStream(h.baseUrl(), `/v1/matches/${m.id}/stream`);
      const p1 = openStream(h.baseUrl(), `/v1/matches/${m.id}/stream`, m.tokens.p1);
      await waitFor(() => spectator.lines.length > 0 && p1.lines.length > 0, 'the stored events');
      expect(spectator.status()).toBe(200);
      expect(spectator.contentType()).toMatch(/^application\/x-ndjson/);

      // A second node on the same database: its moves reach this node's streams too.
      const other = await buildApp({ store: h.app.service.store, logger: false });
      await other.ready();
      try {
        for (let i = 0; i < 6; i++) {
          const node = i % 2 === 0 ? h.http : supertest(other.server);
          const v = await node.get(`/v1/matches/${m.id}`).expect(200);
          const seat = v.body.game.pending.seat as Seat;
          const legal = await node.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200);
          await node
            .post(`/v1/matches/${m.id}/actions`)
            .set(bearer(m.tokens[seat]))
            .set('if-match', `"${v.body.version}"`)
            .send({ action: legal.body.actions[0].action })
            .expect(200);
        }
        await supertest(other.server)
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens.p2))
          .send({ action: { type: 'resign' } })
          .expect(200);
      } finally {
        await other.close();
      }
      await Promise.all([spectator.ended, p1.ended]);

      for (const [viewer, s, token] of [
        ['spectator', spectator, undefined],
        ['p1', p1, m.tokens.p1],
      ] as const) {
        // Exactly the events GET …/events gives the same caller, in order, none twice.
        const page = await h.http
          .get(`/v1/matches/${m.id}/events?limit=500`)
          .set(token ? bearer(token) : {})
          .expect(200);
        expect(split(s.lines).events, viewer).toEqual(page.body.events);
        expect(split(s.lines).last, viewer).toEqual({ end: 'finished' });
        expect(split(s.lines).events.at(-2)?.event.type).toBe('GameEnded');
      }
      // Redacted per caller: the spectator never sees which card was drawn.
      expect(
        split(spectator.lines)
          .events.filter((l) => l.event.type === 'CardDrawn')
          .every((l) => l.event.card === undefined),
      ).toBe(true);
      expect(split(p1.lines).events.some((l) => l.event.type === 'CardDrawn' && typeof l.event.card === 'string')).toBe(true);
    });

    it('starts after ?after=, and a finished match streams its tail and ends at once', async () => {
      const m = await createHotSeat(h.http);
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const all = (await h.http.get(`/v1/matches/${m.id}/events?limit=500`).expect(200)).body.events as Line[];
      const from = all[all.length - 3]!.seq;
      const s = openStream(h.baseUrl(), `/v1/matches/${m.id}/stream?after=${from}`);
      await s.ended;
      expect(split(s.lines).events).toEqual(all.filter((e) => e.seq > from));
      expect(split(s.lines).last).toEqual({ end: 'finished' });
    });

    it('a server that stops ends its open streams instead of waiting for the games to end', async () => {
      const m = await createHotSeat(h.http);
      const node = await buildApp({ store: h.app.service.store, logger: false });
      await node.listen({ port: 0, host: '127.0.0.1' });
      const s = openStream(`http://127.0.0.1:${(node.server.address() as AddressInfo).port}`, `/v1/matches/${m.id}/stream`);
      await waitFor(() => s.lines.length > 0, 'the stored events');
      await node.close();
      await s.ended;
      expect(s.lines.length).toBeGreaterThan(1);
      // Said so: a client must not take this for the game's end (issue 7 defect 2).
      expect(split(s.lines).last).toEqual({ end: 'shutdown' });
    });

    it('refuses a bad token, an unknown match and a bad ?after= with problem+json', async () => {
      const m = await createHotSeat(h.http);
      expectProblem(await h.http.get(`/v1/matches/${m.id}/stream`).set(bearer('nope')), 401);
      expectProblem(await h.http.get('/v1/matches/AAAAAAAAAAAAAAAAAAAAAA/stream'), 404);
      expectProblem(await h.http.get(`/v1/matches/${m.id}/stream?after=-1`), 400);
    });
  });
}
