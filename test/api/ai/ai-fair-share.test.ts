/**
 * The computer's workers are shared fairly (issue 33): decisions are claimed round robin over
 * their owners (the player who asked for the computer, or an anonymous creator's address), oldest
 * first within each, and an owner holding AI_JOBS_PER_ACCOUNT live claims gets no more until one
 * ends, whichever node claims. Before, claims went oldest first: one client's hundreds of
 * decisions held back everyone else's (a bystander's move went from 174 ms to 42.6 s).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AI_PLAYER_IDS } from '../../../src/service/ai/players.js';
import { backends, bearer, STARTERS, useHarness } from '../helpers.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`computer players' fair share [${backend.name}]`, () => {
    // No runner here: the test claims as a node would.
    const h = useHarness(backend, { ai: false });
    const heavy: string[] = [];
    let light = '';

    /** A match against the computer (it has p2) left waiting for the computer's decision. */
    const againstComputer = async (token?: string) => {
      const req = h.http.post('/v1/matches');
      if (token) req.set(bearer(token));
      const r = await req.send({ ai: { level: 1 }, decks: { p1: { starter: STARTERS[0] } } }).expect(201);
      const id = r.body.id as string;
      const mine = r.body.token as string;
      for (let i = 0; i < 20; i++) {
        const v = await h.http.get(`/v1/matches/${id}`).expect(200);
        if (v.body.game.pending.seat === 'p2') return id;
        const legal = await h.http.get(`/v1/matches/${id}/legal-actions`).set(bearer(mine)).expect(200);
        await h.http.post(`/v1/matches/${id}/actions`).set(bearer(mine)).send({ action: legal.body.actions[0].action }).expect(200);
      }
      throw new Error('the computer never had the decision');
    };

    beforeAll(async () => {
      const reg = await h.http.post('/v1/players').send({ handle: 'many-games' }).expect(201);
      for (let i = 0; i < 5; i++) heavy.push(await againstComputer(reg.body.token as string));
      // Made last, by an anonymous caller: the newest decision of all.
      light = await againstComputer();
    });

    it('claims round robin over owners and at most the cap per owner, until a claim ends', async () => {
      const first = await h.store.ai.claim(AI_PLAYER_IDS, 3, 60_000, 'node-a', 2);
      const ids = first.map((c) => c.matchId);
      expect(ids).toHaveLength(3);
      expect(ids).toContain(light);
      expect(ids.filter((id) => heavy.includes(id))).toEqual([heavy[0], heavy[1]]);
      // Another node: the owner's two live claims count there too.
      expect(await h.store.ai.claim(AI_PLAYER_IDS, 10, 60_000, 'node-b', 2)).toEqual([]);
      // One claim given back (its decision still waits): the owner has room for one again, and
      // that decision is its oldest waiting.
      const done = first.find((c) => c.matchId === heavy[1])!;
      await h.store.ai.release(done.matchId, done.version);
      const next = await h.store.ai.claim(AI_PLAYER_IDS, 10, 60_000, 'node-b', 2);
      expect(next.map((c) => c.matchId)).toEqual([heavy[1]]);
      for (const c of [...first, ...next]) await h.store.ai.release(c.matchId, c.version);
    });

    it("without a cap still takes every owner's first decision before anyone's second", async () => {
      const all = await h.store.ai.claim(AI_PLAYER_IDS, 10, 60_000, 'node-a');
      const ids = all.map((c) => c.matchId);
      expect(ids).toHaveLength(6);
      // The heavy owner's released claim counts no more: its first in line is heavy[0] again.
      expect(ids.slice(0, 2).sort()).toEqual([heavy[0], light].sort());
      for (const c of all) await h.store.ai.release(c.matchId, c.version);
    });
  });
}
