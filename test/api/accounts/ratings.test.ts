/**
 * Rated matches over the API (issue 10, ratings), on both databases, with an injected clock (no
 * sleeping): who may create and join rated matches, Glicko-2 updates of both players in the final
 * append's transaction (a resign, a timeout; never an abort), exactly once under retries and
 * races, the profile's ratings, results and favourite decks, the leaderboard without provisional
 * ratings, and the `rated` history filter on REST and GraphQL.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATING, rateMatch } from '../../../src/core/rating.js';
import { DEFAULT_RATED_MIN_DECISIONS } from '../../../src/service/accounts/ratings.js';
import { STARTERS, backends, bearer, expectProblem, registerPlayer, useHarness, type RegisteredPlayer } from '../helpers.js';

type Seat = 'p1' | 'p2';
const CORRESPONDENCE = { kind: 'correspondence', daysPerMove: 1 } as const;
const LIVE = { kind: 'live', initialSeconds: 60, incrementSeconds: 0 } as const;
const DAY = 86_400_000;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`rated matches [${backend.name}]`, () => {
    // The other tests rate instant resigns: the minimum is off for them, on (the default) for `strict`.
    const h = useHarness(backend, { clock: true, ratedMinDecisions: 0 });
    /** The default minimum for rated play (each seat's decisions), for the test of that rule. */
    const strict = useHarness(backend, { clock: true });
    const tag = Math.random().toString(36).slice(2, 7);
    type P = RegisteredPlayer;
    /** A rated match of `a` (p1, first starter deck) against `b` (p2, second), dealt and running. */
    const ratedMatch = async (a: P, b: P, timeControl: object = CORRESPONDENCE, game = 'evons') => {
      const decks = { p1: { starter: game === 'evons' ? STARTERS[0] : 'scouts' } };
      const c = await h.http
        .post('/v1/matches')
        .set(bearer(a.token))
        .send({ game, rated: true, openSeat: true, timeControl, decks })
        .expect(201);
      await h.http
        .post(`/v1/matches/${c.body.id}/join`)
        .set(bearer(b.token))
        .send({ deck: { starter: game === 'evons' ? STARTERS[1] : 'shifters' } })
        .expect(200);
      return c.body.id as string;
    };
    const resign = (id: string, who: P, key?: string) => {
      const req = h.http.post(`/v1/matches/${id}/actions`).set('prefer', 'return=representation').set(bearer(who.token));
      if (key) req.set('idempotency-key', key);
      return req.send({ action: { type: 'resign' } });
    };
    /** Plays first legal actions until each seat has made a decision (a clock running out after that is a timeout, not an abort). */
    const untilBothDecided = async (id: string, seats: Record<Seat, P>) => {
      const decided = new Set<Seat>();
      while (decided.size < 2) {
        const v = await h.http.get(`/v1/matches/${id}`).expect(200);
        expect(v.body.status).toBe('active');
        const seat = v.body.game.pending.seat as Seat;
        const legal = await h.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(seats[seat].token)).expect(200);
        await h.http
          .post(`/v1/matches/${id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(seats[seat].token))
          .send({ action: legal.body.actions[0].action })
          .expect(200);
        decided.add(seat);
      }
    };
    const profile = async (p: P) => (await h.http.get(`/v1/players/${p.handle}`).expect(200)).body;

    it(`issue 21 a rated match moves ratings only once each seat has made ${DEFAULT_RATED_MIN_DECISIONS} decisions: an instant resign or an early timeout is not rated`, async () => {
      const farmer = await registerPlayer(strict.http, 'farmer-');
      const puppet = await registerPlayer(strict.http, 'puppet-');
      const start = async (timeControl: object = CORRESPONDENCE) => {
        const c = await strict.http
          .post('/v1/matches')
          .set(bearer(farmer.token))
          .send({ rated: true, openSeat: true, timeControl, decks: { p1: { starter: STARTERS[0] } } })
          .expect(201);
        await strict.http
          .post(`/v1/matches/${c.body.id}/join`)
          .set(bearer(puppet.token))
          .send({ deck: { starter: STARTERS[1] } })
          .expect(200);
        return c.body.id as string;
      };
      /** First legal actions until each seat has made `n` decisions. */
      const play = async (id: string, n: number) => {
        const made = { p1: 0, p2: 0 };
        const seats = { p1: farmer, p2: puppet };
        while (made.p1 < n || made.p2 < n) {
          const v = await strict.http.get(`/v1/matches/${id}`).expect(200);
          expect(v.body.status).toBe('active');
          const seat = v.body.game.pending.seat as Seat;
          const legal = await strict.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(seats[seat].token)).expect(200);
          await strict.http
            .post(`/v1/matches/${id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(seats[seat].token))
            .send({ action: legal.body.actions[0].action })
            .expect(200);
          made[seat] += 1;
        }
      };
      const resignBy = (id: string, who: { token: string }) =>
        strict.http
          .post(`/v1/matches/${id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(who.token))
          .send({ action: { type: 'resign' } })
          .expect(200);
      const ratingsOf = async (p: { handle: string }) => (await strict.http.get(`/v1/players/${p.handle}`).expect(200)).body.ratings;

      // The farm: instant resigns, and a resign one decision short of the minimum.
      for (let i = 0; i < 3; i++) await resignBy(await start(), puppet);
      const short = await start();
      await play(short, DEFAULT_RATED_MIN_DECISIONS - 1);
      await resignBy(short, puppet);
      // A live clock run out after each seat decided once (a timeout, not an abort): not rated either.
      const early = await start(LIVE);
      await play(early, 1);
      strict.t.now += 61_000;
      expect((await strict.http.get(`/v1/matches/${early}`).expect(200)).body.outcome).toMatchObject({ reason: 'timed-out' });
      for (const id of [short, early]) {
        expect(await strict.store.ratings.changesOfMatch(id)).toEqual([]);
        expect((await strict.http.get(`/v1/matches/${id}`).expect(200)).body).toMatchObject({ status: 'finished', rated: true });
      }
      expect(await ratingsOf(farmer)).toEqual([]);
      expect((await strict.http.get(`/v1/players/${farmer.handle}`).expect(200)).body.stats[0]).toMatchObject({ played: 5 });

      // Played to the minimum, the same resign is rated.
      const real = await start();
      await play(real, DEFAULT_RATED_MIN_DECISIONS);
      await resignBy(real, puppet);
      expect(await strict.store.ratings.changesOfMatch(real)).toHaveLength(2);
      expect(await ratingsOf(farmer)).toEqual([expect.objectContaining({ timeControl: 'correspondence', games: 1, provisional: true })]);
    });

    it('rated needs players, an open seat and a clock; an anonymous joiner is refused and nothing changes', async () => {
      const ann = await registerPlayer(h.http, 'gate-');
      const decks = { p1: { starter: STARTERS[0] } };
      expectProblem(
        await h.http.post('/v1/matches').send({ rated: true, openSeat: true, timeControl: CORRESPONDENCE, decks }),
        403,
        'rated-needs-player',
      );
      expectProblem(
        await h.http
          .post('/v1/matches')
          .set(bearer(ann.token))
          .send({ rated: true, timeControl: CORRESPONDENCE, decks: { ...decks, p2: { starter: STARTERS[1] } } }),
        400,
        'rated-match-invalid',
      );
      expectProblem(
        await h.http.post('/v1/matches').set(bearer(ann.token)).send({ rated: true, openSeat: true, decks }),
        400,
        'rated-match-invalid',
      );
      const c = await h.http
        .post('/v1/matches')
        .set(bearer(ann.token))
        .send({ rated: true, openSeat: true, timeControl: CORRESPONDENCE, decks })
        .expect(201);
      expectProblem(
        await h.http.post(`/v1/matches/${c.body.id}/join`).send({ handle: `anon-${tag}`, deck: { starter: STARTERS[1] } }),
        403,
        'rated-needs-player',
      );
      const v = await h.http.get(`/v1/matches/${c.body.id}`).expect(200);
      expect(v.body).toMatchObject({ status: 'waiting', rated: true, version: 1 });
    });

    it('a resign updates both ratings once, with Glicko-2, in the final append; profile, summary and filters show it', async () => {
      const ann = await registerPlayer(h.http, 'ann-');
      const bob = await registerPlayer(h.http, 'bob-');
      const id = await ratedMatch(ann, bob);
      // The retry of the final action gets the same answer and changes nothing more.
      const first = await resign(id, ann, 'end-1').expect(200);
      const again = await resign(id, ann, 'end-1').expect(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(first.body.match).toMatchObject({ status: 'finished', winner: 'p2', rated: true });

      const expected = rateMatch(DEFAULT_RATING, DEFAULT_RATING, 0);
      const changes = await h.store.ratings.changesOfMatch(id);
      expect(changes).toHaveLength(2);
      const annChange = changes.find((c) => c.score === 0)!;
      expect(annChange.before).toEqual(DEFAULT_RATING);
      expect(annChange.after.rating).toBeCloseTo(expected.a.rating, 9);
      expect(annChange.after.rd).toBeCloseTo(expected.a.rd, 9);
      expect(changes.find((c) => c.score === 1)!.after.rating).toBeCloseTo(expected.b.rating, 9);

      const pa = await profile(ann);
      expect(pa.ratings).toEqual([
        {
          game: 'evons',
          timeControl: 'correspondence',
          rating: Math.round(expected.a.rating),
          rd: Math.round(expected.a.rd),
          provisional: true,
          games: 1,
        },
      ]);
      expect(pa.stats).toEqual([{ game: 'evons', played: 1, won: 0, lost: 1, drawn: 0, timedOut: 0, aborted: 0 }]);
      expect(pa.favouriteDecks).toEqual([{ game: 'evons', deck: STARTERS[0], matches: 1 }]);
      const pb = await profile(bob);
      expect(pb.ratings[0]).toMatchObject({ rating: Math.round(expected.b.rating), games: 1 });
      expect(pb.stats[0]).toMatchObject({ played: 1, won: 1, lost: 0 });
      expect(pb.favouriteDecks).toEqual([{ game: 'evons', deck: STARTERS[1], matches: 1 }]);

      const rated = await h.http.get(`/v1/matches?handle=${ann.handle}&rated=true`).expect(200);
      expect(rated.body.matches.map((m: { id: string; rated: boolean }) => [m.id, m.rated])).toEqual([[id, true]]);
      expect((await h.http.get(`/v1/matches?handle=${ann.handle}&rated=false`).expect(200)).body.matches).toEqual([]);
      expectProblem(await h.http.get('/v1/matches?rated=maybe'), 400, 'validation-failed');
      const gql = await h.http
        .post('/graphql')
        .send({ query: `{ matches(handle: "${ann.handle}", rated: true) { matches { id rated } } match(id: "${id}") { rated } }` })
        .expect(200);
      expect(gql.body.data).toEqual({ matches: { matches: [{ id, rated: true }] }, match: { rated: true } });
    });

    it('two final actions racing (both seats resign at once): one wins, the ratings move once', async () => {
      const cy = await registerPlayer(h.http, 'cy-');
      const di = await registerPlayer(h.http, 'di-');
      const id = await ratedMatch(cy, di);
      const [a, b] = await Promise.all([resign(id, cy), resign(id, di)]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const changes = await h.store.ratings.changesOfMatch(id);
      expect(changes).toHaveLength(2);
      expect((await profile(cy)).ratings[0].games).toBe(1);
      expect((await profile(di)).ratings[0].games).toBe(1);
    });

    it('a timeout is rated (live family, counted as timed out); an abort moves no rating', async () => {
      const ed = await registerPlayer(h.http, 'ed-');
      const fe = await registerPlayer(h.http, 'fe-');
      const id = await ratedMatch(ed, fe, LIVE);
      await untilBothDecided(id, { p1: ed, p2: fe });
      // Whoever is to move now lets their clock run out.
      h.t.now += 61_000;
      const ended = await h.http.get(`/v1/matches/${id}`).expect(200);
      expect(ended.body.outcome).toMatchObject({ reason: 'timed-out' });
      const loser = ended.body.outcome.seat === 'p1' ? ed : fe;
      const winner = loser === ed ? fe : ed;
      expect((await profile(loser)).stats[0]).toMatchObject({ played: 1, lost: 1, timedOut: 1 });
      expect((await profile(loser)).ratings).toEqual([expect.objectContaining({ timeControl: 'live', games: 1 })]);
      expect((await profile(winner)).ratings[0].rating).toBeGreaterThan(1500);

      const aborted = await ratedMatch(ed, fe);
      await h.http
        .post(`/v1/matches/${aborted}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(ed.token))
        .send({ action: { type: 'abort' } })
        .expect(200);
      expect(await h.store.ratings.changesOfMatch(aborted)).toEqual([]);
      expect((await profile(ed)).ratings.map((r: { timeControl: string }) => r.timeControl)).toEqual(['live']);
      expect((await profile(ed)).stats[0]).toMatchObject({ played: 1, aborted: 1 });
    });

    it('UniVersus has its own rating; a correspondence timeout ends it', async () => {
      const gi = await registerPlayer(h.http, 'gi-');
      const ho = await registerPlayer(h.http, 'ho-');
      const id = await ratedMatch(gi, ho, CORRESPONDENCE, 'universus');
      await untilBothDecided(id, { p1: gi, p2: ho });
      h.t.now += 2 * DAY;
      await h.app.service.sweep();
      const games = [...(await profile(gi)).ratings, ...(await profile(ho)).ratings].map(
        (r: { game: string; timeControl: string }) => `${r.game}/${r.timeControl}`,
      );
      expect(games).toEqual(['universus/correspondence', 'universus/correspondence']);
    });

    it('issue 20: a UniVersus resign by the seat NOT deciding ends the match (winner the other seat, reason resigned) and moves both ratings once', async () => {
      const lu = await registerPlayer(h.http, 'lu-');
      const mo = await registerPlayer(h.http, 'mo-');
      const id = await ratedMatch(lu, mo, CORRESPONDENCE, 'universus');
      await untilBothDecided(id, { p1: lu, p2: mo });
      const v = await h.http.get(`/v1/matches/${id}`).expect(200);
      const deciding = v.body.game.pending.seat as Seat;
      const resigner = deciding === 'p1' ? 'p2' : 'p1';
      const seats = { p1: lu, p2: mo };
      const first = await resign(id, seats[resigner], 'uvs-end').expect(200);
      expect((await resign(id, seats[resigner], 'uvs-end').expect(200)).body).toEqual(first.body);
      expect(first.body.match).toMatchObject({
        status: 'finished',
        winner: deciding,
        rated: true,
        outcome: { winner: deciding, reason: 'resigned', seat: resigner },
      });
      const expected = rateMatch(DEFAULT_RATING, DEFAULT_RATING, deciding === 'p1' ? 1 : 0);
      const changes = await h.store.ratings.changesOfMatch(id);
      expect(changes).toHaveLength(2);
      expect(changes.find((c) => c.score === 0)!.after.rating).toBeCloseTo(Math.min(expected.a.rating, expected.b.rating), 9);
      expect((await profile(seats[resigner])).stats).toEqual([
        { game: 'universus', played: 1, won: 0, lost: 1, drawn: 0, timedOut: 0, aborted: 0 },
      ]);
      expect((await profile(seats[deciding])).stats[0]).toMatchObject({ game: 'universus', played: 1, won: 1, lost: 0 });
      expect((await profile(seats[deciding])).ratings).toEqual([expect.objectContaining({ game: 'universus', games: 1 })]);
    });

    it('the leaderboard lists established ratings only (RD ≤ 110), highest first', async () => {
      const iv = await registerPlayer(h.http, 'iv-');
      const jo = await registerPlayer(h.http, 'jo-', { bot: true });
      const ka = await registerPlayer(h.http, 'ka-');
      // 16 games won in turn bring both new players' RDs under 110 (14 such games already give 107.4).
      for (let i = 0; i < 16; i++) {
        const id = await ratedMatch(iv, jo);
        await resign(id, i % 2 === 0 ? iv : jo).expect(200);
      }
      const id = await ratedMatch(ka, iv);
      await resign(id, iv).expect(200);
      const board = await h.http.get('/v1/leaderboard?game=evons&timeControl=correspondence').expect(200);
      const handles = board.body.players.map((p: { handle: string }) => p.handle);
      expect(handles).toContain(jo.handle);
      expect(handles).toContain(iv.handle);
      expect(handles).not.toContain(ka.handle); // one game: provisional
      const ratings = board.body.players.map((p: { rating: number }) => p.rating);
      expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
      expect(board.body.players[0]).toMatchObject({ rank: 1 });
      expect(board.body.players.find((p: { handle: string }) => p.handle === jo.handle)).toMatchObject({ bot: true, games: 16 });
      expect(board.body.players.every((p: { rd: number }) => p.rd <= 110)).toBe(true);
      expect((await h.http.get('/v1/leaderboard?game=evons&timeControl=live').expect(200)).body.players).toEqual([]);
      // GraphQL answers the same.
      const gql = await h.http
        .post('/graphql')
        .send({
          query: `{ leaderboard(game: "evons", timeControl: "correspondence") { game timeControl players { rank handle bot rating rd games } }
                    player(handle: "${jo.handle}") { handle bot createdAt ratings { game timeControl rating rd provisional games }
                      stats { game played won lost drawn timedOut aborted } favouriteDecks { game deck matches } } }`,
        })
        .expect(200);
      expect(gql.body.data.leaderboard).toEqual(board.body);
      expect(gql.body.data.player).toEqual((await h.http.get(`/v1/players/${jo.handle}`).expect(200)).body);
      const bad = await h.http.post('/graphql').send({ query: '{ leaderboard(game: "chess") { game } }' }).expect(200);
      expect(bad.body.errors[0].extensions.code).toBe('validation-failed');
      const nobody = await h.http
        .post('/graphql')
        .send({ query: `{ player(handle: "nobody-${tag}") { handle } }` })
        .expect(200);
      expect(nobody.body.errors[0].extensions.code).toBe('player-not-found');
      expectProblem(await h.http.get('/v1/leaderboard?game=chess'), 400, 'validation-failed');
      expectProblem(await h.http.get('/v1/leaderboard?limit=0'), 400, 'validation-failed');
    });
  });
}
