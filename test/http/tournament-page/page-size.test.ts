/**
 * The public page of a large tournament stays small (issue 33): 1,000 players and ten rounds of
 * 500 boards were 20.9 MB of HTML. A page holds at most 100 standings rows and 100 boards of one
 * round, with links to the other pages and rounds; no crosstable past 32 players (the CSV has it).
 */
import { describe, expect, it } from 'vitest';
import type { StandingsView, TournamentView } from '../../../src/service/tournaments/tournament-views.js';
import { CROSSTABLE_MAX_PLAYERS, PAGE_ROWS, tournamentPage } from '../../../src/http/tournament-page/page.js';

function large(players: number, rounds: number): { tournament: TournamentView; standings: StandingsView } {
  const handles = Array.from({ length: players }, (_, i) => `player-${String(i).padStart(4, '0')}`);
  const pairings = Array.from({ length: rounds }, (_, r) => ({
    round: r + 1,
    boards: Array.from({ length: players / 2 }, (_, b) => ({
      board: b + 1,
      p1: handles[(2 * b + r) % players]!,
      p2: handles[(2 * b + 1 + r) % players]!,
      matchId: `m${r}x${b}aaaaaaaaaaaaaaaa`,
      result: 'p1' as const,
      forfeit: false,
    })),
  }));
  const tournament = {
    id: 'tn_large',
    name: 'The large one',
    organizer: 'org',
    game: 'evons',
    format: 'swiss',
    rounds,
    timeControl: { kind: 'correspondence', daysPerMove: 3 },
    rated: false,
    deckRule: 'any',
    maxPlayers: 1000,
    invited: [],
    entryClosesAt: null,
    startsAt: null,
    roundHours: 72,
    status: 'finished',
    seed: 'ab'.repeat(32),
    round: rounds,
    roundEndsAt: null,
    createdAt: '2026-12-01T00:00:00.000Z',
    startedAt: '2026-12-01T00:00:00.000Z',
    finishedAt: '2026-12-05T00:00:00.000Z',
    players: handles.map((handle) => ({ handle, bot: false, rating: 1500, withdrawn: false })),
    pairings,
  } as unknown as TournamentView;
  const standings: StandingsView = {
    tournamentId: 'tn_large',
    status: 'finished',
    round: rounds,
    final: true,
    standings: handles.map((handle, i) => ({
      rank: i + 1,
      handle,
      points: 5,
      directEncounter: 0,
      buchholz: 25,
      sonnebornBerger: 12.5,
      games: rounds,
      byes: 0,
      withdrawn: false,
    })) as unknown as StandingsView['standings'],
    crosstable: { players: handles, points: handles.map(() => 5), cells: handles.map(() => handles.map(() => ['1'])) },
  };
  return { tournament, standings };
}

const rowsOf = (html: string, table: string) =>
  (html.split(`<table class="${table}">`)[1]?.split('</table>')[0] ?? '').split('<tr').length - 2;

describe('the tournament page of 1,000 players', () => {
  const data = large(1000, 10);

  it('is at most 300 KB, with 100 standings rows and 100 boards of the latest round', () => {
    const html = tournamentPage({ ...data, css: '/x.css' });
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(300 * 1024);
    expect(rowsOf(html, 'standings')).toBe(PAGE_ROWS);
    expect(rowsOf(html, 'boards')).toBe(PAGE_ROWS);
    expect(html).toContain('<h3 id="round-10">');
    expect(html).not.toContain('<h3 id="round-9">');
    expect(html).not.toContain('<table class="crosstable">');
    expect(html).toContain('/v1/tournaments/tn_large/standings.csv');
    expect(html).toContain('<span>Page 1 of 10</span>');
    expect(html).toContain('<a rel="next" href="/tournament/tn_large?standings=2">Next</a>');
    expect(html).toContain('<a href="/tournament/tn_large?round=3">3</a>');
  });

  it('shows the part asked for: standings page 10, round 3 boards page 5 (and a page past the end shows the last)', () => {
    const html = tournamentPage({ ...data, css: '/x.css', part: { standings: 10, round: 3, boards: 99 } });
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(300 * 1024);
    const standings = html.split('<table class="standings">')[1]!.split('</table>')[0]!;
    expect(standings).toContain('player-0999');
    expect(standings).not.toContain('player-0899<');
    expect(html).toContain('<h3 id="round-3">');
    expect(html).toContain('<span>Page 5 of 5</span>');
    expect(html).toContain('<strong aria-current="page">3</strong>');
  });

  it(`draws the crosstable up to ${CROSSTABLE_MAX_PLAYERS} players, and every round when the boards fit one page`, () => {
    const small = large(CROSSTABLE_MAX_PLAYERS, 3);
    const html = tournamentPage({ ...small, css: '/x.css' });
    expect(html).toContain('<table class="crosstable">');
    for (const r of [1, 2, 3]) expect(html).toContain(`<h3 id="round-${r}">`);
    expect(html).not.toContain('class="pager"');
  });
});
