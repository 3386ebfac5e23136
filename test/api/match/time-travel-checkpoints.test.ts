/**
 * Time travel from checkpoints (issue 33): a past read of a long match replays at most 64 events
 * from the nearest kept state instead of the whole log, and shows exactly what a replay from
 * event 1 shows (a second node on the same database with checkpoints off is the reference).
 * GraphQL charges each `match(id, at:)` so that thirty aliases are refused before they run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MatchStore } from '../../../src/persistence/types.js';
import { bearer, createHotSeat, nextMove, pglite, useHarness, useSecondApp } from '../helpers.js';

/** Events each loadEvents call returned, in order (the app's store, wrapped). */
const loaded: number[] = [];

describe('time-travel checkpoints (PGlite)', () => {
  const h = useHarness(pglite, {
    wrapStore: (store): MatchStore =>
      Object.create(store, {
        loadEvents: {
          value: async (...args: Parameters<MatchStore['loadEvents']>) => {
            const rows = await store.loadEvents(...args);
            loaded.push(rows.length);
            return rows;
          },
        },
      }),
  });
  const reference = useSecondApp(h, { timeTravelCheckpoints: 0 });
  let id = '';
  let version = 0;
  let tokens: Record<'p1' | 'p2', string>;

  beforeAll(async () => {
    const m = await createHotSeat(h.http);
    id = m.id;
    tokens = m.tokens;
    // Long enough for three checkpoints; a finished match is fine too (its past stays the same).
    for (let i = 0; i < 400 && version < 200; i++) {
      const view = await h.http.get(`/v1/matches/${id}`).expect(200);
      version = view.body.version;
      if (view.body.status !== 'active') break;
      const mv = await nextMove(h, id, tokens);
      await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[mv.seat])).send({ action: mv.action }).expect(200);
    }
    version = (await h.http.get(`/v1/matches/${id}`).expect(200)).body.version;
  }, 120_000);

  it('a past view from a checkpoint equals the replay from event 1, for every seat', async () => {
    expect(version).toBeGreaterThan(130);
    const points = [1, 63, 64, 65, 127, 128, 129, version - 1, version];
    for (const at of points) {
      for (const who of ['p1', 'p2', 'spectator'] as const) {
        const get = (node: { http: typeof h.http }) => {
          const req = node.http.get(`/v1/matches/${id}?at=${at}`);
          return who === 'spectator' ? req : req.set(bearer(tokens[who]));
        };
        const warm = await get(h).expect(200);
        const cold = await get(reference).expect(200);
        expect(warm.body, `at=${at} as ${who}`).toEqual(cold.body);
      }
    }
  });

  it('once warm, a read near the end loads at most 64 events', async () => {
    await h.http.get(`/v1/matches/${id}?at=${version}`).expect(200);
    loaded.length = 0;
    await h.http.get(`/v1/matches/${id}?at=${version - 1}`).expect(200);
    expect(loaded.length).toBeGreaterThan(0);
    expect(Math.max(...loaded)).toBeLessThanOrEqual(64);
  });

  it('GraphQL: thirty match(id, at:) aliases are refused by the cost check; four pass', async () => {
    const doc = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: match(id: "${id}", at: ${i + 1}) { version }`).join(' ')} }`;
    const many = await h.http.post('/graphql').send({ query: doc(30) });
    expect(many.status).toBe(400);
    expect(many.body.data ?? null).toBeNull();
    expect(many.body.errors[0].extensions).toMatchObject({ code: 'query-too-costly', maxCost: 10_000 });
    const few = await h.http.post('/graphql').send({ query: doc(4) });
    expect(few.body.errors).toBeUndefined();
    expect(few.body.data.a3.version).toBe(4);
  });
});
