/**
 * Match clocks (pure: time comes from the caller, every change is recorded as a snapshot in the
 * match's log, so a replay gives the same clocks). Game-agnostic: a clock only needs to know whose
 * decision the game waits for.
 *
 * - correspondence: each decision of yours gets the full period (lichess's days per move).
 * - live: Fischer; your time runs while the decision is yours, and the increment is added when
 *   the decision passes to the other seat (a turn of several decisions earns it once).
 */
import { z } from 'zod';
import type { Seat } from './ruleset.js';

export const DAYS_PER_MOVE = [1, 2, 3, 5, 7, 10, 14] as const;
const DAY_MS = 86_400_000;

export const TimeControlSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('none') }),
    z.strictObject({
      kind: z.literal('correspondence'),
      daysPerMove: z.literal(DAYS_PER_MOVE).describe(`Days for each decision: ${DAYS_PER_MOVE.join(', ')}.`),
    }),
    z.strictObject({
      kind: z.literal('live'),
      initialSeconds: z.number().int().min(1).max(86_400).describe('Time per seat at the start.'),
      incrementSeconds: z.number().int().min(0).max(3_600).describe('Added when the decision passes to the other seat (Fischer).'),
    }),
  ])
  .meta({
    id: 'TimeControl',
    description:
      'none: no clock (the default). correspondence: daysPerMove for each decision. live: Fischer, initialSeconds per seat plus incrementSeconds per turn.',
  });
export type TimeControl = z.infer<typeof TimeControlSchema>;

/** A clock as of its last change. Times are epoch milliseconds. */
export interface Clock {
  control: Exclude<TimeControl, { kind: 'none' }>;
  /** Time left per seat when `running` started (live), or the full period (correspondence). */
  remainingMs: Record<Seat, number>;
  /** Whose time is running, since when; null when nobody's (the game is over). */
  running: { seat: Seat; since: number } | null;
}

function periodMs(control: Clock['control']): number {
  return control.kind === 'correspondence' ? control.daysPerMove * DAY_MS : control.initialSeconds * 1000;
}

/** The clock at the deal: the first decision's seat starts running. Null for `none`. */
export function startClock(control: TimeControl, toMove: Seat | null, at: number): Clock | null {
  if (control.kind === 'none') return null;
  const full = periodMs(control);
  return { control, remainingMs: { p1: full, p2: full }, running: toMove ? { seat: toMove, since: at } : null };
}

/** The clock after `seat` decided at `at`, when the game now waits for `next` (null: over). */
export function afterDecision(clock: Clock, seat: Seat, at: number, next: Seat | null): Clock {
  const remainingMs = { ...clock.remainingMs };
  if (clock.control.kind === 'correspondence') {
    remainingMs.p1 = remainingMs.p2 = periodMs(clock.control);
  } else if (clock.running) {
    const r = clock.running.seat;
    remainingMs[r] = Math.max(0, remainingMs[r] - Math.max(0, at - clock.running.since));
    if (next !== seat && r === seat) remainingMs[seat] += clock.control.incrementSeconds * 1000;
  }
  return { control: clock.control, remainingMs, running: next ? { seat: next, since: at } : null };
}

/** When the running seat's time runs out; null when nobody's runs. */
export function deadlineOf(clock: Clock): number | null {
  return clock.running ? clock.running.since + clock.remainingMs[clock.running.seat] : null;
}

/** Time left per seat at `now` (never below zero). */
export function remainingAt(clock: Clock, now: number): Record<Seat, number> {
  const out = { ...clock.remainingMs };
  if (clock.running) out[clock.running.seat] = Math.max(0, out[clock.running.seat] - Math.max(0, now - clock.running.since));
  return out;
}

/** The seat whose time ran out by `now`, if any. */
export function flagged(clock: Clock, now: number): Seat | null {
  const d = deadlineOf(clock);
  return d !== null && now >= d ? clock.running!.seat : null;
}

/** The clock stopped at `at` (the game ended). */
export function stopClock(clock: Clock, at: number): Clock {
  return { control: clock.control, remainingMs: remainingAt(clock, at), running: null };
}
