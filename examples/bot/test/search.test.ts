/**
 * The search strategy (level:N, src/ai's decide) and the bot on both games: what the bot hands the
 * search is what the server's computer is handed for the same seat (MatchService.aiJob); the
 * search plays Evons in the engine arena and through the API; the bot plays a UniVersus match to
 * its end on the real service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvonsClient, type MatchEvent, type Seat } from '../../../clients/typescript/src/index.js';
import { serve, type Served } from '../../../clients/typescript/test/server.js';
import { decide } from '../../../src/ai/index.js';
import { playableGame } from '../../../src/service/ai/games.js';
import { playInEngine, STARTER_IDS } from '../arena.js';
import { playMatch } from '../play.js';
import { greedy, level, random, searchInput } from '../strategies.js';
import { perGame, type AnyStrategy, type Observation } from '../strategy.js';

/** Whole matches through the API on a loaded machine: a bound on a hang, not a speed check. */
const MATCH_TIMEOUT_MS = 240_000;

const DECKS = {
  evons: [{ starter: 'starter-storm-shade' }, { starter: 'starter-ember-tide' }],
  universus: [{ starter: 'scouts' }, { starter: 'garrison' }],
} as const;

/** A match of `game` between two fresh clients, p1 and p2. */
async function newMatch(baseUrl: string, game: 'evons' | 'universus') {
  const clients = { p1: new EvonsClient({ baseUrl }), p2: new EvonsClient({ baseUrl }) };
  const created = await clients.p1.createMatch({
    ...(game === 'universus' ? { game } : {}),
    openSeat: true,
    decks: { p1: DECKS[game][0] },
  });
  await clients.p2.joinMatch(created.id, { deck: DECKS[game][1] });
  return { id: created.id, clients };
}

/** What the bot reads for the seat of `client` (as SeatPlayer does): its view, legal actions and whole log. */
async function observe(client: EvonsClient, id: string): Promise<Observation<unknown, { type: string }>> {
  const m = await client.getMatch(id);
  const legal = await client.legalActions(id);
  const events: MatchEvent[] = [];
  for (let page = await client.eventPage(id, { after: 0 }); ; page = await client.eventPage(id, { after: page.next })) {
    events.push(...page.events);
    if (!page.hasMore) break;
  }
  return { game: m.gameId, view: m.game, legal: legal.actions.map((a) => a.action), events };
}

