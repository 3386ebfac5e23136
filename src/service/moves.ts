/**
 * The move path: take the match from the loader's cache (replay of the stored events when not
 * cached), check the action with the game's pure `apply`, then append the new events with the
 * expected version, the status/winner, the clock and the idempotency record in ONE statement.
 * The database decides lost races (VersionConflictError → conflict), so an action is never
 * applied twice; a stale cache costs one reload, never a wrong answer.
 *
 * The match's own actions are handled here, not by a game: `abort` (until both seats have made
 * their first decision; while a seat is still open, the creator's cancel of the match), and `resign` (by either seat, at any time while the match runs) in every
 * game whose own rules have no resign action. A game that has one (Evons) resigns by its rules, so
 * its log keeps its own events for it. A clock that ran out ends the match first (expire), the
 * same way the sweepers do.
 */
import { otherSeat, type AnyRuleset, type Seat } from '../core/ruleset.js';
import { afterDecision, deadlineOf, flagged, stopClock } from '../core/clock.js';
import { canonicalJson, sha256Hex } from '../core/hash.js';
import { VersionConflictError, type IdempotencyRecord, type MatchEnding, type MatchStatus, type MatchStore, type NewEvent } from '../persistence/types.js';
import { ServiceError, problems } from './errors.js';
import { toMoveOf } from './lobby.js';
import type { MatchEntry, MatchLoader } from './match-loader.js';
import { clockRecord, endRecord, foldRecords, gameRecord, type MatchEnd } from './match-log.js';
import { legalActions, matchView, redact, outcomeOf, pendingOf, summaryOf } from './reads.js';
import { notificationsFor } from './webhooks/notifications.js';
import { ratedEnding } from './ratings.js';
import type { ActionOutcome, ActionRepresentation, ActionResult, ActionSummary, EventDto, LoadedMatch } from './types.js';
import { workCost, type ChargeWork } from './work-costs.js';
import { aiLevelOf } from './ai/players.js';

export interface MoveDeps {
  store: MatchStore;
  loader: MatchLoader;
  /** The seat of a token in a match (undefined token = none sent, null = malformed). */
  seatOf(entry: MatchEntry, token: string | null): Promise<Seat | null>;
  /** Epoch ms: the time every clock reads. */
  now(): number;
  /** Decisions each seat needs before a rated match's end moves ratings (ratings.ts). */
  ratedMinDecisions: number;
}

export interface MoveOptions {
  idempotencyKey?: string | undefined;
  expectedVersion?: number | undefined;
  /** If-Match was a weak tag: it never matches (strong comparison), whatever the version. */
  weakPrecondition?: boolean;
  /** Also return the caller's legal actions for the next decision (one request per move for a bot). */
  includeLegal?: boolean | undefined;
  /** minimal: the answer is the summary only (the match view is neither built nor serialised). Default full. */
  representation?: ActionRepresentation | undefined;
  /** Told the work an accepted action makes the computer do (its decision next), before anything is written. */
  charge?: ChargeWork | undefined;
}

/**
 * What the idempotency record stores for an accepted action: the summary and the time it was
 * read at, not the whole answer. The match view of a retry is rebuilt from the log at `version`
 * (the same events, seats and clock reading give the same bytes), so each move writes a few
 * hundred bytes instead of the whole view. Records written before this held the whole
 * ActionResult (a `match` field); those are still answered as stored.
 */
interface StoredAnswer extends ActionSummary {
  stored: 2;
  /** Epoch ms the action was applied at: the clock reading of the answer's view. */
  at: number;
}


/** `charge` that charges only on its first call. */
function once(charge: ChargeWork): ChargeWork {
  let done = false;
  return (units) => {
    if (done) return;
    charge(units);
    done = true;
  };
}

function requestHash(seat: Seat, action: unknown): string {
  return sha256Hex(canonicalJson({ seat, action }));
}

const typeOf = (action: unknown): unknown => (typeof action === 'object' && action !== null ? (action as { type?: unknown }).type : undefined);

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

/** Applies one action for the seat holding `token`; a retry with the same key gets the same result. */
export async function submitAction(deps: MoveDeps, id: string, token: string | null | undefined, action: unknown, opts: MoveOptions): Promise<ActionOutcome> {
  if (token === undefined) throw problems.missingToken();
  // The move path starts from the cached entry without reading the database: the append
  // carries the expected version, so the database still decides. If anything fails on a
  // cached entry (it may be stale), the match is reloaded and the action tried once more.
  const cached = deps.loader.peek(id);
  // The action may be tried twice (on the cached entry, then reloaded): its work is charged once.
  if (opts.charge) opts = { ...opts, charge: once(opts.charge) };
  let out: ActionOutcome | undefined;
  if (cached && !(opts.expectedVersion !== undefined && opts.expectedVersion > cached.version)) {
    try {
      out = await tryAction(deps, cached, token, action, opts);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
    }
  }
  out ??= await tryAction(deps, await deps.loader.current(id), token, action, opts);
  if (opts.includeLegal && out.legal === undefined) {
    // A replayed answer: the legal actions of the match as it is now.
    const entry = await deps.loader.current(id);
    out = { ...out, legal: legalActions({ ...entry, viewer: out.seat, seat: out.seat, at: deps.now() }, { text: false }) };
  }
  return out;
}

