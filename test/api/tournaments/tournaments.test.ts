/**
 * Tournaments (issue 25) on both databases: create, enter, withdraw, start (by the organizer or
 * at a set time), rounds that start when the last match ends, byes for odd fields, forfeits for
 * no-shows at a round's deadline, withdrawals mid-event, standings and their CSV, the feed's
 * round-started and finished entries, the stable errors, and two nodes advancing the same
 * tournament (each round starts once).
 */
import { describe, expect, it } from 'vitest';
import {
  backends,
  bearer,
  expectProblem,
  nextMove,
  openStream,
  type RegisteredPlayer,
  registerPlayer,
  useHarness,
  useSecondApp,
  waitFor,
} from '../helpers.js';
import { StandingsSchema, TournamentSchema } from '../../../src/http/routes/tournaments.js';
import { FeedEntrySchema } from '../../../src/http/feed-schemas.js';

type P = RegisteredPlayer;
const CORR = { kind: 'correspondence', daysPerMove: 3 };

interface Board {
  board: number;
  p1: string;
  p2: string | null;
  matchId: string | null;
  result: string | null;
  forfeit: boolean;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`tournaments [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });
    const other = useSecondApp(h);

    const get = async (id: string) => {
      const body = (await h.http.get(`/v1/tournaments/${id}`).expect(200)).body;
      TournamentSchema.parse(body);
      return body as {
        status: string;
        round: number;
        rounds: number | null;
        pairings: { round: number; boards: Board[] }[];
        players: { handle: string; withdrawn: boolean }[];
      };
    };
    const create = async (org: P, body: Record<string, unknown>) =>
      (
        await h.http
          .post('/v1/tournaments')
          .set(bearer(org.token))
          .send({ name: 'Autumn Cup', timeControl: CORR, ...body })
          .expect(201)
      ).body as { id: string };
    const join = (id: string, p: P, body: Record<string, unknown> = {}) =>
      h.http.post(`/v1/tournaments/${id}/join`).set(bearer(p.token)).send(body);
    const field = async (count: number, prefix: string) => Promise.all(Array.from({ length: count }, () => registerPlayer(h.http, prefix)));

    /** Ends every running match of the round: the seat `loser` picks resigns. */
    async function playRound(id: string, players: P[], loser: (b: Board) => 'p1' | 'p2' = () => 'p2') {
      const t = await get(id);
      const round = t.pairings.find((r) => r.round === t.round)!;
      const token = new Map(players.map((p) => [p.handle, p.token]));
      for (const b of round.boards) {
        if (b.matchId === null || b.result !== null) continue;
        const who = loser(b) === 'p1' ? b.p1 : b.p2!;
        await h.http
          .post(`/v1/matches/${b.matchId}/actions`)
          .set(bearer(token.get(who)!))
          .send({ action: { type: 'resign' } })
          .expect(200);
      }
      await h.app.service.tournaments.sweep();
    }

    it('a round robin of 4: three rounds by the Berger tables, each started when the last match of the one before ended; standings, crosstable, CSV', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(4, 'rr');
      const t = await create(org, { format: 'round-robin' });
      for (const p of ps) await join(t.id, p).expect(200);
      expect((await get(t.id)).status).toBe('open');
      await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
      let v = await get(t.id);
      expect(v).toMatchObject({ status: 'running', round: 1, rounds: 3 });
      expect(v.pairings[0]!.boards).toHaveLength(2);
      // A match of the tournament is an ordinary match between the two players, with the tournament's clock.
      const m = (await h.http.get(`/v1/matches/${v.pairings[0]!.boards[0]!.matchId}`).expect(200)).body;
      expect(m.timeControl).toMatchObject({ kind: 'correspondence' });

      // Half the round ended: nothing moves on.
      const first = v.pairings[0]!.boards[0]!;
      const tok = new Map(ps.map((p) => [p.handle, p.token]));
      await h.http
        .post(`/v1/matches/${first.matchId}/actions`)
        .set(bearer(tok.get(first.p2!)!))
        .send({ action: { type: 'resign' } })
        .expect(200);
      await h.app.service.tournaments.sweep();
      v = await get(t.id);
      expect(v.round).toBe(1);
      expect(v.pairings[0]!.boards[0]!.result).toBe('p1');

      await playRound(t.id, ps);
      expect((await get(t.id)).round).toBe(2);
      await playRound(t.id, ps);
      await playRound(t.id, ps);
      v = await get(t.id);
      expect(v.status).toBe('finished');
      // Everyone met everyone once.
      const met = new Set(v.pairings.flatMap((r) => r.boards.map((b) => [b.p1, b.p2].sort().join('-'))));
      expect(met.size).toBe(6);

      const s = StandingsSchema.parse((await h.http.get(`/v1/tournaments/${t.id}/standings`).expect(200)).body);
      expect(s.final).toBe(true);
      expect(s.standings.map((r) => r.points).reduce((a, b) => a + b, 0)).toBe(6);
      expect(s.crosstable!.players).toEqual(s.standings.map((r) => r.handle));
      expect(s.nextCursor).toBeNull();
      const csv = await h.http.get(`/v1/tournaments/${t.id}/standings.csv`).expect(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe('rank,handle,points,buchholz,sonneborn_berger,direct_encounter,games,byes,withdrawn,round_1,round_2,round_3');
      expect(lines).toHaveLength(5);
      expect(lines[1]!.split(',')[1]).toBe(s.standings[0]!.handle);
    });

    it('a Swiss of 5 over 3 rounds: a bye each round to a different player, no repeat pairing, a withdrawal mid-event', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(5, 'sw');
      const t = await create(org, { format: 'swiss', rounds: 3 });
      for (const p of ps) await join(t.id, p).expect(200);
      await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
      await playRound(t.id, ps);
      // One player withdraws during round 2: their match plays on; round 3 pairs the other four (no bye).
      const gone = ps[4]!;
      await h.http.post(`/v1/tournaments/${t.id}/withdraw`).set(bearer(gone.token)).send({}).expect(200);
      await playRound(t.id, ps);
      await playRound(t.id, ps);
      const v = await get(t.id);
      expect(v.status).toBe('finished');
      expect(v.pairings.map((r) => r.round)).toEqual([1, 2, 3]);
      expect(v.pairings[0]!.boards.filter((b) => b.p2 === null)).toHaveLength(1);
      for (const r of v.pairings.slice(2)) {
        expect(r.boards.some((b) => b.p1 === gone.handle || b.p2 === gone.handle)).toBe(false);
        expect(r.boards.every((b) => b.p2 !== null)).toBe(true);
      }
      const pairs = v.pairings.flatMap((r) => r.boards.filter((b) => b.p2 !== null).map((b) => [b.p1, b.p2].sort().join('-')));
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(v.players.find((p) => p.handle === gone.handle)!.withdrawn).toBe(true);
      const s = StandingsSchema.parse((await h.http.get(`/v1/tournaments/${t.id}/standings`).expect(200)).body);
      expect(s.standings).toHaveLength(5);
      expect(s.standings.find((r) => r.handle === gone.handle)!.withdrawn).toBe(true);
    });

    it('at a round deadline a match nobody moved in is a forfeit by the seat to move; a scheduled start with one player cancels', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(2, 'dl');
      const t = await create(org, { format: 'swiss', rounds: 1, roundHours: 24 });
      for (const p of ps) await join(t.id, p).expect(200);
      await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
      let v = await get(t.id);
      const b = v.pairings[0]!.boards[0]!;
      const m = (await h.http.get(`/v1/matches/${b.matchId}`).expect(200)).body;
      h.t.now += 24 * 3_600_000;
      await h.app.service.tournaments.sweep();
      v = await get(t.id);
      expect(v.status).toBe('finished');
      const seatToMove = m.game.pending.seat as 'p1' | 'p2';
      expect(v.pairings[0]!.boards[0]).toMatchObject({ result: seatToMove === 'p1' ? 'p2' : 'p1', forfeit: true });
      expect((await h.http.get(`/v1/matches/${b.matchId}`).expect(200)).body.status).toBe('finished');

      const lonely = await create(org, { format: 'swiss', rounds: 2, startsAt: new Date(h.t.now + 3_600_000).toISOString() });
      await join(lonely.id, ps[0]!).expect(200);
      await h.app.service.tournaments.sweep();
      expect((await get(lonely.id)).status).toBe('open');
      h.t.now += 3_600_000;
      await h.app.service.tournaments.sweep();
      expect((await get(lonely.id)).status).toBe('canceled');
    });

    it('a scheduled start; the feed tells each player their pairing and the finish', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(3, 'fd');
      const t = await create(org, { format: 'round-robin', startsAt: new Date(h.t.now + 60_000).toISOString() });
      for (const p of ps) await join(t.id, p).expect(200);
      const feeds = ps.map((p) => openStream<{ type: string; data: Record<string, unknown> }>(h.baseUrl(), '/v1/me/events', p.token));
      await waitFor(() => feeds.every((f) => f.lines.length >= 1), 'the snapshots');
      h.t.now += 60_000;
      await h.app.service.tournaments.sweep();
      expect((await get(t.id)).status).toBe('running');
      await playRound(t.id, ps);
      await playRound(t.id, ps);
      await playRound(t.id, ps);
      expect((await get(t.id)).status).toBe('finished');
      const tournamentEntries = (f: (typeof feeds)[number]) => f.lines.filter((e) => e.type.startsWith('tournament-'));
      await waitFor(
        () => feeds.every((f) => tournamentEntries(f).some((e) => e.type === 'tournament-finished')),
        'the finish on every feed',
      );
      // Every player: three round-started entries (one a bye) and the finish, each valid against its schema.
      for (const f of feeds) {
        f.close();
        const entries = tournamentEntries(f);
        for (const e of entries) FeedEntrySchema.parse(e);
        const rounds = entries.filter((e) => e.type === 'tournament-round-started');
        expect(rounds.map((e) => e.data.round)).toEqual([1, 2, 3]);
        expect(rounds.filter((e) => e.data.bye)).toHaveLength(1);
        expect(
          rounds.filter((e) => !e.data.bye).every((e) => typeof e.data.matchId === 'string' && typeof e.data.opponent === 'string'),
        ).toBe(true);
        const fin = entries.find((e) => e.type === 'tournament-finished')!;
        expect(fin.data).toMatchObject({ tournamentId: t.id, rounds: 3, players: 3 });
        expect(fin.data.rank).toBeGreaterThanOrEqual(1);
        expect(JSON.stringify(entries)).not.toMatch(/deck|starter|cards/i);
      }
    });

    it('fields of 2 to 64: every round pairs each active player once (one bye when odd), never twice the same pair, to the last round', async () => {
      for (const [size, rounds] of [
        [2, 1],
        [3, 2],
        [7, 4],
        [16, 4],
        [64, 6],
      ] as const) {
        const org = await registerPlayer(h.http, 'org');
        const ps = await field(size, `s${size}x`);
        const t = await create(org, { format: 'swiss', rounds, maxPlayers: 64 });
        for (const p of ps) await join(t.id, p).expect(200);
        await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
        // The higher board's first seat wins: results vary with the seats.
        for (let r = 0; r < rounds; r++) await playRound(t.id, ps, (b) => (b.board % 2 === 0 ? 'p1' : 'p2'));
        const v = await get(t.id);
        expect(v.status, `${size} players`).toBe('finished');
        expect(v.pairings).toHaveLength(rounds);
        const seen = new Set<string>();
        const byes = new Map<string, number>();
        for (const r of v.pairings) {
          const inRound = r.boards.flatMap((b) => (b.p2 === null ? [b.p1] : [b.p1, b.p2]));
          expect(new Set(inRound).size, `${size} players, round ${r.round}`).toBe(size);
          expect(inRound).toHaveLength(size);
          expect(r.boards.filter((b) => b.p2 === null)).toHaveLength(size % 2);
          for (const b of r.boards) {
            if (b.p2 === null) byes.set(b.p1, (byes.get(b.p1) ?? 0) + 1);
            else {
              const key = [b.p1, b.p2].sort().join('-');
              expect(seen.has(key), `${key} met twice`).toBe(false);
              seen.add(key);
            }
          }
        }
        expect([...byes.values()].every((k) => k === 1)).toBe(true);
        const s = StandingsSchema.parse((await h.http.get(`/v1/tournaments/${t.id}/standings`).expect(200)).body);
        // Every board gives out one point: a game between two, or a bye.
        expect(s.standings.reduce((a, r) => a + r.points, 0)).toBe(v.pairings.reduce((a, r) => a + r.boards.length, 0));
      }
    });

    it('round robins of 2, 3, 5 and 6 (and a double of 3): everyone meets everyone the right number of times', async () => {
      for (const [size, format] of [
        [2, 'round-robin'],
        [3, 'round-robin'],
        [5, 'round-robin'],
        [6, 'round-robin'],
        [3, 'double-round-robin'],
      ] as const) {
        const org = await registerPlayer(h.http, 'org');
        const ps = await field(size, `r${size}x`);
        const t = await create(org, { format });
        for (const p of ps) await join(t.id, p).expect(200);
        await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
        const cycles = format === 'double-round-robin' ? 2 : 1;
        const rounds = (size % 2 === 0 ? size - 1 : size) * cycles;
        expect((await get(t.id)).rounds).toBe(rounds);
        for (let r = 0; r < rounds; r++) await playRound(t.id, ps);
        const v = await get(t.id);
        expect(v.status).toBe('finished');
        const met = new Map<string, number>();
        for (const r of v.pairings)
          for (const b of r.boards)
            if (b.p2 !== null) met.set([b.p1, b.p2].sort().join('-'), (met.get([b.p1, b.p2].sort().join('-')) ?? 0) + 1);
        expect(met.size, `${size} ${format}`).toBe((size * (size - 1)) / 2);
        expect([...met.values()].every((k) => k === cycles)).toBe(true);
      }
    });

    it("a match's own clock ends it: a timeout is an ordinary win; a first mover who never moved forfeits", async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(4, 'clk');
      const t = await create(org, { format: 'swiss', rounds: 1, timeControl: { kind: 'correspondence', daysPerMove: 1 } });
      for (const p of ps) await join(t.id, p).expect(200);
      await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
      const [moved, idle] = (await get(t.id)).pairings[0]!.boards;
      const tok = new Map(ps.map((p) => [p.handle, p.token]));
      // On the first board, both seats decide once, then the seat to move lets its time run out.
      const seats = { p1: tok.get(moved!.p1)!, p2: tok.get(moved!.p2!)! };
      for (let i = 0; i < 2; i++) {
        const mv = await nextMove(h, moved!.matchId!, seats);
        await h.http
          .post(`/v1/matches/${moved!.matchId}/actions`)
          .set(bearer(seats[mv.seat]))
          .set('if-match', `"${mv.version}"`)
          .send({ action: mv.action })
          .expect(200);
      }
      const late = (await h.http.get(`/v1/matches/${moved!.matchId}`).expect(200)).body.game.pending.seat as 'p1' | 'p2';
      const firstIdle = (await h.http.get(`/v1/matches/${idle!.matchId}`).expect(200)).body.game.pending.seat as 'p1' | 'p2';
      h.t.now += 2 * 86_400_000;
      await h.app.service.sweep();
      await h.app.service.tournaments.sweep();
      const v = await get(t.id);
      expect(v.status).toBe('finished');
      const [b1, b2] = v.pairings[0]!.boards;
      const ended = (await h.http.get(`/v1/matches/${moved!.matchId}`).expect(200)).body;
      expect(ended.status).toBe('finished');
      expect(b1).toMatchObject({ result: late === 'p1' ? 'p2' : 'p1', forfeit: false });
      expect(b2).toMatchObject({ result: firstIdle === 'p1' ? 'p2' : 'p1', forfeit: true });
    });

    it('refuses with stable codes', async () => {
      const org = await registerPlayer(h.http, 'org');
      const [a, b, c] = await field(3, 'er');
      expectProblem(
        await h.http.post('/v1/tournaments').send({ name: 'x', format: 'swiss', rounds: 3, timeControl: CORR }),
        401,
        'missing-token',
      );
      expectProblem(
        await h.http.post('/v1/tournaments').set(bearer(org.token)).send({ name: 'x', format: 'swiss', timeControl: CORR }),
        400,
        'validation-failed',
      );
      expectProblem(
        await h.http
          .post('/v1/tournaments')
          .set(bearer(org.token))
          .send({ name: 'x', format: 'swiss', rounds: 2, timeControl: { kind: 'none' } }),
        400,
        'validation-failed',
      );
      expectProblem(await h.http.get('/v1/tournaments/tn_nope'), 404, 'tournament-not-found');
      expectProblem(await h.http.get('/v1/tournaments/bad%00id'), 400, 'validation-failed');
      const t = await create(org, { format: 'swiss', rounds: 2, maxPlayers: 2, invited: [a!.handle, b!.handle] });
      expectProblem(await join(t.id, c!), 403, 'not-invited');
      await join(t.id, a!).expect(200);
      expectProblem(await join(t.id, a!), 409, 'already-entered');
      expectProblem(await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(a!.token)).send({}), 403, 'not-organizer');
      expectProblem(await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}), 409, 'too-few-players');
      expectProblem(await join(t.id, b!, { deck: { cards: [] } }), 400, 'validation-failed');
      await join(t.id, b!).expect(200);
      const open = await create(org, { format: 'swiss', rounds: 2, maxPlayers: 2 });
      await join(open.id, a!).expect(200);
      await join(open.id, b!).expect(200);
      expectProblem(await join(open.id, c!), 409, 'tournament-full');
      expectProblem(await h.http.post(`/v1/tournaments/${open.id}/withdraw`).set(bearer(c!.token)).send({}), 409, 'not-entered');
      await h.http.post(`/v1/tournaments/${open.id}/cancel`).set(bearer(org.token)).send({}).expect(200);
      expectProblem(await join(open.id, c!), 409, 'tournament-closed');
      const listed = (await h.http.get('/v1/tournaments?status=canceled').expect(200)).body;
      expect(listed.tournaments.map((x: { id: string }) => x.id)).toContain(open.id);
    });

    it('two nodes advancing the same tournament at once start each round once', async () => {
      const org = await registerPlayer(h.http, 'org');
      const ps = await field(6, 'race');
      const t = await create(org, { format: 'swiss', rounds: 2 });
      for (const p of ps) await join(t.id, p).expect(200);
      await h.http.post(`/v1/tournaments/${t.id}/start`).set(bearer(org.token)).send({}).expect(200);
      const v = await get(t.id);
      const tok = new Map(ps.map((p) => [p.handle, p.token]));
      for (const b of v.pairings[0]!.boards) {
        await h.http
          .post(`/v1/matches/${b.matchId}/actions`)
          .set(bearer(tok.get(b.p2!)!))
          .send({ action: { type: 'resign' } })
          .expect(200);
      }
      const results = await Promise.all([
        h.app.service.tournaments.advance(t.id),
        other.app.service.tournaments.advance(t.id),
        h.app.service.tournaments.advance(t.id),
      ]);
      expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1);
      const after = await get(t.id);
      expect(after.round).toBe(2);
      expect(after.pairings.map((r) => r.boards.length)).toEqual([3, 3]);
      // Exactly three matches of round 2 exist for these players: none made by the losing node.
      const started = new Set(after.pairings[1]!.boards.map((b) => b.matchId));
      expect(started.size).toBe(3);
      for (const p of ps) {
        const mine = (await h.http.get(`/v1/matches?handle=${p.handle}&status=active`).expect(200)).body.matches as { id: string }[];
        expect(mine).toHaveLength(1);
        expect(started.has(mine[0]!.id)).toBe(true);
      }
    });
  });
}
