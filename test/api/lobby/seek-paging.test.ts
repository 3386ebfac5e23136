/**
 * The seek list is paged (issue 33 item 6): it returned the 100 oldest open seeks and no way to
 * the rest. GET /v1/seeks takes `limit` (1..100, default 100) and `cursor` and answers
 * `nextCursor`, as the other lists do: walking the pages gives every open seek once, oldest
 * first; a made-up cursor is 400 invalid-cursor; a limit over 100 is refused. GraphQL `seeks`
 * pages the same way (`cursor`, `limit` → `SeekPage.nextCursor`), with the same codes. Both databases.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STARTERS, backends, bearer, expectProblem, graphqlRequest, useHarness } from '../helpers.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`seek list pages [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: 'now', seeks: { maxOpen: 101 } });

    const days = [14, 10, 7, 5, 3, 2, 1];
    let calls = 0;
    /**
     * `count` seeks of one new player, oldest first: one owner, so they cannot pair with each
     * other, and a time control of their own, so not with another call's either.
     */
    async function postSeeks(count: number): Promise<{ token: string; ids: string[] }> {
      const timeControl = { kind: 'correspondence', daysPerMove: days[calls++] };
      const handle = `pg-${randomBytes(5).toString('hex')}`;
      const token = (await h.http.post('/v1/players').send({ handle }).expect(201)).body.token as string;
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        h.t.now += 1;
        const r = await h.http
          .post('/v1/seeks')
          .set(bearer(token))
          .send({ deck: { starter: STARTERS[0] }, timeControl })
          .expect(201);
        ids.push(r.body.id as string);
      }
      return { token, ids };
    }

    it('pages of `limit` with nextCursor cover every open seek once, oldest first', async () => {
      // Seven seeks that cannot pair with each other (one owner, one pool).
      const { ids: posted } = await postSeeks(7);
      const all = (await h.http.get('/v1/seeks').expect(200)).body;
      expect(all.nextCursor).toBeNull();
      expect(all.seeks.map((s: { id: string }) => s.id)).toEqual(posted);

      const seen: string[] = [];
      const pages: number[] = [];
      let cursor: string | null = null;
      do {
        const res: { body: { seeks: { id: string }[]; nextCursor: string | null } } = await h.http
          .get('/v1/seeks')
          .query({ limit: 3, ...(cursor ? { cursor } : {}) })
          .expect(200);
        pages.push(res.body.seeks.length);
        seen.push(...res.body.seeks.map((s: { id: string }) => s.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(pages).toEqual([3, 3, 1]);
      expect(seen).toEqual(posted);

      expectProblem(await h.http.get('/v1/seeks').query({ cursor: 'not-a-cursor' }), 400, 'invalid-cursor');
      expectProblem(
        await h.http.get('/v1/seeks').query({ cursor: Buffer.from('["2020-01-01T00:00:00.000Z","x\\u0000"]').toString('base64url') }),
        400,
        'invalid-cursor',
      );
      expectProblem(await h.http.get('/v1/seeks').query({ limit: 101 }), 400, 'validation-failed');
    });

    it("GraphQL seeks: a page of exactly 100, the cursor reaching the rest, REST's codes for a bad cursor or limit", async () => {
      type Page = { seeks: { id: string }[]; nextCursor: string | null };
      const page = async (args: { cursor?: string; limit?: number }): Promise<Page> => {
        const r = await graphqlRequest(
          h,
          'query($cursor: String, $limit: Int) { seeks(game: "evons", cursor: $cursor, limit: $limit) { seeks { id } nextCursor } }',
          args,
        ).expect(200);
        expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
        return r.body.data.seeks as Page;
      };
      // The pool holds the earlier test's seeks too (no cancel): page from what is there now.
      const before = (await h.http.get('/v1/seeks').query({ game: 'evons' }).expect(200)).body as Page;
      expect(before.nextCursor).toBeNull();
      const { ids } = await postSeeks(100 - before.seeks.length);
      const hundred = [...before.seeks.map((s) => s.id), ...ids];
      expect(hundred).toHaveLength(100);

      // Exactly the maximum: one full page (the default limit and limit: 100 alike) and no next one.
      for (const args of [{}, { limit: 100 }]) expect(await page(args)).toEqual({ seeks: hundred.map((id) => ({ id })), nextCursor: null });

      // One more: the first page is still 100, its cursor reaches the 101st, as REST's does.
      const extra = (await postSeeks(1)).ids;
      const first = await page({});
      expect(first.seeks.map((s) => s.id)).toEqual(hundred);
      expect(first.nextCursor).toEqual(expect.any(String));
      const rest = (await h.http.get('/v1/seeks').query({ game: 'evons' }).expect(200)).body as Page;
      expect(first.nextCursor).toBe(rest.nextCursor);
      expect(await page({ cursor: first.nextCursor! })).toEqual({ seeks: extra.map((id) => ({ id })), nextCursor: null });

      // Smaller pages walk the same list.
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const p: Page = await page({ limit: 40, ...(cursor ? { cursor } : {}) });
        seen.push(...p.seeks.map((s) => s.id));
        cursor = p.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...hundred, ...extra]);

      // A cursor not given by the server, a limit out of range: REST's problem codes.
      const code = async (variables: Record<string, unknown>) =>
        (
          await graphqlRequest(
            h,
            'query($cursor: String, $limit: Int) { seeks(cursor: $cursor, limit: $limit) { nextCursor } }',
            variables,
          ).expect(200)
        ).body.errors?.[0]?.extensions?.code;
      expect(await code({ cursor: 'not-a-cursor' })).toBe('invalid-cursor');
      expect(await code({ cursor: Buffer.from('["2020-01-01T00:00:00.000Z","x\\u0000"]').toString('base64url') })).toBe('invalid-cursor');
      for (const limit of [0, 101]) expect(await code({ limit })).toBe('validation-failed');
    });
  });
}
