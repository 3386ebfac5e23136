/**
 * Board pictures over HTTP (issue 11): GET /v1/matches/{id}/board.svg and board.png draw exactly
 * the view GET /v1/matches/{id} gives the same caller (spectator, seat token, player token), now or
 * ?at=SEQ; ETag per (version, viewer, format, size, renderer version) with 304s; the Cache-Control
 * of the JSON views; problem+json errors. Evons and UniVersus, on both databases.
 */
import { describe, expect, it } from 'vitest';
import { PICTURE_VERSION } from '../../../src/pictures/index.js';
import { renderBoardSvg } from '../../../src/http/board-picture.js';
import { PNG_SIZE } from '../../../src/pictures/png.js';
import { pngSize } from '../../pictures/fixtures.js';
import { binary, backends, bearer, createHotSeat, expectProblem, nextMove, useHarness } from '../helpers.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`board pictures [${backend.name}]`, () => {
    const h = useHarness(backend);

    const svg = (id: string, opts: { token?: string; at?: number; etag?: string } = {}) => {
      let req = h.http
        .get(`/v1/matches/${id}/board.svg${opts.at === undefined ? '' : `?at=${opts.at}`}`)
        .buffer(true)
        .parse(binary);
      if (opts.token) req = req.set(bearer(opts.token));
      if (opts.etag) req = req.set('if-none-match', opts.etag);
      return req;
    };
    const png = (id: string, query = '', token?: string) => {
      const req = h.http.get(`/v1/matches/${id}/board.png${query}`).buffer(true).parse(binary);
      return token ? req.set(bearer(token)) : req;
    };
    const json = async (id: string, token?: string, at?: number) => {
      const req = h.http.get(`/v1/matches/${id}${at === undefined ? '' : `?at=${at}`}`);
      return (await (token ? req.set(bearer(token)) : req).expect(200)).body;
    };
    const play = async (id: string, tokens: Record<'p1' | 'p2', string>, n: number) => {
      for (let i = 0; i < n; i++) {
        const mv = await nextMove(h, id, tokens);
        await h.http.post(`/v1/matches/${id}/actions`).set(bearer(tokens[mv.seat])).send({ action: mv.action }).expect(200);
      }
    };

    it("draws exactly the caller's JSON view: spectator, each seat, a player token; hidden hands stay hidden", async () => {
      const m = await createHotSeat(h.http);
      await play(m.id, m.tokens, 6);
      const spectatorView = await json(m.id);
      const res = await svg(m.id).expect(200);
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
      const spectator = res.body.toString('utf8');
      expect(spectator).toBe(renderBoardSvg(spectatorView));
      let secrets = 0;
      for (const seat of ['p1', 'p2'] as const) {
        const view = await json(m.id, m.tokens[seat]);
        const picture = (await svg(m.id, { token: m.tokens[seat] }).expect(200)).body.toString('utf8');
        expect(picture).toBe(renderBoardSvg(view));
        // Its own hand by name; the spectator's picture lacks every name of it the spectator view lacks.
        const secret = (view.game.seats[seat].hand as { name: string }[])
          .map((c) => c.name)
          .filter((n) => !JSON.stringify(spectatorView).includes(n));
        for (const name of secret) {
          secrets++;
          expect(picture).toContain(name);
          expect(spectator).not.toContain(name);
        }
      }
      expect(secrets, 'some hand card is secret from the spectator').toBeGreaterThan(0);
      // A registered player's token sees its seat, through the same credential resolution as the JSON view.
      const player = await h.http
        .post('/v1/players')
        .send({ handle: `pic-${Date.now().toString(36)}` })
        .expect(201);
      const created = await h.http
        .post('/v1/matches')
        .set(bearer(player.body.token))
        .send({ opponentHandle: 'bob', decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'starter-ember-tide' } } })
        .expect(201);
      const asPlayer = await svg(created.body.id, { token: player.body.token }).expect(200);
      expect(asPlayer.headers.etag).toBe(`"${created.body.version}.${created.body.seat}.svg.r${PICTURE_VERSION}"`);
      expect(asPlayer.body.toString('utf8')).toBe(renderBoardSvg(await json(created.body.id, player.body.token)));
    });

    it('ETag per version, viewer and format: 304 until the match moves; no-cache live, immutable for ?at= (an earlier position differs)', async () => {
      const m = await createHotSeat(h.http);
      const first = await svg(m.id).expect(200);
      const v1 = (await json(m.id)).version as number;
      expect(first.headers.etag).toBe(`"${v1}.spectator.svg.r${PICTURE_VERSION}"`);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect(first.headers.vary).toBe('Authorization, Origin');
      const again = await svg(m.id, { etag: first.headers.etag }).expect(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      // Another viewer's tag does not match.
      const seatTag = (await svg(m.id, { token: m.tokens.p1 }).expect(200)).headers.etag;
      expect(seatTag).toBe(`"${v1}.p1.svg.r${PICTURE_VERSION}"`);
      await svg(m.id, { etag: seatTag }).expect(200);

      await play(m.id, m.tokens, 4);
      const moved = await svg(m.id, { etag: first.headers.etag }).expect(200);
      expect(moved.headers.etag).not.toBe(first.headers.etag);
      expect(moved.body.toString('utf8')).not.toBe(first.body.toString('utf8'));

      const past = await svg(m.id, { at: v1 }).expect(200);
      expect(past.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(past.headers.etag).toBe(first.headers.etag);
      expect(past.body.toString('utf8')).toBe(first.body.toString('utf8'));
      expect(past.body.toString('utf8')).toBe(renderBoardSvg(await json(m.id, undefined, v1)));
      await svg(m.id, { at: v1, etag: past.headers.etag }).expect(304);
      const pastSeat = await svg(m.id, { at: v1, token: m.tokens.p2 }).expect(200);
      expect(pastSeat.body.toString('utf8')).toBe(renderBoardSvg(await json(m.id, m.tokens.p2, v1)));
    });

    it('PNG: decodes at ?size= (default 800), height in proportion; ETag names the size; 304; ?at=', async () => {
      const m = await createHotSeat(h.http);
      await play(m.id, m.tokens, 3);
      // p1's picture, which the PNGs below draw (its hand lines make it taller than a spectator's).
      const picture = (await svg(m.id, { token: m.tokens.p1 }).expect(200)).body.toString('utf8');
      const [, w, hgt] = /^<svg[^>]* width="(\d+)" height="(\d+)"/.exec(picture)!.map(Number) as [number, number, number];
      const def = await png(m.id).expect(200);
      expect(def.headers['content-type']).toBe('image/png');
      expect(pngSize(def.body).width).toBe(PNG_SIZE.default);
      for (const size of [PNG_SIZE.min, 375, PNG_SIZE.max]) {
        const res = await png(m.id, `?size=${size}`, m.tokens.p1).expect(200);
        const got = pngSize(res.body);
        expect(got.width).toBe(size);
        expect(Math.abs(got.height - (size * hgt) / w)).toBeLessThanOrEqual(1);
        expect(res.headers.etag).toMatch(new RegExp(`^"\\d+\\.p1\\.png-${size}\\.r${PICTURE_VERSION}"$`));
        expect(res.headers['cache-control']).toBe('private, no-cache');
        const again = await png(m.id, `?size=${size}`, m.tokens.p1).set('if-none-match', String(res.headers.etag)).expect(304);
        expect(again.body.length).toBe(0);
        // The same picture again (from the cache or drawn anew): the same bytes.
        expect((await png(m.id, `?size=${size}`, m.tokens.p1).expect(200)).body.equals(res.body)).toBe(true);
      }
      const past = await png(m.id, '?at=1&size=300').expect(200);
      expect(past.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(past.headers.etag).toBe(`"1.spectator.png-300.r${PICTURE_VERSION}"`);
      const now = await png(m.id, '?size=300').expect(200);
      expect(past.body.equals(now.body)).toBe(false);
    });

    it('UniVersus: the same endpoints, the same redaction', async () => {
      const c = await h.http
        .post('/v1/matches')
        .send({
          game: 'universus',
          handle: 'ann',
          opponentHandle: 'ben',
          decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } },
        })
        .expect(201);
      const tokens = c.body.tokens as Record<'p1' | 'p2', string>;
      const spectatorView = await json(c.body.id);
      const spectator = (await svg(c.body.id).expect(200)).body.toString('utf8');
      expect(spectator).toBe(renderBoardSvg(spectatorView));
      expect(spectator).toContain('UniVersus');
      const p1 = (await svg(c.body.id, { token: tokens.p1 }).expect(200)).body.toString('utf8');
      expect(p1).toBe(renderBoardSvg(await json(c.body.id, tokens.p1)));
      expect(p1).toContain('In hand:');
      expect(spectator).not.toContain('In hand:');
      expect(pngSize((await png(c.body.id, '?size=500').expect(200)).body).width).toBe(500);
    });

    it('a match waiting for its second player has a picture too', async () => {
      const c = await h.http
        .post('/v1/matches')
        .send({ handle: 'ann', openSeat: true, decks: { p1: { starter: 'starter-verdant-quake' } } })
        .expect(201);
      const res = await svg(c.body.id).expect(200);
      expect(res.body.toString('utf8')).toContain('Waiting for an opponent to join; seated: p1 (ann).');
    });

    it('errors are problem+json: 404 unknown match, 400 bad at/size/unknown parameter, 401 bad token', async () => {
      const m = await createHotSeat(h.http);
      for (const path of ['board.svg', 'board.png']) {
        expectProblem(await h.http.get(`/v1/matches/no-such-match/${path}`), 404, 'match-not-found');
        expectProblem(await h.http.get(`/v1/matches/${m.id}/${path}?at=0`), 400, 'validation-failed');
        expectProblem(await h.http.get(`/v1/matches/${m.id}/${path}?at=999`), 400, 'validation-failed');
        expectProblem(await h.http.get(`/v1/matches/${m.id}/${path}?at=x`), 400, 'validation-failed');
        expectProblem(await h.http.get(`/v1/matches/${m.id}/${path}?colour=red`), 400, 'validation-failed');
        expectProblem(await h.http.get(`/v1/matches/${m.id}/${path}`).set(bearer('x'.repeat(43))), 401);
        expectProblem(await h.http.get(`/v1/matches/${m.id}/${path}`).set('authorization', 'Basic abc'), 401);
      }
      for (const size of [PNG_SIZE.min - 1, PNG_SIZE.max + 1, 0, -5, 1.5, 'big']) {
        expectProblem(await h.http.get(`/v1/matches/${m.id}/board.png?size=${size}`), 400, 'validation-failed');
      }
      expectProblem(await h.http.get(`/v1/matches/${m.id}/board.svg?size=300`), 400, 'validation-failed');
    });
  });
}