/**
 * Ends the match when its running clock has run out at `now`: a timeout for the seat to move, or
 * an abort (no winner) when that seat had not made its first decision. Returns the new entry, or
 * null when there was nothing to end or another request ended or moved the match first.
 */
export async function expire(deps: Pick<MoveDeps, 'store' | 'loader' | 'ratedMinDecisions'>, entry: MatchEntry, now: number): Promise<MatchEntry | null> {
  const seat = entry.clock && !entry.end && entry.state ? flagged(entry.clock, now) : null;
  if (!seat) return null;
  // The match ended when the time ran out, not when a sweep, read or move (perhaps after downtime) noticed.
  const at = deadlineOf(entry.clock!)!;
  const end: MatchEnd = entry.decided[seat]
    ? { reason: 'timed-out', seat, winner: otherSeat(seat), at }
    : { reason: 'aborted', seat: null, winner: null, at };
  try {
    return await appendEnding(deps, entry, end, null, now);
  } catch (e) {
    if (e instanceof VersionConflictError) return null;
    throw e;
  }
}

/**
 * Ends a running match at a deadline outside its clock (a tournament round's): the seat to move
 * loses on time, or the match is aborted when that seat had not made its first decision (a
 * no-show). Returns the new entry, or null when the match had ended or moved meanwhile.
 */
export async function endAtDeadline(deps: Pick<MoveDeps, 'store' | 'loader' | 'ratedMinDecisions'>, entry: MatchEntry, now: number): Promise<MatchEntry | null> {
  if (entry.end || entry.state === null || entry.row.status !== 'active') return null;
  const seat = toMoveOf(entry.ruleset, entry.state);
  const end: MatchEnd =
    seat && entry.decided[seat] ? { reason: 'timed-out', seat, winner: otherSeat(seat), at: now } : { reason: 'aborted', seat: null, winner: null, at: now };
  try {
    return await appendEnding(deps, entry, end, null, now);
  } catch (e) {
    if (e instanceof VersionConflictError) return null;
    throw e;
  }
}

/** The records that end a match outside its game: the ending, and the clock stopped where the time was (a seat that ran out shows zero). */
function endingRecords(entry: MatchEntry, end: MatchEnd, actingSeat: Seat | null, now: number): NewEvent[] {
  const records: NewEvent[] = [endRecord(end, actingSeat)];
  if (entry.clock) {
    const stoppedAt = Math.min(now, deadlineOf(entry.clock) ?? now);
    records.push(clockRecord(stopClock(entry.clock, stoppedAt), stoppedAt, actingSeat));
  }
  return records;
}

async function appendEnding(deps: Pick<MoveDeps, 'store' | 'loader' | 'ratedMinDecisions'>, entry: MatchEntry, end: MatchEnd, actingSeat: Seat | null, now: number): Promise<MatchEntry> {
  const records = endingRecords(entry, end, actingSeat, now);
  const change = rowChange(entry, records, NOBODY_TO_MOVE, end);
  await appendChange(deps, entry, records, change);
  const next: MatchEntry = { ...entry, ...foldRecords(entry, records), row: { ...entry.row, ...change }, version: change.version };
  deps.loader.remember(next);
  return next;
}

/**
 * What an append on the move path makes of the match row. The cached row (`{ ...row, ...change }`),
 * the append's columns, its webhook notifications and a rated ending's rating update all come
 * from this one object.
 */
interface RowChange {
  status: MatchStatus;
  winner: Seat | null;
  ending: MatchEnding | null;
  toMove: Seat | null;
  deadline: Date | null;
  version: number;
}

const NOBODY_TO_MOVE = { toMove: null, deadline: null } as const;

/**
 * The row once `records` are appended to `entry`: still running with `next` to decide (and its
 * clock's deadline), or ended (`end`: by the game's rules, a clock, a resignation or an abort).
 */
function rowChange(
  entry: MatchEntry,
  records: readonly NewEvent[],
  next: { toMove: Seat | null; deadline: Date | null },
  end: { winner: Seat | null; reason: MatchEnding } | null,
): RowChange {
  return { status: end ? 'finished' : 'active', winner: end?.winner ?? null, ending: end?.reason ?? null, ...next, version: entry.version + records.length };
}

