/**
 * UniVersus through GraphQL only, on every backend: random full matches via `match(id)` with
 * `... on UniVersusMatch` and `submitAction` (expectedVersion, idempotencyKey), every response
 * checked against the server's true state (../secrecy/universus-secrecy.ts). The Match interface resolves
 * each game to its own type.
 */
import { describe, expect, it } from 'vitest';
import type { Seat, Viewer } from '../../../src/core/ruleset.js';
import type { UniversusEvent } from '../../../src/games/universus/index.js';
import { gameRecords } from '../../../src/service/match/match-log.js';
import { backends, createHotSeat, graphqlRequest, prng, useHarness } from '../helpers.js';
import { assertUvsNoLeak, otherSeat, uvsTruth } from '../secrecy/universus-secrecy.js';

const VIEWERS = ['p1', 'p2', 'spectator'] as const;
const MAX_ACTIONS = 400;
const BASE_SEED = Number(process.env.MATCH_SEED ?? Date.now() % 1_000_000);

const MATCH = /* GraphQL */ `
  query ($id: ID!) {
    match(id: $id) {
      __typename
      id
      gameId
      version
      status
      winner
      seat
      pending
      seed
      seedCommitment
      sandbox
      config
      seats {
        seat
        handle
        joined
      }
      legalActions {
        type
        action
        text
      }
      ... on UniVersusMatch {
        turnPlayer
        turnNumber
        phase
        winReason
        check {
          seat
          purpose
          id
          card
          name
          difficulty
          face {
            kind
            check
          }
        }
        attack {
          id
          attacker
          zone
          speed
          damage
          card
          name
        }
        players {
          seat
          handle
          character
          health
          handSize
          handCount
          deckCount
          removedCount
          momentumCount
          characterFace {
            name
            health
          }
          discard {
            id
            card
            name
          }
          cardPool {
            id
            card
            name
            role
            dealtDamage
            built
          }
          stage {
            id
            card
            name
            committed
          }
        }
        hand {
          id
          card
          name
          face {
            kind
            difficulty
            check
            blockZone
          }
        }
      }
      ... on EvonsMatch {
        board {
          name
        }
      }
    }
  }
`;

const EVENTS = /* GraphQL */ `
  query ($id: ID!, $after: Int) {
    match(id: $id) {
      events(after: $after, limit: 500) {
        events {
          seq
          actingSeat
          type
          data
        }
        next
        hasMore
      }
    }
  }
`;

const SUBMIT = /* GraphQL */ `
  mutation ($id: ID!, $action: JSON, $input: ActionInput, $key: String, $v: Int) {
    submitAction(matchId: $id, action: $action, input: $input, idempotencyKey: $key, expectedVersion: $v) {
      version
      replayed
      events {
        seq
        type
        data
      }
      match {
        __typename
        version
        status
        winner
        ... on UniVersusMatch {
          phase
          hand {
            id
            card
          }
          players {
            seat
            handCount
            deckCount
          }
        }
      }
    }
  }
`;

