/**
 * Standings and tiebreaks against hand-computed tables (the arithmetic is written out beside
 * each expectation).
 */
import { describe, expect, it } from 'vitest';
import { crosstable, scores, standings, DEFAULT_SCORING, type RoundResults } from '../../src/tournaments/pairing/index.js';

// Five players, three rounds, one bye a round.
//   R1: A beats B; C draws D; E bye.
//   R2: E beats A; B beats C; D bye.
//   R3: C draws E; A beats D (A in the second seat); B bye.
const FIVE: RoundResults[] = [
  [{ p1: 'A', p2: 'B', outcome: 'p1' }, { p1: 'C', p2: 'D', outcome: 'draw' }, { bye: 'E' }],
  [{ p1: 'E', p2: 'A', outcome: 'p1' }, { p1: 'B', p2: 'C', outcome: 'p1' }, { bye: 'D' }],
  [{ p1: 'C', p2: 'E', outcome: 'draw' }, { p1: 'D', p2: 'A', outcome: 'p2' }, { bye: 'B' }],
];
const PLAYERS = ['A', 'B', 'C', 'D', 'E'];

describe('standings', () => {
  it('points: win 1, draw ½, bye 1 by default', () => {
    // A 1+0+1, B 0+1+bye, C ½+0+½, D ½+bye+0, E bye+1+½
    expect(Object.fromEntries(scores(FIVE))).toEqual({ A: 2, B: 2, C: 1, D: 1.5, E: 2.5 });
  });

  it('ranks by points, then direct encounter, with Buchholz and Sonneborn-Berger computed by hand', () => {
    const rows = standings(PLAYERS, FIVE);
    expect(rows.map((r) => r.player)).toEqual(['E', 'A', 'B', 'D', 'C']);
    const by = Object.fromEntries(rows.map((r) => [r.player, r]));
    // Buchholz: A met B 2, E 2.5, D 1.5 = 6; B met A 2, C 1 = 3 (its bye adds nothing);
    // C met D 1.5, B 2, E 2.5 = 6; D met C 1, A 2 = 3; E met A 2, C 1 = 3.
    expect(rows.map((r) => [r.player, r.buchholz])).toEqual([
      ['E', 3],
      ['A', 6],
      ['B', 3],
      ['D', 3],
      ['C', 6],
    ]);
    // Sonneborn-Berger: A 1×2 (B) + 0 + 1×1.5 (D) = 3.5; B 1×1 (C) = 1; C ½×1.5 + 0 + ½×2.5 = 2;
    // D ½×1 = 0.5; E 1×2 (A) + ½×1 (C) = 2.5.
    expect(Object.fromEntries(rows.map((r) => [r.player, r.sonnebornBerger]))).toEqual({ A: 3.5, B: 1, C: 2, D: 0.5, E: 2.5 });
    // A and B share 2 points and met once: A won, so A is ahead although B's bye gave the same points.
    expect([by.A!.directEncounter, by.B!.directEncounter]).toEqual([1, 0]);
    expect(by.A!.rank).toBe(2);
    expect(by.B!.byes).toBe(1);
    expect(by.B!.games).toBe(2);
  });

  it('scoring is a parameter: a half-point bye changes the table (then Buchholz separates C and D)', () => {
    const rows = standings(PLAYERS, FIVE, { scoring: { ...DEFAULT_SCORING, bye: 0.5 } });
    // A 2, B 1.5, C 1, D 1, E 2. E beat A (direct encounter); C and D drew their game (½ each),
    // so Buchholz decides: C met D 1 + B 1.5 + E 2 = 4.5, D met C 1 + A 2 = 3.
    expect(rows.map((r) => [r.player, r.points])).toEqual([
      ['E', 2],
      ['A', 2],
      ['B', 1.5],
      ['C', 1],
      ['D', 1],
    ]);
    expect(rows.find((r) => r.player === 'C')!.buchholz).toBe(4.5);
    expect(rows.find((r) => r.player === 'D')!.buchholz).toBe(3);
  });

  it('forfeits are scored with their own values, and a double forfeit gives both the forfeit loss', () => {
    const results: RoundResults[] = [
      [
        { p1: 'A', p2: 'B', outcome: 'p2', forfeit: true },
        { p1: 'C', p2: 'D', outcome: 'double-forfeit' },
      ],
    ];
    expect(Object.fromEntries(scores(results))).toEqual({ A: 0, B: 1, C: 0, D: 0 });
    const custom = { ...DEFAULT_SCORING, forfeitWin: 0.75, forfeitLoss: -0.25 };
    expect(Object.fromEntries(scores(results, custom))).toEqual({ A: -0.25, B: 0.75, C: -0.25, D: -0.25 });
  });

  it('direct encounter is skipped for a group whose players have not all met; leftover ties keep the input order', () => {
    // R1: X beats Y, U beats Z, W draws V. R2: W beats X, Y beats U, Z beats V.
    // X 1, Y 1, Z 1, U 1, W 1.5, V ½. Among X, Y, Z, U only X–Y, Z–U and Y–U met.
    const results: RoundResults[] = [
      [
        { p1: 'X', p2: 'Y', outcome: 'p1' },
        { p1: 'Z', p2: 'U', outcome: 'p2' },
        { p1: 'W', p2: 'V', outcome: 'draw' },
      ],
      [
        { p1: 'X', p2: 'W', outcome: 'p2' },
        { p1: 'Y', p2: 'U', outcome: 'p1' },
        { p1: 'Z', p2: 'V', outcome: 'p1' },
      ],
    ];
    const rows = standings(['Z', 'Y', 'U', 'X', 'W', 'V'], results, { tiebreaks: ['direct-encounter'] });
    // Applied, direct encounter would put Z (0 against the group) last of the four; it is not applied.
    expect(rows.map((r) => r.player)).toEqual(['W', 'Z', 'Y', 'U', 'X', 'V']);
    expect(Object.fromEntries(rows.map((r) => [r.player, r.directEncounter]))).toEqual({ W: 0, Z: 0, Y: 1, U: 1, X: 1, V: 0 });
  });

  it('withdrawn players keep their place in the table and their results count for their opponents', () => {
    // D withdrew after round 1 (no more games): its draw with C still counts for both.
    const results: RoundResults[] = [
      [
        { p1: 'A', p2: 'B', outcome: 'p1' },
        { p1: 'C', p2: 'D', outcome: 'draw' },
      ],
      [{ p1: 'A', p2: 'C', outcome: 'draw' }, { bye: 'B' }],
    ];
    const rows = standings(['A', 'B', 'C', 'D'], results);
    expect(Object.fromEntries(rows.map((r) => [r.player, r.points]))).toEqual({ A: 1.5, B: 1, C: 1, D: 0.5 });
    // B and C: 1 each, never met; Buchholz B (A 1.5) = 1.5, C (D ½ + A 1.5) = 2: C ahead.
    expect(rows.map((r) => r.player)).toEqual(['A', 'C', 'B', 'D']);
  });
});

describe('crosstable', () => {
  it('shows each pair once from each side, in standings order', () => {
    const t = crosstable(PLAYERS, FIVE);
    expect(t.players).toEqual(['E', 'A', 'B', 'D', 'C']);
    expect(t.points).toEqual([2.5, 2, 2, 1.5, 1]);
    expect(t.cells).toEqual([
      //  E       A       B       D       C
      [[], ['1'], [], [], ['½']], // E
      [['0'], [], ['1'], ['1'], []], // A
      [[], ['0'], [], [], ['1']], // B
      [[], ['0'], [], [], ['½']], // D
      [['½'], [], ['0'], ['½'], []], // C
    ]);
  });

  it('a double round robin shows both games; forfeits as + and -', () => {
    const results: RoundResults[] = [[{ p1: 'A', p2: 'B', outcome: 'p1' }], [{ p1: 'B', p2: 'A', outcome: 'p1', forfeit: true }]];
    expect(crosstable(['A', 'B'], results).cells).toEqual([
      [[], ['1', '-']],
      [['0', '+'], []],
    ]);
  });
});