describe('the search strategy and the bot on both games, on the real service', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => {
    await s?.close();
  });

  for (const game of ['evons', 'universus'] as const) {
    it(`${game}: what the bot hands the search is what the server's computer gets for that seat`, async () => {
      const { id, clients } = await newMatch(s.baseUrl, game);
      // Some decisions in, so the log holds more than the setup (draws, plays, hidden cards).
      const dice = { p1: random(`input:${game}:p1`), p2: random(`input:${game}:p2`) };
      for (let i = 0; i < 12; i++) {
        const m = await clients.p1.getMatch(id);
        const seat = m.game?.pending?.seat as Seat | undefined;
        if (m.status !== 'active' || !seat) break;
        const o = await observe(clients[seat], id);
        await clients[seat].act(id, dice[seat].choose(o) as never, { version: m.version });
      }
      const m = await clients.p1.getMatch(id);
      expect(m.status).toBe('active');
      const seat = m.game!.pending!.seat as Seat;
      const mine = searchInput(await observe(clients[seat], id));

      const entry = await s.app.service.loader.current(id);
      const job = await s.app.service.aiJob(entry, seat, 3);
      // As src/service/ai/decide.ts hands the job to the search; through JSON, as the API sends it.
      const server = JSON.parse(
        JSON.stringify({
          view: job.view,
          seat: job.seat,
          legal: job.legal,
          events: job.events.filter((e) => e.source === 'game').map((e) => e.event),
        }),
      );
      expect(mine).toStrictEqual(server);
      expect(mine.events.length).toBeGreaterThan(10);
      // And so the same decision at every level's kind of search (greedy, IS-MCTS).
      const g = playableGame(game)!;
      for (const n of [1, 3] as const) expect(decide(g, mine, n, 'same')).toEqual(decide(g, server, n, 'same'));
      // The other seat's input is its own: not this one (a wrong token would give the wrong view).
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      expect(searchInput({ ...(await observe(clients[other], id)), legal: [...mine.legal] }).seat).toBe(other);
    });
  }

  it(
    'UniVersus: the bot (greedy for Evons, the search for the rest) plays a match to its end against a scripted opponent',
    async () => {
      const { id, clients } = await newMatch(s.baseUrl, 'universus');
      const bot = perGame([greedy('uv:bot'), level(1)('uv:bot')]);
      // The scripted opponent: the first legal action that is not a pass, else the first.
      const scripted: AnyStrategy = {
        name: 'scripted',
        games: ['universus'],
        choose: ({ legal }) => legal.find((a) => a.type !== 'PassCombat') ?? legal[0]!,
      };
      const moves = { bot: 0, scripted: 0 };
      const [fb, fs] = await Promise.all([
        playMatch(clients.p1, id, bot, { onDecision: () => moves.bot++ }),
        playMatch(clients.p2, id, scripted, { onDecision: () => moves.scripted++ }),
      ]);
      expect(fb.status).toBe('finished');
      expect(fs.winner).toBe(fb.winner);
      expect(fb.gameId).toBe('universus');
      expect(fb.outcome?.reason).not.toBe('resign');
      expect(moves.bot).toBeGreaterThan(0);
      expect(moves.scripted).toBeGreaterThan(0);
    },
    MATCH_TIMEOUT_MS,
  );

  it(
    'Evons: level:1 plays a match to its end through the API (the server refuses any illegal action)',
    async () => {
      const { id, clients } = await newMatch(s.baseUrl, 'evons');
      const moves = { search: 0, random: 0 };
      const [fa, fb] = await Promise.all([
        playMatch(clients.p1, id, level(1)('api:search'), { onDecision: () => moves.search++ }),
        playMatch(clients.p2, id, random('api:random'), { onDecision: () => moves.random++ }),
      ]);
      expect(fa.status).toBe('finished');
      expect(fb.winner).toBe(fa.winner);
      expect(moves.search).toBeGreaterThan(0);
      expect(moves.random).toBeGreaterThan(0);
    },
    MATCH_TIMEOUT_MS,
  );

  it('a strategy is not handed a game it does not play', async () => {
    const { id, clients } = await newMatch(s.baseUrl, 'universus');
    const m = await clients.p1.getMatch(id);
    const seat = m.game!.pending!.seat as Seat;
    await expect(playMatch(clients[seat], id, greedy('uv'))).rejects.toThrow(/is a game of universus; greedy plays evons/);
    expect((await clients.p1.getMatch(id)).version).toBe(m.version);
  });
});

describe('the search strategy in the Evons engine arena', () => {
  const MATCHES = 6;
  it(`level:1 beats random in at least ${MATCHES - 1} of ${MATCHES} matches, from either seat, choosing only legal actions`, () => {
    const won: Record<Seat, number> = { p1: 0, p2: 0 };
    for (let i = 0; i < MATCHES; i++) {
      const seat: Seat = i % 2 === 0 ? 'p1' : 'p2';
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const search = level(1)(`arena:${i}`);
      const checked: AnyStrategy = {
        name: search.name,
        games: search.games,
        choose(o) {
          const a = search.choose(o);
          expect(o.legal).toContainEqual(a);
          return a;
        },
      };
      const players = { [seat]: checked, [other]: random(`arena:r:${i}`) } as Record<Seat, AnyStrategy>;
      const r = playInEngine(players, { seed: `search-${i}`, decks: { p1: STARTER_IDS[i % 3]!, p2: STARTER_IDS[(i + 1) % 3]! } });
      if (r.winner === seat) won[seat]++;
    }
    expect(won.p1 + won.p2).toBeGreaterThanOrEqual(MATCHES - 1);
    expect(won.p2).toBeGreaterThan(0);
  });

  it('the same seed and position give the same decision', () => {
    const play = () =>
      playInEngine(
        { p1: level(2)('same'), p2: random('same:r') },
        { seed: 'same-search', decks: { p1: STARTER_IDS[0]!, p2: STARTER_IDS[1]! } },
      );
    expect(play()).toEqual(play());
  });
});
