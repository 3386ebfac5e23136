/**
 * The move path's handler: load → decide → charge → append → remember. The match comes from the
 * loader's cache (replay of the stored events when not cached); the pure `decide` (decide.ts)
 * gives the records, the row change and the answer, or the error that refuses the action; the
 * records are appended with the expected version, the status/winner, the clock and the
 * idempotency record in ONE statement. The database decides lost races (VersionConflictError →
 * conflict), so an action is never applied twice; a stale cache costs one reload, never a wrong
 * answer.
 */
import { otherSeat, type Seat } from '../../core/ruleset.js';
import { canonicalJson, sha256Hex } from '../../core/hash.js';
import { VersionConflictError, type IdempotencyRecord, type MatchStore, type NewEvent } from '../../persistence/types.js';
import { ServiceError, problems } from '../errors.js';
import { toMoveOf } from '../lobby/lobby.js';
import type { MatchEntry, MatchLoader } from './match-loader.js';
import type { MatchEnd } from './match-log.js';
import { legalActions, matchView, pendingOf } from './reads.js';
import { notificationsFor } from '../webhooks/notifications.js';
import { ratedEnding } from '../accounts/ratings.js';
import type { ActionOutcome, ActionRepresentation, ActionResult, ActionSummary } from './types.js';
import type { ChargeWork } from '../work-costs.js';
import { clockEnding, decide, ending, type Change, type MoveCommand, type RowChange, type StoredAnswer } from './decide.js';

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

/** Applies one action for the seat holding `token`; a retry with the same key gets the same result. */
export async function submitAction(
  deps: MoveDeps,
  id: string,
  token: string | null | undefined,
  action: unknown,
  opts: MoveOptions,
): Promise<ActionOutcome> {
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
export async function expire(
  deps: Pick<MoveDeps, 'store' | 'loader' | 'ratedMinDecisions'>,
  entry: MatchEntry,
  now: number,
): Promise<MatchEntry | null> {
  const end = clockEnding(entry, now);
  return end ? appendEnding(deps, entry, ending(entry, end, null, now)) : null;
}

/**
 * Ends a running match at a deadline outside its clock (a tournament round's): the seat to move
 * loses on time, or the match is aborted when that seat had not made its first decision (a
 * no-show). Returns the new entry, or null when the match had ended or moved meanwhile.
 */
export async function endAtDeadline(
  deps: Pick<MoveDeps, 'store' | 'loader' | 'ratedMinDecisions'>,
  entry: MatchEntry,
  now: number,
): Promise<MatchEntry | null> {
  if (entry.end || entry.state === null || entry.row.status !== 'active') return null;
  const seat = toMoveOf(entry.ruleset, entry.state);
  const end: MatchEnd =
    seat && entry.decided[seat]
      ? { reason: 'timed-out', seat, winner: otherSeat(seat), at: now }
      : { reason: 'aborted', seat: null, winner: null, at: now };
  return appendEnding(deps, entry, ending(entry, end, null, now));
}

/** Appends an ending and remembers the entry after it; null when another request ended or moved the match first. */
async function appendEnding(
  deps: Pick<MoveDeps, 'store' | 'loader' | 'ratedMinDecisions'>,
  entry: MatchEntry,
  { records, change, next }: Change,
): Promise<MatchEntry | null> {
  try {
    await appendChange(deps, entry, records, change);
  } catch (e) {
    if (e instanceof VersionConflictError) return null;
    throw e;
  }
  deps.loader.remember(next);
  return next;
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
      ? {
          ending: {
            reason: change.ending,
            rating: ratedEnding(row, change.winner, change.ending, { decisions: entry.decisions, minDecisions: deps.ratedMinDecisions }),
          },
        }
      : {}),
    ...(idempotency ? { idempotency } : {}),
  });
  // The store numbers events itself; it must agree with the row (and any result) built from the change.
  if (stored !== change.version) throw new Error(`store returned version ${stored}, expected ${change.version}`);
}

/** One try of the action on `entry`: decide, charge, append, remember. */
async function tryAction(
  deps: MoveDeps,
  entry: MatchEntry,
  token: string | null,
  action: unknown,
  opts: MoveOptions,
): Promise<ActionOutcome> {
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

  const command: MoveCommand = {
    seat,
    action,
    now: deps.now(),
    expectedVersion: opts.expectedVersion,
    weakPrecondition: opts.weakPrecondition,
    representation,
    idempotency: key === undefined ? undefined : { key, requestHash: hash },
  };
  let d = decide(command, entry);
  if (d.ok && d.kind === 'expired') {
    // The clock's ending is appended first; if another request moved the match meanwhile, the
    // action is decided on as it stands (its append then tells whether the entry was current).
    if (await appendEnding(deps, entry, d)) return priorOr(d.error);
    d = decide({ ...command, expiryLost: true }, entry);
  }
  if (!d.ok || d.kind === 'expired') return priorOr(d.error);
  // The computer's decision this action hands it is the caller's work (refused here, nothing is written).
  if (d.work !== null) opts.charge?.(d.work);
  try {
    await appendChange(deps, entry, d.records, d.change, d.idempotency);
  } catch (e) {
    // A concurrent request (or an earlier one) with the same key may be the one that won.
    if (e instanceof VersionConflictError) return priorOr(problems.versionConflict(e.currentVersion));
    throw e;
  }
  deps.loader.remember(d.next);
  const legal = opts.includeLegal ? { legal: legalActions({ ...d.next, viewer: seat, seat, at: command.now }, { text: false }) } : {};
  return { ...d.answer, seat, replayed: false, ...legal };
}

async function replayIdempotent(
  deps: Pick<MoveDeps, 'store' | 'loader'>,
  entry: MatchEntry,
  key: string,
  seat: Seat,
  hash: string,
  representation: ActionRepresentation,
): Promise<ActionOutcome | null> {
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
  const result: ActionResult = {
    version: summary.version,
    events: summary.events,
    match: matchView({ ...past.entry, viewer: seat, seat, at }),
  };
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
  const summary: ActionSummary = {
    version: result.version,
    events: result.events,
    status: m.status,
    winner: m.winner,
    outcome: m.outcome,
    pending: pendingOf(m),
  };
  return { summary, result, seat, replayed: true };
}
