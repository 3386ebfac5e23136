/**
 * The move path's decision, pure (the Decider of event sourcing: `decide(command, state)` gives
 * the records, `evolve` folds them into the next state): from the match as loaded and one
 * seat's command, the records to append, the row change and the answer, or the error that
 * refuses the action. No I/O and no clock: the command carries the time. moves.ts is the
 * handler around it (load → decide → charge → append → remember); its given/when/then tests are
 * test/service/match/decide.test.ts.
 *
 * The match's own actions are decided here, not by a game: `abort` (until both seats have made
 * their first decision; while a seat is still open, the creator's cancel of the match), and
 * `resign` (by either seat, at any time while the match runs) in every game whose own rules have
 * no resign action. A game that has one (Evons) resigns by its rules, so its log keeps its own
 * events for it. A clock that ran out ends the match first, the way the sweepers do.
 */
import { otherSeat, type AnyRuleset, type Seat } from '../../core/ruleset.js';
import { afterDecision, deadlineOf, flagged, stopClock } from '../../core/clock.js';
import type { IdempotencyRecord, MatchEnding, MatchStatus, NewEvent } from '../../persistence/types.js';
import { problems, type ServiceError } from '../errors.js';
import { toMoveOf } from '../lobby/lobby.js';
import type { MatchEntry } from './match-loader.js';
import { clockRecord, endRecord, foldRecords, gameRecord, type MatchEnd } from './match-log.js';
import { matchView, outcomeOf, redact, summaryOf } from './reads.js';
import type { ActionOutcome, ActionRepresentation, ActionResult, ActionSummary, EventDto, LoadedMatch } from './types.js';
import { workCost } from '../work-costs.js';
import { aiLevelOf } from '../ai/players.js';

/** One seat's action on a match, with everything the decision may not look up itself. */
export interface MoveCommand {
  seat: Seat;
  action: unknown;
  /** Epoch ms: the time every clock reads. */
  now: number;
  expectedVersion?: number | undefined;
  /** If-Match was a weak tag: it never matches (strong comparison), whatever the version. */
  weakPrecondition?: boolean | undefined;
  /** minimal: the answer is the summary only (the match view is neither built nor serialised). Default full. */
  representation?: ActionRepresentation | undefined;
  /** The request's key and hash: an accepted action's answer is stored under them. */
  idempotency?: { key: string; requestHash: string } | undefined;
  /**
   * The clock's ending was already tried and lost its race (another request ended or moved the
   * match first): decide on this entry as if the clock had not run out; the append will tell.
   */
  expiryLost?: boolean | undefined;
}

/**
 * What an append on the move path makes of the match row. The cached row (`{ ...row, ...change }`),
 * the append's columns, its webhook notifications and a rated ending's rating update all come
 * from this one object.
 */
export interface RowChange {
  status: MatchStatus;
  winner: Seat | null;
  ending: MatchEnding | null;
  toMove: Seat | null;
  deadline: Date | null;
  version: number;
}

/** An accepted action's answer: the summary, and unless the caller asked for the minimal one the whole result. */
export type Answer = Pick<ActionOutcome, 'summary' | 'result'>;

/**
 * What the idempotency record stores for an accepted action: the summary and the time it was
 * read at, not the whole answer. The match view of a retry is rebuilt from the log at `version`
 * (the same events, seats and clock reading give the same bytes), so each move writes a few
 * hundred bytes instead of the whole view. Records written before this held the whole
 * ActionResult (a `match` field); those are still answered as stored.
 */
export interface StoredAnswer extends ActionSummary {
  stored: 2;
  /** Epoch ms the action was applied at: the clock reading of the answer's view. */
  at: number;
}

/** Records to append at the entry's version, the row they make and the entry after them. */
export interface Change {
  records: NewEvent[];
  change: RowChange;
  next: MatchEntry;
}

