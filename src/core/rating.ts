/**
 * Glicko-2 ratings (issue 10), pure: no I/O, no clock, no randomness.
 *
 * Follows Mark E. Glickman, "Example of the Glicko-2 system" (2012, glicko.net/glicko/glicko2.pdf),
 * steps 1-8, with the Illinois algorithm for the new volatility (step 5). Written here rather than
 * taken from npm: `glicko2.ts` is GPL-3.0 (this service is MIT), `glicko2` has no types; both are
 * mutable player/ranking objects, and the algorithm is small enough to check against the paper's
 * worked example (test/core/rating.test.ts).
 *
 * Values are kept unrounded (store them as they are); round only for display (`displayRating`).
 */

export interface Rating {
  /** Glicko scale (1500 for a new player). */
  rating: number;
  /** Rating deviation, Glicko scale. */
  rd: number;
  /** σ: how erratic the player's results are. */
  volatility: number;
}

/** A new player (the paper's suggested defaults). */
export const DEFAULT_RATING: Readonly<Rating> = Object.freeze({ rating: 1500, rd: 350, volatility: 0.06 });

/** Above this RD a rating is provisional (kept off the leaderboard), as on lichess. */
export const PROVISIONAL_RD = 110;

/** One game's score for the player being rated: win 1, draw 0.5, loss 0. */
export type Score = 0 | 0.5 | 1;

export interface GameResult {
  /** The opponent's rating before the rating period. */
  opponent: Rating;
  score: Score;
}

export interface RatingOptions {
  /** τ, the system constant limiting volatility changes (paper: 0.3 to 1.2). */
  tau?: number;
  /** Convergence tolerance of the volatility iteration. */
  epsilon?: number;
}

export const DEFAULT_OPTIONS: Readonly<Required<RatingOptions>> = Object.freeze({ tau: 0.5, epsilon: 1e-6 });

/** Conversion factor between the Glicko and Glicko-2 scales (paper, step 2). */
const SCALE = 173.7178;
const BASE = 1500;
/** The Illinois iteration converges in a few dozen steps; a cap turns a bug into an error, not a hang. */
const MAX_ITERATIONS = 1000;

/**
 * The player's rating after one rating period with these results (all against the opponents'
 * ratings at the start of the period). No results: only the RD grows (step 6).
 */
export function rate(player: Rating, results: readonly GameResult[], opts: RatingOptions = {}): Rating {
  const { tau, epsilon } = { ...DEFAULT_OPTIONS, ...opts };
  if (!(tau > 0) || !(epsilon > 0)) throw new RangeError('tau and epsilon must be positive');
  checkRating(player);
  // Step 2: to the Glicko-2 scale.
  const mu = (player.rating - BASE) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.volatility;

  if (results.length === 0) {
    return { rating: player.rating, rd: Math.sqrt(phi * phi + sigma * sigma) * SCALE, volatility: sigma };
  }

  // Steps 3 and 4: estimated variance v and improvement Δ from the period's games.
  let invV = 0;
  let sum = 0;
  for (const { opponent, score } of results) {
    checkRating(opponent);
    if (score !== 0 && score !== 0.5 && score !== 1) throw new RangeError(`score must be 0, 0.5 or 1, got ${String(score)}`);
    const g = gOf(opponent.rd / SCALE);
    const e = 1 / (1 + Math.exp(-g * (mu - (opponent.rating - BASE) / SCALE)));
    invV += g * g * e * (1 - e);
    sum += g * (score - e);
  }
  const v = 1 / invV;
  const delta = v * sum;

  // Step 5: new volatility; steps 6 and 7: new RD and rating; step 8: back to the Glicko scale.
  const sigmaNew = newVolatility(phi, sigma, v, delta, tau, epsilon);
  const phiStar = Math.sqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: muNew * SCALE + BASE, rd: phiNew * SCALE, volatility: sigmaNew };
}

/**
 * Both players' new ratings after one rated game (`score` is a's: 1 win, 0.5 draw, 0 loss), each
 * rated against the other's rating before the game: one game is one rating period.
 */
export function rateMatch(a: Rating, b: Rating, score: Score, opts: RatingOptions = {}): { a: Rating; b: Rating } {
  return {
    a: rate(a, [{ opponent: b, score }], opts),
    b: rate(b, [{ opponent: a, score: (1 - score) as Score }], opts),
  };
}

export function isProvisional(r: Rating): boolean {
  return r.rd > PROVISIONAL_RD;
}

/** Rounded for people to read (whole points), never for storage. */
export function displayRating(r: Rating): { rating: number; rd: number } {
  return { rating: Math.round(r.rating), rd: Math.round(r.rd) };
}

function gOf(phi: number): number {
  return 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
}

/** Step 5 of the paper: solve f(x) = 0 for x = ln σ'² by the Illinois (regula falsi) algorithm. */
function newVolatility(phi: number, sigma: number, v: number, delta: number, tau: number, epsilon: number): number {
  const a = Math.log(sigma * sigma);
  const phi2 = phi * phi;
  const f = (x: number): number => {
    const ex = Math.exp(x);
    const d = phi2 + v + ex;
    return (ex * (delta * delta - phi2 - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };

  let A = a;
  let B: number;
  if (delta * delta > phi2 + v) {
    B = Math.log(delta * delta - phi2 - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; Math.abs(B - A) > epsilon; i += 1) {
    if (i === MAX_ITERATIONS) throw new Error('Glicko-2 volatility did not converge');
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    // ≤ (not <) as in the paper's later revision: an exact root then ends the loop at once.
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

function checkRating(r: Rating): void {
  if (!Number.isFinite(r.rating) || !(r.rd > 0 && Number.isFinite(r.rd)) || !(r.volatility > 0 && Number.isFinite(r.volatility))) {
    throw new RangeError(`invalid rating ${JSON.stringify(r)}`);
  }
}
