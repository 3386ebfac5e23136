/**
 * Plain data shared by the pairing systems and the standings: player ids are opaque strings, a
 * round is a list of pairings, a finished round is a list of results. No database rows, no
 * classes: the tournament service stores these and calls the pure functions with them.
 */

export type PlayerId = string;

/** One board of a round: p1/p2 are the two seats (the analogue of white/black), or a bye. */
export type Pairing = { p1: PlayerId; p2: PlayerId } | { bye: PlayerId };

/**
 * The result of one board. `outcome` names the winner's seat; `forfeit` marks a win by forfeit
 * (the loser did not play), scored with the forfeit values of `Scoring`. A double forfeit gives
 * both players the forfeit-loss value.
 */
export type GameResult =
  { p1: PlayerId; p2: PlayerId; outcome: 'p1' | 'p2' | 'draw' | 'double-forfeit'; forfeit?: boolean } | { bye: PlayerId };

/** The results of one round, in any order. `results[k]` of a tournament is round k + 1. */
export type RoundResults = readonly GameResult[];

/** Points per kind of result: parameters because events differ (some give a bye half a point). */
export interface Scoring {
  win: number;
  draw: number;
  loss: number;
  /** A pairing-allocated bye. */
  bye: number;
  forfeitWin: number;
  forfeitLoss: number;
}

/** Win 1, draw ½, loss 0; a bye and a forfeit win are worth a win, a forfeit loss nothing. */
export const DEFAULT_SCORING: Readonly<Scoring> = Object.freeze({ win: 1, draw: 0.5, loss: 0, bye: 1, forfeitWin: 1, forfeitLoss: 0 });

export const isBye = (p: Pairing | GameResult): p is { bye: PlayerId } => 'bye' in p;
