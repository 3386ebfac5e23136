/** Which webhook notifications an append causes (the outbox rows the append itself writes). */
import type { Seat } from '../../core/ruleset.js';
import type { MatchStatus, Notification } from '../../persistence/types.js';

interface Moment {
  status: MatchStatus;
  toMove: Seat | null;
  deadline?: Date | null;
}

/**
 * your-turn when the decision passes to a seat (not again after each of its own decisions),
 * match-ended to both seats, deadline-near for the seat to move when a deadline runs (the outbox
 * row waits until the endpoint's lead before it; a later move supersedes it).
 */
export function notificationsFor(before: Moment, after: Moment): Notification[] {
  const out: Notification[] = [];
  if (after.status === 'finished') {
    if (before.status !== 'finished') out.push({ seat: 'p1', kind: 'match-ended' }, { seat: 'p2', kind: 'match-ended' });
    return out;
  }
  if (after.toMove && after.toMove !== before.toMove) out.push({ seat: after.toMove, kind: 'your-turn' });
  if (after.toMove && after.deadline) out.push({ seat: after.toMove, kind: 'deadline-near' });
  return out;
}

/** A join: the creator hears that someone sat down, then the usual notifications of the deal. */
export function joinNotifications(creator: Seat, after: Moment): Notification[] {
  return [{ seat: creator, kind: 'opponent-joined' }, ...notificationsFor({ status: 'waiting', toMove: null }, after)];
}
