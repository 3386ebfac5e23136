/**
 * A match's stored log is the game's own events, opened (for an open-seat match) by one record
 * of the service's: `MatchOpened`, the creation parameters the deal at join needs. This module is
 * the only one that knows that record: everything else asks it for the game's events, or for the
 * opening, and never sees the other.
 */
import type { AnyRuleset, Seat } from '../core/ruleset.js';
import type { GeneratorId } from '../core/random.js';
import type { NewEvent } from '../persistence/types.js';

const MATCH_OPENED = 'MatchOpened';

/** The creation parameters of an open-seat match (stored, server-only, as its first record). */
export interface MatchOpening {
  type: typeof MATCH_OPENED;
  creatorSeat: Seat;
  /** The creator's deck (card ids, one per copy); null for a sandbox. */
  deck: string[] | null;
  /** The sandbox position, in the game's own format; null for a deal. */
  position: unknown;
  config: unknown;
  /** The generator the deal at join will use. Absent = 'sfc32' (opened before keyed streams). */
  rng?: GeneratorId;
}

interface LoggedRecord {
  seq: number;
  type: string;
  payload: unknown;
}

export function isOpening(e: { type: string }): boolean {
  return e.type === MATCH_OPENED;
}

/** The opening record of a log, if it has one (always its first). */
export function openingOf(log: readonly LoggedRecord[]): MatchOpening | null {
  const first = log[0];
  return first && isOpening(first) ? (first.payload as MatchOpening) : null;
}

/** The records of a log that are the game's own events, in order. */
export function gameRecords<T extends LoggedRecord>(log: readonly T[]): T[] {
  return log.filter((e) => !isOpening(e));
}

export function openingRecord(opening: Omit<MatchOpening, 'type'>): NewEvent {
  return { type: MATCH_OPENED, payload: { type: MATCH_OPENED, ...opening }, visibility: 'server', actingSeat: opening.creatorSeat };
}

/** A game event as a stored record: who may see it comes from the game's own rules. */
export function gameRecord(ruleset: AnyRuleset, e: { type: string }, actingSeat: Seat | null): NewEvent {
  return { type: e.type, payload: e, visibility: ruleset.eventVisibility(e), actingSeat };
}
