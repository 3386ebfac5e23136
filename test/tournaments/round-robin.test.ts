/**
 * Round robin against the Berger tables as published in the FIDE Handbook, C.05 (General
 * Regulations for Competitions), Annex 1 "Berger Tables for Round-Robin Tournaments": each round
 * written as printed, first-seat player first, boards in printed order.
 */
import { describe, expect, it } from 'vitest';
import { bergerTable, roundRobin, type Pairing } from '../../src/tournaments/pairing/index.js';

const PUBLISHED: Record<number, string[]> = {
  // "3 or 4 players"
  4: ['1-4, 2-3', '4-3, 1-2', '2-4, 3-1'],
  // "5 or 6 players"
  6: ['1-6, 2-5, 3-4', '6-4, 5-3, 1-2', '2-6, 3-1, 4-5', '6-5, 1-4, 2-3', '3-6, 4-2, 5-1'],
  // "7 or 8 players"
  8: [
    '1-8, 2-7, 3-6, 4-5',
    '8-5, 6-4, 7-3, 1-2',
    '2-8, 3-1, 4-7, 5-6',
    '8-6, 7-5, 1-4, 2-3',
    '3-8, 4-2, 5-1, 6-7',
    '8-7, 1-6, 2-5, 3-4',
    '4-8, 5-3, 6-2, 7-1',
  ],
  // "9 or 10 players"
  10: [
    '1-10, 2-9, 3-8, 4-7, 5-6',
    '10-6, 7-5, 8-4, 9-3, 1-2',
    '2-10, 3-1, 4-9, 5-8, 6-7',
    '10-7, 8-6, 9-5, 1-4, 2-3',
    '3-10, 4-2, 5-1, 6-9, 7-8',
    '10-8, 9-7, 1-6, 2-5, 3-4',
    '4-10, 5-3, 6-2, 7-1, 8-9',
    '10-9, 1-8, 2-7, 3-6, 4-5',
    '5-10, 6-4, 7-3, 8-2, 9-1',
  ],
};

const printed = (round: [number, number][]) => round.map(([a, b]) => `${a}-${b}`).join(', ');
const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const key = (g: Pairing) => ('bye' in g ? `bye:${g.bye}` : [g.p1, g.p2].sort().join('|'));

describe('Berger tables (FIDE C.05 Annex 1)', () => {
  for (const [n, rounds] of Object.entries(PUBLISHED)) {
    it(`reproduces the published ${n}-player table seat for seat`, () => {
      expect(bergerTable(Number(n)).map(printed)).toEqual(rounds);
    });
  }

  it('maps draw numbers to the players in input order', () => {
    expect(roundRobin(['a', 'b', 'c', 'd'])).toEqual([
      [
        { p1: 'a', p2: 'd' },
        { p1: 'b', p2: 'c' },
      ],
      [
        { p1: 'd', p2: 'c' },
        { p1: 'a', p2: 'b' },
      ],
      [
        { p1: 'b', p2: 'd' },
        { p1: 'c', p2: 'a' },
      ],
    ]);
  });

  it('odd fields: the player drawn against the phantom last number has the bye (5 players use the 6 table)', () => {
    expect(roundRobin(ids(5))).toEqual([
      [{ p1: 'p2', p2: 'p5' }, { p1: 'p3', p2: 'p4' }, { bye: 'p1' }],
      [{ p1: 'p5', p2: 'p3' }, { p1: 'p1', p2: 'p2' }, { bye: 'p4' }],
      [{ p1: 'p3', p2: 'p1' }, { p1: 'p4', p2: 'p5' }, { bye: 'p2' }],
      [{ p1: 'p1', p2: 'p4' }, { p1: 'p2', p2: 'p3' }, { bye: 'p5' }],
      [{ p1: 'p4', p2: 'p2' }, { p1: 'p5', p2: 'p1' }, { bye: 'p3' }],
    ]);
  });

  it('double round robin: the same rounds again with the seats swapped', () => {
    const single = roundRobin(ids(4));
    const double = roundRobin(ids(4), { double: true });
    expect(double).toHaveLength(6);
    expect(double.slice(0, 3)).toEqual(single);
    expect(double[3]).toEqual([
      { p1: 'p4', p2: 'p1' },
      { p1: 'p3', p2: 'p2' },
    ]);
    expect(double.slice(3)).toEqual(single.map((r) => r.map((g) => ('bye' in g ? g : { p1: g.p2, p2: g.p1 }))));
  });

  it('for 2..40 players every pair meets exactly once, everyone plays (or sits out) once a round, seats differ by at most 1', () => {
    for (let n = 2; n <= 40; n++) {
      const players = ids(n);
      const rounds = roundRobin(players);
      expect(rounds).toHaveLength(n % 2 === 0 ? n - 1 : n);
      const seen = new Set<string>();
      const diff = new Map(players.map((p) => [p, 0]));
      for (const round of rounds) {
        const inRound = round.flatMap((g) => ('bye' in g ? [g.bye] : [g.p1, g.p2]));
        expect(new Set(inRound).size).toBe(n);
        for (const g of round) {
          if ('bye' in g) continue;
          expect(seen.has(key(g))).toBe(false);
          seen.add(key(g));
          diff.set(g.p1, diff.get(g.p1)! + 1);
          diff.set(g.p2, diff.get(g.p2)! - 1);
        }
      }
      expect(seen.size).toBe((n * (n - 1)) / 2);
      // Berger tables give each player as many first seats as second seats, give or take one.
      for (const d of diff.values()) expect(Math.abs(d)).toBeLessThanOrEqual(1);
    }
  });

  it('rejects fields it cannot pair', () => {
    expect(() => roundRobin(['a'])).toThrow(RangeError);
    expect(() => roundRobin(['a', 'a'])).toThrow(RangeError);
    expect(() => bergerTable(5)).toThrow(RangeError);
  });
});
