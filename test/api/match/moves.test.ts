/**
 * The move path under pressure: concurrent submissions of the same next action, idempotent
 * retries, stale If-Match, restart on the same PGlite directory, and the leak checker itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { buildApp } from '../../../src/app.js';
import { backends, bearer, createHotSeat, expectProblem, nextMove, startApp, useHarness, type Harness } from '../helpers.js';
import { assertNoLeak, secretsFor } from '../secrecy/secrecy.js';
import type { GameState, Seat } from '../../../src/games/evons/index.js';
import { memoryDatabase } from '../../persistence/pglite-template.js';

async function eventCount(h: Harness, id: string): Promise<number> {
  return (await h.app.service.store.loadEvents(id)).length;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`move path [${backend.name}]`, () => {
    const h = useHarness(backend);

    it('20 concurrent submissions of the same action with the same If-Match: exactly one applies, the rest get 409', async () => {
      const m = await createHotSeat(h.http);
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      const before = await eventCount(h, m.id);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          h.http
            .post(`/v1/matches/${m.id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(m.tokens[seat]))
            .set('if-match', `"${version}"`)
            .set('idempotency-key', `race-${i}`)
            .send({ action }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      const conflicts = results.filter((r) => r.status === 409);
      expect(ok).toHaveLength(1);
      expect(conflicts).toHaveLength(19);
      for (const c of conflicts) {
        const p = expectProblem(c, 409, 'version-conflict');
        expect((p as { version?: number }).version).toBe(ok[0]!.body.version);
      }
      const after = await eventCount(h, m.id);
      expect(after - before).toBe(ok[0]!.body.version - version);
      expect(after).toBe(ok[0]!.body.version);
    });

    it('20 concurrent submissions with the same Idempotency-Key: one applies, every answer is that same response', async () => {
      const m = await createHotSeat(h.http);
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          h.http
            .post(`/v1/matches/${m.id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(m.tokens[seat]))
            .set('if-match', `"${version}"`)
            .set('idempotency-key', 'same-key')
            .send({ action }),
        ),
      );
      const ok = results.filter((r) => r.status === 200);
      expect(results.filter((r) => r.status !== 200 && r.status !== 409)).toEqual([]);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const r of ok) expect(r.text).toBe(ok[0]!.text);
      expect(await eventCount(h, m.id)).toBe(ok[0]!.body.version);
    });

    it('an idempotent retry returns the identical response and writes nothing; another body with the key is a 422', async () => {
      const m = await createHotSeat(h.http);
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      const send = (body: unknown) =>
        h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[seat]))
          .set('idempotency-key', 'retry-me')
          .set('if-match', `"${version}"`)
          .send(body as object);
      const first = await send({ action }).expect(200);
      const count = await eventCount(h, m.id);
      const again = await send({ action }).expect(200);
      expect(again.text).toBe(first.text);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(await eventCount(h, m.id)).toBe(count);
      const other = await send({ action: { type: 'resign' } });
      expectProblem(other, 422, 'idempotency-key-reused');
      expect(await eventCount(h, m.id)).toBe(count);
    });

    it('idempotency keys belong to a seat: the opponent using the same key neither burns nor reads it', async () => {
      const m = await createHotSeat(h.http);
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const mine = () =>
        h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[seat]))
          .set('idempotency-key', 'same-key')
          .set('if-match', `"${version}"`)
          .send({ action });
      const first = await mine().expect(200);
      // The opponent's request with the same key is its own: it applies (here: resigning).
      const theirs = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(m.tokens[other]))
        .set('idempotency-key', 'same-key')
        .send({ action: { type: 'resign' } });
      expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
      expect(theirs.headers['idempotent-replayed']).toBeUndefined();
      expect(theirs.body.match.winner).toBe(seat);
      // Both retries still get their own answers.
      const again = await mine().expect(200);
      expect(again.text).toBe(first.text);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('a stale If-Match is a 409 carrying the current version, and nothing is written', async () => {
      const m = await createHotSeat(h.http);
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      const res = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(m.tokens[seat]))
        .set('if-match', `"${version - 1}"`)
        .send({ action });
      const p = expectProblem(res, 409, 'version-conflict') as { version?: number };
      expect(p.version).toBe(version);
      expect(await eventCount(h, m.id)).toBe(version);
    });

    it('an illegal action is a 422 with the engine code, the reason and the current version', async () => {
      const m = await createHotSeat(h.http);
      const { seat, version } = await nextMove(h, m.id, m.tokens);
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const res = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(m.tokens[other]))
        .send({ action: { type: 'pass' } });
      const p = expectProblem(res, 422) as { code: string; detail?: string; version?: number; type: string };
      expect(p.code).toMatch(/^[A-Z_]+$/);
      expect(p.type).toBe('urn:evons:problem:illegal-action');
      expect(p.detail).toBeTruthy();
      expect(p.version).toBe(version);
      expect(await eventCount(h, m.id)).toBe(version);
    });

    it('resigning is an action: the other seat wins and the seed is published', async () => {
      const m = await createHotSeat(h.http);
      const res = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(m.tokens.p2))
        .send({ action: { type: 'resign' } })
        .expect(200);
      expect(res.body.match.status).toBe('finished');
      expect(res.body.match.winner).toBe('p1');
      expect(res.body.match.game.result.reason).toBe('resignation');
      expect(typeof res.body.match.game.seed).toBe('string');
    });

    it('correspondence: toMove follows the game, and /v1/me/matches?turn=mine lists only matches waiting for me', async () => {
      const handles = { p1: `ann${Date.now() % 100000}`, p2: `bo${Date.now() % 100000}` };
      const a = await createHotSeat(h.http, { handle: handles.p1, opponentHandle: handles.p2 });
      const b = await createHotSeat(h.http, { handle: handles.p1, opponentHandle: handles.p2 });
      const toMove = async (id: string) => (await h.http.get(`/v1/matches/${id}`).expect(200)).body.game.pending.seat as Seat;
      // Move in match b until the other seat is to move there, so a and b wait for different seats.
      const startA = await toMove(a.id);
      for (let i = 0; i < 200 && (await toMove(b.id)) === startA; i++) {
        const { seat, version, action } = await nextMove(h, b.id, b.tokens);
        const pass = { type: 'pass' };
        const act = (action as { type: string }).type === 'play' ? pass : action;
        await h.http
          .post(`/v1/matches/${b.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(b.tokens[seat]))
          .set('if-match', `"${version}"`)
          .send({ action: act })
          .expect(200);
      }
      const startB = await toMove(b.id);
      expect(startB).not.toBe(startA);
      const mine = async (seat: Seat) =>
        (await h.http.get('/v1/me/matches?turn=mine').set(bearer(a.tokens[seat])).expect(200)).body.matches.map(
          (m: { id: string }) => m.id,
        );
      expect(await mine(startA)).toEqual([a.id]);
      expect(await mine(startB)).toEqual([b.id]);
      const all = await h.http.get(`/v1/me/matches`).set(bearer(a.tokens.p1)).expect(200);
      const summaries = new Map(all.body.matches.map((m: { id: string; toMove: Seat }) => [m.id, m.toMove]));
      expect(summaries.get(a.id)).toBe(startA);
      expect(summaries.get(b.id)).toBe(startB);
      // Without a token: by handle.
      const byHandle = await h.http.get(`/v1/me/matches?handle=${handles[startA]}&turn=mine`).expect(200);
      expect(byHandle.body.matches.map((m: { id: string }) => m.id)).toContain(a.id);
    });

    it('polling: If-None-Match with the current version is a 304 without a body; after a move, a 200', async () => {
      const m = await createHotSeat(h.http);
      const first = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).expect(200);
      expect(first.headers.etag).toBe(`"${first.body.version}.p1"`);
      expect(first.headers.vary).toMatch(/authorization/i);
      const same = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).set('if-none-match', first.headers.etag!);
      expect(same.status).toBe(304);
      expect(same.text ?? '').toBe('');
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(m.tokens[seat]))
        .set('if-match', `"${version}"`)
        .send({ action })
        .expect(200);
      const moved = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).set('if-none-match', first.headers.etag!).expect(200);
      expect(moved.body.version).toBeGreaterThan(first.body.version);
    });

    it('legal actions: bare by default, with text on ?text=true, 400 on a bad flag', async () => {
      const m = await createHotSeat(h.http);
      const { seat } = await nextMove(h, m.id, m.tokens);
      const bare = await h.http.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200);
      const texted = await h.http.get(`/v1/matches/${m.id}/legal-actions?text=true`).set(bearer(m.tokens[seat])).expect(200);
      expect(bare.body.actions.length).toBeGreaterThan(0);
      expect(bare.body.actions.every((a: object) => !('text' in a))).toBe(true);
      expect(texted.body.actions.map((a: { action: unknown }) => a.action)).toEqual(
        bare.body.actions.map((a: { action: unknown }) => a.action),
      );
      expect(texted.body.actions.every((a: { text?: string }) => typeof a.text === 'string' && a.text.length > 0)).toBe(true);
      expectProblem(await h.http.get(`/v1/matches/${m.id}/legal-actions?text=maybe`).set(bearer(m.tokens[seat])), 400);
    });

    it('a cold cache gives the same answer as a warm one', async () => {
      const m = await createHotSeat(h.http);
      for (let i = 0; i < 3; i++) {
        const { seat, version, action } = await nextMove(h, m.id, m.tokens);
        await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[seat]))
          .set('if-match', `"${version}"`)
          .send({ action })
          .expect(200);
      }
      const warm = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).expect(200);
      // A second node on the same database starts with an empty cache and must replay.
      const cold = await buildApp({ store: h.app.service.store, logger: false });
      await cold.ready();
      try {
        const again = await supertest(cold.server).get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).expect(200);
        expect(cold.service.stats.replays).toBe(1);
        expect(again.text).toBe(warm.text);
        // The warm node notices the other node's write (version moved) instead of serving its stale state.
        const { seat, version, action } = await nextMove(h, m.id, m.tokens);
        await supertest(cold.server)
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[seat]))
          .set('if-match', `"${version}"`)
          .send({ action })
          .expect(200);
        const catchUpsBefore = h.app.service.stats.catchUps;
        const replaysBefore = h.app.service.stats.replays;
        const fresh = await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).expect(200);
        expect(fresh.body.version).toBeGreaterThan(version);
        // It catches up from its cached version with the newer events only, and agrees with the other node.
        expect(h.app.service.stats.catchUps - catchUpsBefore).toBe(1);
        expect(h.app.service.stats.replays - replaysBefore).toBe(0);
        const other = await supertest(cold.server).get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).expect(200);
        expect(fresh.text).toBe(other.text);

        // Moves start from the cache without a read; a stale cache must not cost correctness.
        // The cold node moves again, so the warm node's cache is one move behind:
        const third = await nextMove(h, m.id, m.tokens);
        await supertest(cold.server)
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[third.seat]))
          .set('if-match', `"${third.version}"`)
          .send({ action: third.action })
          .expect(200);
        const now = (await supertest(cold.server).get(`/v1/matches/${m.id}`).expect(200)).body.version as number;
        // … a stale If-Match is still a 409 with the database's version, …
        const stale = await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[third.seat]))
          .set('if-match', `"${third.version}"`)
          .send({ action: third.action });
        expect((expectProblem(stale, 409, 'version-conflict') as { version?: number }).version).toBe(now);
        // … and a move without If-Match is applied once, on the current state.
        const fourth = await (async () => {
          const v = await supertest(cold.server).get(`/v1/matches/${m.id}`).expect(200);
          const seat = v.body.game.pending.seat as Seat;
          const legal = await supertest(cold.server).get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200);
          return { seat, action: legal.body.actions[0].action };
        })();
        const applied = await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(m.tokens[fourth.seat]))
          .send({ action: fourth.action })
          .expect(200);
        expect(applied.body.version).toBeGreaterThan(now);
        expect(await eventCount(h, m.id)).toBe(applied.body.version);
      } finally {
        await cold.close();
      }
    });
  });
}

describe('restart on the same PGlite directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evons-api-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('close app and store, reopen: same views, same version, play continues', async () => {
    const config = { kind: 'pglite' as const, dataDir: dir };
    let h = await startApp(config);
    const m = await createHotSeat(h.http);
    for (let i = 0; i < 4; i++) {
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(m.tokens[seat]))
        .set('if-match', `"${version}"`)
        .send({ action })
        .expect(200);
    }
    const views = async () => ({
      p1: (await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).expect(200)).text,
      p2: (await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p2)).expect(200)).text,
      spectator: (await h.http.get(`/v1/matches/${m.id}`).expect(200)).text,
      legal: (await h.http.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens.p1)).expect(200)).text,
      events: (await h.http.get(`/v1/matches/${m.id}/events?limit=500`).set(bearer(m.tokens.p2)).expect(200)).text,
    });
    const before = await views();
    await h.close();

    h = await startApp(config);
    try {
      const after = await views();
      expect(after).toEqual(before);
      expect(h.app.service.stats.replays).toBe(1);
      const { seat, version, action } = await nextMove(h, m.id, m.tokens);
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(m.tokens[seat]))
        .set('if-match', `"${version}"`)
        .send({ action })
        .expect(200);
    } finally {
      await h.close();
    }
  });
});

describe('leak checker', () => {
  it("flags another seat's hand, deck cards and the seed", async () => {
    const h = await startApp(memoryDatabase());
    try {
      const m = await createHotSeat(h.http);
      const state = (await h.app.service.load(m.id, undefined)).state as GameState;
      const p1View = (await h.http.get(`/v1/matches/${m.id}`).set(bearer(m.tokens.p1)).expect(200)).text;
      expect(() => assertNoLeak(p1View, secretsFor(state, 'p2'), 'p1 view shown to p2')).toThrow(/hidden card/);
      expect(() => assertNoLeak(p1View, secretsFor(state, 'p1'), 'own view')).not.toThrow();
      expect(() => assertNoLeak({ x: state.decks.p1[0] }, secretsFor(state, 'p1'), 'deck')).toThrow(/hidden card/);
      expect(() => assertNoLeak({ x: state.seed }, secretsFor(state, 'spectator'), 'seed')).toThrow();
    } finally {
      await h.close();
    }
  });
});
