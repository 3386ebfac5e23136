/**
 * UniVersus over REST, end to end, on every backend: random full matches driven only by
 * legal-actions → POST actions (If-Match, Idempotency-Key), with every seat's and the spectator's
 * views and event pages checked against the server's true state (../secrecy/universus-secrecy.ts); the seed
 * published at the end and the stored log replaying to the same views on a cold node; open seats,
 * sandbox positions, the errors of a game-aware API, and the history.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { buildApp } from '../../../src/app.js';
import type { Seat, Viewer } from '../../../src/core/ruleset.js';
import { universus, type UniversusEvent } from '../../../src/games/universus/index.js';
import { gameRecords } from '../../../src/service/match/match-log.js';
import { backends, bearer, expectProblem, localHttp, prng, useHarness } from '../helpers.js';
import { assertUvsNoLeak, otherSeat, uvsTruth } from '../secrecy/universus-secrecy.js';

const VIEWERS = ['p1', 'p2', 'spectator'] as const;
const MAX_ACTIONS = 400;
const BASE_SEED = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);

/** 12-card decks, mostly foundations: checks empty the decks fast, so cycling (U-CYCLE-1/2) and exhaustion (U-CYCLE-3) happen. */
const SMALL_DECKS = {
  p1: {
    cards: [
      { card: 'C02', count: 1 },
      { card: 'F04', count: 4 },
      { card: 'F05', count: 3 },
      { card: 'A07', count: 3 },
      { card: 'A03', count: 2 },
    ],
  },
  p2: {
    cards: [
      { card: 'C01', count: 1 },
      { card: 'F01', count: 4 },
      { card: 'F02', count: 3 },
      { card: 'A07', count: 3 },
      { card: 'F06', count: 2 },
    ],
  },
};
const SMALL_SETTINGS = { minDeckSize: 12, cycleRemoveCount: 2 };

