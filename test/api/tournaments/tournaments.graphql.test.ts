/**
 * Tournaments over GraphQL (issue 25) on both databases: the same service, request schemas, scopes
 * and problem codes as /v1/tournaments. Create, enter, withdraw, start, play to the finish, read the
 * tournament, the list and the standings; every answer equals the REST answer for the same
 * tournament, holds no deck and no token; each refusal has REST's code and status.
 */
import { describe, expect, it } from 'vitest';
import {
  backends,
  bearer,
  expectProblem,
  graphqlRequest,
  type RegisteredPlayer,
  registerPlayer,
  STARTERS,
  useHarness,
} from '../helpers.js';
import { StandingsSchema, TournamentSchema } from '../../../src/http/routes/tournaments.js';

const BOARD = 'board p1 p2 matchId result forfeit';
/** Every field of Tournament. */
const TOURNAMENT = `id name organizer game format rounds timeControl { kind daysPerMove initialSeconds incrementSeconds } rated deckRule maxPlayers invited entryClosesAt startsAt roundHours
  status seed round roundEndsAt createdAt startedAt finishedAt players { handle bot rating withdrawn } pairings { round boards { ${BOARD} } }`;
const STANDINGS =
  'tournamentId status round final standings { rank handle points games byes buchholz sonnebornBerger directEncounter withdrawn } nextCursor crosstable { players points cells }';
const CORR = { kind: 'correspondence', daysPerMove: 3 };

type P = RegisteredPlayer;
/**
 * The REST shape of GraphQL tournaments (one, or a page): the typed TimeControl has every clock's
 * fields, null where this clock has none; REST's leaves them out. Every other field is compared as is.
 */
function restShape<T>(v: T): T {
  if (Array.isArray(v)) return v.map(restShape) as T;
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      k === 'timeControl' ? Object.fromEntries(Object.entries(x as object).filter(([, y]) => y !== null)) : restShape(x),
    ]),
  ) as T;
}

type Gql = {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions: { code: string; status: number } }[] };
};

