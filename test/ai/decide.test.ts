/**
 * The computer player (src/ai), on every game it plays: it answers with one of the seat's legal
 * actions in positions reached by random play, the same one for the same input and seed, and
 * the same one for two different full states that show the seat the same view (it is only ever
 * given the view). A full state is refused, by the types and at run time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUDGETS, LEVELS, checkInput, decide, type AiInput, type Level } from '../../src/ai/index.js';
import { playableGame, playableGames } from '../../src/service/ai/games.js';
import { sfc32Stream } from '../../src/core/random.js';
import type { Seat } from '../../src/core/ruleset.js';
import { evons } from '../../src/games/evons/ruleset.js';
import type { GameState } from '../../src/games/evons/state.js';
import { playTo } from '../fixtures/random-play.js';

it('plays every registered game that has hidden-information support, both hosted games included', () => {
  expect(playableGames()).toEqual(expect.arrayContaining(['evons', 'universus']));
});

it('the budget table grows with the level: fewer slips or more search at every step, never less', () => {
  for (const l of LEVELS.slice(1)) {
    const [b, below] = [BUDGETS[l], BUDGETS[(l - 1) as Level]];
    expect(b.slips).toBeLessThanOrEqual(below.slips);
    expect(b.simulations).toBeGreaterThanOrEqual(below.simulations);
    expect(b.maxNodes).toBeGreaterThanOrEqual(below.maxNodes);
    expect(b.slips < below.slips || b.simulations > below.simulations).toBe(true);
    if (b.algorithm === below.algorithm && b.algorithm === 'greedy') expect(b.worlds).toBeGreaterThanOrEqual(below.worlds);
  }
  expect(BUDGETS[8].slips).toBe(0);
});

for (const game of ['evons', 'universus']) {
  const rs = playableGame(game)!;
  /** A position reached by random play where `seat`… whoever is to decide: their input. */
  const position = (seed: string, moves: number) => {
    const { state, logs } = playTo(rs, seed, [0, 2], moves);
    if (rs.outcome(state)) return null;
    const seat = rs.pending(state)!.seat as Seat;
    const input: AiInput<unknown, { type: string }> = {
      view: rs.view(state, seat),
      seat,
      legal: rs.legalActions(state, seat),
      events: logs[seat],
    };
    return { state, logs, seat, input };
  };

  describe(`${game}: decide`, () => {
    it('answers with one of the legal actions, at every level, deterministically for a seed', () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 1, maxLength: 6 }),
          fc.nat(150),
          fc.constantFrom<Level>(1, 2, 3, 4),
          fc.string({ maxLength: 4 }),
          (seed, moves, level, aiSeed) => {
            const p = position(seed, moves);
            if (!p) return;
            const a = decide(rs, p.input, level, aiSeed);
            expect(p.input.legal).toContainEqual(a);
            expect(rs.apply(p.state, p.seat, a).ok).toBe(true);
            expect(decide(rs, p.input, level, aiSeed)).toEqual(a);
          },
        ),
        { numRuns: 12 },
      );
    });

    it('levels 5 to 8 answer legally too', () => {
      const p = position('upper', 40)!;
      for (const level of [5, 6, 7, 8] as const) expect(p.input.legal).toContainEqual(decide(rs, p.input, level, 'x'));
    });

    it('gives the same decision for two full states with the same view for the seat', () => {
      fc.assert(
        fc.property(fc.string({ minLength: 1, maxLength: 6 }), fc.nat(120), (seed, moves) => {
          const p = position(seed, moves);
          if (!p) return;
          // Another full state the seat cannot tell from the real one: other hidden cards.
          const twin = rs.hiddenInformation.sampler(p.input.view, p.seat, p.logs[p.seat])(sfc32Stream(seed, 'twin:'));
          expect(rs.view(twin, p.seat)).toEqual(p.input.view);
          const fromTwin = { view: rs.view(twin, p.seat), seat: p.seat, legal: rs.legalActions(twin, p.seat), events: p.logs[p.seat] };
          expect(decide(rs, fromTwin, 3, 'same')).toEqual(decide(rs, p.input, 3, 'same'));
        }),
        { numRuns: 8 },
      );
    });

    it("refuses a full state, and another seat's view", () => {
      const p = position('refuse', 30)!;
      // @ts-expect-error a full state is not an AiInput
      expect(() => decide(rs, p.state, 1, 'x')).toThrow(TypeError);
      expect(() => decide(rs, { ...p.input, view: p.state }, 1, 'x')).toThrow(/seat's own view/);
      expect(() => decide(rs, { ...p.input, view: rs.view(p.state, p.seat === 'p1' ? 'p2' : 'p1') }, 1, 'x')).toThrow(/seat's own view/);
      expect(() => decide(rs, { ...p.input, state: p.state } as AiInput<unknown, { type: string }>, 1, 'x')).toThrow(/exactly/);
      expect(() => checkInput(p.input)).not.toThrow();
    });
  });
}

it('the input type holds no state: a state for a view does not compile', () => {
  const reached = playTo(evons, 'types', [0, 1], 10);
  const state = reached.state as GameState;
  const logs = reached.logs;
  const seat = evons.pending(state)!.seat;
  const legal = evons.legalActions(state, seat);
  // @ts-expect-error GameState is not GameView
  const bad: AiInput<ReturnType<typeof evons.view>, (typeof legal)[number]> = { view: state, seat, legal, events: logs[seat] };
  expect(() => checkInput(bad)).toThrow(TypeError);
});
