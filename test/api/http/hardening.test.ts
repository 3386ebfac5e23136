/**
 * Hardening regressions (issue 6, items 5 and 7), on every backend: out-of-range numbers and
 * crafted cursors never reach the database (4xx, not 500); unknown methods are a 405 with Allow;
 * oversized headers a 431; router rejections problems; every per-caller body has its own ETag,
 * varies on Authorization and is private.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../src/persistence/match-list.js';
import { backends, bearer, createHotSeat, expectProblem, nextMove, type Created, useHarness } from '../helpers.js';

const cursor = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('cursor decoding (store)', () => {
  it('round-trips what the store issues', () => {
    const at = new Date('2026-11-23T08:00:00.123Z');
    expect(decodeCursor(encodeCursor(at, 'abc_DEF-1'))).toEqual({ createdAt: at, id: 'abc_DEF-1' });
  });

  it.each([
    ['a date out of range', cursor(['+275760-09-13T00:00:00.000Z', 'abc'])],
    ['a year before the service', cursor(['0001-01-01T00:00:00.000Z', 'abc'])],
    ['a date that does not round-trip', cursor(['2026-02-30T00:00:00.000Z', 'abc'])],
    ['a non-ISO date', cursor(['Mon Nov 23 2026', 'abc'])],
    ['NUL in the id', cursor(['2026-11-23T08:00:00.000Z', 'a\u0000b'])],
    ['an id of another shape', cursor(['2026-11-23T08:00:00.000Z', "x' OR 1=1 --"])],
    ['too many parts', cursor(['2026-11-23T08:00:00.000Z', 'abc', 1])],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['too long', 'A'.repeat(201)],
  ])('rejects %s', (_what, c) => {
    expect(() => decodeCursor(c)).toThrow(/invalid cursor/);
  });
});

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`hardening on ${backend.name}`, () => {
    const h = useHarness(backend);
    let m: Created;
    beforeAll(async () => {
      m = await createHotSeat(h.http);
    });

    it.each(['2147483648', '99999999999999999999', '-1', '1.5', 'NaN', '1e400'])('events?after=%s is a 400', async (after) => {
      expectProblem(await h.http.get(`/v1/matches/${m.id}/events?after=${after}`), 400, 'validation-failed');
    });

    it('events?after=2147483647 (the largest seq) is an empty page', async () => {
      const res = await h.http.get(`/v1/matches/${m.id}/events?after=2147483647`).expect(200);
      expect(res.body.events).toEqual([]);
    });

    it('stream?after out of range is a 400 before the stream opens', async () => {
      expectProblem(await h.http.get(`/v1/matches/${m.id}/stream?after=2147483648`), 400, 'validation-failed');
    });

    it.each([
      ['date out of range', cursor(['+275760-09-13T00:00:00.000Z', 'abc'])],
      ['NUL in the id', cursor(['2026-11-23T08:00:00.000Z', 'a\u0000b'])],
      ['not base64url', 'abc$def'],
      ['NUL in the raw cursor', 'abc%00def'],
    ])('history cursor with %s is a 400', async (_what, c) => {
      const res = await h.http.get(`/v1/matches?handle=alice&cursor=${c.includes('%') ? c : encodeURIComponent(c)}`);
      expectProblem(res, 400);
      expect(['invalid-cursor', 'validation-failed']).toContain(res.body.code);
      const mine = await h.http.get(`/v1/me/matches?handle=alice&cursor=${c.includes('%') ? c : encodeURIComponent(c)}`);
      expectProblem(mine, 400);
    });

    it('an unsupported method on a known path is a 405 with Allow', async () => {
      const res = await h.http.delete(`/v1/matches/${m.id}`);
      expectProblem(res, 405, 'method-not-allowed');
      expect(res.headers.allow).toBe('GET, HEAD');
      const post = await h.http.put('/v1/matches');
      expectProblem(post, 405, 'method-not-allowed');
      expect(post.headers.allow?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
      // An unknown path stays a 404.
      expectProblem(await h.http.delete('/v1/nothing-here'), 404, 'not-found');
    });

    it('a path parameter past the router limit is a problem, not Fastify JSON', async () => {
      const res = await h.http.get(`/v1/matches/${'a'.repeat(500)}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    });

    it('a bad percent-encoding in the path is a 400 problem', async () => {
      expectProblem(await h.http.get('/v1/matches/%E0%A4%A'), 400);
    });

    it('oversized headers are a 431 problem', async () => {
      await new Promise<void>((resolve) => (h.app.server.listening ? resolve() : h.app.server.listen(0, '127.0.0.1', () => resolve())));
      const { port } = h.app.server.address() as AddressInfo;
      const res = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/healthz', headers: { 'x-big': 'x'.repeat(20_000) } }, (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, type: String(r.headers['content-type']), body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.status).toBe(431);
      expect(res.type).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body)).toMatchObject({ status: 431, code: 'headers-too-large' });
    });

    describe('caching per caller', () => {
      it('the view: ETag names version and viewer, Vary Authorization, private; 304 per viewer', async () => {
        const p1 = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).expect(200);
        const p2 = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).expect(200);
        const spec = await h.http.get(`/v1/matches/${m.id}`).expect(200);
        const v = p1.body.version;
        expect([p1.headers.etag, p2.headers.etag, spec.headers.etag]).toEqual([`"${v}.p1"`, `"${v}.p2"`, `"${v}.spectator"`]);
        for (const r of [p1, p2, spec]) {
          expect(r.headers.vary).toMatch(/authorization/i);
          expect(r.headers['cache-control']).toMatch(/private/);
        }
        // p1's tag does not validate p2's representation.
        await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).set('if-none-match', p1.headers.etag!).expect(200);
        await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).set('if-none-match', `W/${p1.headers.etag!}, "x"`).expect(304);
      });

      it('events and legal actions vary on Authorization and are private; legal actions are not stored', async () => {
        for (const path of [`/v1/matches/${m.id}/events`, `/v1/matches/${m.id}/legal-actions`]) {
          const r = await h.http.get(path).set(bearer(m.tokens.p1)).expect(200);
          expect(r.headers.vary, path).toMatch(/authorization/i);
          expect(r.headers['cache-control'], path).toMatch(/private/);
          expect(r.headers.etag, path).toMatch(/^"\d+\.p1"$/);
        }
        const legal = await h.http.get(`/v1/matches/${m.id}/legal-actions`).expect(200);
        expect(legal.headers['cache-control']).toMatch(/no-store/);
        expect(legal.headers.etag).toMatch(/\.spectator"$/);
        const mine = await h.http.get('/v1/me/matches').set(bearer(m.tokens.p1)).expect(200);
        expect(mine.headers.vary).toMatch(/authorization/i);
        expect(mine.headers['cache-control']).toMatch(/private/);
      });

      it("an action answers with the actor's tag, and that tag works as If-Match", async () => {
        const { seat, action } = await nextMove(h, m.id, m.tokens);
        const view = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens[seat])).expect(200);
        const res = await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens[seat]))
          .set('if-match', view.headers.etag!)
          .send({ action })
          .expect(200);
        expect(res.headers.etag).toBe(`"${res.body.version}.${seat}"`);
        expect(res.headers['cache-control']).toMatch(/no-store/);
      });
    });
  });
}
