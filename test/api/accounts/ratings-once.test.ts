/**
 * Property (issue 10): rating updates happen exactly once per rated match and are symmetric, on
 * both databases, whatever the schedule: rated matches among a few players end together (their
 * players' rating rows contended), by a resign retried with the same key at the same moment, by
 * both seats resigning at once, or by clocks that two sweepers end at once.
 *
 * Checked from what is stored, not from what the test expected to happen:
 * - every decided rated match has exactly two rating changes, scores summing to 1, and each side's
 *   new rating is Glicko-2 of both sides' ratings before it (symmetric);
 * - each player's changes form one unbroken chain from the new-player rating to the stored rating,
 *   as long as the stored games count: an update applied twice, or lost, breaks the chain.
 * Sized by count (fast-check runs and schedule length), never by time.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RatingChangeRow, RatingValue } from '../../../src/persistence/types.js';
import { DEFAULT_RATING, rateMatch, type Score } from '../../../src/core/rating.js';
import { STARTERS, backends, bearer, useHarness, useSecondApp } from '../helpers.js';

type Seat = 'p1' | 'p2';
type Ending = 'resign-p1' | 'resign-p2' | 'retried-resign' | 'both-resign' | 'timeout';
const DAY = 86_400_000;
const PLAYERS = 4;

const schedule = fc.array(
  fc.array(
    fc.record({
      a: fc.integer({ min: 0, max: PLAYERS - 1 }),
      gap: fc.integer({ min: 1, max: PLAYERS - 1 }),
      ending: fc.constantFrom<Ending>('resign-p1', 'resign-p2', 'retried-resign', 'both-resign', 'timeout'),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  { minLength: 1, maxLength: 3 },
);

const same = (x: RatingValue, y: RatingValue) => x.rating === y.rating && x.rd === y.rd && x.volatility === y.volatility;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`rating updates happen once per rated match [${backend.name}]`, () => {
    // Any rated ending counts here (instant resigns included): this suite is about rating once.
    const h = useHarness(backend, { clock: true, ratedMinDecisions: 0 });
    /** A second service on the same database (PGlite in memory: the same store). */
    const other = useSecondApp(h, { ratedMinDecisions: 0 });
    let run = 0;

    it("whatever the schedule of endings, every player's ratings are one unbroken chain of symmetric Glicko-2 updates", async () => {
      await fc.assert(
        fc.asyncProperty(schedule, async (rounds) => {
          run++;
          const players: { id: string; token: string }[] = [];
          for (let i = 0; i < PLAYERS; i++) {
            const handle = `once-${run}-${i}-${Math.random().toString(36).slice(2, 6)}`;
            const r = await h.http.post('/v1/players').send({ handle }).expect(201);
            players.push({ id: (await h.store.players.byHandle(handle))!.id, token: r.body.token });
          }
          const act = (id: string, token: string, action: unknown, key?: string) => {
            const req = h.http.post(`/v1/matches/${id}/actions`).set(bearer(token));
            if (key) req.set('idempotency-key', key);
            return req.send({ action });
          };
          const matches: string[] = [];
          for (const round of rounds) {
            const dealt: { id: string; seats: Record<Seat, string>; ending: Ending }[] = [];
            for (const m of round) {
              const seats = { p1: players[m.a]!.token, p2: players[(m.a + m.gap) % PLAYERS]!.token };
              const c = await h.http
                .post('/v1/matches')
                .set(bearer(seats.p1))
                .send({
                  rated: true,
                  openSeat: true,
                  timeControl: { kind: 'correspondence', daysPerMove: 1 },
                  decks: { p1: { starter: STARTERS[0] } },
                })
                .expect(201);
              await h.http
                .post(`/v1/matches/${c.body.id}/join`)
                .set(bearer(seats.p2))
                .send({ deck: { starter: STARTERS[1] } })
                .expect(200);
              if (m.ending === 'timeout') {
                // Both seats decide (so running out is a timeout, not an abort).
                for (let i = 0; i < 2; i++) {
                  const v = await h.http.get(`/v1/matches/${c.body.id}`).expect(200);
                  const seat = v.body.game.pending.seat as Seat;
                  const legal = await h.http.get(`/v1/matches/${c.body.id}/legal-actions`).set(bearer(seats[seat])).expect(200);
                  await act(c.body.id, seats[seat], legal.body.actions[0].action).expect(200);
                }
              }
              dealt.push({ id: c.body.id, seats, ending: m.ending });
              matches.push(c.body.id);
            }
            // The round's endings all at once: players shared between matches contend for their rating rows.
            await Promise.all(
              dealt.map(async ({ id, seats, ending }) => {
                const resign = { type: 'resign' };
                if (ending === 'resign-p1' || ending === 'resign-p2')
                  await act(id, seats[ending === 'resign-p1' ? 'p1' : 'p2'], resign).expect(200);
                else if (ending === 'retried-resign') {
                  const [x, y] = await Promise.all([act(id, seats.p1, resign, `k-${id}`), act(id, seats.p1, resign, `k-${id}`)]);
                  expect([x.status, y.status]).toEqual([200, 200]);
                  expect(x.body.version).toBe(y.body.version);
                } else if (ending === 'both-resign') {
                  const statuses = (await Promise.all([act(id, seats.p1, resign), act(id, seats.p2, resign)])).map((r) => r.status);
                  expect(statuses.sort()).toEqual([200, 409]);
                }
              }),
            );
            if (dealt.some((d) => d.ending === 'timeout')) {
              h.t.now += 2 * DAY;
              await Promise.all([h.app.service.sweep(), other.app.service.sweep()]);
            }
          }

          // What is stored: two symmetric changes per match…
          const byPlayer = new Map<string, RatingChangeRow[]>();
          for (const id of matches) {
            const changes = await h.store.ratings.changesOfMatch(id);
            expect(changes, id).toHaveLength(2);
            const [x, y] = changes as [RatingChangeRow, RatingChangeRow];
            expect(x.score + y.score).toBe(1);
            const r = rateMatch(x.before, y.before, x.score as Score);
            expect(same(x.after, r.a) && same(y.after, r.b), `symmetric update in ${id}`).toBe(true);
            for (const c of changes) byPlayer.set(c.playerId, [...(byPlayer.get(c.playerId) ?? []), c]);
          }
          // …and one unbroken chain per player, from a new player's rating to the stored one.
          for (const p of players) {
            const changes = byPlayer.get(p.id) ?? [];
            const [row] = await h.store.ratings.ofPlayer(p.id);
            if (changes.length === 0) {
              expect(row).toBeUndefined();
              continue;
            }
            expect(row!.games).toBe(changes.length);
            let at: RatingValue = DEFAULT_RATING;
            const left = [...changes];
            while (left.length > 0) {
              const next = left.findIndex((c) => same(c.before, at));
              expect(next, `player ${p.id}: a change that starts where the last ended`).toBeGreaterThanOrEqual(0);
              at = left.splice(next, 1)[0]!.after;
            }
            expect(same(at, row!)).toBe(true);
          }
        }),
        { numRuns: 3 },
      );
    });
  });
}