export type Decision =
  /** The action is accepted: append `records` (with `idempotency`), charge `work` first, answer `answer`. */
  | ({ ok: true; kind: 'accepted'; answer: Answer; idempotency: IdempotencyRecord | undefined; work: number | null } & Change)
  /** The clock ran out before the action: append the ending `records`, then refuse with `error`. */
  | ({ ok: true; kind: 'expired'; error: ServiceError } & Change)
  /** Refused: nothing is written (a stored answer to the request's key may still be the answer). */
  | { ok: false; error: ServiceError };

const NOBODY_TO_MOVE = { toMove: null, deadline: null } as const;

const typeOf = (action: unknown): unknown =>
  typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined;

/** Whether a game's own actions include `{"type":"resign"}` (its action schema is the one source); remembered per ruleset. */
const OWN_RESIGN = new WeakMap<AnyRuleset, boolean>();
export function resignsByOwnRules(ruleset: AnyRuleset): boolean {
  let own = OWN_RESIGN.get(ruleset);
  if (own === undefined) {
    own = ruleset.actionSchema.safeParse({ type: 'resign' }).success;
    OWN_RESIGN.set(ruleset, own);
  }
  return own;
}

/** The match's ending when `seat` resigns at `at` (a game without its own resign): the other seat wins. */
export function resignation(seat: Seat, at: number): MatchEnd {
  return { reason: 'resigned', seat, winner: otherSeat(seat), at };
}

/**
 * The row once `records` are appended to `entry`: still running with `next` to decide (and its
 * clock's deadline), or ended (`end`: by the game's rules, a clock, a resignation or an abort).
 */
export function rowChange(
  entry: MatchEntry,
  records: readonly NewEvent[],
  next: { toMove: Seat | null; deadline: Date | null },
  end: { winner: Seat | null; reason: MatchEnding } | null,
): RowChange {
  return {
    status: end ? 'finished' : 'active',
    winner: end?.winner ?? null,
    ending: end?.reason ?? null,
    ...next,
    version: entry.version + records.length,
  };
}

/** The entry once `records` (with the row change `change`) are appended; `state` is the game's after them. */
export function evolve(entry: MatchEntry, records: readonly NewEvent[], change: RowChange, state: unknown = entry.state): MatchEntry {
  return { ...entry, ...foldRecords(entry, records), row: { ...entry.row, ...change }, version: change.version, state };
}

/**
 * How a running clock that has run out at `now` ends the match: a timeout for the seat to move,
 * or an abort (no winner) when that seat had not made its first decision. Null when nothing ran out.
 */
export function clockEnding(entry: MatchEntry, now: number): MatchEnd | null {
  const seat = entry.clock && !entry.end && entry.state ? flagged(entry.clock, now) : null;
  if (!seat) return null;
  // The match ended when the time ran out, not when a sweep, read or move (perhaps after downtime) noticed.
  const at = deadlineOf(entry.clock!)!;
  return entry.decided[seat]
    ? { reason: 'timed-out', seat, winner: otherSeat(seat), at }
    : { reason: 'aborted', seat: null, winner: null, at };
}

/** A match ended outside its game: the ending, and the clock stopped where the time was (a seat that ran out shows zero). */
export function ending(entry: MatchEntry, end: MatchEnd, actingSeat: Seat | null, now: number): Change {
  const records: NewEvent[] = [endRecord(end, actingSeat)];
  if (entry.clock) {
    const stoppedAt = Math.min(now, deadlineOf(entry.clock) ?? now);
    records.push(clockRecord(stopClock(entry.clock, stoppedAt), stoppedAt, actingSeat));
  }
  const change = rowChange(entry, records, NOBODY_TO_MOVE, end);
  return { records, change, next: evolve(entry, records, change) };
}

