/** Bad input of every kind: the right 4xx, application/problem+json, and nothing written. */
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, createHotSeat, expectProblem, type Created, useHarness, pglite } from '../helpers.js';

describe('bad input → 4xx problem+json, no new event', () => {
  const h = useHarness(pglite);
  let m: Created;
  let other: Created;
  let seat: 'p1' | 'p2';
  beforeAll(async () => {
    m = await createHotSeat(h.http);
    other = await createHotSeat(h.http);
    seat = (await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.game.pending.seat;
  });

  const events = async () => (await h.app.service.store.loadEvents(m.id)).length;
  const act = () => h.http.post(`/v1/matches/${m.id}/actions`).set(bearer(m.tokens[seat]));

  const cases: [string, () => Promise<{ status: number; headers: Record<string, string>; body: unknown }>, number, string][] = [
    ['malformed JSON', () => act().set('content-type', 'application/json').send('{"action": {"type": "pass"'), 400, 'invalid-json'],
    ['empty JSON body', () => act().set('content-type', 'application/json').send(''), 400, 'invalid-json'],
    ['wrong types', () => act().send({ action: { type: 'play', card: 7, cell: 'C3', covered: 'no' } }), 400, 'validation-failed'],
    ['unknown action type', () => act().send({ action: { type: 'teleport' } }), 400, 'validation-failed'],
    ['unknown field in the action', () => act().send({ action: { type: 'pass', extra: 1 } }), 400, 'validation-failed'],
    ['unknown field in the body', () => act().send({ action: { type: 'pass' }, sneaky: true }), 400, 'validation-failed'],
    ['body is an array', () => act().send([{ type: 'pass' }]), 400, 'validation-failed'],
    ['huge body', () => act().send({ action: { type: 'pass' }, pad: 'x'.repeat(300 * 1024) }), 413, 'body-too-large'],
    ['text/plain body', () => act().set('content-type', 'text/plain').send('pass'), 415, 'unsupported-media-type'],
    ['no token', () => h.http.post(`/v1/matches/${m.id}/actions`).send({ action: { type: 'pass' } }), 401, 'missing-token'],
    [
      'malformed token',
      () =>
        h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('authorization', 'Bearer !!')
          .send({ action: { type: 'pass' } }),
      401,
      'invalid-token',
    ],
    [
      'basic auth instead of bearer',
      () =>
        h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('authorization', 'Basic dXNlcjpwYXNz')
          .send({ action: { type: 'pass' } }),
      401,
      'invalid-token',
    ],
    [
      'token of another match',
      () =>
        h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(other.tokens.p1))
          .send({ action: { type: 'pass' } }),
      401,
      'invalid-token',
    ],
    [
      'the seat not to move',
      () =>
        h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens[seat === 'p1' ? 'p2' : 'p1']))
          .send({ action: { type: 'pass' } }),
      422,
      'NOT_YOUR_DECISION',
    ],
    [
      'bad If-Match',
      () =>
        act()
          .set('if-match', 'yesterday')
          .send({ action: { type: 'pass' } }),
      400,
      'validation-failed',
    ],
    [
      'bad match id',
      () =>
        h.http
          .post('/v1/matches/bad%20id!/actions')
          .set(bearer(m.tokens[seat]))
          .send({ action: { type: 'pass' } }),
      400,
      'validation-failed',
    ],
    [
      'unknown match id',
      () =>
        h.http
          .post('/v1/matches/nope/actions')
          .set(bearer(m.tokens[seat]))
          .send({ action: { type: 'pass' } }),
      404,
      'match-not-found',
    ],
    ['bad query type', () => h.http.get(`/v1/matches/${m.id}/events?after=minus-one`), 400, 'validation-failed'],
    ['unknown query field', () => h.http.get(`/v1/matches/${m.id}/events?foo=1`), 400, 'validation-failed'],
    ['limit too large', () => h.http.get('/v1/matches?limit=100000'), 400, 'validation-failed'],
    ['bad cursor', () => h.http.get('/v1/matches?cursor=not-a-cursor'), 400, 'invalid-cursor'],
    ['view with a wrong token', () => h.http.get(`/v1/matches/${m.id}`).set(bearer(other.tokens.p2)), 401, 'invalid-token'],
    ['unknown route', () => h.http.get('/v1/nothing-here'), 404, 'not-found'],
  ];

  for (const [name, send, status, code] of cases) {
    it(`${name} → ${status} ${code}`, async () => {
      const before = await events();
      expectProblem(await send(), status, code);
      expect(await events()).toBe(before);
    });
  }

  describe('create and join', () => {
    const count = async () => (await h.http.get('/v1/matches?limit=100').expect(200)).body.matches.length;
    const createCases: [string, unknown, number, string][] = [
      ['invalid deck (59 cards)', {}, 422, 'invalid-deck'],
      ['unknown starter deck', { decks: { p1: { starter: 'no-such-deck' }, p2: { starter: 'starter-ember-tide' } } }, 422, 'invalid-deck'],
      ['missing second deck', { decks: { p1: { starter: 'starter-ember-tide' } } }, 400, 'validation-failed'],
      [
        'unknown setting',
        { decks: { p1: { starter: 'starter-ember-tide' }, p2: { starter: 'starter-ember-tide' } }, settings: { gravity: 'off' } },
        400,
        'validation-failed',
      ],
      [
        'bad setting value',
        { decks: { p1: { starter: 'starter-ember-tide' }, p2: { starter: 'starter-ember-tide' } }, settings: { handLimit: 0 } },
        400,
        'validation-failed',
      ],
      [
        'bad handle',
        { handle: 'a b<script>', decks: { p1: { starter: 'starter-ember-tide' }, p2: { starter: 'starter-ember-tide' } } },
        400,
        'validation-failed',
      ],
      [
        'unknown top-level field',
        { decks: { p1: { starter: 'starter-ember-tide' }, p2: { starter: 'starter-ember-tide' } }, seed: 'mine' },
        400,
        'validation-failed',
      ],
      ['bad sandbox position', { position: { format: 'evons-position/1' } }, 400, 'validation-failed'],
    ];
    for (const [name, body, status, code] of createCases) {
      it(`create: ${name} → ${status} ${code}`, async () => {
        const before = await count();
        let b = body as Record<string, unknown>;
        if (name.startsWith('invalid deck')) {
          // 59 cards: a starter deck list with one card taken out.
          const decks = (await h.http.get('/v1/decks').expect(200)).body.decks;
          const list = structuredClone(decks[0].cards) as { card: string; count: number }[];
          list[0]!.count -= 1;
          if (list[0]!.count === 0) list.shift();
          expect(list.reduce((n, c) => n + c.count, 0)).toBe(59);
          b = { decks: { p1: { cards: list }, p2: { starter: 'starter-ember-tide' } } };
        }
        const res = await h.http.post('/v1/matches').send(b);
        const p = expectProblem(res, status, code) as { errors?: string[] };
        if (code === 'invalid-deck' || code === 'validation-failed') expect(p.errors?.length).toBeGreaterThan(0);
        expect(await count()).toBe(before);
      });
    }

    it('join: a match without an open seat → 409 seat-taken; an invalid deck → 422 and the seat stays open', async () => {
      expectProblem(await h.http.post(`/v1/matches/${m.id}/join`).send({ deck: { starter: 'starter-ember-tide' } }), 409, 'seat-taken');
      const open = await h.http
        .post('/v1/matches')
        .send({ openSeat: true, decks: { p1: { starter: 'starter-ember-tide' } } })
        .expect(201);
      expectProblem(
        await h.http.post(`/v1/matches/${open.body.id}/join`).send({ deck: { cards: [{ card: 'moss-hare', count: 60 }] } }),
        422,
        'invalid-deck',
      );
      expectProblem(await h.http.post(`/v1/matches/${open.body.id}/join`).send({}), 400, 'validation-failed');
      const view = await h.http.get(`/v1/matches/${open.body.id}`).expect(200);
      expect(view.body.status).toBe('waiting');
      expect(view.body.game).toBeNull();
      expectProblem(
        await h.http
          .post(`/v1/matches/${open.body.id}/actions`)
          .set(bearer(open.body.token))
          .send({ action: { type: 'pass' } }),
        409,
        'match-not-started',
      );
    });
  });
});
