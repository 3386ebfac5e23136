/**
 * A third game is one folder plus one registry line: in this project (vitest.config.ts,
 * fixture-games) the registry is test/fixtures/games/registry.ts, the product's list plus Noughts,
 * and nothing else in src/ knows of it. Noughts plays here over REST, GraphQL, pictures and the
 * watch page, with its hidden cards hidden from the other seat and spectators until the end, an
 * action named like an Evons one (`play`) and an event named like the match's own record
 * (`MatchEnded`).
 */
import { describe, expect, it } from 'vitest';
import type { WatchScript } from '../../src/games/game-module.js';
import { GAME_IDS, moduleOf } from '../../src/games/registry.js';
import { binary, backends, bearer, graphqlRequest, useHarness } from '../api/helpers.js';

type Seat = 'p1' | 'p2';

const other = (s: Seat): Seat => (s === 'p1' ? 'p2' : 'p1');

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(`Noughts, a third game from one folder [${backend.name}]`, () => {
    const h = useHarness(backend);

    async function create(extra: Record<string, unknown> = {}) {
      const res = await h.http
        .post('/v1/matches')
        .send({
          game: 'noughts',
          handle: 'xavier',
          opponentHandle: 'olive',
          decks: { p1: { starter: 'standard' }, p2: { starter: 'standard' } },
          ...extra,
        })
        .expect(201);
      return { id: res.body.id as string, tokens: res.body.tokens as Record<Seat, string> };
    }

    async function view(id: string, token?: string) {
      const req = h.http.get(`/v1/matches/${id}`);
      return (await (token ? req.set(bearer(token)) : req).expect(200)).body;
    }

    it('is in the registry this project runs with, and in the catalogue and the OpenAPI document', async () => {
      expect(GAME_IDS).toEqual(['evons', 'universus', 'noughts']);
      const games = (await h.http.get('/v1/games').expect(200)).body.games.map((g: { id: string }) => g.id);
      expect(games).toContain('noughts');
      const doc = (await h.http.get('/openapi.json').expect(200)).body;
      for (const c of ['NoughtsCreateMatchRequest', 'NoughtsMatchView', 'NoughtsView', 'NoughtsAction', 'NoughtsEvent', 'NoughtsPending']) {
        expect(
          Object.keys(doc.components.schemas).some((k) => k === c || k === `${c}Input`),
          c,
        ).toBe(true);
      }
      const starters = (await h.http.get('/v1/games/noughts/decks').expect(200)).body.decks.map((d: { id: string }) => d.id);
      expect(starters).toEqual(['standard']);
    });

    it("plays over REST to the end: `play` is this game's action, its `MatchEnded` is its own event, hidden cards stay hidden until then", async () => {
      const m = await create();
      let v = await view(m.id, m.tokens.p1);
      expect(v.gameId).toBe('noughts');
      expect(v.game.hand).not.toBeNull();
      const cards: Record<Seat, number> = { p1: v.game.hand.value, p2: (await view(m.id, m.tokens.p2)).game.hand.value };
      const spectator = await view(m.id);
      expect(spectator.game.hand).toBeNull();
      expect(spectator.game.revealed).toBeNull();
      // The other seat's card is nowhere in a seat's view or events before the end.
      for (const seat of ['p1', 'p2'] as const) {
        const theirs = `n${cards[other(seat)]}`;
        const mine = `n${cards[seat]}`;
        if (theirs === mine) continue;
        const body =
          JSON.stringify(await view(m.id, m.tokens[seat])) +
          JSON.stringify((await h.http.get(`/v1/matches/${m.id}/events`).set(bearer(m.tokens[seat])).expect(200)).body);
        expect(body).not.toContain(`"${theirs}"`);
      }
      // p1 takes the top row while p2 plays below: three in a row for p1.
      const moves: [Seat, string][] = [
        ['p1', 'a1'],
        ['p2', 'b1'],
        ['p1', 'a2'],
        ['p2', 'b2'],
        ['p1', 'a3'],
      ];
      for (const [seat, cell] of moves) {
        const legal = (await h.http.get(`/v1/matches/${m.id}/legal-actions`).set(bearer(m.tokens[seat])).expect(200)).body.actions;
        expect(legal).toContainEqual({ action: { type: 'play', cell } });
        await h.http
          .post(`/v1/matches/${m.id}/actions`)
          .set(bearer(m.tokens[seat]))
          .send({ action: { type: 'play', cell } })
          .expect(200);
      }
      v = await view(m.id);
      expect(v.status).toBe('finished');
      expect(v.winner).toBe('p1');
      expect(v.outcome).toMatchObject({ winner: 'p1', reason: 'three-in-a-row' });
      expect(v.game.revealed).toEqual({ p1: { card: `n${cards.p1}`, value: cards.p1 }, p2: { card: `n${cards.p2}`, value: cards.p2 } });
      const events = (await h.http.get(`/v1/matches/${m.id}/events`).expect(200)).body.events;
      const last = events.at(-1);
      expect(last.event).toMatchObject({ type: 'MatchEnded', winner: 'p1', reason: 'three-in-a-row' });
      expect(last.source).toBe('game');
      // A move after the end is refused; an Evons-shaped action is not this game's.
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p2))
        .send({ action: { type: 'play', cell: 'c3' } })
        .expect(409);
    });

    it("refuses another game's action with the engine's reason, and a resign ends it as the match's own record", async () => {
      const m = await create();
      const bad = await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p1))
        .send({ action: { type: 'play', card: 'x', cell: 'C3', covered: false } })
        .expect(422);
      expect(bad.body.code).toBe('INVALID_ACTION');
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p2))
        .send({ action: { type: 'resign' } })
        .expect(200);
      const v = await view(m.id);
      expect(v.outcome).toMatchObject({ winner: 'p1', reason: 'resigned', seat: 'p2' });
      const last = (await h.http.get(`/v1/matches/${m.id}/events`).expect(200)).body.events.at(-1);
      expect(last).toMatchObject({ source: 'match', event: { type: 'MatchEnded', end: { reason: 'resigned', seat: 'p2' } } });
    });

    it('has a watch page: its preview from its own module, its own script, its events in its own words', async () => {
      const m = await create();
      await h.http
        .post(`/v1/matches/${m.id}/actions`)
        .set(bearer(m.tokens.p1))
        .send({ action: { type: 'play', cell: 'b2' } })
        .expect(200);
      const html = (await h.http.get(`/watch/${m.id}`).expect(200)).text;
      expect(html).toContain('xavier vs olive · Noughts');
      expect(html).toContain('Turn 2 · xavier (X) vs olive (O) · olive to move.');
      const script = /data-game-script="([^"]+)"/.exec(html)?.[1];
      expect(script).toMatch(/^\/watch\/games\/noughts\.js\?v=/);
      const served = await h.http.get(script!).expect(200);
      expect(served.headers['content-type']).toMatch(/javascript/);
      const { default: watch } = (await import(moduleOf('noughts')!.watch.script.href)) as { default: WatchScript };
      const { createNarrator } = await import('../../src/http/watch/words.js');
      const say = createNarrator({ words: watch.words, cardName: () => undefined, seatLabel: (s) => (s === 'p1' ? 'xavier' : 'olive') });
      const events = (await h.http.get(`/v1/matches/${m.id}/events`).expect(200)).body.events;
      expect(events.map(say).filter(Boolean)).toEqual(['Game on: xavier goes first', 'xavier marks b2']);
    });

    it('plays over GraphQL: its own Match type and types, its hidden card to its seat only, a typed action whose `cell` it shares with Evons', async () => {
      const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
        const res = await graphqlRequest(h, query, variables, token).expect(200);
        expect(res.body.errors).toBeUndefined();
        return res.body.data;
      };
      const MATCH = `query($id: ID!) { match(id: $id) { __typename gameId cardSetId config pendingDecision { kind seat }
        ... on NoughtsMatch { toMove grid { cell mark } hand { card value name } revealed { p1 { card } p2 { card } } result { winner reason } } } }`;
      const m = await create();
      const p1 = (await gql(MATCH, { id: m.id }, m.tokens.p1)).match;
      expect(p1).toMatchObject({
        __typename: 'NoughtsMatch',
        gameId: 'noughts',
        config: { firstSeat: 'p1' },
        toMove: 'p1',
        revealed: null,
        result: null,
      });
      expect(p1.pendingDecision).toEqual({ kind: 'play', seat: 'p1' });
      // The envelope's fields are REST's (test/graphql/contract-agreement.test.ts): cardSetId as MatchView has it.
      expect(p1.cardSetId).toBe((await h.http.get(`/v1/matches/${m.id}`).expect(200)).body.cardSetId);
      expect(p1.cardSetId).toEqual(expect.any(String));
      expect(p1.grid).toHaveLength(9);
      expect(p1.hand).toEqual({ card: `n${p1.hand.value}`, value: p1.hand.value, name: `Number ${p1.hand.value}` });
      const spectator = (await gql(MATCH, { id: m.id })).match;
      expect(spectator).toMatchObject({ hand: null, revealed: null });
      const MOVE = `mutation($id: ID!, $cell: String!) { submitAction(matchId: $id, input: { type: "play", cell: $cell }) {
        version match { ... on NoughtsMatch { toMove grid { cell mark } } } } }`;
      const moved = (await gql(MOVE, { id: m.id, cell: 'b2' }, m.tokens.p1)).submitAction;
      expect(moved.match.toMove).toBe('p2');
      expect(moved.match.grid.find((c: { cell: string }) => c.cell === 'b2')).toEqual({ cell: 'b2', mark: 'p1' });
      // Its events through GraphQL, each in its envelope: its own MatchEnded is the game's.
      await gql(`mutation($id: ID!) { submitAction(matchId: $id, input: { type: "resign" }) { version } }`, { id: m.id }, m.tokens.p2);
      const EVENTS = `query($id: ID!) { match(id: $id) { events { events { seq source type } } } }`;
      const events = (await gql(EVENTS, { id: m.id })).match.events.events as { source: string; type: string }[];
      expect(events.at(-1)).toMatchObject({ source: 'match', type: 'MatchEnded' });
      expect(events.filter((e) => e.source === 'game').map((e) => e.type)).toContain('MarkPlaced');
    });

    it('draws its picture, for each viewer its own', async () => {
      const m = await create();
      const svgOf = async (token?: string) => {
        const req = h.http.get(`/v1/matches/${m.id}/board.svg`).buffer(true).parse(binary);
        return ((await (token ? req.set(bearer(token)) : req).expect(200)).body as Buffer).toString('utf8');
      };
      const svg = await svgOf(m.tokens.p1);
      expect(svg).toContain('Noughts');
      expect(svg).toMatch(/Your card: \d/);
      const spectator = await svgOf();
      expect(spectator).not.toMatch(/Your card/);
      const png = await h.http.get(`/v1/matches/${m.id}/board.png`).expect(200);
      expect(png.headers['content-type']).toBe('image/png');
    });
  });
}