/** Appends `records` with the row change in one statement (VersionConflictError when the match moved on). */
async function appendChange(
  deps: Pick<MoveDeps, 'store' | 'ratedMinDecisions'>,
  entry: MatchEntry,
  records: NewEvent[],
  change: RowChange,
  idempotency?: IdempotencyRecord,
): Promise<void> {
  const { row } = entry;
  const stored = await deps.store.appendEvents(row.id, entry.version, records, {
    row: { status: change.status, winner: change.winner, toMove: change.toMove, deadline: change.deadline },
    notify: notificationsFor(row, change),
    ...(change.ending
      ? { ending: { reason: change.ending, rating: ratedEnding(row, change.winner, change.ending, { decisions: entry.decisions, minDecisions: deps.ratedMinDecisions }) } }
      : {}),
    ...(idempotency ? { idempotency } : {}),
  });
  // The store numbers events itself; it must agree with the row (and any result) built from the change.
  if (stored !== change.version) throw new Error(`store returned version ${stored}, expected ${change.version}`);
}

async function tryAction(deps: MoveDeps, entry: MatchEntry, token: string | null, action: unknown, opts: MoveOptions): Promise<ActionOutcome> {
  const { row, version, state, ruleset } = entry;
  const seat = await deps.seatOf(entry, token);
  if (!seat) throw problems.noSeat();
  const key = opts.idempotencyKey;
  // Only a request with a key is ever compared with an earlier one.
  const hash = key === undefined ? '' : requestHash(seat, action);
  const representation = opts.representation ?? 'full';
  // A retry is recognised without a lookup on the way in: a request that would fail now (the
  // match moved on, the action is no longer legal) first checks for a stored answer to its
  // key, and a retry that would apply again is stopped by the key's UNIQUE constraint in the
  // append's own transaction. One round trip saved on every move.
  const priorOr = async (failure: Error): Promise<ActionOutcome> => {
    if (key !== undefined) {
      const prior = await replayIdempotent(deps, entry, key, seat, hash, representation);
      if (prior) return prior;
    }
    throw failure;
  };

  if (opts.weakPrecondition) {
    return priorOr(problems.versionConflict(version, `If-Match compares strongly: a weak tag never matches; send the version as "${version}".`));
  }
  if (opts.expectedVersion !== undefined && opts.expectedVersion !== version) {
    return priorOr(problems.versionConflict(version, `If-Match/expectedVersion is ${opts.expectedVersion} but the match is at version ${version}.`));
  }
  const type = typeOf(action);
  if (outcomeOf(entry)) return priorOr(problems.notActive('finished', version));
  // While the seat is open the creator may call the match off (abort); nothing else is playable yet.
  const cancelling = row.status === 'waiting' && type === 'abort';
  if ((!state || row.status === 'waiting') && !cancelling) return priorOr(problems.notActive('waiting', version));
  const now = deps.now();
  // Time ran out before this action: the match ends now, as the sweeper would have ended it.
  const expired = await expire(deps, entry, now);
  if (expired) return priorOr(problems.notActive('finished', expired.version));

  const base: Omit<LoadedMatch, 'row' | 'version' | 'state' | 'clock' | 'end' | 'decided' | 'decisions' | 'timeControl'> = { ruleset, viewer: seat, seat, sandbox: entry.sandbox, at: now };
  const answerFor = (m: LoadedMatch, records: NewEvent[]): Answer => {
    const events: EventDto[] = [];
    records.forEach((e, i) => {
      const d = redact(m, { seq: version + 1 + i, source: e.source, type: e.type, payload: e.payload, actingSeat: seat }, seat);
      if (d) events.push(d);
    });
    const summary = summaryOf(m, events);
    if (representation === 'minimal') return { summary };
    const result: ActionResult = { version: m.version, events, match: matchView(m) };
    return { summary, result };
  };
  const idempotency = (a: Answer): IdempotencyRecord | undefined =>
    key !== undefined ? { key, seat, requestHash: hash, response: JSON.stringify({ stored: 2, ...a.summary, at: now } satisfies StoredAnswer) } : undefined;

  // The match's own endings, outside the game's rules. Not expired (checked above), so the clock stops at now.
  const endByMatch = (end: MatchEnd): Promise<ActionOutcome> => {
    const records = endingRecords(entry, end, seat, now);
    const change = rowChange(entry, records, NOBODY_TO_MOVE, end);
    const m: LoadedMatch = { ...entry, ...foldRecords(entry, records), ...base, row: { ...row, ...change }, version: change.version };
    const answer = answerFor(m, records);
    return commit(deps, entry, m, records, change, idempotency(answer), answer, priorOr, opts.includeLegal);
  };
  if (type === 'abort') {
    // lichess's rule: a match can be called off until each seat has made its first decision.
    if (entry.decided.p1 && entry.decided.p2) {
      return priorOr(problems.illegal('ABORT_TOO_LATE', 'Both seats have made a decision: the match can no longer be aborted (resign instead).', version));
    }
    return endByMatch({ reason: 'aborted', seat, winner: null, at: now });
  }
  // Conceding is part of every game: the other seat wins, whoever's decision it is.
  if (type === 'resign' && !resignsByOwnRules(ruleset)) return endByMatch(resignation(seat, now));

  const r = ruleset.apply(state, seat, action);
  if (!r.ok) return priorOr(problems.illegal(r.error.code, r.error.message, version));

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
  // The computer's decision this action hands it is the caller's work (refused here, nothing is written).
  const computer = outcome || !toMove ? null : aiLevelOf(row.seats.find((s) => s.seat === toMove)?.playerId);
  if (computer !== null && toMove !== seat) opts.charge?.(workCost.aiDecision(computer));
  const change = rowChange(entry, records, { toMove, deadline }, outcome ? { winner: outcome.winner, reason: 'game' } : null);
  const m: LoadedMatch = { ...entry, ...foldRecords(entry, records), ...base, row: { ...row, ...change }, version: change.version, state: r.state };
  const answer = answerFor(m, records);
  return commit(deps, entry, m, records, change, idempotency(answer), answer, priorOr, opts.includeLegal);
}

