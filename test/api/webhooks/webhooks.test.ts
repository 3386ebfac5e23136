/**
 * Issue 9, "your turn" webhooks, over HTTP on both databases, against a real local receiver:
 * Standard Webhooks signatures (verified with the `standardwebhooks` reference package), which
 * seat hears what and when, bodies redacted like the event page, retries and giving up, the
 * outbox untouched by refused or replayed moves, secret rotation, the delivery log, redelivery,
 * deletion, SSRF refusals and the outbound limits (answer size, timeout), and the errors.
 */
import os from 'node:os';
import dns from 'node:dns/promises';
import supertest from 'supertest';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { isPrivateAddress, postJson } from '../../../src/service/webhooks/outbound.js';
import { WebhookWorker } from '../../../src/service/webhooks/worker.js';
import type { GameState, Seat } from '../../../src/games/evons/index.js';
import { backends, bearer, createHotSeat, expectProblem, nextMove, STARTERS, useHarness } from '../helpers.js';
import { assertNoLeak, secretsFor } from '../secrecy/secrecy.js';
import { Receiver, waitFor, type Received } from './webhook-receiver.js';
import { doc, validatorFor } from '../../contract/document.js';

const FAST = { pollMs: 50, backoffMs: [50], giveUpAfterMs: 3_600_000 };

interface Body {
  type: string;
  timestamp: string;
  data: {
    matchId: string;
    gameId: string;
    seat: Seat;
    version: number;
    toMove: Seat | null;
    deadline: string | null;
    events: { seq: number }[];
  };
}

