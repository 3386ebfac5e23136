/**
 * Issue 34, item 1: the organizer's start races joins and withdrawals, sent to two nodes (two
 * apps on one database; on PostgreSQL each with its own pool). Start, join and withdraw
 * serialize on the tournament's row: a 200 join is in round 1 (a board or the bye), a withdrawal
 * answered 200 before the start is not paired in round 1 (one after it is a withdrawal from the
 * running tournament: its round-1 board plays on and the standings mark it withdrawn), a join
 * after the start answers 409 tournament-closed, and no board names a player the standings do
 * not list.
 */
import { describe, expect, it } from 'vitest';
import { backends, bearer, registerPlayer, useHarness, useSecondApp } from '../helpers.js';
import type { MatchStore } from '../../../src/persistence/types.js';

const CORR = { kind: 'correspondence', daysPerMove: 3 };
const TRIES = 8;

interface Board {
  p1: string;
  p2: string | null;
}
interface View {
  status: string;
  pairings: { round: number; boards: Board[] }[];
  players: { handle: string; withdrawn: boolean }[];
}
interface Standings {
  standings: { handle: string; withdrawn: boolean }[];
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`tournament start racing join and withdraw, two nodes [${backend.name}]`, () => {
    const h = useHarness(backend, { clock: true });
    const other = useSecondApp(h);
    const nodes = () => [h.http, other.http];

    const setup = async (entrants: number) => {
      const org = await registerPlayer(h.http, 'rorg');
      const t = (
        await h.http
          .post('/v1/tournaments')
          .set(bearer(org.token))
          .send({ name: 'Race Cup', format: 'swiss', rounds: 3, timeControl: CORR })
          .expect(201)
      ).body as { id: string };
      const ps = await Promise.all(Array.from({ length: entrants }, () => registerPlayer(h.http, 'rp')));
      for (const p of ps) await h.http.post(`/v1/tournaments/${t.id}/join`).set(bearer(p.token)).send({}).expect(200);
      return { org, id: t.id, ps };
    };
    const after = async (id: string) => {
      const v = (await h.http.get(`/v1/tournaments/${id}`).expect(200)).body as View;
      const s = (await other.http.get(`/v1/tournaments/${id}/standings`).expect(200)).body as Standings;
      const round1 = v.pairings.find((r) => r.round === 1)?.boards ?? [];
      const paired = new Set(round1.flatMap((b) => (b.p2 === null ? [b.p1] : [b.p1, b.p2])));
      const listed = new Map(s.standings.map((r) => [r.handle, r]));
      // No board names a player the standings do not list.
      for (const name of paired) expect(listed.has(name), `board names ${name}, not in the standings`).toBe(true);
      return { v, paired, listed };
    };

    it('joins racing the start: every 200 join has a board or the bye in round 1; the others are 409 tournament-closed', async () => {
      for (let i = 0; i < TRIES; i++) {
        const { org, id } = await setup(3);
        const joiners = await Promise.all(Array.from({ length: 4 }, () => registerPlayer(h.http, 'rj')));
        const [start, ...joins] = await Promise.all([
          nodes()[i % 2]!.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({}),
          ...joiners.map((p, k) => nodes()[(i + k + 1) % 2]!.post(`/v1/tournaments/${id}/join`).set(bearer(p.token)).send({})),
        ]);
        expect(start.status, JSON.stringify(start.body)).toBe(200);
        const { paired, listed } = await after(id);
        joiners.forEach((p, k) => {
          const res = joins[k]!;
          if (res.status === 200) {
            expect(paired.has(p.handle), `${p.handle} joined (200) but has no board in round 1`).toBe(true);
            expect(listed.has(p.handle)).toBe(true);
          } else {
            expect(res.status, JSON.stringify(res.body)).toBe(409);
            expect(res.body.code).toBe('tournament-closed');
            expect(paired.has(p.handle)).toBe(false);
          }
        });
      }
    });

    it('withdrawals racing the start: a player who left before it is not paired in round 1; one who withdrew after it is listed withdrawn', async () => {
      for (let i = 0; i < TRIES; i++) {
        const { org, id, ps } = await setup(7);
        const leaving = ps.slice(0, 4);
        const [start, ...outs] = await Promise.all([
          nodes()[i % 2]!.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({}),
          ...leaving.map((p, k) => nodes()[(i + k + 1) % 2]!.post(`/v1/tournaments/${id}/withdraw`).set(bearer(p.token)).send({})),
        ]);
        expect(start.status, JSON.stringify(start.body)).toBe(200);
        const { paired, listed } = await after(id);
        leaving.forEach((p, k) => {
          expect(outs[k]!.status, JSON.stringify(outs[k]!.body)).toBe(200);
          const row = listed.get(p.handle);
          if (paired.has(p.handle)) {
            // Withdrawn from the running tournament: the round-1 match plays on, the standings say so.
            expect(row?.withdrawn, `${p.handle} withdrew (200) yet is paired in round 1 and not listed withdrawn`).toBe(true);
          } else {
            // Left the field before the start: not paired, not listed.
            expect(row).toBeUndefined();
          }
        });
        // Everyone who stayed is paired.
        for (const p of ps.slice(4)) expect(paired.has(p.handle)).toBe(true);
      }
    });
  });
}

