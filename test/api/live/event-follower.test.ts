/**
 * EventFollower, the pump behind the NDJSON and SSE streams and the matchEvents subscription:
 * many followers of one match on one node (seats and spectators mixed) share its reads, and each
 * still gets exactly its own redacted events, in order, once. PGlite and, when reachable, PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { EventFollower } from '../../../src/service/live/event-follower.js';
import type { EventDto } from '../../../src/service/match/match-service.js';
import { backends, bearer, createHotSeat, nextMove, waitFor, useHarness } from '../helpers.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`event follower [${backend.name}]`, () => {
    const h = useHarness(backend);

    it('nine followers (p1, p2, spectators) of one match: each gets its own events exactly once, and an append is read once for all of them', async () => {
      const m = await createHotSeat(h.http);
      const service = h.app.service;
      const store = service.store;
      let eventReads = 0;
      const loadEvents = store.loadEvents.bind(store);
      store.loadEvents = (...args: Parameters<typeof loadEvents>) => {
        if (args[0] === m.id) eventReads++;
        return loadEvents(...args);
      };
      const tokens = [m.tokens.p1, m.tokens.p2, undefined, m.tokens.p1, m.tokens.p2, undefined, m.tokens.p1, m.tokens.p2, undefined];
      const got: EventDto[][] = tokens.map(() => []);
      const finished: boolean[] = tokens.map(() => false);
      const followers = tokens.map(
        (token, i) =>
          new EventFollower(
            service,
            { id: m.id, token, after: 0 },
            {
              events: (es) => got[i]!.push(...es),
              finished: () => (finished[i] = true),
              failed: (err) => {
                throw err;
              },
            },
          ),
      );
      try {
        await Promise.all(followers.map((f) => f.start()));
        const version0 = (await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.version as number;
        await waitFor(() => followers.every((f) => f.position === version0), 'the stored events', 1000);
        const readsBefore = eventReads;
        const appends = 8;
        for (let i = 0; i < appends; i++) {
          const mv = await nextMove(h, m.id, m.tokens);
          await h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[mv.seat])).send({ action: mv.action }).expect(200);
          const v = (await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.version as number;
          // Each follower has handed over everything up to v before the next move.
          await waitFor(() => followers.every((f) => f.position === v), `every follower at version ${v}`, 1000);
        }
        // Shared: far fewer event reads than one per follower per append (that would be 72).
        expect(eventReads - readsBefore).toBeLessThanOrEqual(appends * 2);
        await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens.p1))
          .send({ action: { type: 'resign' } })
          .expect(200);
        await waitFor(() => finished.every(Boolean), 'the end', 1000);
        for (const [i, token] of tokens.entries()) {
          const log = (
            await h.http
              .get(`/v1/matches/${m.id}/events?limit=500`)
              .set(token ? bearer(token) : {})
              .expect(200)
          ).body.events;
          expect(got[i], `follower ${i}`).toEqual(log);
        }
      } finally {
        store.loadEvents = loadEvents;
        followers.forEach((f) => f.stop());
      }
    });
  });
}