/** Appends the action's records as one statement and remembers the new state. */
async function commit(
  deps: MoveDeps,
  entry: MatchEntry,
  m: LoadedMatch,
  records: NewEvent[],
  change: RowChange,
  idempotency: IdempotencyRecord | undefined,
  answer: Answer,
  priorOr: (failure: Error) => Promise<ActionOutcome>,
  includeLegal = false,
): Promise<ActionOutcome> {
  try {
    await appendChange(deps, entry, records, change, idempotency);
  } catch (e) {
    // A concurrent request (or an earlier one) with the same key may be the one that won.
    if (e instanceof VersionConflictError) return priorOr(problems.versionConflict(e.currentVersion));
    throw e;
  }
  const { viewer: _v, seat: _s, at: _a, ...next } = m;
  deps.loader.remember(next);
  return { ...answer, seat: m.seat!, replayed: false, ...(includeLegal ? { legal: legalActions(m, { text: false }) } : {}) };
}

/** An accepted action's answer: the summary, and unless the caller asked for the minimal one the whole result. */
type Answer = Pick<ActionOutcome, 'summary' | 'result'>;

async function replayIdempotent(deps: Pick<MoveDeps, 'store' | 'loader'>, entry: MatchEntry, key: string, seat: Seat, hash: string, representation: ActionRepresentation): Promise<ActionOutcome | null> {
  const prior = await deps.store.findIdempotency(entry.row.id, seat, key);
  if (!prior) return null;
  if (prior.requestHash !== hash) throw problems.idempotencyMismatch();
  const stored = JSON.parse(prior.response) as StoredAnswer | ActionResult;
  if ('match' in stored) return legacyReplay(stored, entry, seat);
  const { stored: _v, at, ...summary } = stored;
  if (representation === 'minimal') return { summary, seat, replayed: true };
  // The view as the first answer showed it: the log up to its version, read at its time.
  const past = await deps.loader.at(entry.row.id, summary.version);
  if (!past) throw new Error(`idempotency record of ${entry.row.id} names version ${summary.version}, which the log does not have`);
  const result: ActionResult = { version: summary.version, events: summary.events, match: matchView({ ...past.entry, viewer: seat, seat, at }) };
  return { summary, result, seat, replayed: true };
}

/** A record written before records were compact: the whole ActionResult, answered as stored. */
function legacyReplay(result: ActionResult, entry: MatchEntry, seat: Seat): ActionOutcome {
  // Results stored before matches named their game are Evons results (and had no clocks).
  const match: Record<string, unknown> = result.match;
  match.gameId ??= entry.ruleset.id;
  match.timeControl ??= { kind: 'none' };
  match.clock ??= null;
  match.outcome ??= null;
  match.seed ??= null;
  match.rated ??= false;
  match.rematch ??= null;
  match.rematchOf ??= null;
  const m = result.match;
  const summary: ActionSummary = { version: result.version, events: result.events, status: m.status, winner: m.winner, outcome: m.outcome, pending: pendingOf(m) };
  return { summary, result, seat, replayed: true };
}