const json = (r: Received) => JSON.parse(r.body) as Body;
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers);

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`issue 9 webhooks [${backend.name}]`, () => {
    let rx: Receiver;
    let n = 0;
    /** A fresh receiver path per endpoint, so tests do not see each other's deliveries. */
    const path = (label: string) => `/${label}-${++n}`;

    // The receiver starts before the app (and its delivery worker) and closes after it.
    beforeAll(async () => {
      rx = await Receiver.start();
    });
    afterAll(async () => {
      await rx?.close();
    });
    /** Webhooks (private addresses allowed) and an injected clock (h.t.now) starting at the wall clock. */
    const h = useHarness(backend, { clock: 'now', webhooks: { allowPrivate: true, worker: FAST } });

    const truth = async (id: string) => (await h.app.service.load(id, undefined)).state as GameState;

    async function register(
      id: string,
      token: string,
      p: string,
      events = ['your-turn', 'opponent-joined', 'match-ended', 'deadline-near'],
      extra: object = {},
    ) {
      const r = await h.http
        .post(`/v1/matches/${id}/webhooks`)
        .set(bearer(token))
        .send({ url: rx.url(p), events, ...extra })
        .expect(201);
      expect(r.body.secret).toMatch(/^whsec_/);
      return { id: r.body.id as string, secret: r.body.secret as string };
    }

    async function deliveries(id: string, token: string, webhookId: string) {
      const r = await h.http.get(`/v1/matches/${id}/webhooks/${webhookId}/deliveries?limit=100`).set(bearer(token)).expect(200);
      return r.body.deliveries as {
        id: string;
        kind: string;
        version: number;
        status: string;
        attempts: number;
        nextAttemptAt: string | null;
        lastStatusCode: number | null;
        lastError: string | null;
      }[];
    }

    async function move(id: string, tokens: Record<Seat, string>) {
      const m = await nextMove(h, id, tokens);
      const r = await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[m.seat])).send({ action: m.action }).expect(200);
      return { seat: m.seat, before: m.version, after: r.body.version as number };
    }

    const toMoveOf = async (id: string) =>
      ((await h.http.get(`/v1/matches/${id}`).expect(200)).body.game.pending?.seat ?? null) as Seat | null;

    it('signatures: deliveries verify with standardwebhooks; a tampered body or a wrong secret fails; webhook-id is stable across retries', async () => {
      const m = await createHotSeat(h.http);
      const seat = await toMoveOf(m.id);
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const p = path('sig');
      const hook = await register(m.id, m.tokens[other], p, ['your-turn']);
      rx.plan(p, 500);
      // Play until the decision passes to `other`: one your-turn, failed once, then delivered.
      while ((await toMoveOf(m.id)) !== other) await move(m.id, m.tokens);
      const [first, second] = await waitFor(() => rx.on(p).length >= 2 && rx.on(p), 'a retry');
      expect(first!.answered).toBe(500);
      expect(second!.answered).toBe(200);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(first!.headers['webhook-id']).toMatch(/^msg_/);
      expect(second!.body).toBe(first!.body);
      const verified = verify(hook.secret, second!) as Body;
      expect(verified.type).toBe('your-turn');
      expect(verified.data.seat).toBe(other);
      expect(verified.data.toMove).toBe(other);
      expect(verified.data.matchId).toBe(m.id);
      expect(verified.data.gameId).toBe('evons');
      expect(second!.headers['content-type']).toMatch(/^application\/json/);
      expect(() => verify(hook.secret, { ...second!, body: second!.body.replace('your-turn', 'match-ended') })).toThrow();
      const wrong = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
      expect(() => verify(wrong, second!)).toThrow();
      expect(() => verify(hook.secret, { ...second!, headers: { ...second!.headers, 'webhook-id': 'msg_other' } })).toThrow();
    });

    it('your-turn goes to the seat the decision passes to, once per hand-over (not after each of its own decisions); bodies are redacted for that seat and equal its event page (no leak of the other hand)', async () => {
      const m = await createHotSeat(h.http);
      const paths = { p1: path('turn-p1'), p2: path('turn-p2') };
      const hooks = {
        p1: await register(m.id, m.tokens.p1, paths.p1, ['your-turn']),
        p2: await register(m.id, m.tokens.p2, paths.p2, ['your-turn']),
      };
      const expected: { seat: Seat; before: number; after: number }[] = [];
      let decisionsKeptTurn = 0;
      let toMove = await toMoveOf(m.id);
      for (let i = 0; i < 40; i++) {
        const mv = await move(m.id, m.tokens);
        const next = await toMoveOf(m.id);
        if (next && next !== toMove) expected.push({ seat: next, before: mv.before, after: mv.after });
        else if (next) decisionsKeptTurn++;
        toMove = next;
        if (!next) break;
        // Redaction is judged against the state right after the append the delivery is about.
        const due = expected.filter((e) => e.after === mv.after);
        for (const e of due) {
          const got = await waitFor(
            () => rx.on(paths[e.seat]).find((r) => json(r).data.version === e.after),
            `your-turn v${e.after} to ${e.seat}`,
          );
          assertNoLeak(got.body, secretsFor(await truth(m.id), e.seat), `your-turn v${e.after} to ${e.seat}`);
        }
      }
      // The test must have seen both: hand-overs, and decisions that kept the turn.
      expect(expected.length).toBeGreaterThanOrEqual(2);
      expect(decisionsKeptTurn).toBeGreaterThan(0);
      await h.app.webhookWorker!.idle();
      for (const seat of ['p1', 'p2'] as const) {
        const got = rx.on(paths[seat]).map((r) => verify(hooks[seat].secret, r) as Body);
        expect(got.map((b) => b.data.version)).toEqual(expected.filter((e) => e.seat === seat).map((e) => e.after));
        for (const b of got) {
          expect(b.type).toBe('your-turn');
          expect(b.data.toMove).toBe(seat);
          const e = expected.find((x) => x.after === b.data.version)!;
          const page = await h.http.get(`/v1/matches/${m.id}/events?after=${e.before}&limit=500`).set(bearer(m.tokens[seat])).expect(200);
          const same = (page.body.events as { seq: number }[]).filter((ev) => ev.seq <= e.after);
          expect(b.data.events).toEqual(same);
          expect(b.data.events.length).toBeGreaterThan(0);
        }
      }
    });

    it('opponent-joined goes to the creator at the join, redacted (hooks registered with create and with join); match-ended to both seats on a resignation', async () => {
      const pc = path('creator');
      const pj = path('joiner');
      const created = await h.http
        .post('/v1/matches')
        .send({
          handle: 'alice',
          openSeat: true,
          decks: { p1: { starter: STARTERS[0] } },
          webhook: { url: rx.url(pc), events: ['opponent-joined', 'match-ended'] },
        })
        .expect(201);
      expect(created.body.webhook.secret).toMatch(/^whsec_/);
      const id: string = created.body.id;
      const creatorSeat: Seat = created.body.seat;
      const joined = await h.http
        .post(`/v1/matches/${id}/join`)
        .send({ handle: 'bob', deck: { starter: STARTERS[2] }, webhook: { url: rx.url(pj), events: ['opponent-joined', 'match-ended'] } })
        .expect(200);
      expect(joined.body.webhook.secret).toMatch(/^whsec_/);
      const joinerSeat: Seat = joined.body.seat;
      const hello = await waitFor(() => rx.on(pc)[0], 'opponent-joined');
      const b = verify(created.body.webhook.secret, hello) as Body;
      expect(b.type).toBe('opponent-joined');
      expect(b.data.seat).toBe(creatorSeat);
      expect(b.data.version).toBe(joined.body.version);
      // The join's events are the deal: the creator's body must not show the joiner's hand or deck.
      assertNoLeak(hello.body, secretsFor(await truth(id), creatorSeat), 'opponent-joined');
      expect(b.data.events.length).toBeGreaterThan(0);
      await h.app.webhookWorker!.idle();
      expect(rx.on(pj)).toEqual([]);

      const tokens = { [creatorSeat]: created.body.token as string, [joinerSeat]: joined.body.token as string } as Record<Seat, string>;
      const resigned = await h.http
        .post(`/v1/matches/${id}/actions`)
        .set(bearer(tokens[joinerSeat]))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const endC = await waitFor(() => rx.on(pc).find((r) => json(r).type === 'match-ended'), 'match-ended to the creator');
      const endJ = await waitFor(() => rx.on(pj).find((r) => json(r).type === 'match-ended'), 'match-ended to the joiner');
      for (const [r, secret, seat] of [
        [endC, created.body.webhook.secret, creatorSeat],
        [endJ, joined.body.webhook.secret, joinerSeat],
      ] as const) {
        const e = verify(secret, r) as Body;
        expect(e.data.seat).toBe(seat);
        expect(e.data.version).toBe(resigned.body.version);
        expect(e.data.toMove).toBeNull();
      }
    });

    it('issue 20: match-ended to both seats when a UniVersus seat resigns while the other decides; each body carries the MatchEnded event (reason resigned)', async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } } })
        .expect(201);
      const id: string = created.body.id;
      const tokens = created.body.tokens as Record<Seat, string>;
      const paths = { p1: path('uvs-end-p1'), p2: path('uvs-end-p2') };
      const hooks = {
        p1: await register(id, tokens.p1, paths.p1, ['match-ended']),
        p2: await register(id, tokens.p2, paths.p2, ['match-ended']),
      };
      const deciding = (await toMoveOf(id))!;
      const resigner: Seat = deciding === 'p1' ? 'p2' : 'p1';
      const resigned = await h.http
        .post(`/v1/matches/${id}/actions`)
        .set(bearer(tokens[resigner]))
        .send({ action: { type: 'resign' } })
        .expect(200);
      for (const seat of ['p1', 'p2'] as const) {
        const r = await waitFor(() => rx.on(paths[seat])[0], `match-ended to ${seat}`);
        const e = verify(hooks[seat].secret, r) as Body;
        expect(e).toMatchObject({
          type: 'match-ended',
          data: { matchId: id, gameId: 'universus', seat, version: resigned.body.version, toMove: null },
        });
        const events = e.data.events as unknown as { event: { type: string; end?: unknown } }[];
        expect(events.map((x) => x.event.type)).toEqual(['MatchEnded']);
        expect(events[0]!.event.end).toMatchObject({ reason: 'resigned', seat: resigner, winner: deciding });
      }
    });

    it("every delivered body and its headers are as the OpenAPI document's webhooks section declares for its kind", async () => {
      const all = ['your-turn', 'opponent-joined', 'match-ended', 'deadline-near'];
      const [pc, pj] = [path('doc-creator'), path('doc-joiner')];
      const created = await h.http
        .post('/v1/matches')
        .send({ handle: 'alice', openSeat: true, decks: { p1: { starter: STARTERS[0] } }, webhook: { url: rx.url(pc), events: all } })
        .expect(201);
      const id: string = created.body.id;
      const joined = await h.http
        .post(`/v1/matches/${id}/join`)
        .send({ handle: 'bob', deck: { starter: STARTERS[1] }, webhook: { url: rx.url(pj), events: all } })
        .expect(200);
      const tokens = { [created.body.seat]: created.body.token, [joined.body.seat]: joined.body.token } as Record<Seat, string>;
      for (let i = 0; i < 6; i++) await move(id, tokens);
      await h.http
        .post(`/v1/matches/${id}/actions`)
        .set(bearer(tokens.p1))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await waitFor(() => rx.on(pc).find((r) => json(r).type === 'match-ended'), 'match-ended to the creator');
      await waitFor(() => rx.on(pj).find((r) => json(r).type === 'match-ended'), 'match-ended to the joiner');

      const section = doc.webhooks as
        | Record<
            string,
            {
              post: {
                parameters: { name: string; required: boolean }[];
                requestBody: { content: Record<string, { schema: Record<string, unknown> }> };
              };
            }
          >
        | undefined;
      expect(section, 'the document has a webhooks section').toBeDefined();
      const received = [...rx.on(pc), ...rx.on(pj)];
      const kinds = new Set(received.map((r) => json(r).type));
      for (const k of ['opponent-joined', 'your-turn', 'match-ended']) expect(kinds, k).toContain(k);
      for (const r of received) {
        const body = json(r);
        const op = section![body.type]?.post;
        expect(op, `no webhooks entry for ${body.type}`).toBeDefined();
        for (const p of op!.parameters.filter((x) => x.required)) expect(r.headers[p.name], `${body.type}: header ${p.name}`).toBeTruthy();
        expect(r.headers['content-type']).toMatch(/^application\/json/);
        const validate = validatorFor(`webhook ${body.type}`, op!.requestBody.content['application/json']!.schema);
        expect(validate(body), `${body.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
      // The typed events in the body (MatchEvent) refuse what a delivery never carries.
      const sample = json(received[0]!);
      const validate = validatorFor(`webhook ${sample.type}`, section![sample.type]!.post.requestBody.content['application/json']!.schema);
      expect(
        validate({
          ...sample,
          data: { ...sample.data, events: [{ seq: 1, actingSeat: null, event: { type: 'CardDrawn', seat: 'p1', deck: [] } }] },
        }),
      ).toBe(false);
    });

    it('your-turn to the joiner when the deal hands it the first decision (endpoint registered with the join)', async () => {
      // Who moves first may depend on the deal: try until the joiner has been first at least once.
      const seen = { joiner: 0, creator: 0 };
      for (let i = 0; i < 12 && seen.joiner === 0; i++) {
        const creatorSeat = i % 2 === 0 ? 'p1' : 'p2';
        const pc = path('jc');
        const pj = path('jj');
        const created = await h.http
          .post('/v1/matches')
          .send({
            handle: 'alice',
            seat: creatorSeat,
            openSeat: true,
            decks: { [creatorSeat]: { starter: STARTERS[0] } },
            webhook: { url: rx.url(pc), events: ['your-turn'] },
          })
          .expect(201);
        const id: string = created.body.id;
        const joined = await h.http
          .post(`/v1/matches/${id}/join`)
          .send({ handle: 'bob', deck: { starter: STARTERS[2] }, webhook: { url: rx.url(pj), events: ['your-turn'] } })
          .expect(200);
        const first = await toMoveOf(id);
        const to = first === joined.body.seat ? pj : pc;
        const got = await waitFor(() => rx.on(to)[0], `your-turn at the join to ${first} (${to === pj ? 'joiner' : 'creator'})`, 10_000);
        expect(json(got)).toMatchObject({ type: 'your-turn', data: { seat: first, version: joined.body.version } });
        seen[to === pj ? 'joiner' : 'creator']++;
      }
      expect(seen.joiner).toBeGreaterThan(0);
    });

    it('match-ended to both seats when a live clock runs out (injected now; the read ends the match)', async () => {
      const m = await createHotSeat(h.http, { timeControl: { kind: 'live', initialSeconds: 60, incrementSeconds: 0 } });
      const paths = { p1: path('live-p1'), p2: path('live-p2') };
      await register(m.id, m.tokens.p1, paths.p1, ['match-ended']);
      await register(m.id, m.tokens.p2, paths.p2, ['match-ended']);
      // Both seats make a first decision, so this is a time-out, not a no-show.
      const movedBy = new Set<Seat>();
      for (let i = 0; i < 60 && movedBy.size < 2; i++) movedBy.add((await move(m.id, m.tokens)).seat);
      expect(movedBy.size).toBe(2);
      h.t.now += 10 * 60_000;
      const view = await h.http.get(`/v1/matches/${m.id}`).expect(200);
      expect(view.body.status).toBe('finished');
      h.t.now = Date.now();
      for (const seat of ['p1', 'p2'] as const) {
        const r = await waitFor(() => rx.on(paths[seat])[0], `match-ended to ${seat}`);
        expect(json(r).type).toBe('match-ended');
        expect(json(r).data.version).toBe(view.body.version);
      }
    });

    it('retries: 500, 500, then 200 → delivered with attempts 3 and lastStatusCode 200 in the log, the same webhook-id each time', async () => {
      const m = await createHotSeat(h.http);
      const seat = await toMoveOf(m.id);
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const p = path('retry');
      const hook = await register(m.id, m.tokens[other], p, ['your-turn']);
      rx.plan(p, 500, 500);
      while ((await toMoveOf(m.id)) !== other) await move(m.id, m.tokens);
      const got = await waitFor(() => rx.on(p).length >= 3 && rx.on(p), 'three attempts');
      expect(got.map((r) => r.answered)).toEqual([500, 500, 200]);
      expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const [d] = await waitFor(async () => {
        const rows = await deliveries(m.id, m.tokens[other], hook.id);
        return rows[0]?.status === 'delivered' && rows;
      }, 'the log to show delivered');
      expect(d).toMatchObject({
        id: got[0]!.headers['webhook-id'],
        kind: 'your-turn',
        status: 'delivered',
        attempts: 3,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: null,
      });
      const list = await h.http.get(`/v1/matches/${m.id}/webhooks`).set(bearer(m.tokens[other])).expect(200);
      expect(list.body.webhooks[0]).toMatchObject({ id: hook.id, status: 'active', failingSince: null });
    });

    it('durable: nothing is written to the outbox for a rejected (422) or conflicting (409) move, nor for a move replayed by its idempotency key', async () => {
      // Correspondence with deadline-near on both seats: every accepted move writes a row.
      const m = await createHotSeat(h.http, { timeControl: { kind: 'correspondence', daysPerMove: 3 } });
      const hooks = {
        p1: await register(m.id, m.tokens.p1, path('ob-p1'), ['your-turn', 'deadline-near', 'match-ended']),
        p2: await register(m.id, m.tokens.p2, path('ob-p2'), ['your-turn', 'deadline-near', 'match-ended']),
      };
      const count = async () =>
        (await deliveries(m.id, m.tokens.p1, hooks.p1.id)).length + (await deliveries(m.id, m.tokens.p2, hooks.p2.id)).length;
      const c0 = await count();
      const nm = await nextMove(h, m.id, m.tokens);
      const bad = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens[nm.seat]))
        .send({ action: { type: 'discard', card: 'no-such-card' } });
      expectProblem(bad, 422);
      const stale = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens[nm.seat]))
        .set('if-match', `"${nm.version - 1}"`)
        .send({ action: nm.action });
      expectProblem(stale, 409);
      expect(await count()).toBe(c0);
      const key = `k-${n}-${backend.name}`;
      const ok = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens[nm.seat]))
        .set('idempotency-key', key)
        .send({ action: nm.action })
        .expect(200);
      const c1 = await count();
      expect(c1).toBeGreaterThan(c0);
      const again = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens[nm.seat]))
        .set('idempotency-key', key)
        .send({ action: nm.action })
        .expect(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.version).toBe(ok.body.version);
      expect(await count()).toBe(c1);
    });

    it('rotate-secret: during the overlap deliveries carry two signatures, and the old and the new secret each verify', async () => {
      const m = await createHotSeat(h.http);
      const seat = await toMoveOf(m.id);
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const p = path('rotate');
      const hook = await register(m.id, m.tokens[other], p, ['your-turn']);
      const rotated = await h.http.post(`/v1/matches/${m.id}/webhooks/${hook.id}/rotate-secret`).set(bearer(m.tokens[other])).expect(200);
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(hook.secret);
      expect(rotated.body.id).toBe(hook.id);
      while ((await toMoveOf(m.id)) !== other) await move(m.id, m.tokens);
      const r = await waitFor(() => rx.on(p)[0], 'a delivery after the rotation');
      const sigs = r.headers['webhook-signature']!.split(' ');
      expect(sigs).toHaveLength(2);
      for (const s of sigs) expect(s).toMatch(/^v1,/);
      expect((verify(rotated.body.secret, r) as Body).type).toBe('your-turn');
      expect((verify(hook.secret, r) as Body).type).toBe('your-turn');
      // Each signature on its own: one is the new secret's, the other the old one's.
      const alone = (i: number) => ({ ...r, headers: { ...r.headers, 'webhook-signature': sigs[i]! } });
      const byNew = [0, 1].filter((i) => {
        try {
          verify(rotated.body.secret, alone(i));
          return true;
        } catch {
          return false;
        }
      });
      const byOld = [0, 1].filter((i) => {
        try {
          verify(hook.secret, alone(i));
          return true;
        } catch {
          return false;
        }
      });
      expect(byNew).toHaveLength(1);
      expect(byOld).toHaveLength(1);
      expect(byNew[0]).not.toBe(byOld[0]);
    });

    it('delivery log and redeliver (same webhook-id and body, sent again); DELETE removes the endpoint and nothing more is sent to it', async () => {
      const m = await createHotSeat(h.http);
      const seat = await toMoveOf(m.id);
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const p = path('redeliver');
      const hook = await register(m.id, m.tokens[other], p, ['your-turn']);
      while ((await toMoveOf(m.id)) !== other) await move(m.id, m.tokens);
      const first = await waitFor(() => rx.on(p)[0], 'the first delivery');
      const [d] = await waitFor(async () => {
        const rows = await deliveries(m.id, m.tokens[other], hook.id);
        return rows[0]?.status === 'delivered' && rows;
      }, 'delivered');
      expect(d!.id).toBe(first.headers['webhook-id']);
      const again = await h.http
        .post(`/v1/matches/${m.id}/webhooks/${hook.id}/deliveries/${d!.id}/redeliver`)
        .set(bearer(m.tokens[other]))
        .expect(202);
      expect(again.body).toMatchObject({ id: d!.id, status: 'pending' });
      const second = await waitFor(() => rx.on(p)[1], 'the redelivery');
      expect(second.headers['webhook-id']).toBe(d!.id);
      expect(second.body).toBe(first.body);
      await waitFor(async () => (await deliveries(m.id, m.tokens[other], hook.id))[0]!.status === 'delivered', 'delivered again');
      expectProblem(
        await h.http
          .post(`/v1/matches/${m.id}/webhooks/${hook.id}/deliveries/msg_${'0'.repeat(32)}/redeliver`)
          .set(bearer(m.tokens[other])),
        404,
        'delivery-not-found',
      );

      await h.http.delete(`/v1/matches/${m.id}/webhooks/${hook.id}`).set(bearer(m.tokens[other])).expect(204);
      expect((await h.http.get(`/v1/matches/${m.id}/webhooks`).set(bearer(m.tokens[other])).expect(200)).body.webhooks).toEqual([]);
      expectProblem(
        await h.http.get(`/v1/matches/${m.id}/webhooks/${hook.id}/deliveries`).set(bearer(m.tokens[other])),
        404,
        'webhook-not-found',
      );
      // Hand the decision away from `other` and back again: nothing more reaches the deleted endpoint.
      while ((await toMoveOf(m.id)) === other) await move(m.id, m.tokens);
      while ((await toMoveOf(m.id)) !== other) await move(m.id, m.tokens);
      await h.app.webhookWorker!.idle();
      expect(rx.on(p)).toHaveLength(2);
    });

    it("errors: another seat's webhook id → 404 webhook-not-found; no token → 401", async () => {
      const m = await createHotSeat(h.http);
      const hook = await register(m.id, m.tokens.p1, path('err'), ['your-turn']);
      const asP2 = bearer(m.tokens.p2);
      expectProblem(await h.http.get(`/v1/matches/${m.id}/webhooks/${hook.id}/deliveries`).set(asP2), 404, 'webhook-not-found');
      expectProblem(await h.http.delete(`/v1/matches/${m.id}/webhooks/${hook.id}`).set(asP2), 404, 'webhook-not-found');
      expectProblem(await h.http.post(`/v1/matches/${m.id}/webhooks/${hook.id}/rotate-secret`).set(asP2), 404, 'webhook-not-found');
      expect((await h.http.get(`/v1/matches/${m.id}/webhooks`).set(asP2).expect(200)).body.webhooks).toEqual([]);
      expectProblem(await h.http.get(`/v1/matches/${m.id}/webhooks`), 401);
      expectProblem(await h.http.post(`/v1/matches/${m.id}/webhooks`).send({ url: rx.url('/x'), events: ['your-turn'] }), 401);
      expectProblem(await h.http.get(`/v1/matches/${m.id}/webhooks/${hook.id}/deliveries`), 401);
      expectProblem(await h.http.delete(`/v1/matches/${m.id}/webhooks/${hook.id}`), 401);
      // The endpoint is still there for its own seat.
      expect((await h.http.get(`/v1/matches/${m.id}/webhooks`).set(bearer(m.tokens.p1)).expect(200)).body.webhooks).toHaveLength(1);
    });

    it('issue 21 #6: a seat holds at most 5 endpoints (409 too-many-webhooks over REST and GraphQL, even when registered at once); deleting one frees a place; the other seat has its own', async () => {
      const m = await createHotSeat(h.http);
      const p = path('many');
      const attempts = await Promise.all(
        Array.from({ length: 8 }, () =>
          h.http
            .post(`/v1/matches/${m.id}/webhooks`)
            .set(bearer(m.tokens.p1))
            .send({ url: rx.url(p), events: ['your-turn'] }),
        ),
      );
      expect(attempts.filter((r) => r.status === 201)).toHaveLength(5);
      for (const r of attempts.filter((x) => x.status !== 201)) expectProblem(r, 409, 'too-many-webhooks');
      const hooks = (await h.http.get(`/v1/matches/${m.id}/webhooks`).set(bearer(m.tokens.p1)).expect(200)).body.webhooks as {
        id: string;
      }[];
      expect(hooks).toHaveLength(5);
      const gql = await h.http
        .post('/graphql')
        .set(bearer(m.tokens.p1))
        .send({
          query: `mutation { registerWebhook(matchId: "${m.id}", webhook: { url: "${rx.url(p)}", events: ["your-turn"] }) { secret } }`,
        })
        .expect(200);
      expect(gql.body.errors[0].extensions.code).toBe('too-many-webhooks');
      await register(m.id, m.tokens.p2, path('many-p2'), ['your-turn']);
      await h.http.delete(`/v1/matches/${m.id}/webhooks/${hooks[0]!.id}`).set(bearer(m.tokens.p1)).expect(204);
      await register(m.id, m.tokens.p1, p, ['your-turn']);
      expectProblem(
        await h.http
          .post(`/v1/matches/${m.id}/webhooks`)
          .set(bearer(m.tokens.p1))
          .send({ url: rx.url(p), events: ['your-turn'] }),
        409,
        'too-many-webhooks',
      );
    });

    describe('without an automatic worker (deliveries run when the test kicks its own worker)', () => {
      const hm = useHarness(backend, { clock: 'now', webhooks: { allowPrivate: true, worker: false } });
      const worker = (opts: { giveUpAfterMs?: number } = {}) =>
        new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
          allowPrivate: true,
          pollMs: 0,
          backoffMs: [20],
          ...opts,
        });
      const run = async (w: WebhookWorker) => {
        w.kick();
        await w.idle();
      };
      const toMoveM = async (id: string) =>
        ((await hm.http.get(`/v1/matches/${id}`).expect(200)).body.game.pending?.seat ?? null) as Seat | null;
      async function moveM(id: string, tokens: Record<Seat, string>) {
        const mv = await nextMove(hm, id, tokens);
        const r = await hm.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[mv.seat])).send({ action: mv.action }).expect(200);
        return r.body.version as number;
      }
      async function registerM(id: string, token: string, p: string, events: string[], extra: object = {}) {
        const r = await hm.http
          .post(`/v1/matches/${id}/webhooks`)
          .set(bearer(token))
          .send({ url: rx.url(p), events, ...extra })
          .expect(201);
        return { id: r.body.id as string, secret: r.body.secret as string };
      }
      const logOf = async (id: string, token: string, webhookId: string) =>
        (await hm.http.get(`/v1/matches/${id}/webhooks/${webhookId}/deliveries?limit=100`).set(bearer(token)).expect(200)).body
          .deliveries as {
          id: string;
          version: number;
          kind: string;
          status: string;
          attempts: number;
          nextAttemptAt: string | null;
          lastStatusCode: number | null;
          lastError: string | null;
        }[];

      it('deadline-near is due at its lead before the correspondence deadline; a later move supersedes a due one (status superseded, nothing sent)', async () => {
        const w = worker();
        try {
          hm.t.now = Date.now();
          const m = await createHotSeat(hm.http, { timeControl: { kind: 'correspondence', daysPerMove: 1 } });
          const lead60 = { p1: path('dl60-p1'), p2: path('dl60-p2') };
          const lead1d = { p1: path('dl1d-p1'), p2: path('dl1d-p2') };
          const hooks60 = {
            p1: await registerM(m.id, m.tokens.p1, lead60.p1, ['deadline-near'], { deadlineLeadMinutes: 60 }),
            p2: await registerM(m.id, m.tokens.p2, lead60.p2, ['deadline-near'], { deadlineLeadMinutes: 60 }),
          };
          // A lead of the whole period: due as soon as it is written (the clock stands still).
          const hooks1d = {
            p1: await registerM(m.id, m.tokens.p1, lead1d.p1, ['deadline-near'], { deadlineLeadMinutes: 1440 }),
            p2: await registerM(m.id, m.tokens.p2, lead1d.p2, ['deadline-near'], { deadlineLeadMinutes: 1440 }),
          };

          const v1 = await moveM(m.id, m.tokens);
          const view = (await hm.http.get(`/v1/matches/${m.id}`).expect(200)).body;
          const s1 = view.game.pending.seat as Seat;
          const deadline = view.clock.deadline as string;
          expect(Date.parse(deadline)).toBe(hm.t.now + 86_400_000);
          const row60 = (await logOf(m.id, m.tokens[s1], hooks60[s1].id)).find((d) => d.version === v1)!;
          expect(row60).toMatchObject({ kind: 'deadline-near', status: 'pending' });
          expect(Date.parse(row60.nextAttemptAt!)).toBe(Date.parse(deadline) - 60 * 60_000);
          await run(w);
          const sent = rx.on(lead1d[s1]);
          expect(sent).toHaveLength(1);
          const b = verify(hooks1d[s1].secret, sent[0]!) as Body;
          expect(b).toMatchObject({ type: 'deadline-near', data: { seat: s1, toMove: s1, version: v1, deadline } });
          expect(rx.on(lead60[s1])).toEqual([]);

          // A due warning (v2), then a move before any worker runs: it is superseded, not sent.
          const v2 = await moveM(m.id, m.tokens);
          const s2 = await toMoveM(m.id);
          const v3 = await moveM(m.id, m.tokens);
          const s3 = (await toMoveM(m.id))!;
          await run(w);
          const row2 = (await logOf(m.id, m.tokens[s2!], hooks1d[s2!].id)).find((d) => d.version === v2)!;
          expect(row2.status).toBe('superseded');
          expect(rx.on(lead1d[s2!]).map((r) => json(r).data.version)).not.toContain(v2);
          const row3 = (await logOf(m.id, m.tokens[s3], hooks1d[s3].id)).find((d) => d.version === v3)!;
          expect(row3.status).toBe('delivered');
          expect(rx.on(lead1d[s3]).map((r) => json(r).data.version)).toContain(v3);
          expect(rx.on(lead60.p1).concat(rx.on(lead60.p2))).toEqual([]);
        } finally {
          await w.stop();
        }
      });

      it('an endpoint failing past giveUpAfterMs: the delivery fails, the endpoint is disabled with a reason in GET …/webhooks, and a disabled endpoint gets no delivery', async () => {
        const w = worker({ giveUpAfterMs: 1_000 });
        try {
          hm.t.now = Date.now();
          const m = await createHotSeat(hm.http);
          const seat = await toMoveM(m.id);
          const other: Seat = seat === 'p1' ? 'p2' : 'p1';
          const p = path('giveup');
          const hook = await registerM(m.id, m.tokens[other], p, ['your-turn']);
          rx.setAlways(p, 500);
          while ((await toMoveM(m.id)) !== other) await moveM(m.id, m.tokens);
          await run(w);
          const failing = (await hm.http.get(`/v1/matches/${m.id}/webhooks`).set(bearer(m.tokens[other])).expect(200)).body.webhooks[0];
          expect(failing.status).toBe('failing');
          expect(failing.failingSince).toBeTruthy();
          const pendingRow = (await logOf(m.id, m.tokens[other], hook.id))[0]!;
          expect(pendingRow).toMatchObject({ lastStatusCode: 500, lastError: 'HTTP 500' });
          // A delivery is given up giveUpAfterMs after it was written, the endpoint disabled once it
          // has failed that long (its first failure comes a little later): while the endpoint is not
          // disabled yet, a delivery given up is followed by a new one (the decision handed away and back).
          const list = await waitFor(async () => {
            await run(w);
            const hooks = (await hm.http.get(`/v1/matches/${m.id}/webhooks`).set(bearer(m.tokens[other])).expect(200)).body.webhooks;
            if (hooks[0].status === 'disabled') return hooks[0];
            const rows = await logOf(m.id, m.tokens[other], hook.id);
            if (rows.every((d) => d.status === 'failed')) {
              while ((await toMoveM(m.id)) === other) await moveM(m.id, m.tokens);
              while ((await toMoveM(m.id)) !== other) await moveM(m.id, m.tokens);
            }
            return undefined;
          }, 'the endpoint to be disabled');
          expect(list.disabledReason).toMatch(/HTTP 500/);
          const rows = await logOf(m.id, m.tokens[other], hook.id);
          for (const d of rows) expect(d).toMatchObject({ status: 'failed', lastStatusCode: 500, nextAttemptAt: null });
          const attempts = rows.reduce((a, d) => a + d.attempts, 0);
          expect(attempts).toBeGreaterThanOrEqual(2);
          expect(rx.on(p)).toHaveLength(attempts);
          const sentBefore = rx.on(p).length;
          rx.setAlways(p, null);
          // Hand the decision away and back: no new row, nothing sent.
          while ((await toMoveM(m.id)) === other) await moveM(m.id, m.tokens);
          while ((await toMoveM(m.id)) !== other) await moveM(m.id, m.tokens);
          await run(w);
          expect(await logOf(m.id, m.tokens[other], hook.id)).toHaveLength(rows.length);
          expect(rx.on(p)).toHaveLength(sentBefore);
        } finally {
          await w.stop();
        }
      });

      it('issue 21 #17: a deadline-near waiting for its lead is marked superseded by the append that moves past it, and by the end of the match (not left pending)', async () => {
        hm.t.now = Date.now();
        const m = await createHotSeat(hm.http, { timeControl: { kind: 'correspondence', daysPerMove: 1 } });
        const paths = { p1: path('stale-p1'), p2: path('stale-p2') };
        const hooks = {
          p1: await registerM(m.id, m.tokens.p1, paths.p1, ['deadline-near'], { deadlineLeadMinutes: 60 }),
          p2: await registerM(m.id, m.tokens.p2, paths.p2, ['deadline-near'], { deadlineLeadMinutes: 60 }),
        };
        const rowOf = async (seat: Seat, version: number) =>
          (await logOf(m.id, m.tokens[seat], hooks[seat].id)).find((d) => d.version === version)!;
        // No worker runs in this test: only the appends change the log.
        const v1 = await moveM(m.id, m.tokens);
        const s1 = (await toMoveM(m.id))!;
        expect(await rowOf(s1, v1)).toMatchObject({ kind: 'deadline-near', status: 'pending' });
        const v2 = await moveM(m.id, m.tokens);
        const s2 = (await toMoveM(m.id))!;
        expect(await rowOf(s1, v1)).toMatchObject({ status: 'superseded', nextAttemptAt: null, attempts: 0 });
        expect(await rowOf(s2, v2)).toMatchObject({ status: 'pending' });
        await hm.http
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens.p1))
          .send({ action: { type: 'resign' } })
          .expect(200);
        expect(await rowOf(s2, v2)).toMatchObject({ status: 'superseded', nextAttemptAt: null, attempts: 0 });
        for (const seat of ['p1', 'p2'] as const)
          expect((await logOf(m.id, m.tokens[seat], hooks[seat].id)).filter((d) => d.status === 'pending')).toEqual([]);
        expect(rx.on(paths.p1).concat(rx.on(paths.p2))).toEqual([]);
      });

      it('issue 21 #12: the retry after a timed-out attempt waits its backoff from the failure, not from the start of the attempt (injected clock)', async () => {
        const clock = { at: Date.now() };
        const w = new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
          allowPrivate: true,
          pollMs: 0,
          backoffMs: [5_000],
          now: () => clock.at,
        });
        try {
          const m = await createHotSeat(hm.http);
          const other: Seat = (await toMoveM(m.id)) === 'p1' ? 'p2' : 'p1';
          const p = path('timed-out');
          const hook = await registerM(m.id, m.tokens[other], p, ['your-turn']);
          rx.plan(p, 'hang');
          // The attempt takes a minute of the worker's clock before it times out (after the usual 5 s,
          // ample time for the request to arrive and move the clock on a loaded machine).
          rx.onArrival(p, () => (clock.at += 60_000));
          while ((await toMoveM(m.id)) !== other) await moveM(m.id, m.tokens);
          await run(w);
          const [row] = await logOf(m.id, m.tokens[other], hook.id);
          expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null });
          expect(row!.lastError).toMatch(/no complete answer/);
          const failedAt = clock.at;
          // 5 s ± 20 % jitter, from the failure.
          expect(Date.parse(row!.nextAttemptAt!)).toBeGreaterThanOrEqual(failedAt + 4_000);
          expect(Date.parse(row!.nextAttemptAt!)).toBeLessThanOrEqual(failedAt + 6_000);
        } finally {
          await w.stop();
        }
      });

      it("issue 21 #11: a hanging endpoint does not hold up another: a healthy endpoint gets its deliveries while the hanging one's first request is still open", async () => {
        // The attempt limit is far away, so only the gate ends the hanging requests.
        const w = new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
          allowPrivate: true,
          pollMs: 20,
          backoffMs: [20],
          timeoutMs: 600_000,
        });
        const ps = path('hanging');
        const gate = rx.gate(ps);
        w.start();
        try {
          const slow = await createHotSeat(hm.http);
          const fast = await createHotSeat(hm.http);
          const pf = { p1: path('healthy-p1'), p2: path('healthy-p2') };
          for (const seat of ['p1', 'p2'] as const) {
            await registerM(slow.id, slow.tokens[seat], ps, ['your-turn', 'match-ended']);
            await registerM(fast.id, fast.tokens[seat], pf[seat], ['your-turn', 'match-ended']);
          }
          await hm.http
            .post(`/v1/matches/${slow.id}/actions`)
            .set(bearer(slow.tokens.p1))
            .send({ action: { type: 'resign' } })
            .expect(200);
          await waitFor(() => rx.on(ps).length === 2, 'both hanging endpoints to be called');
          // Three hand-overs (three your-turn) and the end (two match-ended) on the healthy match.
          for (let i = 0; i < 3; i++) {
            const seat = await toMoveM(fast.id);
            while ((await toMoveM(fast.id)) === seat) await moveM(fast.id, fast.tokens);
          }
          await hm.http
            .post(`/v1/matches/${fast.id}/actions`)
            .set(bearer(fast.tokens.p1))
            .send({ action: { type: 'resign' } })
            .expect(200);
          await waitFor(() => rx.on(pf.p1).length + rx.on(pf.p2).length >= 5, "the healthy endpoints' five deliveries");
          // …all of them while the hanging requests were still open, each attempted once.
          expect(rx.on(ps)).toHaveLength(2);
          for (const r of rx.on(ps)) expect(r).toMatchObject({ answered: null, aborted: false });
        } finally {
          gate.release();
          await w.stop();
        }
      });

      it('issue 33: hanging endpoints that outnumber the slots move to the slow lane; a healthy endpoint is still served at once', async () => {
        // Two slots and four endpoints that never answer: without the slow lane, two of them hold
        // both slots until their (far away) attempt limit and the healthy endpoint waits as long.
        const w = new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
          allowPrivate: true,
          pollMs: 20,
          backoffMs: [20],
          timeoutMs: 600_000,
          concurrency: 2,
          slowAfterMs: 100,
          slowConcurrency: 1,
        });
        const ps = path('many-hanging');
        const gate = rx.gate(ps);
        w.start();
        try {
          const slow = [await createHotSeat(hm.http), await createHotSeat(hm.http)];
          const fast = await createHotSeat(hm.http);
          const pf = path('served');
          for (const m of slow) for (const seat of ['p1', 'p2'] as const) await registerM(m.id, m.tokens[seat], ps, ['match-ended']);
          await registerM(fast.id, fast.tokens.p1, pf, ['match-ended']);
          for (const m of slow)
            await hm.http
              .post(`/v1/matches/${m.id}/actions`)
              .set(bearer(m.tokens.p1))
              .send({ action: { type: 'resign' } })
              .expect(200);
          await waitFor(() => rx.on(ps).length === 4, 'all four hanging endpoints to be called');
          await hm.http
            .post(`/v1/matches/${fast.id}/actions`)
            .set(bearer(fast.tokens.p1))
            .send({ action: { type: 'resign' } })
            .expect(200);
          await waitFor(() => rx.on(pf).length === 1, "the healthy endpoint's delivery");
          expect(rx.on(ps).every((r) => r.answered === null && !r.aborted)).toBe(true);
          // The healthy delivery settles; the four hanging ones stay in the slow lane.
          await waitFor(() => w.lanes().fast === 0, 'the healthy delivery to settle');
          expect(w.lanes().slow).toBe(4);
        } finally {
          gate.release();
          await w.stop();
        }
      });

      it('issue 33: endpoints not yet known cannot fill the fast lane: an endpoint known to answer quickly keeps a quarter of it', async () => {
        // Four slots (one kept for quick endpoints), endpoints that hang but are not yet known slow
        // (slowAfterMs far away): without the reserve three of them plus a fourth take every slot and
        // the quick endpoint's next delivery waits behind them.
        const w = new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
          allowPrivate: true,
          pollMs: 20,
          backoffMs: [20],
          timeoutMs: 600_000,
          concurrency: 4,
          slowAfterMs: 600_000,
          // Probes keep their slots too: this is the reserve's test.
          probeAfterMs: 600_000,
        });
        const ps = path('unknown-hanging');
        const gate = rx.gate(ps);
        w.start();
        try {
          const quick = await createHotSeat(hm.http);
          const other: Seat = (await toMoveM(quick.id)) === 'p1' ? 'p2' : 'p1';
          const pq = path('quick');
          await registerM(quick.id, quick.tokens[other], pq, ['your-turn', 'match-ended']);
          // Its first delivery, answered at once: now it is known to be quick.
          while ((await toMoveM(quick.id)) !== other) await moveM(quick.id, quick.tokens);
          await waitFor(() => rx.on(pq).length === 1, "the quick endpoint's first delivery");
          await waitFor(() => w.lanes().fast === 0, 'it to settle');
          const hanging = [await createHotSeat(hm.http), await createHotSeat(hm.http)];
          for (const m of hanging) for (const seat of ['p1', 'p2'] as const) await registerM(m.id, m.tokens[seat], ps, ['match-ended']);
          for (const m of hanging)
            await hm.http
              .post(`/v1/matches/${m.id}/actions`)
              .set(bearer(m.tokens.p1))
              .send({ action: { type: 'resign' } })
              .expect(200);
          // Three slots for endpoints not known quick: three of the four are called, the fourth waits.
          await waitFor(() => rx.on(ps).length === 3, 'three hanging endpoints to be called');
          await hm.http
            .post(`/v1/matches/${quick.id}/actions`)
            .set(bearer(quick.tokens[other]))
            .send({ action: { type: 'resign' } })
            .expect(200);
          await waitFor(() => rx.on(pq).length === 2, "the quick endpoint's second delivery, in the kept slot");
          expect(rx.on(ps)).toHaveLength(3);
          expect(rx.on(ps).every((r) => r.answered === null && !r.aborted)).toBe(true);
        } finally {
          gate.release();
          await w.stop();
        }
      });

      it('issue 33: an attempt to an endpoint not known quick gives its fast slot up early: a new endpoint is served while unknown ones hang', async () => {
        // Three slots for endpoints not known quick, four hanging endpoints never found slow (slowAfterMs
        // far away): without the probe's early hand-over, three of them hold the slots and the new
        // endpoint's delivery waits as long as they hang.
        const w = new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
          allowPrivate: true,
          pollMs: 20,
          backoffMs: [20],
          timeoutMs: 600_000,
          concurrency: 4,
          slowAfterMs: 600_000,
          probeAfterMs: 50,
          slowConcurrency: 1,
        });
        const ps = path('probe-hanging');
        const gate = rx.gate(ps);
        w.start();
        try {
          const hanging = [await createHotSeat(hm.http), await createHotSeat(hm.http)];
          for (const m of hanging) for (const seat of ['p1', 'p2'] as const) await registerM(m.id, m.tokens[seat], ps, ['match-ended']);
          for (const m of hanging)
            await hm.http
              .post(`/v1/matches/${m.id}/actions`)
              .set(bearer(m.tokens.p1))
              .send({ action: { type: 'resign' } })
              .expect(200);
          await waitFor(() => rx.on(ps).length === 4, 'all four hanging endpoints to be called');
          const fresh = await createHotSeat(hm.http);
          const pf = path('probe-fresh');
          await registerM(fresh.id, fresh.tokens.p1, pf, ['match-ended']);
          await hm.http
            .post(`/v1/matches/${fresh.id}/actions`)
            .set(bearer(fresh.tokens.p1))
            .send({ action: { type: 'resign' } })
            .expect(200);
          await waitFor(() => rx.on(pf).length === 1, "the new endpoint's delivery");
          expect(rx.on(ps).every((r) => r.answered === null && !r.aborted)).toBe(true);
          // It answered at once: it stays in the fast lane, the four go on hanging in the slow one.
          await waitFor(() => w.lanes().fast === 0, 'the new delivery to settle');
          expect(w.lanes().slow).toBe(4);
        } finally {
          gate.release();
          await w.stop();
        }
      });

      it('issue 33: over endpoints the worker does not know, the newest endpoint is claimed first; per endpoint only its first pending delivery', async () => {
        // A backlog to many endpoints registered earlier (say 200 slow ones, each holding a fast
        // slot until it is found out) must not hold up the first delivery of one registered since.
        const older = await createHotSeat(hm.http);
        const newer = await createHotSeat(hm.http);
        const po = path('claim-older');
        const pn = path('claim-newer');
        const otherOf = async (id: string): Promise<Seat> => ((await toMoveM(id)) === 'p1' ? 'p2' : 'p1');
        const seatO = await otherOf(older.id);
        const hookO = await registerM(older.id, older.tokens[seatO], po, ['your-turn', 'match-ended']);
        // Two deliveries to the older endpoint (its turn, then the end), queued before the newer endpoint exists.
        while ((await toMoveM(older.id)) !== seatO) await moveM(older.id, older.tokens);
        await hm.http
          .post(`/v1/matches/${older.id}/actions`)
          .set(bearer(older.tokens[seatO]))
          .send({ action: { type: 'resign' } })
          .expect(200);
        const hookN = await registerM(newer.id, newer.tokens.p1, pn, ['match-ended']);
        await hm.http
          .post(`/v1/matches/${newer.id}/actions`)
          .set(bearer(newer.tokens.p1))
          .send({ action: { type: 'resign' } })
          .expect(200);
        // Earlier tests of this file may leave deliveries of their own: only the order of these two counts.
        const claimed = await hm.store.webhooks.claim(1_000, 60_000, []);
        const ids = claimed.map((d) => d.webhookId);
        expect(ids).toContain(hookN.id);
        expect(ids.indexOf(hookN.id)).toBeLessThan(ids.indexOf(hookO.id));
        // The older endpoint's two: its first (the lower version) alone, the second behind it.
        const mine = claimed.filter((d) => d.webhookId === hookO.id);
        expect(mine.map((d) => d.kind)).toEqual(['your-turn']);
        const again = await hm.store.webhooks.claim(1_000, 60_000, []);
        expect(again.filter((d) => d.webhookId === hookO.id || d.webhookId === hookN.id)).toEqual([]);
      });

      it('issue 21 #13: per endpoint, deliveries go out in data.version order: a later one waits while an earlier one is pending retry', async () => {
        const w = worker();
        try {
          const m = await createHotSeat(hm.http);
          const other: Seat = (await toMoveM(m.id)) === 'p1' ? 'p2' : 'p1';
          const p = path('order');
          const hook = await registerM(m.id, m.tokens[other], p, ['your-turn', 'match-ended']);
          rx.plan(p, 500, 500);
          while ((await toMoveM(m.id)) !== other) await moveM(m.id, m.tokens);
          await hm.http
            .post(`/v1/matches/${m.id}/actions`)
            .set(bearer(m.tokens[other]))
            .send({ action: { type: 'resign' } })
            .expect(200);
          await waitFor(async () => {
            await run(w);
            const rows = await logOf(m.id, m.tokens[other], hook.id);
            return rows.length === 2 && rows.every((d) => d.status === 'delivered');
          }, 'both deliveries');
          const sent = rx.on(p).map((r) => ({ type: json(r).type, version: json(r).data.version, answered: r.answered }));
          expect(sent.map((s) => s.answered)).toEqual([500, 500, 200, 200]);
          expect(sent.filter((s) => s.answered === 200).map((s) => s.type)).toEqual(['your-turn', 'match-ended']);
          // Nothing of a later version was even tried before the earlier one got through.
          const versions = sent.map((s) => s.version);
          expect(versions).toEqual([...versions].sort((a, b) => a - b));
        } finally {
          await w.stop();
        }
      });

      it("issue 21 #6: an answering endpoint's delivery is claimed before a failing endpoint's older retry (slow endpoints cannot keep the room from healthy ones)", async () => {
        const w = new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
          allowPrivate: true,
          pollMs: 0,
          backoffMs: [20],
          concurrency: 1,
        });
        const pb = path('failing');
        try {
          const bad = await createHotSeat(hm.http);
          const good = await createHotSeat(hm.http);
          const otherOf = async (id: string): Promise<Seat> => ((await toMoveM(id)) === 'p1' ? 'p2' : 'p1');
          const [sb, sg] = [await otherOf(bad.id), await otherOf(good.id)];
          const pg = path('answering');
          const hb = await registerM(bad.id, bad.tokens[sb], pb, ['your-turn', 'match-ended']);
          const hg = await registerM(good.id, good.tokens[sg], pg, ['your-turn']);
          rx.setAlways(pb, 500);
          // One failed attempt, by a worker whose clock is an hour behind (so the retry it schedules
          // is long due) and that stops as the attempt arrives (so it does not retry it itself).
          const first = new WebhookWorker(hm.store.webhooks, (d) => hm.app.service.webhooks.bodyOf(d), {
            allowPrivate: true,
            pollMs: 0,
            backoffMs: [1_000],
            now: () => Date.now() - 3_600_000,
          });
          rx.onArrival(pb, () => void first.stop());
          while ((await toMoveM(bad.id)) !== sb) await moveM(bad.id, bad.tokens);
          await run(first);
          expect(rx.on(pb)).toHaveLength(1);
          const [retry] = await logOf(bad.id, bad.tokens[sb], hb.id);
          expect(retry).toMatchObject({ status: 'pending', lastStatusCode: 500 });
          while ((await toMoveM(good.id)) !== sg) await moveM(good.id, good.tokens);
          const [fresh] = await logOf(good.id, good.tokens[sg], hg.id);
          expect(Date.parse(fresh!.nextAttemptAt!)).toBeGreaterThan(Date.parse(retry!.nextAttemptAt!));
          await run(w);
          const order = rx.received.filter((r) => r.path === pb || r.path === pg).map((r) => r.path);
          expect(order.slice(0, 3)).toEqual([pb, pg, pb]);
        } finally {
          rx.setAlways(pb, null);
          await w.stop();
        }
      });

      it('issue 21 #6: redeliver queues a settled delivery at most 3 times, one attempt each; a pending one is not queued twice (409 delivery-pending), a fourth time is 409 redelivery-limit', async () => {
        const w = worker();
        try {
          const m = await createHotSeat(hm.http);
          const other: Seat = (await toMoveM(m.id)) === 'p1' ? 'p2' : 'p1';
          const p = path('redeliver-cap');
          const hook = await registerM(m.id, m.tokens[other], p, ['your-turn']);
          while ((await toMoveM(m.id)) !== other) await moveM(m.id, m.tokens);
          const [d] = await logOf(m.id, m.tokens[other], hook.id);
          const redeliver = () =>
            hm.http.post(`/v1/matches/${m.id}/webhooks/${hook.id}/deliveries/${d!.id}/redeliver`).set(bearer(m.tokens[other]));
          expectProblem(await redeliver(), 409, 'delivery-pending');
          await run(w);
          expect(rx.on(p)).toHaveLength(1);
          for (let i = 1; i <= 3; i++) {
            // The third redelivery fails: it is one attempt, not a new series of retries.
            if (i === 3) rx.plan(p, 500);
            expect((await redeliver().expect(202)).body).toMatchObject({ id: d!.id, status: 'pending' });
            expectProblem(await redeliver(), 409, 'delivery-pending');
            await run(w);
            expect(rx.on(p)).toHaveLength(1 + i);
          }
          expect((await logOf(m.id, m.tokens[other], hook.id))[0]).toMatchObject({
            status: 'failed',
            lastStatusCode: 500,
            nextAttemptAt: null,
          });
          const limit = await redeliver();
          expectProblem(limit, 409, 'redelivery-limit');
          await run(w);
          expect(rx.on(p)).toHaveLength(4);
        } finally {
          await w.stop();
        }
      });
    });

    it('SSRF: with allowPrivate false, loopback, private, link-local, file: and credential URLs → 400 validation-failed; a public name is accepted (resolved at send time)', async () => {
      // A second app on the same store, as a production node would be configured.
      const prod = await buildApp({ store: h.store, logger: false, webhooks: { allowPrivate: false, worker: false } });
      await prod.ready();
      try {
        const http = supertest(prod.server);
        const m = await createHotSeat(http);
        const refused = [
          'http://127.0.0.1/hook',
          'http://127.1.2.3:8080/hook',
          'http://localhost/hook',
          'http://api.localhost/hook',
          'http://[::1]/',
          'http://[::ffff:127.0.0.1]/',
          'http://2130706433/',
          'http://0x7f.0.0.1/',
          'http://10.0.0.1/',
          'http://172.16.5.4/',
          'http://192.168.1.1/',
          'http://169.254.169.254/latest/meta-data',
          'http://[fe80::1]/',
          'http://[fc00::1]/',
          'http://0.0.0.0/',
          'file:///etc/passwd',
          'ftp://example.com/x',
          'https://user:pass@example.com/hook',
          'not a url',
        ];
        for (const url of refused) {
          const r = await http
            .post(`/v1/matches/${m.id}/webhooks`)
            .set(bearer(m.tokens.p1))
            .send({ url, events: ['your-turn'] });
          expect(r.status, url).toBe(400);
          expectProblem(r, 400, 'validation-failed');
        }
        const created = await http.post('/v1/matches').send({
          decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } },
          webhook: { url: 'http://10.1.2.3/', events: ['your-turn'] },
        });
        expectProblem(created, 400, 'validation-failed');
        await http
          .post(`/v1/matches/${m.id}/webhooks`)
          .set(bearer(m.tokens.p1))
          .send({ url: 'https://example.com/hook', events: ['your-turn'] })
          .expect(201);
      } finally {
        await prod.close();
      }
    });
  });
}

describe('issue 9 outbound webhook POSTs (SSRF at connection time, answer size, timeout)', () => {
  let rx: Receiver;
  beforeAll(async () => {
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await rx?.close();
  });

  it('isPrivateAddress: loopback, private, link-local, CGNAT, multicast and IPv4-mapped forms are private; public addresses are not', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.31.255.255',
      '192.168.0.10',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd12::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('a host name that resolves to a loopback address is refused when the connection looks it up (not only at registration)', async () => {
    // A name this machine resolves to loopback (its own host name usually does; localhost is refused earlier, by name).
    const names = [os.hostname(), 'localhost.'];
    let name: string | undefined;
    for (const c of names) {
      const addrs = await dns.lookup(c, { all: true }).catch(() => []);
      if (addrs.length > 0 && addrs.every((a) => isPrivateAddress(a.address))) {
        name = c;
        break;
      }
    }
    if (!name) {
      console.warn('[webhooks] no host name resolving to a private address here: connection-time SSRF check not exercised');
      return;
    }
    const port = new URL(rx.base).port;
    const before = rx.received.length;
    const refused = await postJson(`http://${name}:${port}/ssrf`, '{}', {}, false);
    expect(refused.statusCode).toBeNull();
    expect(refused.error).toMatch(/non-public/);
    expect(rx.received.length).toBe(before);
    // The same name with private addresses allowed reaches the receiver: the refusal was the lookup's.
    const allowed = await postJson(`http://${name}:${port}/ssrf`, '{}', {}, true);
    expect(allowed).toEqual({ statusCode: 200, error: null });
    expect(rx.on('/ssrf')).toHaveLength(1);
  });

  it('an answer larger than 4 KB is not read in full', async () => {
    rx.plan('/big', 'big');
    const r = await postJson(rx.url('/big'), '{}', {}, true);
    expect(r.statusCode).toBe(200);
    const big = rx.bigAnswers.at(-1)!;
    await big.closed;
    expect(big.finished).toBe(false);
  });

  it('a receiver that trickles its answer is cut off by the 5 s limit too', async () => {
    rx.plan('/trickle', 'trickle');
    const r = await postJson(rx.url('/trickle'), '{}', {}, true);
    const t = rx.trickles.at(-1)!;
    // Cut off: the call settled while the receiver was still sending.
    expect(t.finished).toBe(false);
    expect(r.error).toMatch(/5 s/);
    await t.closed;
  });

  it('a receiver that never answers is cut off by the 5 s timeout', async () => {
    rx.plan('/hang', 'hang');
    const r = await postJson(rx.url('/hang'), '{}', {}, true);
    expect(r.statusCode).toBeNull();
    expect(r.error).toMatch(/no complete answer within 5 s/);
    expect(rx.on('/hang')).toHaveLength(1);
  });
});