type MatchData = {
  __typename: string;
  version: number;
  status: string;
  winner: Seat | null;
  seat: Seat | null;
  pending: { seat: Seat; kind: string } | null;
  seed: string | null;
  seedCommitment: string;
  legalActions: { type: string; action: Record<string, unknown>; text: string }[];
  phase: string;
  winReason: string | null;
  players: { seat: Seat; handCount: number; deckCount: number; removedCount: number; momentumCount: number; health: number }[];
  hand: { id: string }[] | null;
};

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`UniVersus over GraphQL [${backend.name}]`, () => {
    const h = useHarness(backend);

    const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
      const res = await graphqlRequest(h, query, variables, token);
      expect(res.status).toBe(200);
      return res;
    };

    async function createUvs(body: Record<string, unknown>) {
      const res = await h.http.post('/v1/matches').send({ game: 'universus', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; tokens: Record<Seat, string>; version: number };
    }

    /** Random legal actions through GraphQL until the end; every response checked. */
    async function playGraphql(id: string, tokens: Record<Seat, string>, rand: () => number, label: string) {
      const tokenOf = (v: Viewer) => (v === 'spectator' ? undefined : tokens[v]);
      let status = 'active';
      let n = 0;
      const types = new Set<string>();
      while (status === 'active' && n < MAX_ACTIONS) {
        const pre = await uvsTruth(h.app.service, id);
        const spec = await gql(MATCH, { id });
        expect(spec.body.errors, JSON.stringify(spec.body.errors)).toBeUndefined();
        const match = spec.body.data.match as MatchData;
        expect(match.__typename).toBe('UniVersusMatch');
        expect(match.hand).toBeNull();
        expect(match.seat).toBeNull();
        expect(match.legalActions).toEqual([]);
        assertUvsNoLeak(spec.text, pre.secrets('spectator'), `${label} #${n} spectator`, { view: true });
        const seat = match.pending!.seat;
        const mineRes = await gql(MATCH, { id }, tokens[seat]);
        const mine = mineRes.body.data.match as MatchData;
        assertUvsNoLeak(mineRes.text, pre.secrets(seat), `${label} #${n} ${seat}`, { view: true });
        expect(mine.seat).toBe(seat);
        expect(mine.hand!.map((c) => c.id)).toEqual(pre.state.players[seat].hand);
        expect(mine.legalActions.length, `${label}: no legal action`).toBeGreaterThan(0);
        const theirs = await gql(MATCH, { id }, tokens[otherSeat(seat)]);
        expect(theirs.body.data.match.legalActions).toEqual([]);
        assertUvsNoLeak(theirs.text, pre.secrets(otherSeat(seat)), `${label} #${n} ${otherSeat(seat)}`, { view: true });
        const pick = mine.legalActions[Math.floor(rand() * mine.legalActions.length)]!;
        expect(pick.type).toBe(pick.action.type);
        expect(pick.text.length).toBeGreaterThan(0);

        if (n % 9 === 4) {
          const stale = await gql(SUBMIT, { id, action: pick.action, key: `${label}-stale-${n}`, v: match.version - 1 }, tokens[seat]);
          expect(stale.body.errors[0].extensions.code).toBe('version-conflict');
          expect(stale.body.errors[0].extensions.version).toBe(match.version);
        }
        // Every other move as the typed ActionInput (cardId, foundationIds, attackIds), the rest as JSON.
        const typed = n % 2 === 1;
        const vars = typed
          ? { id, input: pick.action, key: `${label}-${n}`, v: match.version }
          : { id, action: pick.action, key: `${label}-${n}`, v: match.version };
        const res = await gql(SUBMIT, vars, tokens[seat]);
        if (typed) types.add(`input:${pick.type}`);
        expect(res.body.errors, `${label}: ${pick.text} → ${JSON.stringify(res.body.errors)}`).toBeUndefined();
        const out = res.body.data.submitAction;
        expect(out.version).toBeGreaterThan(match.version);
        expect(out.replayed).toBe(false);
        expect(out.match.__typename).toBe('UniVersusMatch');
        status = out.match.status;
        n++;
        if (n % 7 === 1) {
          const again = await gql(SUBMIT, vars, tokens[seat]);
          expect(again.body.errors).toBeUndefined();
          expect(again.body.data.submitAction.replayed).toBe(true);
          expect(again.body.data.submitAction.version).toBe(out.version);
          expect(again.body.data.submitAction.events).toEqual(out.events);
        }

        const t = await uvsTruth(h.app.service, id);
        gameRecords(t.log.filter((e) => e.seq > match.version)).forEach((e) => types.add(e.type));
        assertUvsNoLeak(res.text, t.secrets(seat), `${label} #${n} submitAction`, { view: false });
        assertUvsNoLeak(out.match, t.secrets(seat), `${label} #${n} submitAction match`, { view: true });
        const revealed = gameRecords(t.log.filter((e) => e.seq > match.version))
          .map((e) => e.payload as UniversusEvent)
          .filter((e) => e.type === 'CheckRevealed');
        for (const viewer of VIEWERS) {
          const s = t.secrets(viewer);
          const v = await gql(MATCH, { id }, tokenOf(viewer));
          expect(v.body.errors).toBeUndefined();
          assertUvsNoLeak(v.text, s, `${label} #${n} view for ${viewer}`, { view: true });
          const vm = v.body.data.match as MatchData;
          expect(vm.version).toBe(out.version);
          for (const p of vm.players) {
            const tp = t.state.players[p.seat];
            expect([p.handCount, p.deckCount, p.removedCount, p.momentumCount]).toEqual([
              tp.hand.length,
              tp.deck.length,
              tp.removed.length,
              tp.momentum.length,
            ]);
            expect(p.health).toBe(Math.max(0, tp.health));
          }
          const ev = await gql(EVENTS, { id, after: match.version }, tokenOf(viewer));
          expect(ev.body.errors).toBeUndefined();
          assertUvsNoLeak(ev.text, s, `${label} #${n} events for ${viewer}`, { view: false });
          // U-CHECK-1: every party sees each revealed check card.
          const seen = (ev.body.data.match.events.events as { type: string; data: unknown }[])
            .filter((e) => e.type === 'CheckRevealed')
            .map((e) => e.data);
          expect(seen).toEqual(revealed);
        }
      }
      return { n, status, types };
    }

    async function checkEnd(id: string, tokens: Record<Seat, string>, label: string) {
      const t = await uvsTruth(h.app.service, id);
      const end = (await gql(MATCH, { id })).body.data.match as MatchData;
      expect(end.status).toBe('finished');
      expect(end.phase).toBe('OVER');
      expect(end.pending).toBeNull();
      expect(end.seed).toBe(t.state.seed);
      expect(end.winner).toBe(t.state.winner);
      expect(end.winReason).toBe(t.state.winReason);
      for (const viewer of VIEWERS) {
        const all = await gql(EVENTS, { id, after: 0 }, viewer === 'spectator' ? undefined : tokens[viewer]);
        assertUvsNoLeak(all.text, t.secrets(viewer), `${label} whole log for ${viewer}`, { view: false });
      }
      const late = await gql(SUBMIT, { id, action: { type: 'PassCombat' } }, tokens.p1);
      expect(late.body.errors[0].extensions.code).toBe('match-finished');
      return end;
    }

    it('U-CHECK-1 U-DAMAGE-2 U-MOMENTUM-2 U-WIN-1: a random match to the end through submitAction; no query result leaks; seed published', async () => {
      const seed = BASE_SEED;
      const label = `gql-a-${seed}`;
      const c = await createUvs({ decks: { p1: { starter: 'shifters' }, p2: { starter: 'garrison' } } });
      const p = await playGraphql(c.id, c.tokens, prng(seed), label);
      expect(p.status, `${label}: no end within ${MAX_ACTIONS} actions`).toBe('finished');
      expect(p.types.has('CheckRevealed')).toBe(true);
      const end = await checkEnd(c.id, c.tokens, label);
      console.info(
        `[graphql ${backend.name}] ${label}: ${p.n} actions, version ${end.version}, ${end.winReason}; typed inputs: ${[...p.types].filter((x) => x.startsWith('input:')).join(' ')}`,
      );
    });

    it('U-CYCLE-1 U-CYCLE-2 U-CYCLE-3 U-WIN-2: small decks cycle and exhaust through GraphQL; removed cards never show', async () => {
      const seed = BASE_SEED + 1;
      const label = `gql-b-${seed}`;
      const cards = (list: [string, number][]) => ({ cards: list.map(([card, count]) => ({ card, count })) });
      const c = await createUvs({
        settings: { minDeckSize: 12, cycleRemoveCount: 2 },
        decks: {
          p1: cards([
            ['C03', 1],
            ['F04', 4],
            ['F05', 4],
            ['A03', 2],
            ['A07', 2],
          ]),
          p2: cards([
            ['C02', 1],
            ['F01', 4],
            ['F02', 4],
            ['A07', 2],
            ['F06', 2],
          ]),
        },
      });
      const p = await playGraphql(c.id, c.tokens, prng(seed), label);
      expect(p.status).toBe('finished');
      expect(p.types.has('DeckCycled'), `${label}: no deck cycled`).toBe(true);
      const end = await checkEnd(c.id, c.tokens, label);
      expect(end.winReason).toBe('EXHAUSTED');
      console.info(`[graphql ${backend.name}] ${label}: ${p.n} actions, version ${end.version}, EXHAUSTED`);
    });

    it('a waiting UniVersus match (open seat) resolves with empty game fields; its events page is empty', async () => {
      const res = await h.http
        .post('/v1/matches')
        .send({ game: 'universus', handle: 'gql-wait', openSeat: true, decks: { p1: { starter: 'scouts' } } })
        .expect(201);
      const r = await gql(MATCH, { id: res.body.id }, res.body.token);
      expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
      const m = r.body.data.match;
      expect(m).toMatchObject({
        __typename: 'UniVersusMatch',
        status: 'waiting',
        seat: 'p1',
        turnPlayer: null,
        phase: null,
        hand: null,
        check: null,
        attack: null,
        legalActions: [],
      });
      expect(m.players.map((p: { seat: string; handCount: number; deckCount: number }) => [p.seat, p.handCount, p.deckCount])).toEqual([
        ['p1', 0, 0],
        ['p2', 0, 0],
      ]);
      const ev = await gql(EVENTS, { id: res.body.id, after: 0 });
      expect(ev.body.data.match.events.events).toEqual([]);
    });

    it("the GraphQL history (matches) names each match's game, as REST does", async () => {
      const u = await createUvs({ handle: 'gql-hist', decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } });
      const r = await gql('{ matches(handle: "gql-hist") { matches { id gameId } } }', {});
      expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
      expect(r.body.data.matches.matches).toContainEqual({ id: u.id, gameId: 'universus' });
    });

    it('issue 20: submitAction resign (JSON and typed input) ends a UniVersus match at a block, a check and while the other seat decides; the other seat wins, reason resigned', async () => {
      const rand = prng(BASE_SEED + 20);
      const OUTCOME = 'query ($id: ID!) { match(id: $id) { status winner pending legalActions { type } outcome { winner reason seat } } }';
      for (const [kind, who, form] of [
        ['AWAIT_BLOCK', 'deciding', 'json'],
        ['AWAIT_COMMIT', 'deciding', 'input'],
        ['PLAY', 'other', 'json'],
      ] as const) {
        let reached: { id: string; tokens: Record<Seat, string>; m: MatchData } | null = null;
        for (let tries = 0; tries < 5 && !reached; tries++) {
          const c = await createUvs({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'shifters' } } });
          for (let n = 0; n < 200; n++) {
            const m = (await gql(MATCH, { id: c.id })).body.data.match as MatchData;
            if (m.status !== 'active') break;
            if (m.pending!.kind === kind) {
              reached = { id: c.id, tokens: c.tokens, m };
              break;
            }
            const mine = (await gql(MATCH, { id: c.id }, c.tokens[m.pending!.seat])).body.data.match as MatchData;
            const choice = mine.legalActions[Math.floor(rand() * mine.legalActions.length)]!;
            expect((await gql(SUBMIT, { id: c.id, action: choice.action }, c.tokens[m.pending!.seat])).body.errors).toBeUndefined();
          }
        }
        if (!reached) throw new Error(`no ${kind} decision reached`);
        const deciding = reached.m.pending!.seat;
        const resigner = who === 'deciding' ? deciding : otherSeat(deciding);
        const winner = otherSeat(resigner);
        const action = form === 'json' ? { action: { type: 'resign' } } : { input: { type: 'resign' } };
        const res = await gql(SUBMIT, { id: reached.id, v: reached.m.version, ...action }, reached.tokens[resigner]);
        expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
        const out = res.body.data.submitAction;
        expect(out.match).toMatchObject({ __typename: 'UniVersusMatch', status: 'finished', winner });
        expect(out.events.map((e: { type: string }) => e.type)).toEqual(['MatchEnded']);
        expect(out.events[0].data.end).toMatchObject({ reason: 'resigned', seat: resigner, winner });
        const after = (await gql(OUTCOME, { id: reached.id }, reached.tokens[winner])).body.data.match;
        expect(after).toEqual({
          status: 'finished',
          winner,
          pending: null,
          legalActions: [],
          outcome: { winner, reason: 'resigned', seat: resigner },
        });
        const again = await gql(SUBMIT, { id: reached.id, action: { type: 'resign' } }, reached.tokens[winner]);
        expect(again.body.errors[0].extensions.code).toBe('match-finished');
      }
    });

    it('the Match interface: a UniVersus match is UniVersusMatch, an Evons match still EvonsMatch; errors carry the engine code and version', async () => {
      const u = await createUvs({ decks: { p1: { starter: 'scouts' }, p2: { starter: 'garrison' } } });
      const e = await createHotSeat(h.http);
      const both = await gql(
        `query ($u: ID!, $e: ID!) {
          u: match(id: $u) { __typename gameId ... on UniVersusMatch { phase players { seat character } } ... on EvonsMatch { board { name } } }
          e: match(id: $e) { __typename gameId ... on UniVersusMatch { phase } ... on EvonsMatch { board { name } } }
        }`,
        { u: u.id, e: e.id },
      );
      expect(both.body.errors).toBeUndefined();
      expect(both.body.data.u).toMatchObject({ __typename: 'UniVersusMatch', gameId: 'universus', phase: 'COMBAT' });
      expect(both.body.data.u.board).toBeUndefined();
      expect(both.body.data.u.players.map((p: { character: string }) => p.character)).toEqual(['C01', 'C02']);
      expect(both.body.data.e).toMatchObject({ __typename: 'EvonsMatch', gameId: 'evons' });
      expect(both.body.data.e.board).toHaveLength(49);
      expect(both.body.data.e.phase).toBeUndefined();

      const m = (await gql(MATCH, { id: u.id })).body.data.match as MatchData;
      const seat = m.pending!.seat;
      const notYours = await gql(SUBMIT, { id: u.id, action: { type: 'PassCombat' } }, u.tokens[otherSeat(seat)]);
      expect(notYours.body.errors[0].extensions.code).toBe('NOT_YOUR_DECISION');
      expect(notYours.body.errors[0].extensions.version).toBe(m.version);
      const evonsAction = await gql(SUBMIT, { id: u.id, action: { type: 'pass' } }, u.tokens[seat]);
      expect(evonsAction.body.errors[0].extensions.code).toBe('INVALID_ACTION');
      const typed = await gql(
        'mutation ($id: ID!, $input: ActionInput) { submitAction(matchId: $id, input: $input) { version match { __typename } } }',
        { id: u.id, input: { type: 'PlayCard', cardId: 'no-such-card' } },
        u.tokens[seat],
      );
      expect(typed.body.errors[0].extensions.code).toBe('CARD_NOT_IN_HAND');
      expect(typed.body.errors[0].extensions.version).toBe(m.version);
    });
  });
}