/**
 * The same races with the interleaving forced rather than hoped for: the app's store reads the
 * field, and before the start goes on, a join or a withdrawal commits through the second node
 * (which reads the database directly). The start must pair the field as it is under the lock.
 */
for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(
    `a join or withdrawal committed between the start's read of the field and its write [${backend.name}]`,
    () => {
      /** Run once, after the next read of tournament `id`'s field returns and before the caller sees it. */
      const between = new Map<string, () => Promise<void>>();
      const h = useHarness(backend, {
        clock: true,
        wrapStore: (store: MatchStore): MatchStore => {
          const inner = store.tournaments;
          const tournaments = Object.create(inner, {
            players: {
              value: async (id: string) => {
                const field = await inner.players(id);
                const hook = between.get(id);
                between.delete(id);
                await hook?.();
                return field;
              },
            },
          }) as MatchStore['tournaments'];
          return Object.create(store, { tournaments: { value: tournaments } }) as MatchStore;
        },
      });
      const other = useSecondApp(h);

      const open = async (body: Record<string, unknown> = {}) => {
        const org = await registerPlayer(h.http, 'iorg');
        const t = (
          await h.http
            .post('/v1/tournaments')
            .set(bearer(org.token))
            .send({ name: 'Forced Cup', format: 'swiss', rounds: 3, timeControl: CORR, ...body })
            .expect(201)
        ).body as { id: string };
        return { org, id: t.id };
      };
      const enter = async (id: string, count: number) => {
        const ps = await Promise.all(Array.from({ length: count }, () => registerPlayer(h.http, 'ip')));
        for (const p of ps) await other.http.post(`/v1/tournaments/${id}/join`).set(bearer(p.token)).send({}).expect(200);
        return ps;
      };
      const read = async (id: string) => {
        const v = (await other.http.get(`/v1/tournaments/${id}`).expect(200)).body as View;
        const s = (await other.http.get(`/v1/tournaments/${id}/standings`).expect(200)).body as Standings;
        const paired = new Set(
          (v.pairings.find((r) => r.round === 1)?.boards ?? []).flatMap((b) => (b.p2 === null ? [b.p1] : [b.p1, b.p2])),
        );
        const listed = new Set(s.standings.map((r) => r.handle));
        for (const name of paired) expect(listed.has(name), `board names ${name}, not in the standings`).toBe(true);
        return { v, paired, listed };
      };

      it('a join: the start pairs the joiner too', async () => {
        const { org, id } = await open();
        await enter(id, 3);
        const late = await registerPlayer(h.http, 'ilate');
        between.set(
          id,
          async () => void (await other.http.post(`/v1/tournaments/${id}/join`).set(bearer(late.token)).send({}).expect(200)),
        );
        await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({}).expect(200);
        const { v, paired } = await read(id);
        expect(v.status).toBe('running');
        expect(paired.has(late.handle), `${late.handle} joined (200) but has no board in round 1`).toBe(true);
        expect(paired.size).toBe(4);
      });

      it('a withdrawal: the start does not pair the player who left', async () => {
        const { org, id } = await open();
        const ps = await enter(id, 5);
        const gone = ps[0]!;
        between.set(
          id,
          async () => void (await other.http.post(`/v1/tournaments/${id}/withdraw`).set(bearer(gone.token)).send({}).expect(200)),
        );
        await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({}).expect(200);
        const { paired, listed } = await read(id);
        expect(paired.has(gone.handle), `${gone.handle} withdrew (200) before the start but is paired in round 1`).toBe(false);
        expect(listed.has(gone.handle)).toBe(false);
        expect(paired.size).toBe(4);
      });

      it('a withdrawal that leaves one player: the start answers 409 too-few-players and starts nothing', async () => {
        const { org, id } = await open();
        const [a] = await enter(id, 2);
        between.set(
          id,
          async () => void (await other.http.post(`/v1/tournaments/${id}/withdraw`).set(bearer(a!.token)).send({}).expect(200)),
        );
        const res = await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({});
        expect(res.status, JSON.stringify(res.body)).toBe(409);
        expect(res.body.code).toBe('too-few-players');
        const { v } = await read(id);
        expect(v.status).toBe('open');
        expect(v.pairings).toEqual([]);
      });

      it('a field that changes on every try: 503 tournament-busy with Retry-After, nothing started', async () => {
        const { org, id } = await open();
        await enter(id, 2);
        const stream = await Promise.all(Array.from({ length: 8 }, () => registerPlayer(h.http, 'istream')));
        let k = 0;
        const again = async (): Promise<void> => {
          await other.http.post(`/v1/tournaments/${id}/join`).set(bearer(stream[k++]!.token)).send({}).expect(200);
          between.set(id, again);
        };
        between.set(id, again);
        const res = await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({});
        between.delete(id);
        expect(res.status, JSON.stringify(res.body)).toBe(503);
        expect(res.body.code).toBe('tournament-busy');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        const { v } = await read(id);
        expect(v.status).toBe('open');
        expect(v.pairings).toEqual([]);
        // Once the field holds still, the start goes through with everyone who entered.
        await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({}).expect(200);
        expect((await read(id)).paired.size).toBe(2 + k);
      });

      it('a cancel committed meanwhile: the start answers 409 tournament-closed, not 200 with a cancelled tournament', async () => {
        const { org, id } = await open();
        await enter(id, 3);
        between.set(
          id,
          async () => void (await other.http.post(`/v1/tournaments/${id}/cancel`).set(bearer(org.token)).send({}).expect(200)),
        );
        const res = await h.http.post(`/v1/tournaments/${id}/start`).set(bearer(org.token)).send({});
        expect(res.status, JSON.stringify(res.body)).toBe(409);
        expect(res.body.code).toBe('tournament-closed');
        const { v } = await read(id);
        expect(v.status).toBe('canceled');
        expect(v.pairings).toEqual([]);
      });

      it('a join racing a scheduled start that would cancel for want of players: the joiner is paired, nothing cancelled', async () => {
        const at = h.t.now + 60_000;
        const { id } = await open({ startsAt: new Date(at).toISOString() });
        const [first] = await enter(id, 1);
        const late = await registerPlayer(h.http, 'ilate');
        h.t.now = at;
        between.set(
          id,
          async () => void (await other.http.post(`/v1/tournaments/${id}/join`).set(bearer(late.token)).send({}).expect(200)),
        );
        await h.app.service.tournaments.advance(id);
        const { v, paired } = await read(id);
        expect(v.status, `${late.handle} joined (200) but the tournament is ${v.status}`).toBe('running');
        expect([...paired].sort()).toEqual([first!.handle, late.handle].sort());
      });
    },
  );
}
