/**
 * Create and join over GraphQL (issue 20): `createMatch` and `joinMatch` take the fields of the REST
 * bodies, are judged by the same schemas and service (the same codes), and return the match and
 * the seat token(s); a GraphQL client plays a whole match of each game without one REST call.
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, graphqlRequest, prng, STARTERS, useHarness } from '../helpers.js';

type Seat = 'p1' | 'p2';
// GraphQL answers, checked field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { data: Record<string, any> | null; errors?: { message: string; extensions: { code: string; errors?: string[] } }[] };

const CREATE = /* GraphQL */ `
  mutation ($input: CreateMatchInput!) {
    createMatch(input: $input) {
      id
      gameId
      seat
      status
      version
      token
      tokens {
        p1
        p2
      }
      webhook {
        secret
        webhook {
          url
          events
        }
      }
      match {
        __typename
        id
        status
        seat
        version
      }
    }
  }
`;

const JOIN = /* GraphQL */ `
  mutation ($id: ID!, $input: JoinMatchInput!) {
    joinMatch(matchId: $id, input: $input) {
      id
      seat
      status
      version
      token
      match {
        __typename
        status
        seat
        pending
      }
    }
  }
`;

const TURN = /* GraphQL */ `
  query ($id: ID!) {
    match(id: $id) {
      status
      seat
      pending
      legalActions {
        action
      }
    }
  }
`;

const SUBMIT = /* GraphQL */ `
  mutation ($id: ID!, $action: JSON, $v: Int) {
    submitAction(matchId: $id, action: $action, expectedVersion: $v) {
      version
      match {
        status
        winner
        outcome {
          reason
        }
      }
    }
  }
`;

