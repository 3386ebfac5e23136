/**
 * Glicko-2 ratings (issue 10, src/core/rating.ts): Glickman's worked example ("Example of the
 * Glicko-2 system", 2012) and properties of one rated game.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RATING,
  PROVISIONAL_RD,
  displayRating,
  isProvisional,
  rate,
  rateMatch,
  type Rating,
  type Score,
} from '../../src/core/rating.js';

const PAPER_PLAYER: Rating = { rating: 1500, rd: 200, volatility: 0.06 };
const PAPER_RESULTS = [
  { opponent: { rating: 1400, rd: 30, volatility: 0.06 }, score: 1 as const },
  { opponent: { rating: 1550, rd: 100, volatility: 0.06 }, score: 0 as const },
  { opponent: { rating: 1700, rd: 300, volatility: 0.06 }, score: 0 as const },
];

const score = fc.constantFrom<Score>(0, 0.5, 1);
/** Ratings a live service can hold: RD between a settled and a new player's, σ up to very erratic. */
const rating = (rd: { min: number; max: number } = { min: 30, max: 350 }, maxVolatility = 0.1) =>
  fc.record({
    rating: fc.double({ min: 100, max: 3500, noNaN: true }),
    rd: fc.double({ min: rd.min, max: rd.max, noNaN: true }),
    volatility: fc.double({ min: 0.01, max: maxVolatility, noNaN: true }),
  });

describe("rate: Glickman's worked example", () => {
  it('1500/200/0.06 after 1400/30 won, 1550/100 lost, 1700/300 lost → 1464.06, 151.52, 0.05999', () => {
    const r = rate(PAPER_PLAYER, PAPER_RESULTS);
    // The paper rounds its intermediate values (v, Δ, μ', φ') to four places; computed without
    // rounding the rating is 1464.05, so the paper's figures hold to within their last digit.
    expect(Math.abs(r.rating - 1464.06)).toBeLessThan(0.02);
    expect(Math.abs(r.rd - 151.52)).toBeLessThan(0.01);
    expect(Math.abs(r.volatility - 0.05999)).toBeLessThan(0.00001);
  });

  it('unrounded values are kept (rounding is only for display)', () => {
    const r = rate(PAPER_PLAYER, PAPER_RESULTS);
    // Pinned to the full computation (checked against the npm package glicko2@1.2.2).
    expect(r.rating).toBeCloseTo(1464.0507, 4);
    expect(r.rd).toBeCloseTo(151.5165, 4);
    expect(r.volatility).toBeCloseTo(0.059996, 6);
    expect(displayRating(r)).toEqual({ rating: 1464, rd: 152 });
  });

  it('a larger τ lets the volatility move further after the same surprising results', () => {
    // A settled 1500 losing three times to 1100s.
    const settled: Rating = { rating: 1500, rd: 50, volatility: 0.06 };
    const surprising = [0, 1, 2].map(() => ({ opponent: { rating: 1100, rd: 50, volatility: 0.06 }, score: 0 as const }));
    const calm = rate(settled, surprising, { tau: 0.3 });
    const loose = rate(settled, surprising, { tau: 1.2 });
    expect(calm.volatility).toBeGreaterThan(settled.volatility);
    expect(loose.volatility).toBeGreaterThan(calm.volatility);
  });

  it('no games in the period: only the RD grows, by the volatility (step 6)', () => {
    const r = rate(PAPER_PLAYER, []);
    expect(r.rating).toBe(1500);
    expect(r.volatility).toBe(0.06);
    expect(r.rd).toBeCloseTo(Math.hypot(200, 0.06 * 173.7178), 9);
  });

  it('rejects what is not a rating or a score', () => {
    expect(() => rate({ ...PAPER_PLAYER, rd: 0 }, PAPER_RESULTS)).toThrow(RangeError);
    expect(() => rate({ ...PAPER_PLAYER, rating: Number.NaN }, PAPER_RESULTS)).toThrow(RangeError);
    expect(() => rate(PAPER_PLAYER, [{ opponent: { ...PAPER_PLAYER, volatility: -1 }, score: 1 }])).toThrow(RangeError);
    expect(() => rate(PAPER_PLAYER, [{ opponent: PAPER_PLAYER, score: 0.7 as Score }])).toThrow(RangeError);
    expect(() => rate(PAPER_PLAYER, PAPER_RESULTS, { tau: 0 })).toThrow(RangeError);
  });
});

