/**
 * Standings are paged (issue 33): at most 100 rows per answer, cursor → nextCursor, over REST and
 * GraphQL; the crosstable only for a field that fits one page (the CSV has every result); the
 * CSV is charged by its cells. A 1,000-player field's standings were 3.1 MB per request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { workCost } from '../../../src/service/work-costs.js';
import { bearer, expectProblem, graphqlRequest, pglite, registerPlayer, useHarness } from '../helpers.js';

const CORR = { kind: 'correspondence', daysPerMove: 3 };
/** The CSV of 103 players over 3 rounds; a client may build three a minute. */
const CSV_COST = workCost.standingsCsv(103, 3);

describe('tournament standings, paged (PGlite)', () => {
  const h = useHarness(pglite, { budgets: { workPerMinute: 3 * CSV_COST, workPerAddressPerMinute: 0 } });
  let id = '';
  const handles: string[] = [];

  beforeAll(async () => {
    const org = (await h.http.post('/v1/players').send({ handle: 'big-org' }).expect(201)).body.token as string;
    id = (
      await h.http
        .post('/v1/tournaments')
        .set(bearer(org))
        .send({ name: 'Big open', format: 'swiss', rounds: 3, timeControl: CORR, maxPlayers: 200 })
        .expect(201)
    ).body.id;
    for (let i = 0; i < 103; i++) {
      const handle = `entrant-${String(i).padStart(3, '0')}`;
      const token = (await h.http.post('/v1/players').send({ handle }).expect(201)).body.token as string;
      await h.http.post(`/v1/tournaments/${id}/join`).set(bearer(token)).send({}).expect(200);
      handles.push(handle);
    }
  }, 120_000);

  it('REST: 100 rows, then the rest from nextCursor; no crosstable past 100 players', async () => {
    // A client of its own: each test spends its own budget (pages are charged by their rows).
    const pager = await registerPlayer(h.http, 'pager');
    const first = (await h.http.get(`/v1/tournaments/${id}/standings`).set(bearer(pager.token)).expect(200)).body;
    expect(first.standings).toHaveLength(100);
    expect(first.crosstable).toBeNull();
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await h.http.get(`/v1/tournaments/${id}/standings?cursor=${first.nextCursor}`).set(bearer(pager.token)).expect(200))
      .body;
    expect(second.standings).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    const seen = [...first.standings, ...second.standings].map((r: { handle: string }) => r.handle);
    expect(seen.sort()).toEqual([...handles].sort());
    const small = (await h.http.get(`/v1/tournaments/${id}/standings?limit=40`).set(bearer(pager.token)).expect(200)).body;
    expect(small.standings).toEqual(first.standings.slice(0, 40));
    expectProblem(await h.http.get(`/v1/tournaments/${id}/standings?limit=101`).set(bearer(pager.token)), 400, 'validation-failed');
    expectProblem(await h.http.get(`/v1/tournaments/${id}/standings?cursor=bm9wZQ`).set(bearer(pager.token)), 400, 'invalid-cursor');
  });

  it('GraphQL: the same pages', async () => {
    const pager = await registerPlayer(h.http, 'pager');
    const q =
      'query($id: ID!, $cursor: String) { tournamentStandings(id: $id, cursor: $cursor) { nextCursor standings { handle } crosstable { players } } }';
    const a = (await graphqlRequest(h, q, { id }, pager.token).expect(200)).body.data.tournamentStandings;
    expect(a.standings).toHaveLength(100);
    expect(a.crosstable).toBeNull();
    const b = (await graphqlRequest(h, q, { id, cursor: a.nextCursor }, pager.token).expect(200)).body.data.tournamentStandings;
    expect(b.standings).toHaveLength(3);
    expect(b.nextCursor).toBeNull();
  });

  it('the CSV (every row at once) is charged by its cells: three fit a budget of three, the fourth is 429', async () => {
    // A client of its own (a registered player's token), whose budget the pages above did not spend.
    const reader = await registerPlayer(h.http, 'csv-reader');
    for (let i = 0; i < 3; i++) {
      const csv = await h.http.get(`/v1/tournaments/${id}/standings.csv`).set(bearer(reader.token)).expect(200);
      expect(csv.text.trim().split('\r\n')).toHaveLength(104);
    }
    const refused = await h.http.get(`/v1/tournaments/${id}/standings.csv`).set(bearer(reader.token));
    expectProblem(refused, 429, 'rate-limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