const MAX_ACTIONS = 800;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`GraphQL createMatch and joinMatch [${backend.name}]`, () => {
    const h = useHarness(backend);

    const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
      const res = await graphqlRequest(h, query, variables, token);
      expect(res.status).toBe(200);
      return res.body as Answer;
    };

    /** Creates with an open seat, joins, and plays random legal moves to the end: GraphQL only. */
    async function playWhole(game: 'evons' | 'universus', decks: [string, string], seed: number) {
      const rand = prng(seed);
      const created = await gql(CREATE, {
        input: { game, handle: `gq-${game}-a`, openSeat: true, decks: { p1: { starter: decks[0] } }, timeControl: { kind: 'none' } },
      });
      expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
      const c = created.data!.createMatch;
      expect(c).toMatchObject({ gameId: game, seat: 'p1', status: 'waiting', tokens: { p2: null }, webhook: null });
      expect(c.match).toMatchObject({ id: c.id, status: 'waiting', seat: 'p1' });
      expect(c.tokens.p1).toBe(c.token);

      const joined = await gql(JOIN, { id: c.id, input: { handle: `gq-${game}-b`, deck: { starter: decks[1] } } });
      expect(joined.errors, JSON.stringify(joined.errors)).toBeUndefined();
      const j = joined.data!.joinMatch;
      expect(j).toMatchObject({ id: c.id, seat: 'p2', status: 'active' });
      expect(j.match).toMatchObject({ __typename: game === 'evons' ? 'EvonsMatch' : 'UniVersusMatch', status: 'active', seat: 'p2' });
      const tokens: Record<Seat, string> = { p1: c.token, p2: j.token };

      // A second join: the same seat-taken as REST.
      const again = await gql(JOIN, { id: c.id, input: { deck: { starter: decks[1] } } });
      expect(again.errors?.[0]?.extensions.code).toBe('seat-taken');

      let status = 'active';
      let pending = j.match.pending as { seat: Seat } | null;
      let actions = 0;
      while (status === 'active' && actions < MAX_ACTIONS) {
        const seat = pending!.seat;
        const turn = (await gql(TURN, { id: c.id }, tokens[seat])).data!.match;
        expect(turn.seat).toBe(seat);
        const options = turn.legalActions as { action: unknown }[];
        expect(options.length, `seed ${seed}: no legal action`).toBeGreaterThan(0);
        const choice = options[Math.floor(rand() * options.length)]!;
        const moved = await gql(SUBMIT, { id: c.id, action: choice.action }, tokens[seat]);
        expect(moved.errors, `seed ${seed}: ${JSON.stringify(moved.errors)}`).toBeUndefined();
        status = moved.data!.submitAction.match.status;
        if (status === 'active') pending = (await gql(TURN, { id: c.id })).data!.match.pending;
        actions++;
      }
      expect(status, `seed ${seed}: the match did not end within ${MAX_ACTIONS} actions`).toBe('finished');
      return c.id as string;
    }

    it('plays a whole Evons match: created and joined over GraphQL, no REST call', async () => {
      const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);
      await playWhole('evons', [STARTERS[0], STARTERS[1]], seed);
    });

    it('plays a whole UniVersus match: created and joined over GraphQL, no REST call', async () => {
      const seed = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);
      await playWhole('universus', ['scouts', 'garrison'], seed);
    });

    it('hot seat: both tokens; the REST checks and codes (validation, decks, scopes)', async () => {
      const hot = await gql(CREATE, {
        input: { handle: 'gq-hot-a', opponentHandle: 'gq-hot-b', decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[2] } } },
      });
      expect(hot.errors).toBeUndefined();
      const m = hot.data!.createMatch;
      expect(m).toMatchObject({ gameId: 'evons', status: 'active', match: { __typename: 'EvonsMatch', status: 'active', seat: 'p1' } });
      expect(m.tokens.p1).toBe(m.token);
      expect(typeof m.tokens.p2).toBe('string');

      // The REST schema and service judge the input: the same code as POST /v1/matches for the same body.
      const bad = await gql(CREATE, { input: { handle: 'not a handle', decks: { p1: { starter: STARTERS[0] } } } });
      expect(bad.errors?.[0]?.extensions.code).toBe('validation-failed');
      expect(bad.errors?.[0]?.extensions.errors?.some((e) => e.startsWith('input.handle'))).toBe(true);
      const cases: Record<string, unknown>[] = [
        { openSeat: true },
        { game: 'chess', decks: { p1: { starter: STARTERS[0] } } },
        { openSeat: true, decks: { p1: { starter: STARTERS[0], cards: [{ card: 'x', count: 1 }] } } },
        { openSeat: true, decks: { p1: { starter: 'no-such-deck' } } },
        { openSeat: true, decks: { p1: { starter: STARTERS[0] } }, settings: { nope: 1 } },
        { openSeat: true, decks: { p1: { starter: STARTERS[0] } }, rated: true },
      ];
      for (const input of cases) {
        const rest = await h.http.post('/v1/matches').send(input);
        expect(rest.status, JSON.stringify(input)).toBeGreaterThanOrEqual(400);
        const over = await gql(CREATE, { input });
        expect(over.errors?.[0]?.extensions.code, JSON.stringify(input)).toBe(rest.body.code);
      }

      // A player token without match:create is refused as by REST (403 insufficient-scope).
      const reg = await h.http
        .post('/v1/players')
        .send({ handle: `gq-reader-${Date.now() % 100000}` })
        .expect(201);
      const ro = await h.http
        .post('/v1/me/tokens')
        .set(bearer(reg.body.token))
        .send({ scopes: ['match:read'] })
        .expect(201);
      const refused = await gql(CREATE, { input: { openSeat: true, decks: { p1: { starter: STARTERS[0] } } } }, ro.body.token);
      expect(refused.errors?.[0]?.extensions.code).toBe('insufficient-scope');
      // With match:create the seat is the player's: its handle, verified.
      const own = await gql(
        /* GraphQL */ `
          mutation ($input: CreateMatchInput!) {
            createMatch(input: $input) {
              id
              match {
                seats {
                  seat
                  handle
                  verified
                }
              }
            }
          }
        `,
        { input: { openSeat: true, decks: { p1: { starter: STARTERS[0] } } } },
        reg.body.token,
      );
      expect(own.errors).toBeUndefined();
      expect(own.data!.createMatch.match.seats[0]).toMatchObject({ seat: 'p1', handle: reg.body.player.handle, verified: true });
      const joinRefused = await gql(JOIN, { id: own.data!.createMatch.id, input: { deck: { starter: STARTERS[1] } } }, ro.body.token);
      expect(joinRefused.errors?.[0]?.extensions.code).toBe('insufficient-scope');
    });
  });
}