describe('rateMatch: one rated game', () => {
  it('a new player beating a new player: 1662.3 and 1337.7, both RDs down from 350 to 290.3', () => {
    const { a, b } = rateMatch(DEFAULT_RATING, DEFAULT_RATING, 1);
    expect(a.rating).toBeCloseTo(1662.31, 1);
    expect(b.rating).toBeCloseTo(1337.69, 1);
    expect(a.rd).toBeCloseTo(290.32, 1);
    expect(b.rd).toBeCloseTo(a.rd, 9);
  });

  it('is symmetric: swapping the players and mirroring the score mirrors the result', () => {
    fc.assert(
      fc.property(rating(), rating(), score, (p, q, s) => {
        const forward = rateMatch(p, q, s);
        const mirrored = rateMatch(q, p, (1 - s) as Score);
        expect(mirrored).toEqual({ a: forward.b, b: forward.a });
      }),
    );
  });

  it("each side is rated against the other's rating before the game", () => {
    fc.assert(
      fc.property(rating(), rating(), score, (p, q, s) => {
        const { a, b } = rateMatch(p, q, s);
        expect(a).toEqual(rate(p, [{ opponent: q, score: s }]));
        expect(b).toEqual(rate(q, [{ opponent: p, score: (1 - s) as Score }]));
      }),
    );
  });

  it("a win never lowers the winner's rating nor raises the loser's", () => {
    fc.assert(
      fc.property(rating(), rating(), (winner, loser) => {
        const { a, b } = rateMatch(winner, loser, 1);
        expect(a.rating).toBeGreaterThanOrEqual(winner.rating);
        expect(b.rating).toBeLessThanOrEqual(loser.rating);
      }),
    );
  });

  it('a draw between equally rated players leaves both ratings where they were, whatever their RDs', () => {
    fc.assert(
      fc.property(rating(), rating(), (p, q) => {
        const { a, b } = rateMatch(p, { ...q, rating: p.rating }, 0.5);
        expect(a.rating).toBeCloseTo(p.rating, 9);
        expect(b.rating).toBeCloseTo(p.rating, 9);
      }),
    );
  });

  it("a game always informs: the RD ends below the period's drift alone (√(RD² + σ'²))", () => {
    fc.assert(
      fc.property(rating(), rating(), score, (p, q, s) => {
        const { a } = rateMatch(p, q, s);
        expect(a.rd).toBeLessThan(Math.hypot(p.rd, a.volatility * 173.7178));
      }),
    );
  });

  it('a provisional player (RD > 110) who plays someone within 400 points ends with a lower RD', () => {
    // Not true of every game: one game is one rating period, so a settled player (RD near the
    // ~60-90 equilibrium that one game per period gives at σ 0.06-0.1) or a lopsided pairing can
    // see the RD grow a little, exactly as the paper's formulas say.
    const pair = rating({ min: PROVISIONAL_RD + 1e-9, max: 350 }).chain((p) =>
      fc.tuple(
        fc.constant(p),
        rating().chain((q) => fc.double({ min: -400, max: 400, noNaN: true }).map((gap) => ({ ...q, rating: p.rating + gap }))),
      ),
    );
    fc.assert(
      fc.property(pair, score, ([p, q], s) => {
        expect(rateMatch(p, q, s).a.rd).toBeLessThan(p.rd);
      }),
    );
  });

  it('results stay finite and positive however far apart the ratings are', () => {
    fc.assert(
      fc.property(rating({ min: 1, max: 1000 }, 1), rating({ min: 1, max: 1000 }, 1), score, (p, q, s) => {
        for (const r of Object.values(rateMatch({ ...p, rating: p.rating * 3 - 3000 }, q, s))) {
          expect(Number.isFinite(r.rating)).toBe(true);
          expect(r.rd > 0 && Number.isFinite(r.rd)).toBe(true);
          expect(r.volatility > 0 && Number.isFinite(r.volatility)).toBe(true);
        }
      }),
    );
  });
});

describe('isProvisional', () => {
  it('above RD 110 a rating is provisional; at 110 or below it is not', () => {
    expect(isProvisional(DEFAULT_RATING)).toBe(true);
    expect(isProvisional({ ...DEFAULT_RATING, rd: 110.01 })).toBe(true);
    expect(isProvisional({ ...DEFAULT_RATING, rd: 110 })).toBe(false);
    expect(isProvisional({ ...DEFAULT_RATING, rd: 45 })).toBe(false);
  });
});
