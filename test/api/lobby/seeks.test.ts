/**
 * Seeks (issue 23, item 3) on both databases: post, list, cancel, expire, the open-seek limit,
 * what never pairs (other pools, rating ranges either way, oneself), and the bar: 50 compatible
 * seeks posted at once across two apps on one database pair into exactly 25 matches, none with
 * itself, none twice. Each test uses its own pool (time control) so earlier tests' open seeks
 * stay out of its way.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TimeControl } from '../../../src/core/clock.js';
import { dealPairedMatch, parseSettings, resolveDeck, type PairedSeat } from '../../../src/service/lobby/lobby.js';
import { gameRuleset } from '../../../src/service/match/games.js';
import { STARTERS, backends, bearer, expectProblem, graphqlRequest, useHarness, useSecondApp, type Http } from '../helpers.js';

const HOUR = 3_600_000;
const TTL = 2 * HOUR;
const corr = (daysPerMove: number) => ({ kind: 'correspondence', daysPerMove });
const evons = gameRuleset('evons');
const DECK_CARDS = resolveDeck(evons, { starter: STARTERS[0] }, parseSettings(evons, {}), 'deck');
const seatOf = (playerId: string, handle: string): PairedSeat => ({ playerId, handle, deck: DECK_CARDS, deckName: STARTERS[0] });

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`seeks [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: 'now', seeks: { maxOpen: 3, ttlMs: TTL } });
    const other = useSecondApp(h, { seeks: { maxOpen: 3, ttlMs: TTL } });

    async function player(http: Http = h.http): Promise<{ handle: string; token: string; id: string }> {
      const handle = `sk-${randomBytes(5).toString('hex')}`;
      const r = await http.post('/v1/players').send({ handle }).expect(201);
      return { handle, token: r.body.token as string, id: (await h.store.players.byHandle(handle))!.id };
    }
    const seek = (token: string, body: Record<string, unknown>, http: Http = h.http) =>
      http
        .post('/v1/seeks')
        .set(bearer(token))
        .send({ deck: { starter: STARTERS[0] }, ...body });

    it("an unmatched seek stays open: listed publicly without its deck, and in its owner's list with its status", async () => {
      const a = await player();
      const posted = await seek(a.token, { timeControl: corr(1), deck: { starter: STARTERS[1] } }).expect(201);
      expect(posted.body).toMatchObject({
        handle: a.handle,
        bot: false,
        game: 'evons',
        timeControl: corr(1),
        rated: false,
        status: 'open',
        matchId: null,
        deck: STARTERS[1],
      });
      expect(Date.parse(posted.body.expiresAt) - Date.parse(posted.body.createdAt)).toBe(TTL);

      const listed = (await other.http.get('/v1/seeks').expect(200)).body.seeks as Record<string, unknown>[];
      const mine = listed.find((s) => s.id === posted.body.id);
      expect(mine).toMatchObject({ handle: a.handle, timeControl: corr(1) });
      expect(mine).not.toHaveProperty('deck');
      expect(JSON.stringify(listed)).not.toContain(STARTERS[1]);
      expect(
        (await h.http.get('/v1/seeks?game=universus').expect(200)).body.seeks.some((s: { id: string }) => s.id === posted.body.id),
      ).toBe(false);

      const own = await h.http.get('/v1/me/seeks').set(bearer(a.token)).expect(200);
      expect(own.body.seeks).toEqual([posted.body]);
      expectProblem(await h.http.get('/v1/me/seeks'), 401, 'missing-token');
    });

    it('a compatible seek pairs with the oldest open one, on the other app: both paired, one match between their owners', async () => {
      const [a, c, d] = [await player(), await player(), await player()];
      // a's two seeks never pair with each other (never oneself): both stay open.
      const older = await seek(a.token, { timeControl: corr(2) }).expect(201);
      h.t.now += 1;
      const newer = await seek(a.token, { timeControl: corr(2), rated: true }).expect(201);
      h.t.now += 1;
      const newest = await seek(a.token, { timeControl: corr(2) }).expect(201);
      expect([older.body.status, newer.body.status, newest.body.status]).toEqual(['open', 'open', 'open']);

      h.t.now += 1;
      const paired = await seek(c.token, { timeControl: corr(2), deck: { starter: STARTERS[2] } }, other.http).expect(201);
      expect(paired.body.status).toBe('paired');
      const matchId = paired.body.matchId as string;
      const mine = (await h.http.get('/v1/me/seeks').set(bearer(a.token)).expect(200)).body.seeks as {
        id: string;
        status: string;
        matchId: string | null;
      }[];
      expect(mine.find((s) => s.id === older.body.id)).toMatchObject({ status: 'paired', matchId });
      expect(mine.find((s) => s.id === newest.body.id)).toMatchObject({ status: 'open', matchId: null });

      const row = (await h.store.getMatch(matchId))!;
      expect(row.status).toBe('active');
      expect(row.rated).toBe(false);
      expect(row.timeControl).toBe('correspondence');
      expect(row.seats.map((s) => s.playerId).sort()).toEqual([a.id, c.id].sort());
      expect(row.seats.every((s) => s.tokenHash !== null)).toBe(true);
      const cSeat = row.seats.find((s) => s.playerId === c.id)!;
      expect(cSeat.deck).toBe(STARTERS[2]);
      // Both play with their player tokens.
      for (const p of [a, c]) {
        const view = await other.http.get(`/v1/matches/${matchId}`).set(bearer(p.token)).expect(200);
        expect(view.body.seat).toBe(row.seats.find((s) => s.playerId === p.id)!.seat);
      }

      // The rated seek is its own pool: an unrated one from d pairs with a's remaining unrated seek.
      h.t.now += 1;
      const next = await seek(d.token, { timeControl: corr(2) }).expect(201);
      expect(next.body.status).toBe('paired');
      const again = (await h.http.get('/v1/me/seeks').set(bearer(a.token)).expect(200)).body.seeks as {
        id: string;
        status: string;
        matchId: string | null;
      }[];
      expect(again.find((s) => s.id === newest.body.id)).toMatchObject({ status: 'paired', matchId: next.body.matchId });
      expect(again.find((s) => s.id === newer.body.id)).toMatchObject({ status: 'open' });
    });

    it('a rated pair starts a rated match; other pools and rating ranges (either way) stay open', async () => {
      const [a, b, c, d] = [await player(), await player(), await player(), await player()];
      // New players are rated 1500.
      await seek(a.token, { timeControl: corr(3), rated: true, minRating: 1600 }).expect(201);
      expect((await seek(b.token, { timeControl: corr(3), rated: true }).expect(201)).body.status).toBe('open'); // b is below a's range
      expect((await seek(c.token, { timeControl: corr(3), rated: true, maxRating: 1400 }).expect(201)).body.status).toBe('open'); // a and b above c's
      expect((await seek(d.token, { timeControl: corr(3), rated: false }).expect(201)).body.status).toBe('open'); // unrated pool
      expect((await seek(d.token, { timeControl: corr(5), rated: true }).expect(201)).body.status).toBe('open'); // another clock
      expect((await seek(d.token, { game: 'universus', timeControl: corr(3), rated: true, deck: { starter: 'x' } })).status).toBe(422); // its own deck rules
      const pairs = await seek(d.token, { timeControl: corr(3), rated: true, minRating: 1500, maxRating: 1500 }).expect(201);
      expect(pairs.body.status).toBe('paired');
      const row = (await h.store.getMatch(pairs.body.matchId))!;
      expect(row.rated).toBe(true);
      expect(row.seats.map((s) => s.playerId).sort()).toEqual([b.id, d.id].sort());
      expectProblem(await seek(a.token, { timeControl: corr(3), minRating: 1700, maxRating: 1600 }), 400, 'validation-failed');
    });

    it('a live seek without a connected feed, and a clockless seek, are refused with a clear problem', async () => {
      const a = await player();
      expectProblem(
        await seek(a.token, { timeControl: { kind: 'live', initialSeconds: 300, incrementSeconds: 2 } }),
        409,
        'seek-needs-feed',
      );
      expectProblem(await seek(a.token, { timeControl: { kind: 'none' } }), 400, 'seek-needs-correspondence');
      expectProblem(await h.http.post('/v1/seeks').send({ timeControl: corr(1), deck: { starter: STARTERS[0] } }), 401, 'missing-token');
    });

    it("the owner cancels an open seek; it no longer pairs; a paired, cancelled or other player's seek cannot be cancelled", async () => {
      const [a, b, c] = [await player(), await player(), await player()];
      const s = await seek(a.token, { timeControl: corr(7) }).expect(201);
      expectProblem(await other.http.delete(`/v1/seeks/${s.body.id}`).set(bearer(b.token)), 404, 'seek-not-found');
      const cancelled = await other.http.delete(`/v1/seeks/${s.body.id}`).set(bearer(a.token)).expect(200);
      expect(cancelled.body).toMatchObject({ id: s.body.id, status: 'cancelled', matchId: null });
      expectProblem(await h.http.delete(`/v1/seeks/${s.body.id}`).set(bearer(a.token)), 409, 'seek-not-open');
      expect((await h.http.get('/v1/seeks').expect(200)).body.seeks.some((x: { id: string }) => x.id === s.body.id)).toBe(false);
      expect((await seek(b.token, { timeControl: corr(7) }).expect(201)).body.status).toBe('open');
      const paired = await seek(c.token, { timeControl: corr(7) }).expect(201);
      expect(paired.body.status).toBe('paired');
      expectProblem(await h.http.delete(`/v1/seeks/${paired.body.id}`).set(bearer(c.token)), 409, 'seek-not-open');
    });

    it('seeks expire after the TTL: shown as expired, not listed, never paired, not cancellable', async () => {
      const [a, b] = [await player(), await player()];
      const s = await seek(a.token, { timeControl: corr(10) }).expect(201);
      h.t.now += TTL;
      const mine = (await h.http.get('/v1/me/seeks').set(bearer(a.token)).expect(200)).body.seeks;
      expect(mine).toMatchObject([{ id: s.body.id, status: 'expired' }]);
      expect((await h.http.get('/v1/seeks').expect(200)).body.seeks.some((x: { id: string }) => x.id === s.body.id)).toBe(false);
      expect((await seek(b.token, { timeControl: corr(10) }).expect(201)).body.status).toBe('open');
      expectProblem(await h.http.delete(`/v1/seeks/${s.body.id}`).set(bearer(a.token)), 409, 'seek-not-open');
    });

    it('a player has at most SEEK_MAX_OPEN open seeks (429 too-many-seeks); a cancelled or expired one frees a place', async () => {
      const a = await player();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          (await seek(a.token, { game: 'universus', timeControl: corr(14), deck: { starter: await universusStarter() } }).expect(201)).body
            .id,
        );
      expectProblem(await seek(a.token, { timeControl: corr(14) }), 429, 'too-many-seeks');
      await h.http.delete(`/v1/seeks/${ids[0]}`).set(bearer(a.token)).expect(200);
      await seek(a.token, { timeControl: corr(14) }).expect(201);
      expectProblem(await seek(a.token, { timeControl: corr(14) }), 429, 'too-many-seeks');
      h.t.now += TTL;
      await seek(a.token, { timeControl: corr(14) }).expect(201);
    });

    it('GraphQL: postSeek, seeks, mySeeks and cancelSeek answer as REST does, with the same problem codes', async () => {
      const [a, b] = [await player(), await player()];
      const fields = 'id handle game timeControl { kind daysPerMove } rated minRating maxRating status matchId deck';
      const post = (token: string, input: string) => graphqlRequest(h, `mutation { postSeek(input: ${input}) { ${fields} } }`, {}, token);
      const input = `{ timeControl: { kind: "correspondence", daysPerMove: 1 }, rated: true, minRating: 1000, deck: { starter: "${STARTERS[2]}" } }`;
      const posted = (await post(a.token, input).expect(200)).body.data.postSeek;
      expect(posted).toMatchObject({
        handle: a.handle,
        game: 'evons',
        timeControl: { kind: 'correspondence', daysPerMove: 1 },
        rated: true,
        minRating: 1000,
        maxRating: null,
        status: 'open',
        matchId: null,
        deck: STARTERS[2],
      });

      const listed = (await graphqlRequest(other, '{ seeks { seeks { id handle rated } } }').expect(200)).body.data.seeks.seeks as {
        id: string;
      }[];
      expect(listed).toContainEqual({ id: posted.id, handle: a.handle, rated: true });
      const rest = (await h.http.get('/v1/seeks').expect(200)).body.seeks.map((x: { id: string }) => x.id);
      expect(listed.map((x) => x.id)).toEqual(rest);
      // No deck among a public seek's fields.
      expect((await graphqlRequest(h, '{ seeks { seeks { deck } } }')).body.errors[0].message).toMatch(/deck/);

      const paired = (await post(b.token, input.replace('minRating: 1000', 'maxRating: 2000')).expect(200)).body.data.postSeek;
      expect(paired.status).toBe('paired');
      const mine = (await graphqlRequest(h, `{ mySeeks { id status matchId } }`, {}, a.token).expect(200)).body.data.mySeeks;
      expect(mine).toEqual([{ id: posted.id, status: 'paired', matchId: paired.matchId }]);

      const refused = await graphqlRequest(h, `mutation { cancelSeek(seekId: "${posted.id}") { id } }`, {}, a.token);
      expect(refused.body.errors[0].extensions.code).toBe('seek-not-open');
      const live = await post(
        a.token,
        `{ timeControl: { kind: "live", initialSeconds: 60, incrementSeconds: 0 }, deck: { starter: "${STARTERS[0]}" } }`,
      );
      expect(live.body.errors[0].extensions.code).toBe('seek-needs-feed');
      const open = (
        await post(a.token, `{ timeControl: { kind: "correspondence", daysPerMove: 1 }, deck: { starter: "${STARTERS[0]}" } }`).expect(200)
      ).body.data.postSeek;
      const cancelled = (
        await graphqlRequest(other, `mutation { cancelSeek(seekId: "${open.id}") { id status } }`, {}, a.token).expect(200)
      ).body.data.cancelSeek;
      expect(cancelled).toEqual({ id: open.id, status: 'cancelled' });
    });

    it("players posting again while their older seeks pair (40 seeks of 20 players at once, two apps): no error, no seek paired twice, and what stays open is one player's", async () => {
      const players = await Promise.all(Array.from({ length: 20 }, () => player()));
      const apps = [h.http, other.http];
      const posts = players.flatMap((p, i) => [0, 1].map((k) => seek(p.token, { timeControl: corr(7), rated: true }, apps[(i + k) % 2])));
      expect((await Promise.all(posts)).map((r) => r.status)).toEqual(posts.map(() => 201));

      const rows = (await Promise.all(players.map((p) => h.store.seeks.ofPlayer(p.id, 10)))).flat();
      expect(rows).toHaveLength(40);
      const byMatch = new Map<string, string[]>();
      for (const r of rows.filter((x) => x.status === 'paired')) byMatch.set(r.matchId!, [...(byMatch.get(r.matchId!) ?? []), r.playerId]);
      for (const [id, owners] of byMatch) {
        expect(owners).toHaveLength(2);
        expect(owners[0]).not.toBe(owners[1]);
        expect((await h.store.getMatch(id))!.seats.map((s) => s.playerId).sort()).toEqual([...owners].sort());
      }
      // Each post saw every seek committed before it, so two open seeks left would be one player's.
      const open = rows.filter((x) => x.status === 'open');
      expect(new Set(open.map((x) => x.playerId)).size).toBeLessThanOrEqual(1);
      expect(open.length + 2 * byMatch.size).toBe(40);
    });

    it('a pairing whose match cannot be created leaves both seeks as they were (one transaction): never a paired seek without its match', async () => {
      const [a, b] = [await player(), await player()];
      const older = await seek(a.token, { timeControl: corr(10), rated: true }).expect(201);
      const existing = (
        await h.http
          .post('/v1/matches')
          .send({ decks: { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } } })
          .expect(201)
      ).body.id as string;
      const attempt = h.store.seeks.post(
        {
          id: `sk_${randomBytes(8).toString('hex')}`,
          playerId: b.id,
          game: 'evons',
          timeControl: corr(10),
          controlKey: '["correspondence",10]',
          family: 'correspondence',
          rated: true,
          minRating: null,
          maxRating: null,
          deck: DECK_CARDS,
          deckName: STARTERS[0],
          createdAt: new Date(h.t.now),
          expiresAt: new Date(h.t.now + TTL),
        },
        {
          maxOpen: 3,
          initialRating: 1500,
          // A match id that exists: the match's insert, the pairing's last statement, fails.
          pair: () => {
            const { match, events } = dealPairedMatch({
              game: 'evons',
              control: corr(10) as TimeControl,
              rated: true,
              seats: { p1: seatOf(a.id, a.handle), p2: seatOf(b.id, b.handle) },
              now: h.t.now,
            });
            return { match: { ...match, id: existing }, events };
          },
        },
      );
      await expect(attempt).rejects.toThrow(/duplicate key|unique/i);
      const [aRows, bRows] = [await h.store.seeks.ofPlayer(a.id, 10), await h.store.seeks.ofPlayer(b.id, 10)];
      expect(aRows.map((r) => [r.id, r.status, r.matchId])).toEqual([[older.body.id, 'open', null]]);
      expect(bRows).toEqual([]);
      // And it pairs normally afterwards.
      expect((await seek(b.token, { timeControl: corr(10), rated: true }).expect(201)).body.status).toBe('paired');
    });

    it('a cancel racing a pairing of the same seek has one outcome', async () => {
      for (let i = 0; i < 6; i++) {
        const [a, b] = [await player(), await player()];
        const s = await seek(a.token, { timeControl: corr(3) }).expect(201);
        const [cancel, post] = await Promise.all([
          other.http.delete(`/v1/seeks/${s.body.id}`).set(bearer(a.token)),
          seek(b.token, { timeControl: corr(3) }),
        ]);
        const row = (await h.store.seeks.ofPlayer(a.id, 1))[0]!;
        if (cancel.status === 200) {
          expect([row.status, post.body.status]).toEqual(['cancelled', 'open']);
          await h.http.delete(`/v1/seeks/${post.body.id}`).set(bearer(b.token)).expect(200); // keep the pool empty for the next round
        } else {
          expect(cancel.status).toBe(409);
          expect([row.status, post.body.status, post.body.matchId]).toEqual(['paired', 'paired', row.matchId]);
        }
      }
    });

    async function universusStarter(): Promise<string> {
      return ((await h.http.get('/v1/games/universus/decks').expect(200)).body.decks[0] as { id: string }).id;
    }

    it('50 compatible seeks posted at once across two apps pair into exactly 25 matches, none with itself, none twice', async () => {
      const players = await Promise.all(Array.from({ length: 50 }, () => player()));
      const apps = [h.http, other.http];
      const posted = await Promise.all(players.map((p, i) => seek(p.token, { timeControl: corr(14), rated: true }, apps[i % 2])));
      expect(posted.map((r) => r.status)).toEqual(players.map(() => 201));

      const rows = (await Promise.all(players.map((p) => h.store.seeks.ofPlayer(p.id, 10)))).flat();
      expect(rows).toHaveLength(50);
      expect(rows.every((r) => r.status === 'paired' && r.matchId !== null)).toBe(true);
      const byMatch = new Map<string, string[]>();
      for (const r of rows) byMatch.set(r.matchId!, [...(byMatch.get(r.matchId!) ?? []), r.playerId]);
      expect(byMatch.size).toBe(25);
      for (const [id, owners] of byMatch) {
        expect(owners).toHaveLength(2);
        expect(owners[0]).not.toBe(owners[1]);
        const m = (await h.store.getMatch(id))!;
        expect(m.rated).toBe(true);
        expect(m.seats.map((s) => s.playerId).sort()).toEqual([...owners].sort());
      }
      // Every player is in exactly one match.
      expect(new Set([...byMatch.values()].flat()).size).toBe(50);
    });

    it('Idempotency-Key: a retried post (on the other node) answers the stored seek and posts no second one; the key with another body is 422', async () => {
      // Every earlier test's open seek expires: this pool is empty.
      h.t.now += TTL + HOUR;
      const [a, b] = [await player(), await player()];
      const keyed = (token: string, key: string, body: Record<string, unknown>, http: Http = h.http) =>
        http
          .post('/v1/seeks')
          .set(bearer(token))
          .set('idempotency-key', key)
          .send({ deck: { starter: STARTERS[0] }, ...body });
      const first = await keyed(a.token, 'seek-1', { timeControl: corr(3) }).expect(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const again = await keyed(a.token, 'seek-1', { timeControl: corr(3) }, other.http).expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect((await h.http.get('/v1/me/seeks').set(bearer(a.token)).expect(200)).body.seeks.map((s: { id: string }) => s.id)).toEqual([
        first.body.id,
      ]);
      expectProblem(await keyed(a.token, 'seek-1', { timeControl: corr(5) }), 422, 'idempotency-key-reused');

      // A post that paired: its retry names the same match, and no third seek waits.
      h.t.now += 1;
      const paired = await keyed(b.token, 'seek-1', { timeControl: corr(3) }).expect(201);
      expect(paired.body.status).toBe('paired');
      const retried = await keyed(b.token, 'seek-1', { timeControl: corr(3) }, other.http).expect(201);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.body).toEqual(paired.body);
      expect((await h.http.get('/v1/me/seeks').set(bearer(b.token)).expect(200)).body.seeks).toHaveLength(1);
      expect(
        (await h.http.get('/v1/seeks').expect(200)).body.seeks.filter(
          (s: { timeControl: TimeControl }) => JSON.stringify(s.timeControl) === JSON.stringify(corr(3)),
        ),
      ).toEqual([]);
    });

    it('Idempotency-Key: the same post sent twice at once on two nodes stores one seek', async () => {
      h.t.now += TTL + HOUR;
      const a = await player();
      const answers = await Promise.all(
        [h.http, other.http].map((http) =>
          http
            .post('/v1/seeks')
            .set(bearer(a.token))
            .set('idempotency-key', 'twice')
            .send({ deck: { starter: STARTERS[0] }, timeControl: corr(7) }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual([201, 201]);
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      expect((await h.http.get('/v1/me/seeks').set(bearer(a.token)).expect(200)).body.seeks).toHaveLength(1);
    });
  });
}
