/**
 * The move path: take the match from the loader's cache (replay of the stored events when not
 * cached), check the action with the game's pure `apply`, then append the new events with the
 * expected version, the status/winner and the idempotency record in ONE statement. The database
 * decides lost races (VersionConflictError → conflict), so an action is never applied twice; a
 * stale cache costs one reload, never a wrong answer.
 */
import type { Seat } from '../core/ruleset.js';
import { canonicalJson, sha256Hex } from '../core/hash.js';
import { VersionConflictError, type MatchStatus, type MatchStore } from '../persistence/types.js';
import { ServiceError, problems } from './errors.js';
import { toMoveOf } from './lobby.js';
import type { MatchEntry, MatchLoader } from './match-loader.js';
import { gameRecord } from './match-log.js';
import { matchView, redact } from './reads.js';
import type { ActionOutcome, ActionResult, EventDto, LoadedMatch } from './types.js';

export interface MoveDeps {
  store: MatchStore;
  loader: MatchLoader;
  /** The seat of a token in a match (undefined token = none sent, null = malformed). */
  seatOf(entry: MatchEntry, token: string | null): Seat | null;
}

export interface MoveOptions {
  idempotencyKey?: string | undefined;
  expectedVersion?: number | undefined;
}

/** The stored idempotency result is the ActionResult as JSON (200 = an accepted action). */
const ACCEPTED = 200;

function requestHash(seat: Seat, action: unknown): string {
  return sha256Hex(canonicalJson({ seat, action }));
}

/** Applies one action for the seat holding `token`; a retry with the same key gets the same result. */
export async function submitAction(deps: MoveDeps, id: string, token: string | null | undefined, action: unknown, opts: MoveOptions): Promise<ActionOutcome> {
  if (token === undefined) throw problems.missingToken();
  // The move path starts from the cached entry without reading the database: the append
  // carries the expected version, so the database still decides. If anything fails on a
  // cached entry (it may be stale), the match is reloaded and the action tried once more.
  const cached = deps.loader.peek(id);
  if (cached && !(opts.expectedVersion !== undefined && opts.expectedVersion > cached.version)) {
    try {
      return await tryAction(deps, cached, token, action, opts);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
    }
  }
  return tryAction(deps, await deps.loader.current(id), token, action, opts);
}

async function tryAction(deps: MoveDeps, entry: MatchEntry, token: string | null, action: unknown, opts: MoveOptions): Promise<ActionOutcome> {
  const { row, version, state, ruleset } = entry;
  const id = row.id;
  const seat = deps.seatOf(entry, token);
  if (!seat) throw problems.missingToken();
  const key = opts.idempotencyKey;
  // Only a request with a key is ever compared with an earlier one.
  const hash = key === undefined ? '' : requestHash(seat, action);
  // A retry is recognised without a lookup on the way in: a request that would fail now (the
  // match moved on, the action is no longer legal) first checks for a stored answer to its
  // key, and a retry that would apply again is stopped by the key's UNIQUE constraint in the
  // append's own transaction. One round trip saved on every move.
  const priorOr = async (failure: Error): Promise<ActionOutcome> => {
    if (key !== undefined) {
      const prior = await replayIdempotent(deps.store, entry, key, seat, hash);
      if (prior) return prior;
    }
    throw failure;
  };

  if (opts.expectedVersion !== undefined && opts.expectedVersion !== version) {
    return priorOr(problems.versionConflict(version, `If-Match/expectedVersion is ${opts.expectedVersion} but the match is at version ${version}.`));
  }
  if (!state || row.status === 'waiting') return priorOr(problems.notActive('waiting', version));
  if (ruleset.outcome(state)) return priorOr(problems.notActive('finished', version));

  const r = ruleset.apply(state, seat, action);
  if (!r.ok) return priorOr(problems.illegal(r.error.code, r.error.message, version));

  const records = (r.events as { type: string }[]).map((e) => gameRecord(ruleset, e, seat));
  const newVersion = version + records.length;
  const outcome = ruleset.outcome(r.state);
  const status: MatchStatus = outcome ? 'finished' : 'active';
  const toMove = toMoveOf(ruleset, r.state);
  const m: LoadedMatch = {
    row: { ...row, status, winner: outcome?.winner ?? null, version: newVersion, toMove },
    ruleset,
    version: newVersion,
    state: r.state,
    viewer: seat,
    seat,
    sandbox: entry.sandbox,
  };
  const events: EventDto[] = [];
  records.forEach((e, i) => {
    const d = redact(m, { seq: version + 1 + i, type: e.type, payload: e.payload, actingSeat: seat }, seat);
    if (d) events.push(d);
  });
  const result: ActionResult = { version: newVersion, events, match: matchView(m) };

  try {
    const stored = await deps.store.appendEvents(id, version, records, {
      status,
      winner: outcome?.winner ?? null,
      toMove,
      ...(key !== undefined ? { idempotency: { key, seat, requestHash: hash, statusCode: ACCEPTED, response: JSON.stringify(result) } } : {}),
    });
    // The store numbers events itself; it must agree with the result we stored.
    if (stored !== newVersion) throw new Error(`store returned version ${stored}, expected ${newVersion}`);
  } catch (e) {
    // A concurrent request (or an earlier one) with the same key may be the one that won.
    if (e instanceof VersionConflictError) return priorOr(problems.versionConflict(e.currentVersion));
    throw e;
  }
  deps.loader.remember({ row: m.row, ruleset, version: newVersion, state: r.state, sandbox: entry.sandbox });
  return { result, seat, replayed: false };
}

async function replayIdempotent(store: MatchStore, entry: MatchEntry, key: string, seat: Seat, hash: string): Promise<ActionOutcome | null> {
  const prior = await store.findIdempotency(entry.row.id, seat, key);
  if (!prior) return null;
  if (prior.requestHash !== hash) throw problems.idempotencyMismatch();
  const result = JSON.parse(prior.response) as ActionResult;
  // Results stored before matches named their game are Evons results.
  if (result.match.gameId === undefined) (result.match as { gameId: string }).gameId = entry.ruleset.id;
  return { result, seat, replayed: true };
}
