/**
 * The strategies in the engine arena (the observations the API gives each seat): seeded, so
 * every figure here is reproducible. greedy must beat random in at least 80 % of the matches
 * (npm run bench:bot measures the same over 200 matches and through the API).
 */
import { describe, expect, it } from 'vitest';
import type { Seat } from '../../../src/games/evons/index.js';
import { playInEngine, STARTER_IDS } from '../arena.js';
import { greedy, random } from '../strategies.js';
import type { AnyStrategy, Observation } from '../strategy.js';

const MATCHES = 30;

describe('strategies', () => {
  it(`greedy beats random in at least 80 % of ${MATCHES} matches, from either seat`, () => {
    const won: Record<Seat, number> = { p1: 0, p2: 0 };
    for (let i = 0; i < MATCHES; i++) {
      const seat: Seat = i % 2 === 0 ? 'p1' : 'p2';
      const other: Seat = seat === 'p1' ? 'p2' : 'p1';
      const players = { [seat]: greedy(`t:g:${i}`), [other]: random(`t:r:${i}`) } as Record<Seat, AnyStrategy>;
      const r = playInEngine(players, { seed: `test-match-${i}`, decks: { p1: STARTER_IDS[i % 3]!, p2: STARTER_IDS[(i + 1) % 3]! } });
      if (r.winner === seat) won[seat]++;
    }
    expect(won.p1 + won.p2).toBeGreaterThanOrEqual(0.8 * MATCHES);
    expect(won.p2).toBeGreaterThan(0); // not only with the first player's edge
  });

  it('random and greedy only ever choose from the legal actions they are given (the arena rejects anything else)', () => {
    const seen: string[] = [];
    const spy = (s: AnyStrategy): AnyStrategy => ({
      name: s.name,
      choose(o: Observation<unknown, { type: string }>) {
        const a = s.choose(o);
        expect(o.legal).toContainEqual(a);
        seen.push(a.type);
        return a;
      },
    });
    const r = playInEngine(
      { p1: spy(greedy('legal:g')), p2: spy(random('legal:r')) },
      { seed: 'legal', decks: { p1: STARTER_IDS[0]!, p2: STARTER_IDS[1]! } },
    );
    expect(r.decisions).toBe(seen.length);
    expect(new Set(seen).size).toBeGreaterThan(2); // plays, passes, abilities…
  });

  it('the same seeds play the same match (a figure can be reproduced)', () => {
    const play = () =>
      playInEngine({ p1: greedy('same:g'), p2: random('same:r') }, { seed: 'same', decks: { p1: STARTER_IDS[2]!, p2: STARTER_IDS[0]! } });
    expect(play()).toEqual(play());
  });
});
