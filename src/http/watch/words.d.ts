/** Types of words.js (a plain browser module, also unit-tested in Node). */
import type { WatchScript } from '../../games/game-module.js';

export interface ApiEvent {
  seq: number;
  actingSeat: string | null;
  /** The envelope: the game's event, or the match's own record (worded by the page itself). */
  source?: 'game' | 'match';
  event: { type: string; [k: string]: unknown };
}

export interface NarratorContext {
  /** The match's game's own events in words: its watch script's `words`. */
  words: WatchScript['words'];
  /** A printed card's name by its id (the game's public card list). */
  cardName(id: string): string | undefined;
  /** How to call a seat: its handle, else `p1`/`p2`. */
  seatLabel(seat: string): string;
}

export function createNarrator(ctx: NarratorContext): (e: ApiEvent) => string | null;
