/**
 * A match's stored log is the game's own events plus a few records of the match's own, which
 * no game knows about:
 * - `MatchOpened` (server-only, first): the creation parameters the deal at join needs;
 * - `ClockSet` (public): the clock after a change (time controls; src/core/clock.ts);
 * - `MatchEnded` (public): the match ended outside the game's rules: a seat ran out of time,
 *   resigned (in a game without a resign of its own), or the match was aborted.
 * This module is the only one that tells them apart: everything else asks it for the game's
 * events, the opening, or the match's own state (clock, ending).
 */
import type { AnyRuleset, Seat } from '../core/ruleset.js';
import type { Clock, TimeControl } from '../core/clock.js';
import type { GeneratorId } from '../core/random.js';
import type { NewEvent } from '../persistence/types.js';

const MATCH_OPENED = 'MatchOpened';
const CLOCK_SET = 'ClockSet';
const MATCH_ENDED = 'MatchEnded';
const MATCH_RECORDS: ReadonlySet<string> = new Set([MATCH_OPENED, CLOCK_SET, MATCH_ENDED]);

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
  /** Absent = none (opened before time controls). */
  timeControl?: TimeControl;
}

/** How a match ended outside its game's rules. */
export interface MatchEnd {
  /**
   * timed-out: `seat` ran out of time; resigned: `seat` conceded; aborted: before both seats had
   * decided (`seat` asked, or null: nobody showed).
   */
  reason: 'timed-out' | 'resigned' | 'aborted';
  seat: Seat | null;
  winner: Seat | null;
  /** Epoch ms. */
  at: number;
}

interface LoggedRecord {
  type: string;
  payload: unknown;
  actingSeat?: string | null;
}

/** What the match's own records and the seats' acts say, folded from a log. */
export interface MatchRecords {
  timeControl: TimeControl;
  clock: Clock | null;
  end: MatchEnd | null;
  /** Which seats have made a decision (abort is possible until both have). */
  decided: Record<Seat, boolean>;
  /**
   * Decisions per seat in a clocked match: each writes one ClockSet by its seat (the deal's and a
   * timeout's are by nobody). Unclocked matches count none (they are never rated).
   */
  decisions: Record<Seat, number>;
}

export const NO_RECORDS: MatchRecords = { timeControl: { kind: 'none' }, clock: null, end: null, decided: { p1: false, p2: false }, decisions: { p1: 0, p2: 0 } };

export function isOpening(e: { type: string }): boolean {
  return e.type === MATCH_OPENED;
}

/** True for the match's own records, false for the game's events. */
export function isMatchRecord(e: { type: string }): boolean {
  return MATCH_RECORDS.has(e.type);
}

/** The opening record of a log, if it has one (always its first). */
export function openingOf(log: readonly LoggedRecord[]): MatchOpening | null {
  const first = log[0];
  return first && isOpening(first) ? (first.payload as MatchOpening) : null;
}

/** The records of a log that are the game's own events, in order. */
export function gameRecords<T extends { type: string }>(log: readonly T[]): T[] {
  return log.filter((e) => !isMatchRecord(e));
}

/** `acc` moved on by more of the log. */
export function foldRecords(acc: MatchRecords, log: readonly LoggedRecord[]): MatchRecords {
  let { timeControl, clock, end } = acc;
  const decided = { ...acc.decided };
  const decisions = { ...(acc.decisions ?? NO_RECORDS.decisions) };
  for (const e of log) {
    if (e.type === MATCH_OPENED) timeControl = (e.payload as MatchOpening).timeControl ?? timeControl;
    else if (e.type === CLOCK_SET) {
      clock = (e.payload as { clock: Clock }).clock;
      timeControl = clock.control;
      if (e.actingSeat === 'p1' || e.actingSeat === 'p2') decisions[e.actingSeat] += 1;
    }
    else if (e.type === MATCH_ENDED) end = (e.payload as { end: MatchEnd }).end;
    else if (!isMatchRecord(e) && (e.actingSeat === 'p1' || e.actingSeat === 'p2')) decided[e.actingSeat] = true;
  }
  return { timeControl, clock, end, decided, decisions };
}

/** The match's own records as clients see them (all public); null for the server-only opening. */
export function publicRecord(e: { type: string; payload: unknown }): { type: string; [k: string]: unknown } | null {
  if (isOpening(e)) return null;
  return { ...(e.payload as Record<string, unknown>), type: e.type };
}

export function openingRecord(opening: Omit<MatchOpening, 'type'>): NewEvent {
  return { type: MATCH_OPENED, payload: { type: MATCH_OPENED, ...opening }, visibility: 'server', actingSeat: opening.creatorSeat };
}

export function clockRecord(clock: Clock, at: number, actingSeat: Seat | null): NewEvent {
  return { type: CLOCK_SET, payload: { type: CLOCK_SET, at, clock }, visibility: 'public', actingSeat };
}

export function endRecord(end: MatchEnd, actingSeat: Seat | null): NewEvent {
  return { type: MATCH_ENDED, payload: { type: MATCH_ENDED, end }, visibility: 'public', actingSeat };
}

/** A game event as a stored record: who may see it comes from the game's own rules. */
export function gameRecord(ruleset: AnyRuleset, e: { type: string }, actingSeat: Seat | null): NewEvent {
  return { type: e.type, payload: e, visibility: ruleset.eventVisibility(e), actingSeat };
}
