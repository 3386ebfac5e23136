/**
 * Bulk pairing (issue 25, item 5) on both databases: many matches between listed pairs of players,
 * each named by a token they gave the organizer; created now or at pairAt, once whichever node
 * sweeps; the tokens are checked and never stored or echoed; only the organizer sees it.
 */
import { describe, expect, it } from 'vitest';
import {
  backends,
  bearer,
  expectProblem,
  type Http,
  type RegisteredPlayer,
  registerPlayer,
  STARTERS,
  useHarness,
  useSecondApp,
} from '../helpers.js';
import { BulkPairingSchema } from '../../../src/http/routes/bulk-pairings.js';

type P = RegisteredPlayer;
const CORR = { kind: 'correspondence', daysPerMove: 2 };

/** A delegated token for one bulk pairing (pairing:play alone), as a player gives an organizer. */
async function pairingToken(http: Http, p: P): Promise<string> {
  return (
    await http
      .post('/v1/me/tokens')
      .set(bearer(p.token))
      .send({ label: 'for the organizer', scopes: ['pairing:play'] })
      .expect(201)
  ).body.token as string;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`bulk pairings [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });
    const other = useSecondApp(h);
    /** Registered players, each with `pairing`: the pairing:play token they give the organizer. */
    const field = (count: number, prefix: string) =>
      Promise.all(
        Array.from({ length: count }, async () => {
          const p = await registerPlayer(h.http, prefix);
          return { ...p, pairing: await pairingToken(h.http, p) };
        }),
      );
    const active = async (p: P) =>
      (await h.http.get(`/v1/matches?handle=${p.handle}&status=active`).expect(200)).body.matches as {
        id: string;
        seats: { handle: string | null }[];
      }[];

    it('pairs now: one match per pair with the asked clock, both players seated, visible to the organizer only', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(6, 'bp');
      const pairs = [0, 2, 4].map((i) => ({ p1: ps[i]!.pairing, p2: ps[i + 1]!.pairing }));
      const res = await h.http.post('/v1/bulk-pairings').set(bearer(org.token)).send({ pairs, timeControl: CORR }).expect(201);
      const b = BulkPairingSchema.parse(res.body);
      expect(res.headers.location).toBe(`/v1/bulk-pairings/${b.id}`);
      expect(b.status).toBe('created');
      expect(b.pairs.map((x) => [x.p1, x.p2])).toEqual([0, 2, 4].map((i) => [ps[i]!.handle, ps[i + 1]!.handle]));
      for (const [k, x] of b.pairs.entries()) {
        const m = (await h.http.get(`/v1/matches/${x.matchId}`).expect(200)).body;
        expect(m.status).toBe('active');
        expect(m.timeControl).toMatchObject({ kind: 'correspondence' });
        expect((await active(ps[2 * k]!)).map((a) => a.id)).toEqual([x.matchId]);
      }
      // No token is echoed anywhere; another player cannot read it.
      expect(JSON.stringify(b)).not.toContain('evp_');
      expect(
        (await h.http.get('/v1/bulk-pairings').set(bearer(org.token)).expect(200)).body.bulkPairings.map((x: { id: string }) => x.id),
      ).toEqual([b.id]);
      expectProblem(await h.http.get(`/v1/bulk-pairings/${b.id}`).set(bearer(ps[0]!.token)), 404, 'bulk-pairing-not-found');
      // The players play with their own tokens.
      const first = b.pairs[0]!;
      await h.http
        .post(`/v1/matches/${first.matchId}/actions`)
        .set(bearer(ps[1]!.token))
        .send({ action: { type: 'resign' } })
        .expect(200);
      expectProblem(await h.http.post(`/v1/bulk-pairings/${b.id}/cancel`).set(bearer(org.token)).send({}), 409, 'bulk-pairing-closed');
    });

    it('a scheduled pairing is created once when its time comes, though two nodes sweep at once; one cancelled before never is', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(4, 'sch');
      const pairAt = new Date(h.t.now + 3_600_000).toISOString();
      const b = (
        await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({
            pairs: [
              { p1: ps[0]!.pairing, p2: ps[1]!.pairing },
              { p1: ps[2]!.pairing, p2: ps[3]!.pairing },
            ],
            timeControl: CORR,
            pairAt,
          })
          .expect(201)
      ).body;
      expect(b).toMatchObject({ status: 'scheduled', pairAt });
      expect(b.pairs.every((x: { matchId: string | null }) => x.matchId === null)).toBe(true);
      const c = (
        await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({ pairs: [{ p1: await pairingToken(h.http, ps[0]!), p2: await pairingToken(h.http, ps[2]!) }], timeControl: CORR, pairAt })
          .expect(201)
      ).body;
      expect((await h.http.post(`/v1/bulk-pairings/${c.id}/cancel`).set(bearer(org.token)).send({}).expect(200)).body.status).toBe(
        'canceled',
      );
      await h.app.service.bulkPairings.sweep();
      expect((await active(ps[0]!)).length).toBe(0);
      h.t.now += 3_600_000;
      const won = await Promise.all([
        h.app.service.bulkPairings.sweep(),
        other.app.service.bulkPairings.sweep(),
        h.app.service.bulkPairings.sweep(),
      ]);
      expect(won.reduce((a, x) => a + x, 0)).toBe(1);
      const after = (await h.http.get(`/v1/bulk-pairings/${b.id}`).set(bearer(org.token)).expect(200)).body;
      expect(after.status).toBe('created');
      for (const p of ps) expect(await active(p)).toHaveLength(1);
      expect((await h.http.get(`/v1/bulk-pairings/${c.id}`).set(bearer(org.token)).expect(200)).body.status).toBe('canceled');
    });

    it('GraphQL: the same bulk pairing, answers and codes as REST', async () => {
      const org = await registerPlayer(h.http, 'org');
      const [a, b] = await field(2, 'gq');
      const gql = async (query: string, variables: Record<string, unknown> = {}) =>
        (await h.http.post('/graphql').set(bearer(org.token)).send({ query, variables }).expect(200)).body;
      const FIELDS =
        'id game timeControl { kind daysPerMove } rated pairAt status createdAt pairedAt pairs { board p1 p2 matchId unpairedReason }';
      const made = await gql(`mutation($input: CreateBulkPairingInput!) { createBulkPairing(input: $input) { ${FIELDS} } }`, {
        input: { pairs: [{ p1: a!.pairing, p2: b!.pairing }], timeControl: CORR },
      });
      const viaGql = made.data.createBulkPairing;
      const viaRest = (await h.http.get(`/v1/bulk-pairings/${viaGql.id}`).set(bearer(org.token)).expect(200)).body;
      expect(viaGql).toEqual({ ...viaRest, timeControl: { kind: 'correspondence', daysPerMove: 2 } });
      expect((await gql(`{ myBulkPairings { id } bulkPairing(id: "${viaGql.id}") { status } }`)).data).toEqual({
        myBulkPairings: [{ id: viaGql.id }],
        bulkPairing: { status: 'created' },
      });
      const bad = await gql(
        `mutation { createBulkPairing(input: { pairs: [{ p1: "evp_nope", p2: "${await pairingToken(h.http, b!)}" }], timeControl: { kind: "correspondence", daysPerMove: 2 } }) { id } }`,
      );
      expect(bad.errors[0].extensions).toMatchObject({
        code: 'validation-failed',
        status: 400,
        errors: ['pairs[0].p1: not a player token.'],
      });
      const closed = await gql(`mutation { cancelBulkPairing(id: "${viaGql.id}") { id } }`);
      expect(closed.errors[0].extensions).toMatchObject({ code: 'bulk-pairing-closed' });
      expect((await gql('{ bulkPairing(id: "bad id") { id } }')).errors[0].extensions).toMatchObject({ code: 'validation-failed' });
    });

    it('refuses unusable tokens, a player twice and a clockless match, naming the entries and never the tokens; stores nothing', async () => {
      const org = await registerPlayer(h.http, 'org');
      const [a, b, c] = await field(3, 'bad');
      const readOnly = (
        await h.http
          .post('/v1/me/tokens')
          .set(bearer(c!.token))
          .send({ scopes: ['match:read'] })
          .expect(201)
      ).body.token as string;
      const wide = (
        await h.http
          .post('/v1/me/tokens')
          .set(bearer(c!.token))
          .send({ scopes: ['pairing:play', 'match:play'] })
          .expect(201)
      ).body.token as string;
      const res = await h.http
        .post('/v1/bulk-pairings')
        .set(bearer(org.token))
        .send({
          pairs: [
            { p1: a!.pairing, p2: 'evp_not-a-token' },
            { p1: readOnly, p2: a!.pairing },
            { p1: b!.token, p2: wide },
          ],
          timeControl: CORR,
        });
      expectProblem(res, 400, 'validation-failed');
      expect((res.body as { errors: string[] }).errors).toEqual([
        'pairs[0].p2: not a player token.',
        'pairs[1].p1: the token lacks pairing:play.',
        `pairs[1].p2: ${a!.handle} is paired already (pairs[0].p1).`,
        // A token that acts in every match of its player (match:play) is no consent to one pairing.
        'pairs[2].p1: the token lacks pairing:play.',
        'pairs[2].p2: a pairing takes a token with pairing:play and no other scope.',
      ]);
      expect(JSON.stringify(res.body)).not.toContain(readOnly);
      expect(JSON.stringify(res.body)).not.toContain(wide);
      expect(JSON.stringify(res.body)).not.toContain('evp_not-a-token');
      expectProblem(
        await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({ pairs: [{ p1: a!.pairing, p2: b!.pairing }], timeControl: { kind: 'none' } }),
        400,
        'validation-failed',
      );
      expectProblem(
        await h.http.post('/v1/bulk-pairings').send({ pairs: [{ p1: a!.pairing, p2: b!.pairing }], timeControl: CORR }),
        401,
        'missing-token',
      );
      expect((await h.http.get('/v1/bulk-pairings').set(bearer(org.token)).expect(200)).body.bulkPairings).toEqual([]);
      expect(await active(a!)).toHaveLength(0);
      expectProblem(await h.http.get('/v1/bulk-pairings/bp_unknown').set(bearer(org.token)), 404, 'bulk-pairing-not-found');
    });

    it("a pairing:play token acts in its own pairing's matches only, and is bound to the one pairing it was given for (issue 34 item 10)", async () => {
      const org = await registerPlayer(h.http, 'org');
      const [a, b, c] = await field(3, 'scope');
      const first = (
        await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({ pairs: [{ p1: a!.pairing, p2: b!.pairing }], timeControl: CORR })
          .expect(201)
      ).body;
      const aSecond = await pairingToken(h.http, a!);
      const second = (
        await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({ pairs: [{ p1: c!.pairing, p2: aSecond }], timeControl: CORR })
          .expect(201)
      ).body;
      const mine = first.pairs[0].matchId as string;
      const other = second.pairs[0].matchId as string;
      // The organizer holding a's first token cannot resign a's match of the other pairing, nor read it as a's seat.
      expectProblem(
        await h.http
          .post(`/v1/matches/${other}/actions`)
          .set(bearer(a!.pairing))
          .send({ action: { type: 'resign' } }),
        403,
        'insufficient-scope',
      );
      expectProblem(await h.http.get(`/v1/matches/${other}`).set(bearer(a!.pairing)), 403, 'insufficient-scope');
      expect((await h.http.get(`/v1/matches/${other}`).expect(200)).body.status).toBe('active');
      // Nor anything else of a's account.
      expectProblem(await h.http.get('/v1/me/tokens').set(bearer(a!.pairing)), 403, 'insufficient-scope');
      expectProblem(
        await h.http
          .post('/v1/matches')
          .set(bearer(a!.pairing))
          .send({ decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } }),
        403,
        'insufficient-scope',
      );
      // The token is bound to the first pairing: a second pairing cannot use it.
      const again = await h.http
        .post('/v1/bulk-pairings')
        .set(bearer(org.token))
        .send({ pairs: [{ p1: a!.pairing, p2: (await field(1, 'scope'))[0]!.pairing }], timeControl: CORR });
      expectProblem(again, 400, 'validation-failed');
      expect(again.body.errors).toEqual(['pairs[0].p1: the token was given for another bulk pairing.']);
      // In its own pairing's match it reads as a's seat and plays.
      expect((await h.http.get(`/v1/matches/${mine}`).set(bearer(a!.pairing)).expect(200)).body.seat).toBe('p1');
      await h.http
        .post(`/v1/matches/${mine}/actions`)
        .set(bearer(a!.pairing))
        .send({ action: { type: 'resign' } })
        .expect(200);
      expect((await h.http.get(`/v1/matches/${other}`).expect(200)).body.status).toBe('active');
    });

    it('consent is checked again when it pairs: a player who revoked the token before pairAt is not paired, and the board says why (issue 33 item 6)', async () => {
      const org = await registerPlayer(h.http, 'org');
      const [a, b, c, d] = await field(4, 'consent');
      const mint = async (p: P) =>
        (
          await h.http
            .post('/v1/me/tokens')
            .set(bearer(p.token))
            .send({ scopes: ['pairing:play'] })
            .expect(201)
        ).body as { token: string; tokenInfo: { id: string } };
      const cToken = await mint(c!);
      const pairAt = new Date(h.t.now + 3_600_000).toISOString();
      const made = (
        await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({
            pairs: [
              { p1: a!.pairing, p2: b!.pairing },
              { p1: cToken.token, p2: d!.pairing },
            ],
            timeControl: CORR,
            pairAt,
          })
          .expect(201)
      ).body;
      expect(made.pairs.map((x: { unpairedReason: string | null }) => x.unpairedReason)).toEqual([null, null]);
      // c takes the consent back before pairAt.
      await h.http.delete(`/v1/me/tokens/${cToken.tokenInfo.id}`).set(bearer(c!.token)).expect(204);
      h.t.now += 3_600_000;
      expect(await h.app.service.bulkPairings.sweep()).toBe(1);
      const after = (await h.http.get(`/v1/bulk-pairings/${made.id}`).set(bearer(org.token)).expect(200)).body;
      expect(BulkPairingSchema.parse(after).status).toBe('created');
      expect(after.pairs[0]).toMatchObject({ board: 1, unpairedReason: null });
      expect(after.pairs[0].matchId).not.toBeNull();
      expect(after.pairs[1]).toMatchObject({ board: 2, matchId: null, unpairedReason: 'consent-revoked' });
      expect(await active(a!)).toHaveLength(1);
      expect(await active(c!)).toHaveLength(0);
      expect(await active(d!)).toHaveLength(0);
    });

    it('pairAt is at most 30 days ahead: further is 400 pair-at-out-of-range, and nothing is stored (issue 33 item 6)', async () => {
      const org = await registerPlayer(h.http, 'org');
      const [a, b] = await field(2, 'horizon');
      const day = 86_400_000;
      for (const pairAt of [new Date(h.t.now + 30 * day + 1_000).toISOString(), '9999-12-31T00:00:00Z']) {
        const res = await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({ pairs: [{ p1: a!.pairing, p2: b!.pairing }], timeControl: CORR, pairAt });
        expectProblem(res, 400, 'pair-at-out-of-range');
      }
      expect((await h.http.get('/v1/bulk-pairings').set(bearer(org.token)).expect(200)).body.bulkPairings).toEqual([]);
      const edge = new Date(h.t.now + 30 * day).toISOString();
      expect(
        (
          await h.http
            .post('/v1/bulk-pairings')
            .set(bearer(org.token))
            .send({ pairs: [{ p1: a!.pairing, p2: b!.pairing }], timeControl: CORR, pairAt: edge })
            .expect(201)
        ).body.status,
      ).toBe('scheduled');
    });
  });
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`bulk pairing budget [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true, bulkPairingsPerMinute: 3 });
    const other = useSecondApp(h, { bulkPairingsPerMinute: 3 });

    it('an organizer pairs at most BULK_PAIRING_PER_MINUTE matches a minute, over every node: past it 429 with Retry-After; at most 200 per call (issue 33 item 6)', async () => {
      const org = await registerPlayer(h.http, 'budget');
      const players = await Promise.all(Array.from({ length: 10 }, () => registerPlayer(h.http, 'budget')));
      const tokens = await Promise.all(players.map((p) => pairingToken(h.http, p)));
      const pair = (i: number) => ({ p1: tokens[2 * i]!, p2: tokens[2 * i + 1]! });
      await h.http
        .post('/v1/bulk-pairings')
        .set(bearer(org.token))
        .send({ pairs: [pair(0), pair(1)], timeControl: CORR })
        .expect(201);
      h.t.now += 20_000;
      // Two more would be 4 in the minute: refused on the other node too, and nothing is stored or bound.
      const over = await other.http
        .post('/v1/bulk-pairings')
        .set(bearer(org.token))
        .send({ pairs: [pair(2), pair(3)], timeControl: CORR });
      expectProblem(over, 429, 'too-many-bulk-pairings');
      expect(over.headers['retry-after']).toBe('40');
      expect((await h.http.get('/v1/bulk-pairings').set(bearer(org.token)).expect(200)).body.bulkPairings).toHaveLength(1);
      // One more fits (3 in the minute); then the minute is full.
      await h.http
        .post('/v1/bulk-pairings')
        .set(bearer(org.token))
        .send({ pairs: [pair(2)], timeControl: CORR })
        .expect(201);
      expectProblem(
        await h.http
          .post('/v1/bulk-pairings')
          .set(bearer(org.token))
          .send({ pairs: [pair(3)], timeControl: CORR }),
        429,
        'too-many-bulk-pairings',
      );
      // Once the first pairing is a minute old, its two matches are free again.
      h.t.now += 40_000;
      await h.http
        .post('/v1/bulk-pairings')
        .set(bearer(org.token))
        .send({ pairs: [pair(3), pair(4)], timeControl: CORR })
        .expect(201);
      // More than 200 pairs in one call: 400, whatever the budget.
      const many = Array.from({ length: 201 }, (_, i) => ({ p1: `evp_a${i}`, p2: `evp_b${i}` }));
      expectProblem(
        await h.http.post('/v1/bulk-pairings').set(bearer(org.token)).send({ pairs: many, timeControl: CORR }),
        400,
        'validation-failed',
      );
    });
  });
}
