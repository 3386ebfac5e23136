/**
 * The seek list is paged (issue 33 item 6): it returned the 100 oldest open seeks and no way to
 * the rest. GET /v1/seeks takes `limit` (1..100, default 100) and `cursor` and answers
 * `nextCursor`, as the other lists do: walking the pages gives every open seek once, oldest
 * first; a made-up cursor is 400 invalid-cursor; a limit over 100 is refused. Both databases.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STARTERS, backends, bearer, expectProblem, useHarness } from './helpers.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`seek list pages [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: 'now', seeks: { maxOpen: 10 } });

    it('pages of `limit` with nextCursor cover every open seek once, oldest first', async () => {
      const posted: string[] = [];
      // Seven seeks that cannot pair with each other (one owner, one pool).
      const handle = `pg-${randomBytes(5).toString('hex')}`;
      const token = (await h.http.post('/v1/players').send({ handle }).expect(201)).body.token as string;
      for (let i = 0; i < 7; i++) {
        h.t.now += 1;
        const r = await h.http.post('/v1/seeks').set(bearer(token)).send({ deck: { starter: STARTERS[0] }, timeControl: { kind: 'correspondence', daysPerMove: 14 } }).expect(201);
        posted.push(r.body.id as string);
      }
      const all = (await h.http.get('/v1/seeks').expect(200)).body;
      expect(all.nextCursor).toBeNull();
      expect(all.seeks.map((s: { id: string }) => s.id)).toEqual(posted);

      const seen: string[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      do {
        const res: { body: { seeks: { id: string }[]; nextCursor: string | null } } = await h.http.get('/v1/seeks').query({ limit: 3, ...(cursor ? { cursor } : {}) }).expect(200);
        pages.push(res.body.seeks.length);
        seen.push(...res.body.seeks.map((s: { id: string }) => s.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(pages).toEqual([3, 3, 1]);
      expect(seen).toEqual(posted);

      expectProblem(await h.http.get('/v1/seeks').query({ cursor: 'not-a-cursor' }), 400, 'invalid-cursor');
      expectProblem(await h.http.get('/v1/seeks').query({ cursor: Buffer.from('["2020-01-01T00:00:00.000Z","x\\u0000"]').toString('base64url') }), 400, 'invalid-cursor');
      expectProblem(await h.http.get('/v1/seeks').query({ limit: 101 }), 400, 'validation-failed');
    });
  });
}
