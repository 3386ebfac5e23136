/**
 * A match's log holds the game's own events and a few records of the match's own, each in its
 * own envelope (source 'match'; the game's events are 'game'), so a game may name its events
 * anything: `MatchOpened` (server-only, first), `ClockSet` and `MatchEnded` (public). This module
 * reads the envelope and gives the records' public form; the service writes and folds them
 * (src/service/match/match-log.ts) and replay files carry them (src/replay).
 */

/** Who an event in a match's log is from: the game's rules, or the match itself. */
export type EventSource = 'game' | 'match';

export const MATCH_OPENED = 'MatchOpened';
export const CLOCK_SET = 'ClockSet';
export const MATCH_ENDED = 'MatchEnded';
/** A finished match's rematch: offered, declined or accepted (public, appended to the finished match). */
export const REMATCH_OFFERED = 'RematchOffered';
export const REMATCH_DECLINED = 'RematchDeclined';
export const REMATCH_ACCEPTED = 'RematchAccepted';
/** The first match record of a rematch: the match it is the rematch of (public). */
export const REMATCH_OF = 'RematchOf';

export function isOpening(e: { source: EventSource; type: string }): boolean {
  return e.source === 'match' && e.type === MATCH_OPENED;
}

/** True for the match's own records, false for the game's events: by envelope, never by name. */
export function isMatchRecord(e: { source: EventSource }): boolean {
  return e.source === 'match';
}

/** The match's own records as clients see them (all public); null for the server-only opening. */
export function publicRecord(e: { source: EventSource; type: string; payload: unknown }): { type: string; [k: string]: unknown } | null {
  if (isOpening(e)) return null;
  return { ...(e.payload as Record<string, unknown>), type: e.type };
}
