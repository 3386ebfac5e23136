/**
 * A match's stored log is the game's own events plus a few records of the match's own, which
 * no game knows about, each stored in its own envelope (source 'match'; the game's are 'game'),
 * so a game may give its events any name, these included:
 * - `MatchOpened` (server-only, first): the creation parameters the deal at join needs;
 * - `ClockSet` (public): the clock after a change (time controls; src/core/clock.ts);
 * - `MatchEnded` (public): the match ended outside the game's rules: a seat ran out of time,
 *   resigned (in a game without a resign of its own), or the match was aborted;
 * - `RematchOffered`, `RematchDeclined`, `RematchAccepted` (public, after the end): a rematch's
 *   offer and its answer; `RematchOf` (public) in the new match names the finished one.
 * Their envelope and public form are src/core/match-records.ts (replay files carry them too);
 * this module is the only one that writes them: everything else asks it for the game's events,
 * the opening, or the match's own state (clock, ending).
 */
import type { AnyRuleset, Seat } from '../../core/ruleset.js';
import type { Clock, TimeControl } from '../../core/clock.js';
import type { GeneratorId } from '../../core/random.js';
import {
  CLOCK_SET,
  MATCH_ENDED,
  MATCH_OPENED,
  REMATCH_ACCEPTED,
  REMATCH_DECLINED,
  REMATCH_OF,
  REMATCH_OFFERED,
  isMatchRecord,
  isOpening,
  type EventSource,
} from '../../core/match-records.js';
import type { NewEvent } from '../../persistence/types.js';

export { isMatchRecord, isOpening, publicRecord } from '../../core/match-records.js';

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

/** The rematch of a finished match as its log says: the last offer and what became of it. */
export interface RematchState {
  offeredBy: Seat;
  /** Epoch ms: an offer still open then is expired (read, never written). */
  expiresAt: number;
  answer: 'declined' | 'accepted' | null;
  matchId: string | null;
}

interface LoggedRecord {
  source: EventSource;
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
  /** The last rematch offer of this (finished) match; absent or null: none. */
  rematch?: RematchState | null;
  /** The finished match this one is the rematch of; absent or null: none. */
  rematchOf?: string | null;
}

export const NO_RECORDS: MatchRecords = {
  timeControl: { kind: 'none' },
  clock: null,
  end: null,
  decided: { p1: false, p2: false },
  decisions: { p1: 0, p2: 0 },
  rematch: null,
  rematchOf: null,
};

/** The opening record of a log, if it has one (always its first). */
export function openingOf(log: readonly LoggedRecord[]): MatchOpening | null {
  const first = log[0];
  return first && isOpening(first) ? (first.payload as MatchOpening) : null;
}

/** The records of a log that are the game's own events, in order. */
export function gameRecords<T extends { source: EventSource }>(log: readonly T[]): T[] {
  return log.filter((e) => !isMatchRecord(e));
}

/** `acc` moved on by more of the log. */
export function foldRecords(acc: MatchRecords, log: readonly LoggedRecord[]): MatchRecords {
  let { timeControl, clock, end } = acc;
  let rematch = acc.rematch ?? null;
  let rematchOf = acc.rematchOf ?? null;
  const decided = { ...acc.decided };
  const decisions = { ...(acc.decisions ?? NO_RECORDS.decisions) };
  for (const e of log) {
    if (e.source !== 'match') {
      if (e.actingSeat === 'p1' || e.actingSeat === 'p2') decided[e.actingSeat] = true;
    } else if (e.type === MATCH_OPENED) timeControl = (e.payload as MatchOpening).timeControl ?? timeControl;
    else if (e.type === CLOCK_SET) {
      clock = (e.payload as { clock: Clock }).clock;
      timeControl = clock.control;
      if (e.actingSeat === 'p1' || e.actingSeat === 'p2') decisions[e.actingSeat] += 1;
    } else if (e.type === MATCH_ENDED) end = (e.payload as { end: MatchEnd }).end;
    else if (e.type === REMATCH_OFFERED) {
      const p = e.payload as { by: Seat; expiresAt: number };
      rematch = { offeredBy: p.by, expiresAt: p.expiresAt, answer: null, matchId: null };
    } else if (e.type === REMATCH_DECLINED && rematch) rematch = { ...rematch, answer: 'declined' };
    else if (e.type === REMATCH_ACCEPTED && rematch)
      rematch = { ...rematch, answer: 'accepted', matchId: (e.payload as { matchId: string }).matchId };
    else if (e.type === REMATCH_OF) rematchOf = (e.payload as { matchId: string }).matchId;
  }
  return { timeControl, clock, end, decided, decisions, rematch, rematchOf };
}

export function openingRecord(opening: Omit<MatchOpening, 'type'>): NewEvent {
  return {
    source: 'match',
    type: MATCH_OPENED,
    payload: { type: MATCH_OPENED, ...opening },
    visibility: 'server',
    actingSeat: opening.creatorSeat,
  };
}

export function clockRecord(clock: Clock, at: number, actingSeat: Seat | null): NewEvent {
  return { source: 'match', type: CLOCK_SET, payload: { type: CLOCK_SET, at, clock }, visibility: 'public', actingSeat };
}

export function endRecord(end: MatchEnd, actingSeat: Seat | null): NewEvent {
  return { source: 'match', type: MATCH_ENDED, payload: { type: MATCH_ENDED, end }, visibility: 'public', actingSeat };
}

/** A game event as a stored record: who may see it comes from the game's own rules. */
export function gameRecord(ruleset: AnyRuleset, e: { type: string }, actingSeat: Seat | null): NewEvent {
  return { source: 'game', type: e.type, payload: e, visibility: ruleset.eventVisibility(e), actingSeat };
}

export function rematchOfferedRecord(by: Seat, at: number, expiresAt: number): NewEvent {
  return {
    source: 'match',
    type: REMATCH_OFFERED,
    payload: { type: REMATCH_OFFERED, by, at, expiresAt },
    visibility: 'public',
    actingSeat: by,
  };
}

export function rematchDeclinedRecord(by: Seat, at: number): NewEvent {
  return { source: 'match', type: REMATCH_DECLINED, payload: { type: REMATCH_DECLINED, by, at }, visibility: 'public', actingSeat: by };
}

export function rematchAcceptedRecord(by: Seat, at: number, matchId: string): NewEvent {
  return {
    source: 'match',
    type: REMATCH_ACCEPTED,
    payload: { type: REMATCH_ACCEPTED, by, at, matchId },
    visibility: 'public',
    actingSeat: by,
  };
}

export function rematchOfRecord(matchId: string): NewEvent {
  return { source: 'match', type: REMATCH_OF, payload: { type: REMATCH_OF, matchId }, visibility: 'public', actingSeat: null };
}
