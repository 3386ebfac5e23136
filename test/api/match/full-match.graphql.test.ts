/**
 * A whole match through GraphQL: random legal actions via submitAction until the game ends;
 * opponent and spectator queries never show the other hand, deck cards or the seed; errors
 * carry extensions.code and version like REST.
 */
import { describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { buildApp } from '../../../src/app.js';
import { backends, bearer, createHotSeat, graphqlRequest, prng, useHarness } from '../helpers.js';
import { assertNoLeak, secretsFor } from '../secrecy/secrecy.js';
import type { GameState, Seat, Viewer } from '../../../src/games/evons/index.js';

const MATCH = /* GraphQL */ `
  query ($id: ID!) {
    match(id: $id) {
      id
      gameId
      version
      status
      winner
      seat
      pending
      legalActions {
        type
        action
        text
      }
      events(after: 0, limit: 50) {
        events {
          seq
          type
          data
        }
        next
        hasMore
      }
      ... on EvonsMatch {
        turn
        active
        step
        credits {
          p1
          p2
        }
        scores {
          p1
          p2
        }
        board {
          name
          zone
          card {
            id
            owner
            facing
            covered
            currentDef
            face {
              defId
              name
            }
          }
        }
        graveyards {
          p1 {
            id
            face {
              name
            }
          }
          p2 {
            id
            face {
              name
            }
          }
        }
        removed {
          id
        }
        hand {
          id
          face {
            defId
            name
            cost
          }
        }
        players {
          seat
          handle
          credits
          score
          handCount
          deckCount
        }
      }
    }
  }
`;

const SUBMIT = /* GraphQL */ `
  mutation ($id: ID!, $action: JSON, $key: String, $v: Int) {
    submitAction(matchId: $id, action: $action, idempotencyKey: $key, expectedVersion: $v) {
      version
      replayed
      events {
        seq
        type
        data
      }
      match {
        version
        status
        winner
      }
    }
  }
`;

for (const backend of backends)
  describe.skipIf(backend.skipReason !== null)(`GraphQL full random match [${backend.name}]`, () => {
    const h = useHarness(backend);

    const gql = (query: string, variables: Record<string, unknown>, token?: string) => graphqlRequest(h, query, variables, token);

    it('plays to the end with submitAction; every query result is free of secrets', async () => {
      const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);
      const rand = prng(seed);
      const m = await createHotSeat(h.http);
      const tokenOf = (v: Viewer) => (v === 'spectator' ? undefined : m.tokens[v]);
      let status = 'active';
      let n = 0;
      while (status === 'active' && n < 600) {
        const spec = await gql(MATCH, { id: m.id });
        expect(spec.status).toBe(200);
        expect(spec.body.errors).toBeUndefined();
        const match = spec.body.data.match;
        expect(match.board).toHaveLength(49);
        expect(match.hand).toBeNull();
        const seat = match.pending.seat as Seat;
        const mine = (await gql(MATCH, { id: m.id }, m.tokens[seat])).body.data.match;
        expect(mine.seat).toBe(seat);
        expect(mine.legalActions.length).toBeGreaterThan(0);
        const pick = mine.legalActions[Math.floor(rand() * mine.legalActions.length)];
        const res = await gql(SUBMIT, { id: m.id, action: pick.action, key: `g${n}`, v: match.version }, m.tokens[seat]);
        expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
        const out = res.body.data.submitAction;
        expect(out.version).toBeGreaterThan(match.version);
        expect(out.replayed).toBe(false);
        status = out.match.status;
        n++;
        if (n % 5 === 0 || status !== 'active') {
          const state = (await h.app.service.load(m.id, undefined)).state as GameState;
          for (const viewer of ['p1', 'p2', 'spectator'] as const) {
            const r = await gql(MATCH, { id: m.id }, tokenOf(viewer));
            assertNoLeak(r.text, secretsFor(state, viewer), `seed ${seed} graphql after ${n} for ${viewer}`);
          }
        }
      }
      if (status === 'active') {
        const r = await gql(SUBMIT, { id: m.id, action: { type: 'resign' } }, m.tokens.p1);
        status = r.body.data.submitAction.match.status;
      }
      expect(status).toBe('finished');
      const end = (await gql(MATCH, { id: m.id })).body.data.match;
      expect(end.status).toBe('finished');
      console.info(`[graphql] seed ${seed}: ${n} actions, version ${end.version}`);
    });

    it('errors carry extensions.code and version; an idempotent replay returns the same result', async () => {
      const m = await createHotSeat(h.http);
      const match = (await gql(MATCH, { id: m.id })).body.data.match;
      const seat = match.pending.seat as Seat;
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';

      const illegal = await gql(SUBMIT, { id: m.id, action: { type: 'pass' } }, m.tokens[other]);
      expect(illegal.body.errors[0].extensions.code).toBe('NOT_YOUR_DECISION');
      expect(illegal.body.errors[0].extensions.version).toBe(match.version);

      const stale = await gql(SUBMIT, { id: m.id, action: { type: 'pass' }, v: match.version - 1 }, m.tokens[seat]);
      expect(stale.body.errors[0].extensions.code).toBe('version-conflict');
      expect(stale.body.errors[0].extensions.version).toBe(match.version);

      const bad = await gql(SUBMIT, { id: m.id, action: { type: 'teleport' } }, m.tokens[seat]);
      expect(bad.body.errors[0].extensions.code).toBe('validation-failed');
      const noToken = await gql(SUBMIT, { id: m.id, action: { type: 'pass' } });
      expect(noToken.body.errors[0].extensions.code).toBe('missing-token');
      const missing = await gql(MATCH, { id: 'no-such-match' });
      expect(missing.body.errors[0].extensions.code).toBe('match-not-found');

      const typed = /* GraphQL */ `
        mutation ($id: ID!, $input: ActionInput, $key: String) {
          submitAction(matchId: $id, input: $input, idempotencyKey: $key) {
            version
            replayed
            events {
              seq
              type
            }
          }
        }
      `;
      const first = await gql(typed, { id: m.id, input: { type: 'pass' }, key: 'gk' }, m.tokens[seat]);
      expect(first.body.errors).toBeUndefined();
      const again = await gql(typed, { id: m.id, input: { type: 'pass' }, key: 'gk' }, m.tokens[seat]);
      expect(again.body.data.submitAction.version).toBe(first.body.data.submitAction.version);
      expect(again.body.data.submitAction.events).toEqual(first.body.data.submitAction.events);
      expect(again.body.data.submitAction.replayed).toBe(true);

      const list = await gql('{ matches(handle: "alice", limit: 5) { matches { id status seats { seat handle } } nextCursor } }', {});
      expect(list.body.data.matches.matches.map((x: { id: string }) => x.id)).toContain(m.id);
    });

    it('loads and replays a match at most once per request', async () => {
      const m = await createHotSeat(h.http);
      // A second node on the same store starts with an empty cache.
      const cold = await buildApp({ store: h.app.service.store, logger: false });
      await cold.ready();
      try {
        const q = `{ a: match(id: "${m.id}") { version legalActions { type } events { next } } b: match(id: "${m.id}") { ... on EvonsMatch { board { name } } } }`;
        const r = await supertest(cold.server).post('/graphql').set(bearer(m.tokens.p1)).send({ query: q });
        expect(r.body.errors).toBeUndefined();
        expect(cold.service.stats.replays).toBe(1);
      } finally {
        await cold.close();
      }
    });
  });
