/**
 * The initial order of a tournament's players when there is no rating to sort by: a draw from the
 * tournament's seed, through the project's keyed streams, so the same seed draws the same order.
 */
import { keyedStream, shuffle } from '../../core/random.js';
import type { PlayerId } from './types.js';

/** Purpose of the draw's stream: nothing else in a tournament draws from it. */
export const INITIAL_ORDER_PURPOSE = 'tournament:initial-order';

/** `players` in a seeded random order (the input is not changed). */
export function drawInitialOrder(players: readonly PlayerId[], seed: string): PlayerId[] {
  return shuffle(keyedStream(seed, INITIAL_ORDER_PURPOSE, players.length), [...players]);
}

/** Players sorted by rating, highest first; equal ratings keep their input order. */
export function ratingOrder(players: readonly { id: PlayerId; rating: number }[]): PlayerId[] {
  return players
    .map((p, i) => ({ ...p, i }))
    .sort((a, b) => b.rating - a.rating || a.i - b.i)
    .map((p) => p.id);
}
