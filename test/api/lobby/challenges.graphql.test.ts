/** Challenges over GraphQL (issue 23, item 1): the same service, schemas and codes as /v1/challenges, on both databases. */
import { describe, expect, it } from 'vitest';
import { STARTERS, backends, bearer, graphqlRequest, useHarness } from '../helpers.js';

const FIELDS =
  'id status challenger { handle bot } to { handle bot } allowed game timeControl rated seat settings declineReason matchId createdAt expiresAt closedAt';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`challenges over GraphQL [${backend.name}]`, () => {
    const h = useHarness(backend);

    it('acceptChallenge and postSeek take idempotencyKey as REST takes Idempotency-Key', async () => {
      const token = async (handle: string) => (await h.http.post('/v1/players').send({ handle }).expect(201)).body.token as string;
      const ann = await token('gq-idem-ann');
      const ben = await token('gq-idem-ben');
      const c = (await h.http.post('/v1/challenges').set(bearer(ann)).send({ to: 'gq-idem-ben' }).expect(201)).body.id as string;
      const accept = (starter: string, key: string) =>
        graphqlRequest(
          h,
          `mutation($id: ID!, $key: String) { acceptChallenge(id: $id, deck: { starter: "${starter}" }, idempotencyKey: $key) { match { id token } } }`,
          { id: c, key },
          ben,
        );
      const first = (await accept(STARTERS[0], 'gq-1').expect(200)).body.data.acceptChallenge.match;
      const again = (await accept(STARTERS[0], 'gq-1').expect(200)).body.data.acceptChallenge.match;
      expect(again.id).toBe(first.id);
      await h.http.get(`/v1/matches/${again.id}/legal-actions`).set(bearer(again.token)).expect(200);
      expect((await accept(STARTERS[1], 'gq-1')).body.errors[0].extensions.code).toBe('idempotency-key-reused');
      expect((await accept(STARTERS[0], ' bad key')).body.errors[0].extensions.code).toBe('validation-failed');

      const post = (days: number) =>
        graphqlRequest(
          h,
          `mutation($input: SeekInput!) { postSeek(input: $input, idempotencyKey: "gq-seek") { id status } }`,
          { input: { timeControl: { kind: 'correspondence', daysPerMove: days }, deck: { starter: STARTERS[0] } } },
          ann,
        );
      const seek = (await post(14).expect(200)).body.data.postSeek;
      expect((await post(14).expect(200)).body.data.postSeek).toEqual(seek);
      expect((await post(10)).body.errors[0].extensions.code).toBe('idempotency-key-reused');
      expect((await h.http.get('/v1/me/seeks').set(bearer(ann)).expect(200)).body.seeks).toHaveLength(1);
    });

    it('create, list, read, accept, decline and cancel answer what REST answers', async () => {
      const token = async (handle: string) => (await h.http.post('/v1/players').send({ handle }).expect(201)).body.token as string;
      const ann = await token('gq-ann');
      const ben = await token('gq-ben');

      const created = await graphqlRequest(
        h,
        `mutation($input: CreateChallengeInput!) { createChallenge(input: $input) { ${FIELDS} } }`,
        {
          input: {
            to: 'gq-ben',
            seat: 'p1',
            timeControl: { kind: 'live', initialSeconds: 300, incrementSeconds: 2 },
            rated: true,
            deck: { starter: STARTERS[2] },
          },
        },
        ann,
      ).expect(200);
      const c = created.body.data.createChallenge;
      expect(JSON.stringify(created.body)).not.toContain(STARTERS[2]);
      expect((await h.http.get(`/v1/challenges/${c.id}`).expect(200)).body).toEqual(c);

      const incoming = await graphqlRequest(
        h,
        `{ myChallenges(direction: in, status: open) { challenges { id } nextCursor } }`,
        {},
        ben,
      ).expect(200);
      expect(incoming.body.data.myChallenges).toEqual({ challenges: [{ id: c.id }], nextCursor: null });
      const read = await graphqlRequest(h, `query($id: ID!) { challenge(id: $id) { ${FIELDS} } }`, { id: c.id }).expect(200);
      expect(read.body.data.challenge).toEqual(c);

      const acc = await graphqlRequest(
        h,
        `mutation($id: ID!) { acceptChallenge(id: $id, deck: { starter: "${STARTERS[0]}" }) { challenge { status matchId } match { id seat token status } } }`,
        { id: c.id },
        ben,
      ).expect(200);
      const { challenge, match } = acc.body.data.acceptChallenge;
      expect(challenge).toEqual({ status: 'accepted', matchId: match.id });
      expect(match).toMatchObject({ seat: 'p2', status: 'active' });
      await h.http.get(`/v1/matches/${match.id}/legal-actions`).set(bearer(match.token)).expect(200);

      // The same codes: a second accept, a bad reason, someone else's cancel.
      const again = await graphqlRequest(
        h,
        `mutation($id: ID!) { acceptChallenge(id: $id, deck: { starter: "${STARTERS[0]}" }) { match { id } } }`,
        { id: c.id },
        ben,
      );
      expect(again.body.errors[0].extensions.code).toBe('challenge-closed');
      const c2 = (await h.http.post('/v1/challenges').set(bearer(ann)).send({ to: 'gq-ben' }).expect(201)).body.id;
      const bad = await graphqlRequest(
        h,
        `mutation($id: ID!) { declineChallenge(id: $id, reason: "sometime") { status } }`,
        { id: c2 },
        ben,
      );
      expect(bad.body.errors[0].extensions.code).toBe('validation-failed');
      const notMine = await graphqlRequest(h, `mutation($id: ID!) { cancelChallenge(id: $id) { status } }`, { id: c2 }, ben);
      expect(notMine.body.errors[0].extensions.code).toBe('not-your-challenge');
      const declined = await graphqlRequest(
        h,
        `mutation($id: ID!) { declineChallenge(id: $id, reason: "tooFast") { status declineReason } }`,
        { id: c2 },
        ben,
      ).expect(200);
      expect(declined.body.data.declineChallenge).toEqual({ status: 'declined', declineReason: 'tooFast' });
      const c3 = (await h.http.post('/v1/challenges').set(bearer(ann)).send({}).expect(201)).body.id;
      const canceled = await graphqlRequest(h, `mutation($id: ID!) { cancelChallenge(id: $id) { status } }`, { id: c3 }, ann).expect(200);
      expect(canceled.body.data.cancelChallenge).toEqual({ status: 'canceled' });
      const out = await graphqlRequest(h, `{ myChallenges(direction: out) { challenges { id status } } }`, {}, ann).expect(200);
      const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((x, y) => x.id.localeCompare(y.id));
      expect(byId(out.body.data.myChallenges.challenges)).toEqual(
        byId([
          { id: c3, status: 'canceled' },
          { id: c2, status: 'declined' },
          { id: c.id, status: 'accepted' },
        ]),
      );
      const missing = await graphqlRequest(h, `{ challenge(id: "ch_none") { id } }`);
      expect(missing.body.errors[0].extensions.code).toBe('challenge-not-found');
      // GraphQL takes any ID: one the service could never have issued (here with a NUL byte) is not found, not a 500.
      const nul = await graphqlRequest(h, `query($id: ID!) { challenge(id: $id) { id } }`, { id: 'ch_\u0000x' });
      expect(nul.body.errors[0].extensions.code).toBe('challenge-not-found');
    });
  });
}