/** A GraphQL answer's one field, with no error beside it. */
function dataOf<T = Record<string, unknown>>(res: Gql, field: string): T {
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return restShape(res.body.data![field] as T);
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== null)(`tournaments over GraphQL [${backend.name}]`, () => {
    const h = useHarness(backend);
    const gql = (query: string, variables: Record<string, unknown> = {}, token?: string) =>
      graphqlRequest(h, query, variables, token) as unknown as Promise<Gql>;
    const rest = async (id: string) => TournamentSchema.parse((await h.http.get(`/v1/tournaments/${id}`).expect(200)).body);
    const restStandings = async (id: string) =>
      StandingsSchema.parse((await h.http.get(`/v1/tournaments/${id}/standings`).expect(200)).body);
    const read = async (id: string) =>
      dataOf(await gql(`query ($id: ID!) { tournament(id: $id) { ${TOURNAMENT} } }`, { id }), 'tournament');
    const standings = async (id: string) =>
      dataOf(await gql(`query ($id: ID!) { tournamentStandings(id: $id) { ${STANDINGS} } }`, { id }), 'tournamentStandings');
    const join = (id: string, p: P, deck?: unknown) =>
      gql(`mutation ($id: ID!, $deck: DeckInput) { joinTournament(id: $id, deck: $deck) { ${TOURNAMENT} } }`, { id, deck }, p.token);
    const run = (mutation: string, id: string, p: P) =>
      gql(`mutation ($id: ID!) { ${mutation}(id: $id) { ${TOURNAMENT} } }`, { id }, p.token);

    it('create, join, start, play, read, list and standings answer what REST answers, with no deck and no token', async () => {
      const org = await registerPlayer(h.http, 'gto');
      const [a, b, c] = [await registerPlayer(h.http, 'gta'), await registerPlayer(h.http, 'gtb'), await registerPlayer(h.http, 'gtc')];
      const tokens = [org, a, b, c].map((p) => p.token);
      const decks = (await h.http.get('/v1/decks').expect(200)).body.decks as { id: string; cards: { card: string; count: number }[] }[];
      const list = { cards: decks.find((d) => d.id === STARTERS[2])!.cards };
      /** No answer may hold a deck (a starter id, a card list's label) or a token. */
      const assertClean = (label: string, text: string) => {
        for (const x of [...STARTERS, 'custom-', ...tokens]) expect(text.includes(x), `${label} holds ${x.slice(0, 12)}…`).toBe(false);
      };

      const created = await gql(
        `mutation ($input: CreateTournamentInput!) { createTournament(input: $input) { ${TOURNAMENT} } }`,
        {
          input: { name: 'GraphQL Cup', format: 'swiss', rounds: 2, timeControl: CORR, deckRule: 'any', maxPlayers: 8 },
        },
        org.token,
      );
      const t = dataOf<{ id: string; status: string; organizer: string }>(created, 'createTournament');
      expect(t).toMatchObject({ status: 'open', organizer: org.handle });
      expect(t).toEqual(await rest(t.id));

      // Three entries: a starter, a card list, the default deck. Each answer is the tournament as anyone sees it.
      const answers: [string, string][] = [['create', JSON.stringify(created.body)]];
      for (const [p, deck] of [
        [a, { starter: STARTERS[1] }],
        [b, list],
        [c, undefined],
      ] as const) {
        const res = await join(t.id, p, deck);
        expect(dataOf(res, 'joinTournament')).toEqual(await rest(t.id));
        answers.push([`join of ${p.handle}`, JSON.stringify(res.body)]);
      }
      expect(((await read(t.id)) as { players: { handle: string }[] }).players.map((p) => p.handle)).toEqual([
        a.handle,
        b.handle,
        c.handle,
      ]);

      // A withdrawal before the start, and a cancel, on a second tournament.
      const other = dataOf<{ id: string }>(
        await gql(
          `mutation { createTournament(input: { name: "Spare", format: "round-robin", timeControl: { kind: "live", initialSeconds: 300, incrementSeconds: 2 } }) { id } }`,
          {},
          org.token,
        ),
        'createTournament',
      );
      await join(other.id, a);
      const withdrawn = await run('withdrawFromTournament', other.id, a);
      expect(dataOf(withdrawn, 'withdrawFromTournament')).toMatchObject({ players: [] });
      const canceled = await run('cancelTournament', other.id, org);
      expect(dataOf(canceled, 'cancelTournament')).toMatchObject({ status: 'canceled' });
      answers.push(['withdraw', JSON.stringify(withdrawn.body)], ['cancel', JSON.stringify(canceled.body)]);

      const started = await run('startTournament', t.id, org);
      const v = dataOf<{
        status: string;
        round: number;
        pairings: { round: number; boards: { p1: string; p2: string | null; matchId: string | null }[] }[];
      }>(started, 'startTournament');
      expect(v).toMatchObject({ status: 'running', round: 1 });
      expect(v.pairings[0]!.boards).toHaveLength(2);
      expect(v.pairings[0]!.boards.filter((x) => x.p2 === null)).toHaveLength(1);
      expect(v).toEqual(await rest(t.id));
      answers.push(['start', JSON.stringify(started.body)]);

      // Both rounds played: the p2 seat of each match resigns; the sweep starts the next round, then finishes.
      const token = new Map([a, b, c].map((p) => [p.handle, p.token]));
      for (let round = 1; round <= 2; round++) {
        const now = (await read(t.id)) as typeof v;
        for (const x of now.pairings[round - 1]!.boards) {
          if (x.matchId === null) continue;
          await h.http
            .post(`/v1/matches/${x.matchId}/actions`)
            .set(bearer(token.get(x.p2!)!))
            .send({ action: { type: 'resign' } })
            .expect(200);
        }
        await h.app.service.tournaments.sweep();
        expect(await read(t.id)).toEqual(await rest(t.id));
        const s = await standings(t.id);
        expect(s).toEqual(await restStandings(t.id));
        answers.push([`standings after round ${round}`, JSON.stringify(s)]);
      }
      const final = (await standings(t.id)) as { final: boolean; status: string; standings: { points: number }[] };
      expect(final).toMatchObject({ final: true, status: 'finished' });
      expect(final.standings.reduce((sum, r) => sum + r.points, 0)).toBe(4);

      // The list pages as GET /v1/tournaments does, with the same entries.
      const page = (args: string) => gql(`{ tournaments(${args}) { tournaments { ${TOURNAMENT} } nextCursor } }`);
      const first = dataOf<{ tournaments: { id: string }[]; nextCursor: string | null }>(await page('limit: 1'), 'tournaments');
      expect(first).toEqual((await h.http.get('/v1/tournaments?limit=1').expect(200)).body);
      expect(first.nextCursor).not.toBeNull();
      const second = dataOf<{ tournaments: { id: string }[] }>(await page(`limit: 1, cursor: "${first.nextCursor}"`), 'tournaments');
      expect(second).toEqual((await h.http.get(`/v1/tournaments?limit=1&cursor=${first.nextCursor}`).expect(200)).body);
      expect(new Set([...first.tournaments, ...second.tournaments].map((x) => x.id))).toEqual(new Set([t.id, other.id]));
      for (const status of ['finished', 'canceled', 'open'] as const) {
        const byStatus = dataOf(await page(`status: ${status}`), 'tournaments');
        expect(byStatus).toEqual((await h.http.get(`/v1/tournaments?status=${status}`).expect(200)).body);
        answers.push([`list of ${status}`, JSON.stringify(byStatus)]);
      }
      for (const [label, text] of answers) assertClean(label, text);
    });

    it('refuses with the codes and statuses REST has', async () => {
      const org = await registerPlayer(h.http, 'gte');
      const [a, b, c] = [await registerPlayer(h.http, 'gtf'), await registerPlayer(h.http, 'gtg'), await registerPlayer(h.http, 'gth')];
      /** The REST refusal and the GraphQL one: the same stable code and status. */
      const same = async (
        restRes: Promise<{ status: number; headers: Record<string, string>; body: unknown }>,
        gqlRes: Promise<Gql>,
        status: number,
        code: string,
      ) => {
        expectProblem(await restRes, status, code);
        const g = await gqlRes;
        expect(g.body.errors, JSON.stringify(g.body)).toHaveLength(1);
        expect(g.body.errors![0]!.extensions).toMatchObject({ code, status });
      };
      const post = (path: string, p: P | null, body: unknown = {}) => {
        const r = h.http.post(path).send(body as object);
        return p ? r.set(bearer(p.token)) : r;
      };
      const create = (input: Record<string, unknown>, p: P | null = org) =>
        gql(
          'mutation ($input: CreateTournamentInput!) { createTournament(input: $input) { id } }',
          { input: { timeControl: CORR, ...input } },
          p?.token,
        );

      // The input is judged by REST's schema, and after it the token.
      await same(
        post('/v1/tournaments', null, { name: 'x', format: 'swiss', rounds: 3, timeControl: CORR }),
        create({ name: 'x', format: 'swiss', rounds: 3, timeControl: CORR }, null),
        401,
        'missing-token',
      );
      await same(
        post('/v1/tournaments', org, { name: 'x', format: 'swiss', timeControl: CORR }),
        create({ name: 'x', format: 'swiss', timeControl: CORR }),
        400,
        'validation-failed',
      );
      await same(
        post('/v1/tournaments', org, { name: 'x', format: 'swiss', rounds: 2, timeControl: { kind: 'none' } }),
        create({ name: 'x', format: 'swiss', rounds: 2, timeControl: { kind: 'none' } }),
        400,
        'validation-failed',
      );
      await same(
        post('/v1/tournaments', org, { name: ' ', format: 'knockout', timeControl: CORR }),
        create({ name: ' ', format: 'knockout', timeControl: CORR }),
        400,
        'validation-failed',
      );

      // An id that is no tournament's: not found; one that could never be one (a NUL byte, no tn_): 400, not a 500.
      const one = (field: string, id: string) => gql(`query ($id: ID!) { ${field}(id: $id) { __typename } }`, { id });
      await same(h.http.get('/v1/tournaments/tn_nope'), one('tournament', 'tn_nope'), 404, 'tournament-not-found');
      await same(h.http.get('/v1/tournaments/tn_nope/standings'), one('tournamentStandings', 'tn_nope'), 404, 'tournament-not-found');
      await same(h.http.get('/v1/tournaments/bad%00id'), one('tournament', 'bad\u0000id'), 400, 'validation-failed');
      await same(h.http.get('/v1/tournaments/ch_x/standings'), one('tournamentStandings', 'ch_x'), 400, 'validation-failed');
      await same(post('/v1/tournaments/tn_nope/join', a), join('tn_nope', a), 404, 'tournament-not-found');
      await same(post('/v1/tournaments/tn_nope/start', org), run('startTournament', 'tn_nope', org), 404, 'tournament-not-found');
      await same(h.http.get('/v1/tournaments?limit=0'), gql('{ tournaments(limit: 0) { nextCursor } }'), 400, 'validation-failed');
      await same(
        h.http.get('/v1/tournaments?cursor=garbage'),
        gql('{ tournaments(cursor: "garbage") { nextCursor } }'),
        400,
        'invalid-cursor',
      );

      const t = dataOf<{ id: string }>(
        await create({ name: 'Strict', format: 'swiss', rounds: 2, maxPlayers: 2, invited: [a.handle, b.handle] }),
        'createTournament',
      ).id;
      await same(post(`/v1/tournaments/${t}/join`, c), join(t, c), 403, 'not-invited');
      dataOf(await join(t, a), 'joinTournament');
      await same(post(`/v1/tournaments/${t}/join`, a), join(t, a), 409, 'already-entered');
      await same(post(`/v1/tournaments/${t}/start`, a), run('startTournament', t, a), 403, 'not-organizer');
      await same(post(`/v1/tournaments/${t}/cancel`, a), run('cancelTournament', t, a), 403, 'not-organizer');
      await same(post(`/v1/tournaments/${t}/start`, org), run('startTournament', t, org), 409, 'too-few-players');
      await same(post(`/v1/tournaments/${t}/join`, b, { deck: { cards: [] } }), join(t, b, { cards: [] }), 400, 'validation-failed');
      // A starter-only tournament refuses a card list, as REST does.
      const decks = (await h.http.get('/v1/decks').expect(200)).body.decks as { id: string; cards: unknown }[];
      const cards = { cards: decks[0]!.cards };
      await same(post(`/v1/tournaments/${t}/join`, b, { deck: cards }), join(t, b, cards), 400, 'validation-failed');
      dataOf(await join(t, b), 'joinTournament');
      await same(post(`/v1/tournaments/${t}/join`, c), join(t, c), 403, 'not-invited');
      const open = dataOf<{ id: string }>(
        await create({ name: 'Small', format: 'swiss', rounds: 2, maxPlayers: 2 }),
        'createTournament',
      ).id;
      dataOf(await join(open, a), 'joinTournament');
      dataOf(await join(open, b), 'joinTournament');
      await same(post(`/v1/tournaments/${open}/join`, c), join(open, c), 409, 'tournament-full');
      await same(post(`/v1/tournaments/${open}/withdraw`, c), run('withdrawFromTournament', open, c), 409, 'not-entered');
      dataOf(await run('cancelTournament', open, org), 'cancelTournament');
      await same(post(`/v1/tournaments/${open}/join`, c), join(open, c), 409, 'tournament-closed');
      await same(post(`/v1/tournaments/${open}/start`, org), run('startTournament', open, org), 409, 'tournament-closed');
    });
  });
}
