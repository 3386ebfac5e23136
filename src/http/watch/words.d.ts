/** Types of words.js (a plain browser module, also unit-tested in Node). */
export interface ApiEvent {
  seq: number;
  actingSeat: string | null;
  event: { type: string; [k: string]: unknown };
}

export interface NarratorContext {
  /** `evons` or `universus`: whose event vocabulary. */
  game: string;
  /** A printed card's name by its id (the game's public card list). */
  cardName(id: string): string | undefined;
  /** How to call a seat: its handle, else `p1`/`p2`. */
  seatLabel(seat: string): string;
}

export function createNarrator(ctx: NarratorContext): (e: ApiEvent) => string | null;
