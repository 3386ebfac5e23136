/**
 * Ruleset.hiddenInformation, for every registered game that has it: a state sampled from what a
 * seat knows (its view and its redacted events) is a legal state, shows that seat exactly the
 * view it was sampled from, and is a function of the draws (same stream, same state). Positions
 * come from random play (fast-check picks the seeds, decks and how far to play).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sfc32Stream } from '../../src/core/random.js';
import type { AnyRuleset, Seat } from '../../src/core/ruleset.js';
import { playTo } from '../fixtures/random-play.js';
import { GAME_LIST } from '../../src/games/registry.js';

for (const { ruleset: rs } of GAME_LIST as readonly { ruleset: AnyRuleset }[]) {
  const hidden = rs.hiddenInformation;
  if (!hidden) continue;
  describe(`${rs.id}: states sampled from a seat's knowledge`, () => {
    it('are legal, show the seat its own view, and depend only on the draws', () => {
      fc.assert(
        fc.property(
          fc.string({ minLength: 1, maxLength: 8 }),
          fc.nat(2),
          fc.nat(2),
          fc.nat(160),
          fc.constantFrom<Seat>('p1', 'p2'),
          fc.nat(),
          (seed, d1, d2, moves, seat, draw) => {
            const { state, logs } = playTo(rs, seed, [d1, d2], moves);
            const seen = rs.view(state, seat);
            const sample = hidden.sampler(seen, seat, logs[seat]);
            const a = sample(sfc32Stream(`${draw}`, 'test:'));
            expect(rs.view(a, seat)).toEqual(seen);
            // Determinism: the same draws give the same state; other draws may differ in hidden cards only.
            expect(rs.positions.toPosition(a)).toEqual(rs.positions.toPosition(sample(sfc32Stream(`${draw}`, 'test:'))));
            const b = sample(sfc32Stream(`${draw}b`, 'test:'));
            expect(rs.view(b, seat)).toEqual(seen);
            if (rs.outcome(state)) return;
            const mover = rs.pending(state)!.seat;
            // The seat's own decisions are exactly its real ones; the other seat's come from the cards drawn for it.
            if (mover === seat) expect(rs.legalActions(a, seat)).toEqual(rs.legalActions(state, seat));
            const legal = rs.legalActions(a, mover);
            expect(legal.length).toBeGreaterThan(0);
            let s = a;
            // A few moves on from the sample, both seats, all accepted by the engine.
            const pick = rs.randomPlayer(`${seed}:after`);
            for (let i = 0; i < 6 && !rs.outcome(s); i++) {
              const who = rs.pending(s)!.seat;
              const r = rs.apply(s, who, pick(s, rs.legalActions(s, who)));
              expect(r.ok).toBe(true);
              if (r.ok) s = r.state;
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('never reads what the seat may not see: two states with one view for the seat give the same samples', () => {
      fc.assert(
        fc.property(fc.string({ minLength: 1, maxLength: 8 }), fc.nat(120), fc.constantFrom<Seat>('p1', 'p2'), (seed, moves, seat) => {
          const { state, logs } = playTo(rs, seed, [0, 1], moves);
          const seen = rs.view(state, seat);
          // Another full state with the same view for the seat: a sample itself.
          const twin = hidden.sampler(seen, seat, logs[seat])(sfc32Stream('twin', 'test:'));
          expect(rs.view(twin, seat)).toEqual(seen);
          const fromReal = hidden.sampler(rs.view(state, seat), seat, logs[seat])(sfc32Stream('x', 'test:'));
          const fromTwin = hidden.sampler(rs.view(twin, seat), seat, logs[seat])(sfc32Stream('x', 'test:'));
          expect(rs.positions.toPosition(fromTwin)).toEqual(rs.positions.toPosition(fromReal));
        }),
        { numRuns: 15 },
      );
    });

    it('without events, from the view alone: the same view outside a chain of activations', () => {
      fc.assert(
        fc.property(fc.string({ minLength: 1, maxLength: 8 }), fc.nat(160), fc.constantFrom<Seat>('p1', 'p2'), (seed, moves, seat) => {
          const { state } = playTo(rs, seed, [0, 1], moves);
          const seen = rs.view(state, seat) as { pending?: { kind?: string } | null };
          // Inside an Evons chain the stack is not in the view: the events carry it (see rules-decisions.md).
          if (['ability', 'conflict-order', 'trigger-order'].includes(seen.pending?.kind ?? '')) return;
          const a = hidden.sampler(seen, seat, [])(sfc32Stream(seed, 'alone:'));
          expect(rs.view(a, seat)).toEqual(seen);
        }),
        { numRuns: 30 },
      );
    });

    it("refuses another seat's view", () => {
      const { state, logs } = playTo(rs, 'refuse', [0, 1], 10);
      expect(() => hidden.sampler(rs.view(state, 'p2'), 'p1', logs.p1)).toThrow(/view/);
    });
  });
}