/** An NDJSON stream read to its end: `first` when the first chunk arrives, `ended` with the whole text. */
function openStream(base: string, path: string, token?: string): { first: Promise<void>; ended: Promise<string> } {
  let onFirst: () => void = () => {};
  const first = new Promise<void>((resolve) => (onFirst = resolve));
  const ended = new Promise<string>((resolve, reject) => {
    const req = http.get(base + path, { headers: token ? bearer(token) : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        onFirst();
      });
      res.on('end', () => resolve(text));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return { first, ended };
}

interface Played {
  actions: number;
  version: number;
  status: string;
  types: Set<string>;
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`UniVersus over REST [${backend.name}]`, () => {
    const h = useHarness(backend);

    const get = (path: string, viewer: Viewer, tokens: Partial<Record<Seat, string>>) => {
      const r = h.http.get(path);
      return viewer === 'spectator' ? r : r.set(bearer(tokens[viewer]!));
    };

    async function create(body: Record<string, unknown>) {
      const res = await h.http.post('/v1/matches').send({ game: 'universus', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; tokens: Record<Seat, string>; version: number; status: string; token: string };
    }

    /**
     * Plays random legal actions until the game ends (or `max` actions), checking every response
     * each party gets on the way.
     */
    async function play(
      id: string,
      tokens: Record<Seat, string>,
      version: number,
      rand: () => number,
      label: string,
      max = MAX_ACTIONS,
    ): Promise<Played> {
      let status = 'active';
      let actions = 0;
      const types = new Set<string>();
      while (status === 'active' && actions < max) {
        const spectator = await get(`/v1/matches/${id}`, 'spectator', tokens).expect(200);
        expect(spectator.headers.etag).toBe(`"${version}.spectator"`);
        expect(spectator.body.gameId).toBe('universus');
        expect(spectator.body.game.game).toBe('universus');
        const seat = spectator.body.game.pending.seat as Seat;
        const other = otherSeat(seat);
        const legal = await get(`/v1/matches/${id}/legal-actions?text=true`, seat, tokens).expect(200);
        const none = await get(`/v1/matches/${id}/legal-actions`, other, tokens).expect(200);
        expect(none.body.actions).toEqual([]);
        const options = legal.body.actions as { action: { type: string }; text: string }[];
        expect(options.length, `${label}: the deciding seat has no legal action`).toBeGreaterThan(0);
        for (const o of options) expect(o.text.length).toBeGreaterThan(0);
        const pre = await uvsTruth(h.app.service, id);
        assertUvsNoLeak(legal.text, pre.secrets(seat), `${label} #${actions} legal actions`, { view: true });
        const choice = options[Math.floor(rand() * options.length)]!;
        const key = `${label}-${actions}`;

        if (actions % 11 === 5) {
          // A stale If-Match is refused with the current version, and nothing is applied.
          const stale = await h.http
            .post(`/v1/matches/${id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(tokens[seat]))
            .set('if-match', `"${version - 1}"`)
            .send({ action: choice.action });
          expectProblem(stale, 409, 'version-conflict');
          expect(stale.body.version).toBe(version);
        }
        const send = () =>
          h.http
            .post(`/v1/matches/${id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(tokens[seat]))
            .set('if-match', `"${version}"`)
            .set('idempotency-key', key)
            .send({ action: choice.action });
        const res = await send();
        expect(res.status, `${label}: ${choice.text} → ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.headers['idempotent-replayed']).toBeUndefined();
        const before = version;
        version = res.body.version;
        expect(version).toBeGreaterThan(before);
        expect(res.headers.etag).toBe(`"${version}.${seat}"`);
        expect(res.body.match.gameId).toBe('universus');
        status = res.body.match.status;
        actions++;
        if (actions % 7 === 1) {
          // The retry (same key, same body, even with the now stale If-Match) is the stored answer.
          const again = await send();
          expect(again.status).toBe(200);
          expect(again.headers['idempotent-replayed']).toBe('true');
          expect(again.body).toEqual(res.body);
        }

        const t = await uvsTruth(h.app.service, id);
        const batch = gameRecords(t.log.filter((e) => e.seq > before)).map((e) => e.payload as UniversusEvent);
        batch.forEach((e) => types.add(e.type));
        assertUvsNoLeak(res.text, t.secrets(seat), `${label} #${actions} action response`, { view: false });
        assertUvsNoLeak(res.body.match, t.secrets(seat), `${label} #${actions} action response view`, { view: true });
        const revealed = batch.filter((e) => e.type === 'CheckRevealed');
        for (const viewer of VIEWERS) {
          const s = t.secrets(viewer);
          const v = await get(`/v1/matches/${id}`, viewer, tokens).expect(200);
          expect(v.body.version).toBe(version);
          assertUvsNoLeak(v.text, s, `${label} #${actions} view for ${viewer}`, { view: true });
          for (const p of ['p1', 'p2'] as const) {
            const pv = v.body.game.players[p];
            const tp = t.state.players[p];
            if (p !== viewer) expect(pv.hand).toBeNull();
            else expect(pv.hand.map((c: { id: string }) => c.id)).toEqual(tp.hand);
            expect(pv.handCount).toBe(tp.hand.length);
            expect(pv.deckCount).toBe(tp.deck.length);
            expect(pv.removedCount).toBe(tp.removed.length);
            expect(pv.momentumCount).toBe(tp.momentum.length);
            expect(pv.health).toBe(Math.max(0, tp.health));
          }
          const ev = await get(`/v1/matches/${id}/events?after=${before}&limit=500`, viewer, tokens).expect(200);
          assertUvsNoLeak(ev.text, s, `${label} #${actions} events for ${viewer}`, { view: false });
          // U-CHECK-1: a check's revealed card is shown to both seats and spectators alike.
          const seen = (ev.body.events as { event: { type: string } }[]).map((e) => e.event).filter((e) => e.type === 'CheckRevealed');
          expect(seen).toEqual(revealed);
        }
      }
      return { actions, version, status, types };
    }

    /** After the end: seed published, whole log clean for everyone, replay (cold node and engine) gives the same views. */
    async function checkFinished(id: string, tokens: Record<Seat, string>, version: number, label: string) {
      const t = await uvsTruth(h.app.service, id);
      const final = await h.http.get(`/v1/matches/${id}`).expect(200);
      expect(final.body.status).toBe('finished');
      expect(final.body.game.phase).toBe('OVER');
      expect(final.body.winner).toBe(final.body.game.winner);
      expect(final.body.game.seed).toBe(t.state.seed);
      expect(createHash('sha256').update(final.body.game.seed).digest('hex')).toBe(final.body.game.seedCommitment);

      for (const viewer of VIEWERS) {
        let after = 0;
        let seen = 0;
        for (;;) {
          const page = await get(`/v1/matches/${id}/events?after=${after}&limit=37`, viewer, tokens).expect(200);
          assertUvsNoLeak(page.text, t.secrets(viewer), `${label} log for ${viewer}`, { view: false });
          seen += page.body.events.length;
          after = page.body.next;
          if (!page.body.hasMore) break;
        }
        expect(seen).toBeGreaterThan(0);
        expect(after).toBe(version);
      }

      // The stored events alone rebuild the game: the engine's replay, and a node with no cache.
      const replayed = universus.replay(gameRecords(t.log).map((e) => e.payload as UniversusEvent));
      expect(replayed).toEqual(t.state);
      const cold = await buildApp({ store: h.app.service.store, logger: false, matchCacheSize: 0 });
      await cold.ready();
      try {
        for (const viewer of VIEWERS) {
          const warm = await get(`/v1/matches/${id}`, viewer, tokens).expect(200);
          const r = supertest(cold.server).get(`/v1/matches/${id}`);
          const coldView = await (viewer === 'spectator' ? r : r.set(bearer(tokens[viewer]))).expect(200);
          expect(coldView.body).toEqual(warm.body);
        }
      } finally {
        await cold.close();
      }

      // The stream of a finished match: the same log, as clean, then its end line.
      for (const viewer of VIEWERS) {
        const stream = await get(`/v1/matches/${id}/stream`, viewer, tokens)
          .buffer(true)
          .parse((res, done) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => done(null, text));
          });
        expect(stream.status).toBe(200);
        const lines = (stream.body as string).split('\n').filter((l) => l.trim() !== '');
        expect(JSON.parse(lines.at(-1)!)).toEqual({ end: 'finished' });
        assertUvsNoLeak(`[${lines.join(',')}]`, t.secrets(viewer), `${label} stream for ${viewer}`, { view: false });
      }

      const late = await h.http
        .post(`/v1/matches/${id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(tokens.p1))
        .send({ action: { type: 'PassCombat' } });
      expectProblem(late, 409, 'match-finished');
      return final.body;
    }

    it("the leak oracle is not vacuous: a seat's own view, its raw draws and the seed are leaks to the other parties", async () => {
      const c = await create({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } } });
      const t = await uvsTruth(h.app.service, c.id);
      const p1View = await h.http.get(`/v1/matches/${c.id}`).set(bearer(c.tokens.p1)).expect(200);
      assertUvsNoLeak(p1View.text, t.secrets('p1'), 'own view', { view: true });
      for (const viewer of ['p2', 'spectator'] as const) {
        expect(() => assertUvsNoLeak(p1View.text, t.secrets(viewer), 'p1 view', { view: true })).toThrow(/never shown/);
      }
      const draws = gameRecords(t.log).filter((e) => e.type === 'CardsDrawn' && (e.payload as { seat: string }).seat === 'p1');
      expect(() =>
        assertUvsNoLeak(
          draws.map((e) => e.payload),
          t.secrets('p2'),
          'raw draws',
          { view: false },
        ),
      ).toThrow();
      const cycled = { type: 'DeckCycled', seat: 'p1', shuffle: 1, deckSize: 0, removedCount: 0, deck: [] };
      expect(() => assertUvsNoLeak([cycled], t.secrets('p1'), 'deck order', { view: false })).toThrow(/cycled deck/);
      expect(() => assertUvsNoLeak({ s: t.state.seed }, t.secrets('spectator'), 'seed', { view: false })).toThrow(/seed/);
    });

    it('U-SETUP-1..4 U-CHECK-1 U-DAMAGE-2 U-MOMENTUM-2 U-WIN-1: starter decks, random legal actions to the end; no leak to any seat or spectator; seed published; replay equal', async () => {
      const seed = BASE_SEED;
      const label = `uvs-a-${seed}`;
      const c = await create({
        handle: 'uvs-ann',
        opponentHandle: 'uvs-ben',
        decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } },
      });
      expect(c.status).toBe('active');
      // U-SETUP-1/2/4: health from the character, hands drawn up to hand size from 60-card decks; U-SETUP-3: a first player.
      const start = (await h.http.get(`/v1/matches/${c.id}`).expect(200)).body.game;
      for (const [seat, character, health, handSize] of [
        ['p1', 'C01', 22, 6],
        ['p2', 'C03', 19, 7],
      ] as const) {
        expect(start.players[seat]).toMatchObject({
          character,
          health,
          handSize,
          handCount: handSize,
          deckCount: 60 - handSize,
          hand: null,
        });
      }
      expect(start.pending).toEqual({ kind: 'PLAY', seat: start.turnPlayer });
      expect(start.turnNumber).toBe(1);
      const p = await play(c.id, c.tokens, c.version, prng(seed), label);
      expect(p.status, `${label}: no end within ${MAX_ACTIONS} actions`).toBe('finished');
      expect(p.types.has('CheckRevealed')).toBe(true);
      const final = await checkFinished(c.id, c.tokens, p.version, label);
      console.info(`[${backend.name}] ${label}: ${p.actions} actions, ${p.version} events, ${final.game.winReason}`);

      const hist = await h.http.get('/v1/matches?handle=uvs-ben').expect(200);
      const row = (hist.body.matches as { id: string; gameId: string; status: string; winner: string | null }[]).find((m) => m.id === c.id);
      expect(row).toMatchObject({ gameId: 'universus', status: 'finished', winner: final.winner });
    });

    it('U-BLOCK-2 UQ-1 ANY_ZONE_HALF, UQ-7 failedCheckEndsTurn false, UQ-6 autoMomentum ALL: another random match under non-default settings leaks nothing', async () => {
      const seed = BASE_SEED + 1;
      const label = `uvs-b-${seed}`;
      const c = await create({
        settings: { blockZoneRule: 'ANY_ZONE_HALF', failedCheckEndsTurn: false, autoMomentum: 'ALL' },
        decks: { p1: { starter: 'garrison' }, p2: { starter: 'scouts' } },
      });
      const view = await h.http.get(`/v1/matches/${c.id}`).expect(200);
      expect(view.body.game.players.p1.character).toBe('C02');
      const p = await play(c.id, c.tokens, c.version, prng(seed), label);
      expect(p.status, `${label}: no end within ${MAX_ACTIONS} actions`).toBe('finished');
      const final = await checkFinished(c.id, c.tokens, p.version, label);
      console.info(`[${backend.name}] ${label}: ${p.actions} actions, ${p.version} events, ${final.game.winReason}`);
    });

    it('U-CYCLE-1 U-CYCLE-2 U-CYCLE-3 U-WIN-2: 12-card decks cycle (removed cards stay hidden) and the game ends EXHAUSTED', async () => {
      const seed = BASE_SEED + 2;
      const label = `uvs-c-${seed}`;
      const c = await create({ settings: SMALL_SETTINGS, decks: SMALL_DECKS });
      const p = await play(c.id, c.tokens, c.version, prng(seed), label);
      expect(p.status).toBe('finished');
      expect(p.types.has('DeckCycled'), `${label}: no deck cycled`).toBe(true);
      expect(p.types.has('PlayerExhausted')).toBe(true);
      const final = await checkFinished(c.id, c.tokens, p.version, label);
      expect(final.game.winReason).toBe('EXHAUSTED');
      const t = await uvsTruth(h.app.service, c.id);
      expect(t.state.players.p1.removed.length + t.state.players.p2.removed.length).toBeGreaterThan(0);
      console.info(`[${backend.name}] ${label}: ${p.actions} actions, ${p.version} events, EXHAUSTED`);
    });

    it('open seat: create with openSeat, join with an explicit deck, play on; a second joiner gets 409 seat-taken', async () => {
      const decks = (await h.http.get('/v1/games/universus/decks').expect(200)).body.decks as {
        id: string;
        cards: { card: string; count: number }[];
      }[];
      const created = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', handle: 'uvs-opener', openSeat: true, decks: { p1: { starter: 'garrison' } } })
        .expect(201);
      expect(created.body.status).toBe('waiting');
      expect(created.body.tokens.p2).toBeUndefined();
      const id: string = created.body.id;
      const waiting = await h.http.get(`/v1/matches/${id}`).set(bearer(created.body.token)).expect(200);
      expect(waiting.body.gameId).toBe('universus');
      expect(waiting.body.game).toBeNull();

      // Two joiners at once: the append decides, exactly one gets the seat.
      const deck = { cards: decks.find((d) => d.id === 'shifters')!.cards };
      const [a, b] = await Promise.all([
        h.http.post(`/v1/matches/${id}/join`).send({ handle: 'uvs-j1', deck }),
        h.http.post(`/v1/matches/${id}/join`).send({ handle: 'uvs-j2', deck: { starter: 'scouts' } }),
      ]);
      const winner = [a, b].find((r) => r.status === 200)!;
      const loser = [a, b].find((r) => r.status !== 200)!;
      expect(winner, `${a.status} ${b.status}`).toBeDefined();
      expectProblem(loser, 409, 'seat-taken');
      expect(winner.body).toMatchObject({ seat: 'p2', status: 'active' });
      expectProblem(await h.http.post(`/v1/matches/${id}/join`).send({ handle: 'uvs-j3', deck: { starter: 'scouts' } }), 409, 'seat-taken');

      const tokens: Record<Seat, string> = { p1: created.body.token, p2: winner.body.token };
      const view = await h.http.get(`/v1/matches/${id}`).set(bearer(tokens.p2)).expect(200);
      expect(view.body.seats.find((s: { seat: string }) => s.seat === 'p2').handle).toBe(winner === a ? 'uvs-j1' : 'uvs-j2');
      expect(view.body.game.players.p2.character).toBe(winner === a ? 'C03' : 'C01');
      const p = await play(id, tokens, winner.body.version, prng(BASE_SEED + 3), `uvs-open-${BASE_SEED + 3}`, 8);
      expect(p.actions).toBeGreaterThan(0);
    });

    it('sandbox: a universus-position/1 position (toPosition of a dealt state) opens a match that plays on without leaks', async () => {
      const dealt = await create({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } });
      const truth = await uvsTruth(h.app.service, dealt.id);
      const position = universus.positions.toPosition(truth.state) as {
        players: Record<Seat, { hand: string[]; health: number }>;
        turnPlayer: Seat;
      };
      const c = await create({ position });
      const v = await h.http.get(`/v1/matches/${c.id}`).set(bearer(c.tokens.p1)).expect(200);
      expect(v.body.sandbox).toBe(true);
      expect(v.body.game.turnPlayer).toBe(position.turnPlayer);
      expect(v.body.game.pending).toEqual({ kind: 'PLAY', seat: position.turnPlayer });
      expect(v.body.game.players.p1.hand.map((x: { card: string }) => x.card)).toEqual(position.players.p1.hand);
      expect(v.body.game.players.p2.hand).toBeNull();
      expect(v.body.game.players.p2.handCount).toBe(position.players.p2.hand.length);
      // The opening event shows each party the position as its own view, never the true state.
      for (const viewer of VIEWERS) {
        const s = (await uvsTruth(h.app.service, c.id)).secrets(viewer);
        const ev = await get(`/v1/matches/${c.id}/events`, viewer, c.tokens).expect(200);
        assertUvsNoLeak(ev.text, s, `sandbox opening for ${viewer}`, { view: false });
        const opening = ev.body.events[0].event;
        expect(opening.type).toBe('PositionLoaded');
        expect(opening.position.viewer).toBe(viewer);
      }
      const p = await play(c.id, c.tokens, c.version, prng(BASE_SEED + 4), `uvs-sandbox-${BASE_SEED + 4}`, 12);
      expect(p.actions).toBeGreaterThan(0);
      // A position with a card the set lacks is refused as such.
      const bad = structuredClone(position);
      bad.players.p1.hand = ['NOPE'];
      expectProblem(await h.http.post('/v1/matches').send({ game: 'universus', position: bad }), 400);
    });

    it("two nodes on one database: moves alternate between them (each catches up on the other's events) and the views agree", async () => {
      const c = await create({
        handle: 'uvs-two',
        opponentHandle: 'uvs-nodes',
        decks: { p1: { starter: 'shifters' }, p2: { starter: 'scouts' } },
      });
      const second = await buildApp({ store: h.app.service.store, logger: false });
      await second.ready();
      try {
        const nodes = [h.http, await localHttp(second)];
        const rand = prng(BASE_SEED + 5);
        let version = c.version;
        for (let n = 0; n < 40; n++) {
          const node = nodes[n % 2]!;
          const v = await node.get(`/v1/matches/${c.id}`).expect(200);
          expect(v.body.version).toBe(version);
          if (v.body.status !== 'active') break;
          const seat = v.body.game.pending.seat as Seat;
          // "My turn" lists follow the pending decision (toMove on the match row).
          const mine = await node.get('/v1/me/matches?turn=mine').set(bearer(c.tokens[seat])).expect(200);
          expect(mine.body.matches.map((m: { id: string }) => m.id)).toContain(c.id);
          const theirs = await node
            .get('/v1/me/matches?turn=mine')
            .set(bearer(c.tokens[otherSeat(seat)]))
            .expect(200);
          expect(theirs.body.matches.map((m: { id: string }) => m.id)).not.toContain(c.id);
          const legal = await node.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200);
          const options = legal.body.actions as { action: unknown }[];
          const res = await node
            .post(`/v1/matches/${c.id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(c.tokens[seat]))
            .set('if-match', `"${version}"`)
            .send({ action: options[Math.floor(rand() * options.length)]!.action });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          version = res.body.version;
          // Polling the other node with the ETag it gave before: it has moved, so 200 with the new version.
          const polled = await nodes[(n + 1) % 2]!.get(`/v1/matches/${c.id}`).set('if-none-match', String(v.headers.etag)).expect(200);
          expect(polled.body.version).toBe(version);
          const unchanged = await nodes[(n + 1) % 2]!.get(`/v1/matches/${c.id}`).set('if-none-match', String(polled.headers.etag));
          expect(unchanged.status).toBe(304);
        }
        for (const viewer of VIEWERS) {
          const a = await get(`/v1/matches/${c.id}`, viewer, c.tokens).expect(200);
          const r = supertest(second.server).get(`/v1/matches/${c.id}`);
          const b = await (viewer === 'spectator' ? r : r.set(bearer(c.tokens[viewer]))).expect(200);
          expect(b.body).toEqual(a.body);
        }
        const t = await uvsTruth(h.app.service, c.id);
        expect(universus.replay(gameRecords(t.log).map((e) => e.payload as UniversusEvent))).toEqual(t.state);
      } finally {
        await second.close();
      }
    });

    it('idempotency: the same key with another action is 422 idempotency-key-reused; a sandbox with an open seat is joined without a deck', async () => {
      const c = await create({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } });
      const v = await h.http.get(`/v1/matches/${c.id}`).expect(200);
      const seat = v.body.game.pending.seat as Seat;
      const position = universus.positions.toPosition((await uvsTruth(h.app.service, c.id)).state);
      const legal = await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200);
      const [first, second] = legal.body.actions as { action: unknown }[];
      await h.http
        .post(`/v1/matches/${c.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(c.tokens[seat]))
        .set('idempotency-key', 'uvs-k')
        .send({ action: first!.action })
        .expect(200);
      const reused = await h.http
        .post(`/v1/matches/${c.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(c.tokens[seat]))
        .set('idempotency-key', 'uvs-k')
        .send({ action: second!.action });
      expectProblem(reused, 422, 'idempotency-key-reused');

      const open = await h.http.post('/v1/matches').send({ game: 'universus', position, openSeat: true, handle: 'uvs-sb' });
      expect(open.status, JSON.stringify(open.body)).toBe(201);
      expect(open.body.status).toBe('waiting');
      expectProblem(await h.http.post(`/v1/matches/${open.body.id}/join`).send({ deck: { starter: 'scouts' } }), 400, 'validation-failed');
      const joined = await h.http.post(`/v1/matches/${open.body.id}/join`).send({ handle: 'uvs-sb2' }).expect(200);
      expect(joined.body.status).toBe('active');
      const sv = await h.http.get(`/v1/matches/${open.body.id}`).set(bearer(joined.body.token)).expect(200);
      expect(sv.body.sandbox).toBe(true);
      expect(sv.body.game.players.p1.hand).toBeNull();
      expect(sv.body.game.players.p2.hand.map((x: { card: string }) => x.card)).toEqual(
        (position as { players: { p2: { hand: string[] } } }).players.p2.hand,
      );
    });

    it('U-CHECK-1 live NDJSON streams for both seats and a spectator: each gets exactly its events page, redacted, and the end line', async () => {
      const base = h.baseUrl();
      const c = await create({ settings: SMALL_SETTINGS, decks: SMALL_DECKS });
      const streams = VIEWERS.map((viewer) =>
        openStream(base, `/v1/matches/${c.id}/stream`, viewer === 'spectator' ? undefined : c.tokens[viewer]),
      );
      // Connected (the stored opening arrived) before the first move, so the moves arrive live.
      await Promise.all(streams.map((st) => st.first));
      const rand = prng(BASE_SEED + 6);
      let status = 'active';
      let version = c.version;
      for (let n = 0; status === 'active' && n < MAX_ACTIONS; n++) {
        const v = await h.http.get(`/v1/matches/${c.id}`).expect(200);
        const seat = v.body.game.pending.seat as Seat;
        const legal = await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens[seat])).expect(200);
        const options = legal.body.actions as { action: unknown }[];
        const r = await h.http
          .post(`/v1/matches/${c.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(c.tokens[seat]))
          .set('if-match', `"${version}"`)
          .send({ action: options[Math.floor(rand() * options.length)]!.action })
          .expect(200);
        version = r.body.version;
        status = r.body.match.status;
      }
      expect(status).toBe('finished');
      const texts = await Promise.all(streams.map((st) => st.ended));
      const t = await uvsTruth(h.app.service, c.id);
      for (const [i, viewer] of VIEWERS.entries()) {
        const lines = texts[i]!.split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as unknown);
        expect(lines.at(-1)).toEqual({ end: 'finished' });
        const page = await get(`/v1/matches/${c.id}/events?limit=500`, viewer, c.tokens).expect(200);
        expect(lines.slice(0, -1), viewer).toEqual(page.body.events);
        assertUvsNoLeak(lines, t.secrets(viewer), `live stream for ${viewer}`, { view: false });
      }
    });

    it('U-BLOCK-1 U-BLOCK-2 U-BLOCK-3 U-BLOCK-6 U-CHECK-1 U-DAMAGE-1 U-DAMAGE-5: a sandbox attack, block rejections with engine codes, a full block revealed to everyone', async () => {
      const player = (character: string, hand: string[], deck: string[]) => ({
        character,
        health: 20,
        hand,
        deck,
        discard: [],
        removed: [],
        cardPool: [],
        stage: [],
        momentum: [],
      });
      const position = {
        format: 'universus-position/1',
        config: {},
        turnPlayer: 'p1',
        turnNumber: 3,
        // p1 attacks HIGH with Quick Jab (difficulty 1; its check card Supply Depot shows 5); p2 holds
        // a LOW block, a card without block zone and a HIGH block; p2's check card shows 6.
        players: { p1: player('C01', ['A07', 'F05'], ['F04', 'F05']), p2: player('C02', ['A03', 'A04', 'F01'], ['F03', 'F05']) },
      };
      const c = await create({ position });
      const hand = async (seat: Seat) =>
        Object.fromEntries(
          (
            (await h.http.get(`/v1/matches/${c.id}`).set(bearer(c.tokens[seat])).expect(200)).body.game.players[seat].hand as {
              id: string;
              card: string;
            }[]
          ).map((x) => [x.card, x.id]),
        );
      const p1 = await hand('p1');
      const p2 = await hand('p2');
      const act = (seat: Seat, action: object) =>
        h.http.post(`/v1/matches/${c.id}/actions`).set('prefer', 'return=representation').set(bearer(c.tokens[seat])).send({ action });
      const attacked = await act('p1', { type: 'PlayCard', cardId: p1.A07 }).expect(200);
      const version = attacked.body.version as number;
      expect(attacked.body.match.game.attack).toMatchObject({ attacker: 'p1', zone: 'HIGH', speed: 5, damage: 2 });
      expect(attacked.body.match.game.pending).toEqual({ kind: 'AWAIT_BLOCK', seat: 'p2' });

      // U-BLOCK-2: only a HIGH or MID block card fits a HIGH attack; legal-actions says so, apply refuses the rest.
      const legal = await h.http.get(`/v1/matches/${c.id}/legal-actions`).set(bearer(c.tokens.p2)).expect(200);
      expect(legal.body.actions.map((a: { action: unknown }) => a.action)).toEqual([
        { type: 'Block', cardId: p2.F01 },
        { type: 'NoBlock' },
      ]);
      for (const [action, code] of [
        [{ type: 'Block', cardId: p2.A03 }, 'ZONE_NOT_ADJACENT'],
        [{ type: 'Block', cardId: p2.A04 }, 'NO_BLOCK_ZONE'],
        [{ type: 'Block', cardId: p1.F05 }, 'CARD_NOT_IN_HAND'],
        [{ type: 'PlayCard', cardId: p2.F01 }, 'WRONG_DECISION'],
      ] as const) {
        const r = await act('p2', action);
        const p = expectProblem(r, 422, code);
        expect(p.type).toBe('urn:evons:problem:illegal-action');
        expect(r.body.version).toBe(version);
      }
      expectProblem(await act('p1', { type: 'NoBlock' }), 422, 'NOT_YOUR_DECISION');

      // U-BLOCK-3: difficulty = speed 5 + modifier 1 + PD 0 = 6; the check card shows 6: a FULL block, no damage.
      const blocked = await act('p2', { type: 'Block', cardId: p2.F01 }).expect(200);
      const types = (blocked.body.events as { event: { type: string } }[]).map((e) => e.event);
      expect(types).toContainEqual(expect.objectContaining({ type: 'BlockAttempted', seat: 'p2', card: 'F01', difficulty: 6 }));
      expect(types).toContainEqual(expect.objectContaining({ type: 'BlockResolved', outcome: 'FULL' }));
      expect(types).toContainEqual(expect.objectContaining({ type: 'DamageDealt', amount: 0 }));
      const after = await h.http.get(`/v1/matches/${c.id}`).expect(200);
      expect(after.body.game.players.p2.health).toBe(20);
      expect(after.body.game.pending).toEqual({ kind: 'PLAY', seat: 'p1' });
      // U-CHECK-1: both check cards (p1's Supply Depot, p2's Mikasa's Admission) are shown to every party.
      for (const viewer of VIEWERS) {
        const ev = await get(`/v1/matches/${c.id}/events`, viewer, c.tokens).expect(200);
        const revealed = (ev.body.events as { event: { type: string; card: string; value: number } }[])
          .filter((e) => e.event.type === 'CheckRevealed')
          .map((e) => [e.event.card, e.event.value]);
        expect(revealed, viewer).toEqual([
          ['F04', 5],
          ['F03', 6],
        ]);
        assertUvsNoLeak(ev.text, (await uvsTruth(h.app.service, c.id)).secrets(viewer), `sandbox block events for ${viewer}`, {
          view: false,
        });
      }
    });

    it('U-COMMIT-1 U-COMMIT-2 U-COMMIT-3 U-BLOCK-6 U-DAMAGE-1 U-MOMENTUM-1 U-MOMENTUM-2 U-TURN-2: commits for a play and a block, HALF damage rounded up, momentum face down', async () => {
      const player = (character: string, hand: string[], deck: string[], stage: [string, boolean][]) => ({
        character,
        health: 20,
        hand,
        deck,
        discard: [],
        removed: [],
        cardPool: [],
        momentum: [],
        stage: stage.map(([card, committed]) => ({ card, committed })),
      });
      const position = {
        format: 'universus-position/1',
        config: {},
        turnPlayer: 'p1',
        turnNumber: 4,
        players: {
          // Levi's Overhead Strike (difficulty 5) checked by Blade Flurry (check 1): short by 4; four ready foundations, one committed.
          p1: player(
            'C01',
            ['A02'],
            ['A05', 'F05'],
            [
              ['F01', false],
              ['F02', false],
              ['F05', false],
              ['F06', false],
              ['F04', true],
            ],
          ),
          // Against a Tough Bunch blocks MID (modifier 2) against the HIGH attack: 6 + 2 = 8, checked by Mikasa's Admission (6): short by 2.
          p2: player(
            'C02',
            ['F02'],
            ['F03', 'F05', 'F05', 'F05', 'F05', 'F05', 'F05'],
            [
              ['F04', false],
              ['F06', false],
            ],
          ),
        },
      };
      const c = await create({ position });
      const view = async (seat: Seat) => (await h.http.get(`/v1/matches/${c.id}`).set(bearer(c.tokens[seat])).expect(200)).body.game;
      const act = (seat: Seat, action: object) =>
        h.http.post(`/v1/matches/${c.id}/actions`).set('prefer', 'return=representation').set(bearer(c.tokens[seat])).send({ action });
      const v1 = await view('p1');
      const stage1 = v1.players.p1.stage as { id: string; card: string; committed: boolean }[];
      const ready1 = stage1.filter((x) => !x.committed).map((x) => x.id);
      const committed1 = stage1.find((x) => x.committed)!.id;
      const stage2 = ((await view('p2')).players.p2.stage as { id: string }[]).map((x) => x.id);

      const played = await act('p1', { type: 'PlayCard', cardId: v1.players.p1.hand[0].id }).expect(200);
      expect(played.body.match.game.pending).toEqual({ kind: 'AWAIT_COMMIT', seat: 'p1', shortfall: 4 });
      const version = played.body.version as number;
      for (const [foundationIds, code] of [
        [ready1.slice(0, 3), 'WRONG_COMMIT_COUNT'],
        [[...ready1.slice(0, 3), committed1], 'FOUNDATION_NOT_READY'],
        [[...ready1.slice(0, 3), stage2[0]], 'FOUNDATION_NOT_READY'],
        [[ready1[0], ready1[0], ready1[1], ready1[2]], 'DUPLICATE_FOUNDATION'],
      ] as const) {
        const r = await act('p1', { type: 'CommitForCheck', foundationIds });
        expectProblem(r, 422, code);
        expect(r.body.version).toBe(version);
      }
      expectProblem(await act('p2', { type: 'CommitForCheck', foundationIds: stage2 }), 422, 'NOT_YOUR_DECISION');
      const passed = await act('p1', { type: 'CommitForCheck', foundationIds: ready1 }).expect(200);
      expect(passed.body.match.game.attack).toMatchObject({ attacker: 'p1', zone: 'HIGH', speed: 6, damage: 5 });
      expect(passed.body.match.game.pending).toEqual({ kind: 'AWAIT_BLOCK', seat: 'p2' });

      // U-COMMIT-2: the defender commits for its own block check.
      const blocked = await act('p2', { type: 'Block', cardId: (await view('p2')).players.p2.hand[0].id }).expect(200);
      expect(blocked.body.match.game.pending).toEqual({ kind: 'AWAIT_COMMIT', seat: 'p2', shortfall: 2 });
      const resolved = await act('p2', { type: 'CommitForCheck', foundationIds: stage2 }).expect(200);
      const events = (resolved.body.events as { event: { type: string } }[]).map((e) => e.event);
      expect(events).toContainEqual(expect.objectContaining({ type: 'BlockResolved', outcome: 'HALF' }));
      expect(events).toContainEqual(expect.objectContaining({ type: 'DamageDealt', amount: 3 }));
      const mid = await view('p1');
      expect(mid.players.p2.health).toBe(17);
      expect(mid.pending).toEqual({ kind: 'PLAY', seat: 'p1' });
      expect(mid.players.p1.stage.every((x: { committed: boolean }) => x.committed)).toBe(true);
      expect(mid.players.p2.stage.every((x: { committed: boolean }) => x.committed)).toBe(true);

      // U-MOMENTUM-1: the attack that dealt damage may go to momentum, face down (U-MOMENTUM-2: a count only).
      const attackId = mid.players.p1.cardPool.find((e: { card: string }) => e.card === 'A02').id as string;
      const ended = await act('p1', { type: 'PassCombat' }).expect(200);
      expect(ended.body.match.game.pending).toEqual({ kind: 'AWAIT_MOMENTUM', seat: 'p1' });
      expectProblem(await act('p1', { type: 'ChooseMomentum', attackIds: [attackId, attackId] }), 422, 'DUPLICATE_ATTACK');
      expectProblem(await act('p1', { type: 'ChooseMomentum', attackIds: [ready1[0]] }), 422, 'NOT_MOMENTUM_ELIGIBLE');
      await act('p1', { type: 'ChooseMomentum', attackIds: [attackId] }).expect(200);
      const t = await uvsTruth(h.app.service, c.id);
      expect(t.state.players.p1.momentum).toEqual([attackId]);
      for (const viewer of VIEWERS) {
        const v = await get(`/v1/matches/${c.id}`, viewer, c.tokens).expect(200);
        expect(v.body.game.players.p1.momentumCount).toBe(1);
        expect(v.text).not.toContain(`"${attackId}"`);
        assertUvsNoLeak(v.text, t.secrets(viewer), `momentum view for ${viewer}`, { view: true });
      }
      // U-TURN-2: p2's turn readies p2's foundations; p1's stay committed until its own Ready Step (U-COMMIT-3).
      const next = await view('p2');
      expect(next.turnPlayer).toBe('p2');
      expect(next.players.p2.stage.map((x: { committed: boolean }) => x.committed)).toEqual([false, false]);
      expect(next.players.p1.stage.every((x: { committed: boolean }) => x.committed)).toBe(true);
    });

    it('U-DAMAGE-4 U-WIN-1: a sandbox position with a player at 0 or less health is refused (D-18)', async () => {
      const player = (character: string, health: number) => ({
        character,
        health,
        hand: ['A07', 'F05'],
        deck: ['F04', 'F05', 'F01'],
        discard: [],
        removed: [],
        cardPool: [],
        stage: [],
        momentum: [],
      });
      const position = {
        format: 'universus-position/1',
        config: {},
        turnPlayer: 'p1',
        turnNumber: 2,
        players: { p1: player('C01', 12), p2: player('C02', -1) },
      };
      const res = await h.http.post('/v1/matches').send({ game: 'universus', position });
      if (res.status === 201) {
        const v = await h.http.get(`/v1/matches/${res.body.id}`).expect(200);
        expect(v.body.status, 'a player at -1 health is still playing').toBe('finished');
        expect(v.body.game.winReason).toBe('HEALTH_ZERO');
        expect(v.body.winner).toBe('p1');
      } else {
        // The request schema is the position schema, so the refusal is a 400 naming the field.
        const p = expectProblem(res, 400, 'validation-failed');
        expect(((p as { errors?: string[] }).errors ?? []).join(' ')).toMatch(
          /players\.p2\.health: a player at 0 or less health has already lost/,
        );
      }
    });

    /** Random legal actions until the game waits for a decision of `kind` (a new match if one ends first); the match, its tokens and the deciding seat. */
    async function atDecision(kind: string, rand: () => number) {
      for (let tries = 0; tries < 5; tries++) {
        const c = await create({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } } });
        for (let n = 0; n < 200; n++) {
          const v = await h.http.get(`/v1/matches/${c.id}`).expect(200);
          if (v.body.status !== 'active') break;
          const pending = v.body.game.pending as { kind: string; seat: Seat };
          if (pending.kind === kind) return { c, deciding: pending.seat, version: v.body.version as number };
          const legal = await get(`/v1/matches/${c.id}/legal-actions`, pending.seat, c.tokens).expect(200);
          const options = legal.body.actions as { action: object }[];
          await h.http
            .post(`/v1/matches/${c.id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(c.tokens[pending.seat]))
            .send({ action: options[Math.floor(rand() * options.length)]!.action })
            .expect(200);
        }
      }
      throw new Error(`no ${kind} decision reached`);
    }

    // Attack (PLAY), block, check (AWAIT_COMMIT) and momentum after damage; each resigned by the seat deciding and by the other one.
    it.each(['PLAY', 'AWAIT_BLOCK', 'AWAIT_COMMIT', 'AWAIT_MOMENTUM'])(
      'issue 20: either seat resigns at a %s decision: the other seat wins (reason resigned), the log ends with MatchEnded, nothing more is accepted',
      async (kind) => {
        const rand = prng(BASE_SEED + kind.length);
        for (const who of ['deciding', 'other'] as const) {
          const { c, deciding, version } = await atDecision(kind, rand);
          const resigner = who === 'deciding' ? deciding : otherSeat(deciding);
          const winner = otherSeat(resigner);
          const t = await uvsTruth(h.app.service, c.id);
          const res = await h.http
            .post(`/v1/matches/${c.id}/actions`)
            .set('prefer', 'return=representation')
            .set(bearer(c.tokens[resigner]))
            .set('if-match', `"${version}"`)
            .send({ action: { type: 'resign' } });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.match).toMatchObject({ status: 'finished', winner, outcome: { winner, reason: 'resigned', seat: resigner } });
          expect(res.body.match.seed, 'the seed is published once the match is over').toEqual(expect.any(String));
          expect(res.body.events.map((e: { actingSeat: Seat; event: { type: string } }) => [e.actingSeat, e.event.type])).toEqual([
            [resigner, 'MatchEnded'],
          ]);
          expect(res.body.events[0].event.end).toMatchObject({ reason: 'resigned', seat: resigner, winner });
          // Over now, so the seed is published; hands and decks stay hidden (the game itself did not end).
          assertUvsNoLeak(res.text, { ...t.secrets(resigner), seed: null }, `${kind} resign by ${who}`, { view: false });
          // The match waits for nobody: no legal actions, no further action (not even a second resign).
          for (const seat of ['p1', 'p2'] as const) {
            expect((await get(`/v1/matches/${c.id}/legal-actions`, seat, c.tokens).expect(200)).body.actions).toEqual([]);
            expectProblem(
              await h.http
                .post(`/v1/matches/${c.id}/actions`)
                .set('prefer', 'return=representation')
                .set(bearer(c.tokens[seat]))
                .send({ action: { type: 'resign' } }),
              409,
              'match-finished',
            );
          }
          const spectator = await h.http.get(`/v1/matches/${c.id}`).expect(200);
          expect(spectator.body).toMatchObject({
            status: 'finished',
            winner,
            version: version + 1,
            outcome: { winner, reason: 'resigned', seat: resigner },
          });
          const page = await h.http.get(`/v1/matches/${c.id}/events?after=${version}`).expect(200);
          expect(page.body.events.map((e: { event: { type: string } }) => e.event.type)).toEqual(['MatchEnded']);
        }
      },
    );

    it('errors: an Evons action, an illegal UniVersus action (engine code + version), Evons settings, an unknown starter, an unknown game', async () => {
      const c = await create({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } } });
      const v = await h.http.get(`/v1/matches/${c.id}`).expect(200);
      const seat = v.body.game.pending.seat as Seat;
      const version = v.body.version as number;

      // An Evons action is well-formed for the API but not a UniVersus action: the engine's stable code.
      const evonsAction = await h.http
        .post(`/v1/matches/${c.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(c.tokens[seat]))
        .send({ action: { type: 'pass' } });
      const e1 = expectProblem(evonsAction, 422, 'INVALID_ACTION');
      expect(e1.type).toBe('urn:evons:problem:illegal-action');
      expect(evonsAction.body.version).toBe(version);

      // U-PLAY-1: only the deciding seat; D-14: a card not in hand gets one answer, whoever holds it.
      const t = await uvsTruth(h.app.service, c.id);
      const otherHand = t.state.players[otherSeat(seat)].hand[0]!;
      const notYours = await h.http
        .post(`/v1/matches/${c.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(c.tokens[otherSeat(seat)]))
        .send({ action: { type: 'PassCombat' } });
      const e2 = expectProblem(notYours, 422, 'NOT_YOUR_DECISION');
      expect(e2.type).toBe('urn:evons:problem:illegal-action');
      expect(notYours.body.version).toBe(version);
      for (const cardId of [otherHand, 'no-such-card']) {
        const r = await h.http
          .post(`/v1/matches/${c.id}/actions`)
          .set('prefer', 'return=representation')
          .set(bearer(c.tokens[seat]))
          .send({ action: { type: 'PlayCard', cardId } });
        const e = expectProblem(r, 422, 'CARD_NOT_IN_HAND');
        expect(e.type).toBe('urn:evons:problem:illegal-action');
        expect(r.body.version).toBe(version);
        assertUvsNoLeak(
          r.text,
          { ...t.secrets(seat), neverShown: new Set([...t.secrets(seat).neverShown].filter((x) => x !== cardId)) },
          'illegal PlayCard problem',
          { view: false },
        );
        expect(r.body.detail).not.toContain(t.state.cards[otherHand]!);
      }
      const wrong = await h.http
        .post(`/v1/matches/${c.id}/actions`)
        .set('prefer', 'return=representation')
        .set(bearer(c.tokens[seat]))
        .send({ action: { type: 'NoBlock' } });
      expectProblem(wrong, 422, 'WRONG_DECISION');
      expect((await h.http.get(`/v1/matches/${c.id}`).expect(200)).body.version).toBe(version);

      // Evons settings for a UniVersus match: refused, naming the setting.
      const evonsSettings = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', settings: { handLimit: 3 }, decks: { p1: { starter: 'scouts' }, p2: { starter: 'scouts' } } });
      expect([400, 422]).toContain(evonsSettings.status);
      const e3 = expectProblem(evonsSettings, evonsSettings.status);
      expect(['validation-failed', 'invalid-settings']).toContain(e3.code);
      expect(JSON.stringify(evonsSettings.body)).toContain('handLimit');

      // An unknown starter (an Evons starter id) is an invalid deck for this game.
      const starter = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', decks: { p1: { starter: 'starter-verdant-quake' }, p2: { starter: 'scouts' } } });
      expectProblem(starter, 422, 'invalid-deck');
      expect(starter.body.detail).toContain('starter-verdant-quake');
      // U-SETUP-1: one character plus minDeckSize attacks and foundations.
      const short = await h.http.post('/v1/matches').send({ game: 'universus', decks: { p1: SMALL_DECKS.p1, p2: { starter: 'scouts' } } });
      expectProblem(short, 422, 'invalid-deck');

      const unknownGame = await h.http
        .post('/v1/matches')
        .send({ game: 'chess', decks: { p1: { starter: 'scouts' }, p2: { starter: 'scouts' } } });
      expectProblem(unknownGame, 400, 'validation-failed');

      // Each game's positions and decks are its own: an Evons position or deck is refused by UniVersus and back.
      const uvsPosition = universus.positions.toPosition(t.state);
      const evonsPosition = {
        format: 'evons-position/1',
        cardSetId: 'set00-placeholder',
        first: 'p1',
        turn: 1,
        active: 'p1',
        step: 'reveal',
      };
      expectProblem(await h.http.post('/v1/matches').send({ game: 'universus', position: evonsPosition }), 400, 'validation-failed');
      expectProblem(await h.http.post('/v1/matches').send({ position: uvsPosition }), 400, 'validation-failed');
      const openUvs = await create({ openSeat: true, decks: { p1: { starter: 'scouts' } } });
      expectProblem(
        await h.http.post(`/v1/matches/${openUvs.id}/join`).send({ deck: { starter: 'starter-storm-shade' } }),
        422,
        'invalid-deck',
      );
      const openEvons = await h.http
        .post('/v1/matches')
        .send({ openSeat: true, decks: { p1: { starter: 'starter-storm-shade' } } })
        .expect(201);
      expectProblem(await h.http.post(`/v1/matches/${openEvons.body.id}/join`).send({ deck: { starter: 'scouts' } }), 422, 'invalid-deck');
      // Both seats are still open after the refused joins.
      await h.http
        .post(`/v1/matches/${openUvs.id}/join`)
        .send({ deck: { starter: 'garrison' } })
        .expect(200);
    });
  });
}
