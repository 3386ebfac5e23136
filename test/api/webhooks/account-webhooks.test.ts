/**
 * Account webhooks (issue 23, item 5), on both databases and two nodes, against a real local
 * receiver: every entry of a player's account feed (challenges, match starts, turns, ends) is
 * POSTed, signed as Standard Webhooks, in feed order, with the stored entry as its body; a kind
 * filter; a seat's webhooks beside them unchanged; the delivery log, redelivery, rotation and
 * deletion; limits and problem codes (REST and GraphQL); nothing hidden in any body; retries
 * through a failing receiver.
 *
 * No worker here polls (pollMs 0): the deliveries a trigger queues reach a receiver only because
 * the feed's notification wakes a worker (without it the log and GraphQL tests time out; the
 * first is also woken by its seat webhook's appends). The retry test starts a polling worker.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountWebhookDeliveryBodySchema } from '../../../src/http/account-webhook-schemas.js';
import { FEED_KINDS } from '../../../src/contract/kinds.js';
import { WebhookWorker } from '../../../src/service/webhooks/worker.js';
import type { GameState, Seat } from '../../../src/games/evons/index.js';
import { STARTERS, backends, bearer, expectProblem, nextMove, useHarness, useSecondApp, type Http } from '../helpers.js';
import { assertNoLeak, secretsFor } from '../secrecy/secrecy.js';
import { Receiver, waitFor, type Received } from './webhook-receiver.js';

const WEBHOOKS = { allowPrivate: true, worker: { pollMs: 0, backoffMs: [50] }, maxPerAccount: 2, maxRedeliveries: 1 };
const CORRESPONDENCE = { kind: 'correspondence', daysPerMove: 3 };

interface Body {
  type: string;
  timestamp: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads fields of every kind of entry
  data: Record<string, any> & { entryId: string };
}

const body = (r: Received) => JSON.parse(r.body) as Body;
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers) as Body;

let n = 0;
async function player(http: Http, prefix: string): Promise<{ handle: string; token: string }> {
  const handle = `${prefix}${++n}`;
  const res = await http.post('/v1/players').send({ handle }).expect(201);
  return { handle, token: res.body.token as string };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`account webhooks [${backend.name}]`, () => {
    let rx: Receiver;
    let p = 0;
    const path = (label: string) => `/${label}-${++p}`;
    beforeAll(async () => {
      rx = await Receiver.start();
    });
    afterAll(async () => {
      await rx?.close();
    });
    const h = useHarness(backend, { clock: 'now', webhooks: WEBHOOKS, challenges: { perHour: 50 } });
    const other = useSecondApp(h, { webhooks: WEBHOOKS, challenges: { perHour: 50 } });

    async function register(http: Http, token: string, url: string, events?: string[]) {
      const r = await http
        .post('/v1/me/webhooks')
        .set(bearer(token))
        .send(events ? { url, events } : { url })
        .expect(201);
      expect(r.body.secret).toMatch(/^whsec_/);
      expect(r.headers['cache-control']).toBe('private, no-store');
      return { id: r.body.id as string, secret: r.body.secret as string, events: r.body.events as string[] };
    }

    /** The player's feed entries as the database stored them, in feed order, as the body of each delivery must be. */
    async function expectedBodies(token: string, kinds: readonly string[]): Promise<Body[]> {
      const me = await h.app.service.players.player(token, 'match:read');
      const rows = await h.store.feed.between(me.id, '0-0', '18446744073709551615-0', 1000);
      return rows
        .filter((r) => kinds.includes(r.kind))
        .map((r) => ({ type: r.kind, timestamp: r.createdAt.toISOString(), data: { entryId: r.position, ...r.data } }));
    }

    async function log(http: Http, token: string, webhookId: string) {
      const r = await http.get(`/v1/me/webhooks/${webhookId}/deliveries?limit=100`).set(bearer(token)).expect(200);
      return r.body.deliveries as {
        id: string;
        kind: string;
        entryId: string;
        status: string;
        attempts: number;
        lastStatusCode: number | null;
        nextAttemptAt: string | null;
      }[];
    }

    it('a challenge, its acceptance, turns and the end reach each account webhook signed, in feed order, with the stored entries; a kind filter holds; a seat webhook beside them is unchanged; nothing hidden', async () => {
      const alice = await player(h.http, 'alice');
      const bob = await player(h.http, 'bob');
      const pa = path('alice');
      const pb = path('bob');
      // Alice registers on the first node (every kind), Bob on the second (two kinds).
      const ha = await register(h.http, alice.token, rx.url(pa));
      expect(ha.events).toEqual([...FEED_KINDS]);
      const hb = await register(other.http, bob.token, rx.url(pb), ['your-turn', 'match-ended', 'your-turn']);
      expect(hb.events).toEqual(['your-turn', 'match-ended']);
      const listed = await h.http.get('/v1/me/webhooks').set(bearer(alice.token)).expect(200);
      expect(listed.body.webhooks).toEqual([
        {
          id: ha.id,
          url: rx.url(pa),
          events: [...FEED_KINDS],
          status: 'active',
          failingSince: null,
          disabledReason: null,
          createdAt: expect.any(String),
        },
      ]);

      const c = (
        await other.http
          .post('/v1/challenges')
          .set(bearer(alice.token))
          .send({ to: bob.handle, seat: 'p1', timeControl: CORRESPONDENCE, deck: { starter: STARTERS[0] } })
          .expect(201)
      ).body;
      await h.http
        .post(`/v1/challenges/${c.id}/accept`)
        .set(bearer(bob.token))
        .send({ deck: { starter: STARTERS[1] } })
        .expect(200);
      const matchId = (await h.http.get(`/v1/challenges/${c.id}`).expect(200)).body.matchId as string;
      const tokens = { p1: alice.token, p2: bob.token };
      // Bob's seat webhook, registered with his player token: its deliveries keep their own shape.
      const ps = path('bob-seat');
      const seatHook = (
        await h.http
          .post(`/v1/matches/${matchId}/webhooks`)
          .set(bearer(bob.token))
          .send({ url: rx.url(ps), events: ['your-turn', 'match-ended'] })
          .expect(201)
      ).body;

      // Decisions until each seat has had the turn handed to it, on both nodes, then Alice resigns.
      const handed = new Set<Seat>();
      let toMove = (await h.http.get(`/v1/matches/${matchId}`).expect(200)).body.game.pending.seat as Seat;
      for (let i = 0; i < 60 && handed.size < 2; i++) {
        const mv = await nextMove(h, matchId, tokens);
        const node = i % 2 === 0 ? h : other;
        await node.http.post(`/v1/matches/${matchId}/actions`).set(bearer(tokens[mv.seat])).send({ action: mv.action }).expect(200);
        const next = (await h.http.get(`/v1/matches/${matchId}`).expect(200)).body.game.pending?.seat as Seat | undefined;
        if (next && next !== toMove) handed.add(next);
        if (next) toMove = next;
      }
      expect(handed.size).toBe(2);
      await other.http
        .post(`/v1/matches/${matchId}/actions`)
        .set(bearer(alice.token))
        .send({ action: { type: 'resign' } })
        .expect(200);

      const wantA = await expectedBodies(alice.token, FEED_KINDS);
      const wantB = await expectedBodies(bob.token, ['your-turn', 'match-ended']);
      expect(wantA.map((b) => b.type)).toEqual(expect.arrayContaining(['challenge-accepted', 'match-started', 'your-turn', 'match-ended']));
      expect(wantB.map((b) => b.type)).toContain('your-turn');
      expect(wantB.at(-1)!.type).toBe('match-ended');
      await waitFor(() => rx.on(pa).length >= wantA.length && rx.on(pb).length >= wantB.length, 'every account delivery');

      const truth = (await h.app.service.load(matchId, undefined)).state as GameState;
      for (const [got, want, hook, seat] of [
        [rx.on(pa), wantA, ha, 'p1'],
        [rx.on(pb), wantB, hb, 'p2'],
      ] as const) {
        // Exactly the entries of the kinds asked for, once each, in feed order, as stored.
        expect(got.map((r) => verify(hook.secret, r))).toEqual(want);
        // The receiver answers before the sender records the answer: wait for the log to catch up.
        const deliveries = await waitFor(async () => {
          const rows = await log(h.http, seat === 'p1' ? alice.token : bob.token, hook.id);
          return rows.length === want.length && rows.every((x) => x.status === 'delivered') && rows;
        }, 'every delivery logged as delivered');
        for (const r of got) {
          const b = body(r);
          AccountWebhookDeliveryBodySchema.parse(b);
          // webhook-id is the delivery's id in the log, which names the entry.
          const d = deliveries.find((x) => x.id === r.headers['webhook-id'])!;
          expect(d).toMatchObject({
            kind: b.type,
            entryId: b.data.entryId,
            status: 'delivered',
            attempts: 1,
            lastStatusCode: 200,
            nextAttemptAt: null,
          });
          // Public facts only: no card of a deck or hidden hand, no seed, no token, no deck.
          assertNoLeak(r.body, secretsFor(truth, seat), `${b.type} to ${seat}`);
          for (const secret of [alice.token, bob.token, hook.secret, seatHook.secret]) expect(r.body).not.toContain(secret);
          expect(r.body).not.toMatch(/"(deck|decks|seed|token|tokens|hand|hands)"/);
          expect(r.body).not.toContain(STARTERS[0]);
        }
        expect(deliveries).toHaveLength(want.length);
      }
      expect(rx.on(pb).map((r) => body(r).type)).not.toContain('challenge-received');

      // The seat webhook: its own body (the match's version and events), as before.
      await waitFor(() => rx.on(ps).some((r) => body(r).type === 'match-ended'), 'the seat delivery of the end');
      for (const r of rx.on(ps)) {
        const b = new Webhook(seatHook.secret).verify(r.body, r.headers) as { type: string; data: Record<string, unknown> };
        expect(Object.keys(b.data).sort()).toEqual(['deadline', 'events', 'gameId', 'matchId', 'seat', 'toMove', 'version']);
        expect(b.data.seat).toBe('p2');
      }
      const seatLog = (await h.http.get(`/v1/matches/${matchId}/webhooks/${seatHook.id}/deliveries`).set(bearer(bob.token)).expect(200))
        .body.deliveries as { version: number }[];
      expect(seatLog.every((d) => typeof d.version === 'number')).toBe(true);
      // Neither list shows the other's endpoints.
      expect(
        (await h.http.get(`/v1/matches/${matchId}/webhooks`).set(bearer(bob.token)).expect(200)).body.webhooks.map(
          (w: { id: string }) => w.id,
        ),
      ).toEqual([seatHook.id]);
      expect(
        (await h.http.get('/v1/me/webhooks').set(bearer(bob.token)).expect(200)).body.webhooks.map((w: { id: string }) => w.id),
      ).toEqual([hb.id]);
    });

    it('the delivery log, redelivery (same id and body, then delivery-pending and redelivery-limit), rotation (two signatures), deletion; limits and problem codes', async () => {
      const cy = await player(h.http, 'cy');
      const dee = await player(h.http, 'dee');
      const pc = path('cy');
      const hook = await register(h.http, cy.token, rx.url(pc), ['challenge-received', 'challenge-canceled']);
      await register(h.http, cy.token, rx.url(path('cy-second')), ['seek-paired']);
      // WEBHOOK_MAX_PER_ACCOUNT (2 here): one more is refused and stores nothing; another player has their own.
      expectProblem(
        await h.http
          .post('/v1/me/webhooks')
          .set(bearer(cy.token))
          .send({ url: rx.url('/x') }),
        409,
        'too-many-webhooks',
      );
      expect((await h.http.get('/v1/me/webhooks').set(bearer(cy.token)).expect(200)).body.webhooks).toHaveLength(2);
      const pd = path('dee');
      const deeHook = await register(h.http, dee.token, rx.url(pd), ['challenge-declined']);

      // Bad input: stable codes, nothing stored.
      for (const bad of [
        { url: 'ftp://example.com/' },
        { url: rx.url('/x'), events: [] },
        { url: rx.url('/x'), events: ['opponent-joined'] },
        { url: rx.url('/x'), extra: 1 },
        {},
      ]) {
        expectProblem(await h.http.post('/v1/me/webhooks').set(bearer(dee.token)).send(bad), 400, 'validation-failed');
      }
      expect((await h.http.get('/v1/me/webhooks').set(bearer(dee.token)).expect(200)).body.webhooks).toHaveLength(1);
      // Credentials: none, a seat token, a token without the scope.
      expectProblem(await h.http.get('/v1/me/webhooks'), 401, 'missing-token');
      const seatToken = (
        await h.http
          .post('/v1/matches')
          .send({ handle: 'anon', openSeat: true, decks: { p1: { starter: STARTERS[0] } } })
          .expect(201)
      ).body.tokens.p1 as string;
      expectProblem(await h.http.get('/v1/me/webhooks').set(bearer(seatToken)), 401, 'invalid-token');
      const readOnly = (
        await h.http
          .post('/v1/me/tokens')
          .set(bearer(cy.token))
          .send({ scopes: ['match:read'] })
          .expect(201)
      ).body.token as string;
      expectProblem(
        await h.http
          .post('/v1/me/webhooks')
          .set(bearer(readOnly))
          .send({ url: rx.url('/x') }),
        403,
        'insufficient-scope',
      );
      expectProblem(await h.http.post(`/v1/me/webhooks/${hook.id}/rotate-secret`).set(bearer(readOnly)), 403, 'insufficient-scope');
      expectProblem(await h.http.delete(`/v1/me/webhooks/${hook.id}`).set(bearer(readOnly)), 403, 'insufficient-scope');
      await h.http.get(`/v1/me/webhooks/${hook.id}/deliveries`).set(bearer(readOnly)).expect(200);
      // Someone else's webhook (an account's or a seat's) is not found; an id that is not one is refused.
      expectProblem(await h.http.get(`/v1/me/webhooks/${deeHook.id}/deliveries`).set(bearer(cy.token)), 404, 'webhook-not-found');
      expectProblem(await h.http.delete(`/v1/me/webhooks/${deeHook.id}`).set(bearer(cy.token)), 404, 'webhook-not-found');
      expectProblem(await h.http.get('/v1/me/webhooks/nope/deliveries').set(bearer(cy.token)), 400, 'validation-failed');
      expectProblem(
        await h.http.post(`/v1/me/webhooks/${hook.id}/deliveries/msg_${'0'.repeat(32)}/redeliver`).set(bearer(cy.token)),
        404,
        'delivery-not-found',
      );

      // An entry: Dee challenges Cy (on the second node).
      const ch = (await other.http.post('/v1/challenges').set(bearer(dee.token)).send({ to: cy.handle }).expect(201)).body;
      const first = await waitFor(() => rx.on(pc)[0], 'challenge-received');
      expect(verify(hook.secret, first)).toEqual({
        type: 'challenge-received',
        timestamp: expect.any(String),
        data: { entryId: expect.stringMatching(/^[0-9]+-[0-9]+$/), ...ch },
      });
      const [d] = await waitFor(async () => {
        const l = await log(h.http, cy.token, hook.id);
        return l.length === 1 && l[0]!.status === 'delivered' && l;
      }, 'the delivered log entry');
      expect(d).toMatchObject({
        id: first.headers['webhook-id'],
        kind: 'challenge-received',
        entryId: body(first).data.entryId,
        attempts: 1,
      });

      // Redelivery: held at the receiver, it is pending (409 delivery-pending); released, it is the same message.
      const gate = rx.gate(pc);
      const again = await h.http.post(`/v1/me/webhooks/${hook.id}/deliveries/${d!.id}/redeliver`).set(bearer(cy.token)).expect(202);
      expect(again.body).toMatchObject({ id: d!.id, status: 'pending' });
      await waitFor(() => rx.on(pc).length === 2, 'the redelivery');
      expectProblem(
        await h.http.post(`/v1/me/webhooks/${hook.id}/deliveries/${d!.id}/redeliver`).set(bearer(cy.token)),
        409,
        'delivery-pending',
      );
      gate.release();
      await waitFor(async () => (await log(h.http, cy.token, hook.id))[0]!.status === 'delivered', 'the redelivery settled');
      expect(rx.on(pc)[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(rx.on(pc)[1]!.body).toBe(first.body);
      // WEBHOOK_MAX_REDELIVERIES (1 here).
      expectProblem(
        await h.http.post(`/v1/me/webhooks/${hook.id}/deliveries/${d!.id}/redeliver`).set(bearer(cy.token)),
        409,
        'redelivery-limit',
      );

      // Rotation: the next delivery carries a signature per secret.
      const rotated = (await h.http.post(`/v1/me/webhooks/${hook.id}/rotate-secret`).set(bearer(cy.token)).expect(200)).body;
      expect(rotated.secret).not.toBe(hook.secret);
      await other.http.post(`/v1/challenges/${ch.id}/cancel`).set(bearer(dee.token)).send({}).expect(200);
      const canceled = await waitFor(() => rx.on(pc).find((r) => body(r).type === 'challenge-canceled'), 'challenge-canceled');
      expect(canceled.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      expect(verify(rotated.secret, canceled).data).toMatchObject({ entryId: expect.any(String), id: ch.id, status: 'canceled' });
      expect(verify(hook.secret, canceled).type).toBe('challenge-canceled');
      // Dee's filter (challenge-declined only) let nothing through.
      expect(rx.on(pd)).toHaveLength(0);

      // Deletion: gone with its log; later entries queue nothing for it.
      await h.http.delete(`/v1/me/webhooks/${hook.id}`).set(bearer(cy.token)).expect(204);
      expectProblem(await h.http.get(`/v1/me/webhooks/${hook.id}/deliveries`).set(bearer(cy.token)), 404, 'webhook-not-found');
      expectProblem(await h.http.delete(`/v1/me/webhooks/${hook.id}`).set(bearer(cy.token)), 404, 'webhook-not-found');
      const seen = rx.on(pc).length;
      await other.http.post('/v1/challenges').set(bearer(dee.token)).send({ to: cy.handle }).expect(201);
      // The outbox holds nothing for it (the cascade took its log; the trigger queues nothing new).
      expect(await h.store.webhooks.accountDeliveries(hook.id, 100)).toEqual([]);
      expect(rx.on(pc).length).toBe(seen);
    });

    it('GraphQL: register, list with the delivery log, rotate, redeliver, delete, with the REST codes', async () => {
      const eve = await player(h.http, 'eve');
      const fay = await player(h.http, 'fay');
      const pe = path('eve');
      const gql = async (token: string, query: string) =>
        (await h.http.post('/graphql').set(bearer(token)).send({ query }).expect(200)).body;
      const reg = await gql(
        eve.token,
        `mutation { registerAccountWebhook(webhook: { url: "${rx.url(pe)}", events: ["challenge-received"] }) { secret webhook { id events status } } }`,
      );
      const created = reg.data.registerAccountWebhook;
      expect(created.webhook).toMatchObject({ events: ['challenge-received'], status: 'active' });
      await h.http.post('/v1/challenges').set(bearer(fay.token)).send({ to: eve.handle }).expect(201);
      const got = await waitFor(() => rx.on(pe)[0], 'the delivery');
      expect(verify(created.secret, got).type).toBe('challenge-received');
      const listed = await waitFor(async () => {
        const r = await gql(eve.token, '{ myWebhooks { id deliveries { id kind entryId status } } }');
        return r.data.myWebhooks[0].deliveries[0]?.status === 'delivered' && r.data.myWebhooks;
      }, 'the delivered entry');
      expect(listed).toEqual([
        {
          id: created.webhook.id,
          deliveries: [{ id: got.headers['webhook-id'], kind: 'challenge-received', entryId: body(got).data.entryId, status: 'delivered' }],
        },
      ]);
      const rotated = await gql(eve.token, `mutation { rotateAccountWebhookSecret(webhookId: "${created.webhook.id}") { secret } }`);
      expect(rotated.data.rotateAccountWebhookSecret.secret).toMatch(/^whsec_/);
      const re = await gql(
        eve.token,
        `mutation { redeliverAccountWebhook(webhookId: "${created.webhook.id}", deliveryId: "${got.headers['webhook-id']}") { id status } }`,
      );
      expect(re.data.redeliverAccountWebhook).toEqual({ id: got.headers['webhook-id'], status: 'pending' });
      await waitFor(() => rx.on(pe).length === 2, 'the redelivery');
      const bad = await gql(eve.token, 'mutation { registerAccountWebhook(webhook: { url: "http://x/", events: ["nope"] }) { secret } }');
      expect(bad.errors[0].extensions.code).toBe('validation-failed');
      const other404 = await gql(fay.token, `mutation { deleteAccountWebhook(webhookId: "${created.webhook.id}") }`);
      expect(other404.errors[0].extensions.code).toBe('webhook-not-found');
      const junk = await gql(eve.token, 'mutation { deleteAccountWebhook(webhookId: "wh_\\u0000") }');
      expect(junk.errors[0].extensions.code).toBe('webhook-not-found');
      expect(
        (await gql(eve.token, `mutation { deleteAccountWebhook(webhookId: "${created.webhook.id}") }`)).data.deleteAccountWebhook,
      ).toBe(true);
      expect((await gql(eve.token, '{ myWebhooks { id } }')).data.myWebhooks).toEqual([]);
    });

    it('a failing receiver: retried with the same webhook-id and body until it answers, as a seat webhook is', async () => {
      const gus = await player(h.http, 'gus');
      const hal = await player(h.http, 'hal');
      const pg = path('gus');
      const hook = await register(h.http, gus.token, rx.url(pg), ['challenge-received']);
      rx.plan(pg, 500, 500);
      // The nodes' workers do not poll: a worker that does takes the retries (as on a server with WEBHOOK_POLL_MS).
      const poller = new WebhookWorker(h.store.webhooks, (d) => h.app.service.webhooks.bodyOf(d), {
        allowPrivate: true,
        pollMs: 20,
        backoffMs: [20],
      });
      poller.start();
      try {
        await other.http.post('/v1/challenges').set(bearer(hal.token)).send({ to: gus.handle }).expect(201);
        const [a, b, c] = await waitFor(() => rx.on(pg).length >= 3 && rx.on(pg), 'two failures and a success');
        expect([a!.answered, b!.answered, c!.answered]).toEqual([500, 500, 200]);
        expect(new Set([a, b, c].map((r) => r!.headers['webhook-id'])).size).toBe(1);
        expect(new Set([a, b, c].map((r) => r!.body)).size).toBe(1);
        expect(verify(hook.secret, c!).type).toBe('challenge-received');
        const [d] = await waitFor(async () => {
          const l = await log(h.http, gus.token, hook.id);
          return l[0]?.status === 'delivered' && l;
        }, 'the log');
        expect(d).toMatchObject({ attempts: 3, lastStatusCode: 200 });
        const listed = (await h.http.get('/v1/me/webhooks').set(bearer(gus.token)).expect(200)).body.webhooks[0];
        expect(listed).toMatchObject({ status: 'active', failingSince: null });
      } finally {
        await poller.stop();
      }
    });
  });
}