/** The decision on `command` for the match as `entry` holds it. */
export function decide(command: MoveCommand, entry: MatchEntry): Decision {
  const { row, version, state, ruleset } = entry;
  const { seat, action, now } = command;
  const refuse = (error: ServiceError): Decision => ({ ok: false, error });

  if (command.weakPrecondition) {
    return refuse(
      problems.versionConflict(version, `If-Match compares strongly: a weak tag never matches; send the version as "${version}".`),
    );
  }
  if (command.expectedVersion !== undefined && command.expectedVersion !== version) {
    return refuse(
      problems.versionConflict(version, `If-Match/expectedVersion is ${command.expectedVersion} but the match is at version ${version}.`),
    );
  }
  const type = typeOf(action);
  if (outcomeOf(entry)) return refuse(problems.notActive('finished', version));
  // While the seat is open the creator may call the match off (abort); nothing else is playable yet.
  const cancelling = row.status === 'waiting' && type === 'abort';
  if ((!state || row.status === 'waiting') && !cancelling) return refuse(problems.notActive('waiting', version));
  // Time ran out before this action: the match ends first, as the sweeper would have ended it,
  // and the action is answered as one on a finished match (at the version the ending makes).
  const ran = command.expiryLost ? null : clockEnding(entry, now);
  if (ran) {
    const ended = ending(entry, ran, null, now);
    return { ok: true, kind: 'expired', ...ended, error: problems.notActive('finished', ended.change.version) };
  }

  if (type === 'abort') {
    // lichess's rule: a match can be called off until each seat has made its first decision.
    if (entry.decided.p1 && entry.decided.p2) {
      return refuse(
        problems.illegal(
          'ABORT_TOO_LATE',
          'Both seats have made a decision: the match can no longer be aborted (resign instead).',
          version,
        ),
      );
    }
    // Not expired (checked above), so the clock stops at now.
    return accept(command, entry, ending(entry, { reason: 'aborted', seat, winner: null, at: now }, seat, now), null);
  }
  // Conceding is part of every game: the other seat wins, whoever's decision it is.
  if (type === 'resign' && !resignsByOwnRules(ruleset))
    return accept(command, entry, ending(entry, resignation(seat, now), seat, now), null);

  const r = ruleset.apply(state, seat, action);
  if (!r.ok) return refuse(problems.illegal(r.error.code, r.error.message, version));

  const records = (r.events as { type: string }[]).map((e) => gameRecord(ruleset, e, seat));
  const outcome = ruleset.outcome(r.state);
  const toMove = toMoveOf(ruleset, r.state);
  let deadline: Date | null = null;
  if (entry.clock) {
    const clock = afterDecision(entry.clock, seat, now, outcome ? null : toMove);
    records.push(clockRecord(clock, now, seat));
    const d = deadlineOf(clock);
    deadline = d === null ? null : new Date(d);
  }
  // The computer's decision this action hands it is the caller's work (charged before anything is written).
  const computer = outcome || !toMove ? null : aiLevelOf(row.seats.find((s) => s.seat === toMove)?.playerId);
  const work = computer !== null && toMove !== seat ? workCost.aiDecision(computer) : null;
  const change = rowChange(entry, records, { toMove, deadline }, outcome ? { winner: outcome.winner, reason: 'game' } : null);
  return accept(command, entry, { records, change, next: evolve(entry, records, change, r.state) }, work);
}

/** The accepted decision: the answer redacted for the acting seat, and the record of it for a retry with the same key. */
function accept(command: MoveCommand, entry: MatchEntry, { records, change, next }: Change, work: number | null): Decision {
  const { seat, now } = command;
  const m: LoadedMatch = { ...next, viewer: seat, seat, at: now };
  const events: EventDto[] = [];
  records.forEach((e, i) => {
    const d = redact(m, { seq: entry.version + 1 + i, source: e.source, type: e.type, payload: e.payload, actingSeat: seat }, seat);
    if (d) events.push(d);
  });
  const summary = summaryOf(m, events);
  let answer: Answer = { summary };
  if ((command.representation ?? 'full') === 'full') {
    const result: ActionResult = { version: m.version, events, match: matchView(m) };
    answer = { summary, result };
  }
  const key = command.idempotency;
  const idempotency: IdempotencyRecord | undefined = key
    ? {
        key: key.key,
        seat,
        requestHash: key.requestHash,
        response: JSON.stringify({ stored: 2, ...summary, at: now } satisfies StoredAnswer),
      }
    : undefined;
  return { ok: true, kind: 'accepted', records, change, next, answer, idempotency, work };
}
