/**
 * Play the computer (issue 24): a match against the computer at a level, on both databases,
 * through REST and GraphQL: its seat is the verified bot ai-level-<n>, no token is issued for it,
 * the server decides for it off the request path (worker threads) and appends as that seat, and
 * the match plays to its end. A worker that hangs or crashes every time makes the computer resign
 * instead of stalling the match.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decide as builtInDecide } from '../../../src/service/ai/decide.js';
import { verifyReplay } from '../../../src/replay/verify.js';
import { STARTERS, backends, bearer, expectProblem, graphqlRequest, nextMove, useHarness, type Http } from '../helpers.js';

const fixture = (name: string) => new URL(`../../fixtures/ai/${name}.ts`, import.meta.url).href;

/** The card ids of every hand a view shows (a seat's view shows its own). */
function handIds(view: unknown): string[] {
  const ids: string[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object')
      for (const [k, v] of Object.entries(x)) {
        if (k === 'hand' && Array.isArray(v)) ids.push(...(v as { id: string }[]).map((c) => c.id));
        else walk(v);
      }
  };
  walk(view);
  return ids;
}

/** Polls the match until `seat` is to move or it is over (the computer decides on its own time). */
async function waitForTurnOrEnd(http: Http, id: string, seat: 'p1' | 'p2'): Promise<{ status: string; version: number }> {
  for (let i = 0; i < 3_000; i++) {
    const v = (await http.get(`/v1/matches/${id}`).expect(200)).body;
    if (v.status === 'finished' || v.game?.pending?.seat === seat) return { status: v.status, version: v.version };
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${seat} to move in ${id}`);
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`play the computer [${backend.name}]`, () => {
    const h = useHarness(backend, { ai: { workers: 1, pollMs: 50 } });

    it('a match against the computer plays to its end: the computer seat is the verified bot, holds no token, and moves by itself', async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({ handle: 'human', ai: { level: 1 }, decks: { p1: { starter: STARTERS[0] } } })
        .expect(201);
      const { id } = created.body;
      expect(Object.keys(created.body.tokens)).toEqual(['p1']);
      const view = (await h.http.get(`/v1/matches/${id}`).expect(200)).body;
      expect(view.seats.find((s: { seat: string }) => s.seat === 'p2')).toMatchObject({ handle: 'ai-level-1', verified: true, bot: true });

      const tokens = { p1: created.body.tokens.p1 as string, p2: '' };
      let humanDecisions = 0;
      for (;;) {
        const now = await waitForTurnOrEnd(h.http, id, 'p1');
        if (now.status === 'finished') break;
        if (humanDecisions === 60) {
          await h.http
            .post(`/v1/matches/${id}/actions`)
            .set(bearer(tokens.p1))
            .send({ action: { type: 'resign' } })
            .expect(200);
          break;
        }
        const mv = await nextMove(h, id, tokens);
        await h.http
          .post(`/v1/matches/${id}/actions`)
          .set(bearer(tokens.p1))
          .set('if-match', `"${mv.version}"`)
          .send({ action: mv.action })
          .expect(200);
        humanDecisions++;
      }
      const end = (await h.http.get(`/v1/matches/${id}/events?limit=500`).expect(200)).body.events as { actingSeat: string | null }[];
      expect(end.some((e) => e.actingSeat === 'p2')).toBe(true);
      expect((await h.http.get(`/v1/matches/${id}`).expect(200)).body.status).toBe('finished');
      expect(h.app.ai!.stats.decided).toBeGreaterThan(0);
      // The computer's seat cannot be played by anyone else: its player has no token, and the creator's token is p1's.
      expectProblem(
        await h.http
          .post(`/v1/matches/${id}/actions`)
          .set(bearer(tokens.p1))
          .send({ action: { type: 'resign' } }),
        409,
      );
    });

    it("the computer is handed what its seat may know: the seat's view, legal actions and events, never the state or the seed", async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({ seat: 'p2', ai: { level: 4 }, decks: { p2: { starter: STARTERS[1] } } })
        .expect(201);
      const id = created.body.id as string;
      const entry = await h.app.service.loader.current(id);
      const job = await h.app.service.aiJob(entry, 'p1', 4);
      expect(Object.keys(job).sort()).toEqual(['events', 'game', 'legal', 'level', 'seat', 'seed', 'view']);
      expect(job.view).toEqual(entry.ruleset.view(entry.state, 'p1'));
      expect(job.legal).toEqual(entry.ruleset.legalActions(entry.state, 'p1'));
      // The events are those the seat's own token reads (the human's, for p2, read the same way).
      // Up to the version the jobs were built from: the computer may have moved since.
      const mine = (
        (await h.http.get(`/v1/matches/${id}/events?limit=500`).set(bearer(created.body.tokens.p2)).expect(200)).body.events as {
          seq: number;
        }[]
      ).filter((e) => e.seq <= entry.version);
      const humanJob = await h.app.service.aiJob(entry, 'p2', 4);
      expect(humanJob.events).toEqual(mine);
      const text = JSON.stringify(job);
      expect(text).not.toContain(entry.row.seed);
      // Nothing of the other seat's hand: its cards' ids as its own view shows them.
      const hand = handIds(entry.ruleset.view(entry.state, 'p2'));
      expect(hand.length).toBeGreaterThan(0);
      for (const id of hand) expect(text).not.toContain(`"${id}"`);
    });

    it("the computer's dice are secret until the end: derived from the match's seed, not from its public id and version (issue 34 item 8)", async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({ seat: 'p2', ai: { level: 1 }, decks: { p2: { starter: STARTERS[1] } } })
        .expect(201);
      const id = created.body.id as string;
      const entry = await h.app.service.loader.current(id);
      // The seat to move at that version (the computer may have moved already): its job decides.
      const seat = entry.row.toMove as 'p1' | 'p2';
      const job = await h.app.service.aiJob(entry, seat, 1);
      // Not the old, public formula (`${matchId}:${version}`, with the level prefixed by the search).
      expect(job.seed).not.toBe(`${id}:${entry.version}`);
      expect(job.seed).not.toContain(id);
      expect(job.seed).toBe(createHmac('sha256', entry.row.seed).update(`evons-ai/1:${id}:${entry.version}`).digest('hex'));
      // Deterministic for the same match seed, and the same job decides the same way.
      const again = await h.app.service.aiJob(entry, seat, 1);
      expect(again.seed).toBe(job.seed);
      expect(builtInDecide(again)).toEqual(builtInDecide(job));
      // Nothing a seat or a watcher reads before the end holds it (the view shows the commitment only).
      const views = [
        (await h.http.get(`/v1/matches/${id}`).expect(200)).text,
        (await h.http.get(`/v1/matches/${id}/events?limit=500`).set(bearer(created.body.tokens.p2)).expect(200)).text,
      ];
      for (const text of views) {
        expect(text).not.toContain(job.seed);
        expect(text).not.toContain(entry.row.seed);
      }
      // The same id, level and version with another match seed: another decision seed.
      const other = { ...entry, row: { ...entry.row, seed: `${entry.row.seed}-other` } };
      const otherJob = await h.app.service.aiJob(other, seat, 1);
      expect(otherJob.seed).not.toBe(job.seed);
      expect(otherJob.seed).toBe(createHmac('sha256', other.row.seed).update(`evons-ai/1:${id}:${entry.version}`).digest('hex'));
    });

    it('a finished match against the computer replays and verifies from its published seed (its decisions are in the log)', async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({ handle: 'replays', ai: { level: 1 }, decks: { p1: { starter: STARTERS[0] } } })
        .expect(201);
      const { id } = created.body;
      const tokens = { p1: created.body.tokens.p1 as string, p2: '' };
      for (let moves = 0; ; moves++) {
        const now = await waitForTurnOrEnd(h.http, id, 'p1');
        if (now.status === 'finished') break;
        if (moves === 6) {
          await h.http
            .post(`/v1/matches/${id}/actions`)
            .set(bearer(tokens.p1))
            .send({ action: { type: 'resign' } })
            .expect(200);
          break;
        }
        const mv = await nextMove(h, id, tokens);
        await h.http
          .post(`/v1/matches/${id}/actions`)
          .set(bearer(tokens.p1))
          .set('if-match', `"${mv.version}"`)
          .send({ action: mv.action })
          .expect(200);
      }
      const events = (await h.http.get(`/v1/matches/${id}/events?limit=500`).expect(200)).body.events as { actingSeat: string | null }[];
      expect(events.some((e) => e.actingSeat === 'p2')).toBe(true);
      const file = (await h.http.get(`/v1/matches/${id}/export`).set(bearer(tokens.p1)).expect(200)).body;
      expect(verifyReplay(file).ok).toBe(true);
    });

    it('a challenge to the computer is accepted at once: the match starts with the challenger seated and the computer playing', async () => {
      const me = (await h.http.post('/v1/players').send({ handle: 'challenges-the-ai' }).expect(201)).body.token as string;
      const c = (
        await h.http
          .post('/v1/challenges')
          .set(bearer(me))
          .send({ to: 'ai-level-2', seat: 'p1', timeControl: { kind: 'correspondence', daysPerMove: 2 } })
          .expect(201)
      ).body;
      expect(c).toMatchObject({ status: 'accepted', to: { handle: 'ai-level-2', bot: true } });
      const m = (await h.http.get(`/v1/matches/${c.matchId}`).set(bearer(me)).expect(200)).body;
      expect(m).toMatchObject({ seat: 'p1', status: 'active' });
      expect(m.seats.map((s: { handle: string }) => s.handle)).toEqual(['challenges-the-ai', 'ai-level-2']);
    });

    it('GraphQL creates one too, for UniVersus; what cannot be is refused', async () => {
      const decks = (await h.http.get('/v1/games/universus/decks').expect(200)).body;
      const starter = (decks.decks ?? decks)[0].id as string;
      const r = await graphqlRequest(
        h,
        `mutation { createMatch(input: { game: "universus", seat: p2, ai: { level: 2 }, decks: { p2: { starter: "${starter}" } } }) { id seat tokens { p1 p2 } } }`,
      ).expect(200);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.createMatch).toMatchObject({ seat: 'p2', tokens: { p1: null } });
      const id = r.body.data.createMatch.id as string;
      const seats = (await h.http.get(`/v1/matches/${id}`).expect(200)).body.seats;
      expect(seats.find((x: { seat: string }) => x.seat === 'p1')).toMatchObject({ handle: 'ai-level-2', bot: true });
      expectProblem(
        await h.http.post('/v1/matches').send({ ai: { level: 9 }, decks: { p1: { starter: STARTERS[0] } } }),
        400,
        'validation-failed',
      );
      expectProblem(
        await h.http.post('/v1/matches').send({ ai: { level: 3 }, openSeat: true, decks: { p1: { starter: STARTERS[0] } } }),
        400,
        'validation-failed',
      );
      expectProblem(await h.http.post('/v1/players').send({ handle: 'ai-level-3' }), 409, 'handle-not-allowed');
    });
  });

  describe.skipIf(backend.skipReason !== null)(`the computer resigns rather than stall [${backend.name}]`, () => {
    const hang = useHarness(backend, { ai: { workers: 1, pollMs: 50, limitMs: 300, maxAttempts: 2, deciderUrl: fixture('hang-decider') } });

    it('a worker that hangs on every try is replaced each time, and after the last try the computer resigns', async () => {
      const created = await hang.http
        .post('/v1/matches')
        .send({ seat: 'p2', ai: { level: 5 }, decks: { p2: { starter: STARTERS[0] } } })
        .expect(201);
      const id = created.body.id as string;
      const human = { p1: '', p2: created.body.tokens.p2 as string };
      // Until the computer's first turn, the human decides (who moves first is a rules setting).
      for (;;) {
        const v = (await hang.http.get(`/v1/matches/${id}`).expect(200)).body;
        if (v.game.pending.seat === 'p1') break;
        const mv = await nextMove(hang, id, human);
        await hang.http
          .post(`/v1/matches/${id}/actions`)
          .set(bearer(human.p2))
          .set('if-match', `"${mv.version}"`)
          .send({ action: mv.action })
          .expect(200);
      }
      const end = await waitForTurnOrEnd(hang.http, id, 'p2');
      expect(end.status).toBe('finished');
      const m = (await hang.http.get(`/v1/matches/${id}`).expect(200)).body;
      expect(m.outcome).toMatchObject({ winner: 'p2' });
      expect(hang.app.ai!.stats.failed).toBe(2);
      expect(hang.app.ai!.stats.resigned).toBe(1);
    });
  });
}

/**
 * What the computer's path writes (issue 24: "the leak suite covers whatever the AI path writes"):
 * its claims and decisions are logged (at debug and above) and appended as events. None carries
 * the match's seed, the computer's hand or the human's token: the whole log of a match the
 * computer played, and every event as the human and a spectator read them, are scanned for them.
 * The failure path too: a decider that quotes its input in the action it answers and in the
 * error it throws gets neither into the log (the hung-worker test above: a hang names the limit).
 */
for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`what the computer's path writes leaks nothing [${backend.name}]`, () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const h = useHarness(backend, { ai: { workers: 1, pollMs: 50, limitMs: 20_000 }, loggerInstance: pino({ level: 'debug' }, sink) });

    it('logs, errors and events of computer matches hold no seed, no computer hand and no token', async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({ ai: { level: 1 }, decks: { p1: { starter: STARTERS[0] } } })
        .expect(201);
      const id = created.body.id as string;
      const human = created.body.tokens.p1 as string;
      const tokens = { p1: human, p2: '' };
      // Twelve turns each, then stop at one of the human's turns while the computer holds cards
      // (a game can empty a hand, or end, at any turn: these cards are hidden when read below).
      for (let i = 0; i < 40; i++) {
        const now = await waitForTurnOrEnd(h.http, id, 'p1');
        if (now.status === 'finished') break;
        const at = await h.app.service.loader.current(id);
        if (i >= 12 && h.app.ai!.stats.decided > 0 && handIds(at.ruleset.view(at.state, 'p2')).length > 0) break;
        const mv = await nextMove(h, id, tokens);
        await h.http
          .post(`/v1/matches/${id}/actions`)
          .set(bearer(human))
          .set('if-match', `"${mv.version}"`)
          .send({ action: mv.action })
          .expect(200);
      }
      expect(h.app.ai!.stats.decided).toBeGreaterThan(0);
      const entry = await h.app.service.loader.current(id);
      // The computer's hand, as only it may see it.
      const secrets: string[] = [entry.row.seed, human, ...handIds(entry.ruleset.view(entry.state, 'p2')).map((id) => `"${id}"`)];
      expect(secrets.length).toBeGreaterThan(2);
      const read = async (token?: string) => {
        const req = h.http.get(`/v1/matches/${id}/events?limit=500`);
        return JSON.stringify((await (token ? req.set(bearer(token)) : req).expect(200)).body);
      };
      const texts = [
        await read(human),
        await read(),
        JSON.stringify((await h.http.get(`/v1/matches/${id}`).set(bearer(human)).expect(200)).body),
      ];
      for (const secret of secrets.slice(2)) for (const t of texts) expect(t).not.toContain(secret);
      const logs = lines.join('\n');
      expect(logs).not.toContain(entry.row.seed);
      expect(logs).not.toContain(human);
      for (const secret of secrets.slice(2)) expect(logs).not.toContain(secret);
    });
  });
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`a failing computer's messages leak nothing [${backend.name}]`, () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const h = useHarness(backend, {
      ai: { workers: 1, pollMs: 50, limitMs: 20_000, maxAttempts: 2, deciderUrl: fixture('leaky-decider') },
      loggerInstance: pino({ level: 'debug' }, sink),
    });

    it("a refused action and a thrown error, each quoting the computer's view, are logged by kind only; then it resigns", async () => {
      const created = await h.http
        .post('/v1/matches')
        .send({ seat: 'p2', ai: { level: 4 }, decks: { p2: { starter: STARTERS[0] } } })
        .expect(201);
      const id = created.body.id as string;
      const human = { p1: '', p2: created.body.tokens.p2 as string };
      for (;;) {
        const v = (await h.http.get(`/v1/matches/${id}`).expect(200)).body;
        if (v.game.pending.seat === 'p1') break;
        const mv = await nextMove(h, id, human);
        await h.http
          .post(`/v1/matches/${id}/actions`)
          .set(bearer(human.p2))
          .set('if-match', `"${mv.version}"`)
          .send({ action: mv.action })
          .expect(200);
      }
      // The computer's hand before it resigns: what the decider quoted.
      const before = await h.app.service.loader.current(id);
      const hand = handIds(before.ruleset.view(before.state, 'p1'));
      expect(hand.length).toBeGreaterThan(0);
      expect((await waitForTurnOrEnd(h.http, id, 'p2')).status).toBe('finished');
      expect((await h.http.get(`/v1/matches/${id}`).expect(200)).body.outcome).toMatchObject({ winner: 'p2' });
      expect(h.app.ai!.stats).toMatchObject({ failed: 1, resigned: 1 });
      const logs = lines.join('\n');
      for (const handId of hand) {
        expect(logs).not.toContain(`"${handId}"`);
        expect(logs).not.toContain(`\\"${handId}\\"`);
      }
      expect(logs).not.toMatch(/quoted|cannot decide from/);
      expect(logs).not.toContain(before.row.seed);
      expect(logs).not.toContain(human.p2);
      // Both failures were logged, by kind: the refusal's problem code and the thrown error's class.
      expect(logs).toMatch(/the computer's action was refused: [A-Za-z_-]+/);
      expect(logs).toContain('the computer player failed: Error thrown');
    });
  });
}
