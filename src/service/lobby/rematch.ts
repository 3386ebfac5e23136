/**
 * Rematches (issue 23). Either seat of a finished match offers one; the other seat accepts or
 * declines; an unanswered offer expires at its `expiresAt` (read, never written: nothing to sweep).
 * Each step is a public record of the finished match (../match/match-log.ts) appended with the expected
 * version, so the database decides races (two accepts, an accept and a decline: one is written,
 * the other is a 409), the match's ETag moves and every node and stream sees it. An accept and the
 * new match (seats swapped; same game, decks, settings, time control, rated flag; a fresh seed)
 * are written in one transaction: the rematch is created once.
 *
 * Tokens: the accept answers with the accepter's new seat token (once). The offerer's new seat
 * starts with no usable token (a marker hash no token has); its holder takes it once with the
 * old seat token (claimSeat), a conditional update. A registered player's own token works on
 * the new match anyway (its seat is bound to the player).
 */
import { randomBytes } from 'node:crypto';
import { otherSeat, type Seat } from '../../core/ruleset.js';
import { VersionConflictError, type MatchStore, type NewEvent } from '../../persistence/types.js';
import type { KnownCredentials } from '../accounts/credentials.js';
import { problems } from '../errors.js';
import { dealRecords, newMatchRow, statusOf } from './lobby.js';
import type { MatchEntry, MatchLoader } from '../match/match-loader.js';
import { foldRecords, rematchAcceptedRecord, rematchDeclinedRecord, rematchOfferedRecord, rematchOfRecord } from '../match/match-log.js';
import { outcomeOf, rematchView } from '../match/reads.js';
import { hashToken, newMatchId, newSeatToken } from '../accounts/tokens.js';
import type { MatchStatus } from '../../persistence/types.js';
import type { MatchView } from '../match/types.js';

/** How long an offer stays open unless the settings say otherwise (REMATCH_OFFER_TTL_SECONDS). */
export const DEFAULT_REMATCH_OFFER_TTL_SECONDS = 86_400;

/** The token hash of a rematch seat whose token has not been taken yet: no token hashes to it (hashes are hex). */
const UNCLAIMED = 'unclaimed:';

export interface RematchDeps {
  store: MatchStore;
  loader: MatchLoader;
  credentials: KnownCredentials;
  now(): number;
  offerTtlMs: number;
  /** The seat of a credential in a match (null: none). */
  seatOf(entry: MatchEntry, token: string | null | undefined): Promise<Seat | null>;
}

export interface RematchStarted {
  id: string;
  seat: Seat;
  token: string;
  version: number;
  status: MatchStatus;
}

type RematchAnswer = { rematch: NonNullable<MatchView['rematch']> };

async function seatIn(deps: RematchDeps, id: string, token: string | null | undefined): Promise<{ entry: MatchEntry; seat: Seat }> {
  if (token === undefined) throw problems.missingToken();
  const entry = await deps.loader.current(id);
  const seat = await deps.seatOf(entry, token);
  if (!seat) throw problems.noSeat();
  return { entry, seat };
}

/** The offer open now, if there is one (not answered, not expired). */
function openOffer(entry: MatchEntry, now: number) {
  const r = entry.rematch;
  return r && r.answer === null && now < r.expiresAt ? r : null;
}

/** Appends one rematch record with the expected version; a lost race is a 409. */
async function append(
  deps: RematchDeps,
  entry: MatchEntry,
  record: NewEvent,
  extra: Parameters<MatchStore['appendEvents']>[3] = {},
): Promise<MatchEntry> {
  try {
    await deps.store.appendEvents(entry.row.id, entry.version, [record], extra);
  } catch (e) {
    if (e instanceof VersionConflictError)
      throw problems.rematchUnavailable('Another request answered or changed this rematch first; reload the match.', e.currentVersion);
    throw e;
  }
  const version = entry.version + 1;
  const next: MatchEntry = { ...entry, ...foldRecords(entry, [record]), row: { ...entry.row, version }, version };
  deps.loader.remember(next);
  return next;
}

export async function offerRematch(deps: RematchDeps, id: string, token: string | null | undefined): Promise<RematchAnswer> {
  const { entry, seat } = await seatIn(deps, id, token);
  const now = deps.now();
  if (!outcomeOf(entry)) throw problems.rematchUnavailable('The match is not over.', entry.version);
  if (entry.sandbox || !entry.row.decks)
    throw problems.rematchUnavailable('A sandbox match, or one that was never dealt, has no rematch.', entry.version);
  if (entry.rematch?.answer === 'accepted')
    throw problems.rematchUnavailable(`The rematch was accepted: match ${entry.rematch.matchId}.`, entry.version);
  const open = openOffer(entry, now);
  if (open) {
    throw problems.rematchUnavailable(
      open.offeredBy === seat ? 'Your offer is still open.' : 'The other seat has offered a rematch: accept or decline it.',
      entry.version,
    );
  }
  const next = await append(deps, entry, rematchOfferedRecord(seat, now, now + deps.offerTtlMs));
  return { rematch: rematchView({ ...next, at: now })! };
}

/** The open offer the caller's seat may answer (the other seat's). */
function answerable(entry: MatchEntry, seat: Seat, now: number) {
  const r = entry.rematch;
  if (!r) throw problems.rematchUnavailable('No rematch was offered.', entry.version);
  if (r.answer) throw problems.rematchUnavailable(`The offer was ${r.answer} already.`, entry.version);
  if (now >= r.expiresAt) throw problems.rematchUnavailable('The offer expired.', entry.version);
  if (r.offeredBy === seat) throw problems.rematchUnavailable('The other seat answers your offer.', entry.version);
  return r;
}

export async function declineRematch(deps: RematchDeps, id: string, token: string | null | undefined): Promise<RematchAnswer> {
  const { entry, seat } = await seatIn(deps, id, token);
  const now = deps.now();
  answerable(entry, seat, now);
  const next = await append(deps, entry, rematchDeclinedRecord(seat, now));
  return { rematch: rematchView({ ...next, at: now })! };
}

export async function acceptRematch(deps: RematchDeps, id: string, token: string | null | undefined): Promise<RematchStarted> {
  const { entry, seat } = await seatIn(deps, id, token);
  const now = deps.now();
  answerable(entry, seat, now);
  const { row, ruleset } = entry;
  const decks = row.decks!;
  // The rematch is played by the rules this server has now: the settings must still be valid under them.
  const settings = ruleset.configSchema.safeParse(row.config);
  if (!settings.success)
    throw problems.rematchUnavailable("This match's settings are not valid under the rules this server has now.", entry.version);
  const config: unknown = settings.data;
  // Seats swapped: whoever held a seat holds the other one now, with the same deck.
  const from = (s: Seat) => row.seats.find((x) => x.seat === otherSeat(s))!;
  const swapped = { p1: decks.p2, p2: decks.p1 };
  for (const s of ['p1', 'p2'] as const) {
    const errors = ruleset.validateDeck(swapped[s], config);
    if (errors.length > 0)
      throw problems.rematchUnavailable(
        `The deck of seat ${otherSeat(s)} is no longer valid under these rules: ${errors.join('; ')}`,
        entry.version,
      );
  }
  const seed = randomBytes(32).toString('hex');
  const dealt = ruleset.create({ config, decks: swapped, seed });
  if (!dealt.ok) throw problems.rematchUnavailable(`The rematch cannot be dealt: ${dealt.errors.join('; ')}`, entry.version);
  const control = entry.timeControl;
  const { records, deadline } = dealRecords(ruleset, dealt, control, now);
  const events = [...records, rematchOfRecord(row.id)];
  const newId = newMatchId();
  const mySeat = otherSeat(seat);
  const token2 = newSeatToken();
  const tokenHash = hashToken(token2);
  const seats = (['p1', 'p2'] as const).map((s) => {
    const was = from(s);
    return {
      seat: s,
      tokenHash: s === mySeat ? tokenHash : UNCLAIMED + randomBytes(16).toString('hex'),
      handle: was.handle,
      playerId: was.playerId ?? null,
      deck: was.deck ?? null,
    };
  });
  const rated = row.rated && seats.every((s) => s.playerId !== null);
  const status = statusOf(ruleset, dealt.state);
  await append(deps, entry, rematchAcceptedRecord(seat, now, newId), {
    createMatch: {
      match: newMatchRow(ruleset, { id: newId, config, seed, control, status, seats, state: dealt.state, deadline, decks: swapped, rated }),
      events,
    },
  });
  deps.credentials.remember(tokenHash);
  return { id: newId, seat: mySeat, token: token2, version: events.length, status };
}

/** The offerer's seat in the accepted rematch: its new token, returned once (to the holder of its seat in the finished match). */
export async function claimRematchSeat(
  deps: RematchDeps,
  id: string,
  token: string | null | undefined,
): Promise<{ id: string; seat: Seat; token: string }> {
  const { entry, seat } = await seatIn(deps, id, token);
  const r = entry.rematch;
  if (r?.answer !== 'accepted' || !r.matchId) throw problems.rematchUnavailable('No accepted rematch.', entry.version);
  if (r.offeredBy !== seat) throw problems.rematchSeatClaimed();
  const next = await deps.store.getMatch(r.matchId);
  const newSeat = otherSeat(seat);
  const held = next?.seats.find((s) => s.seat === newSeat)?.tokenHash;
  if (!next || !held?.startsWith(UNCLAIMED)) throw problems.rematchSeatClaimed();
  const fresh = newSeatToken();
  // Of two claims at once, the database lets one replace the marker.
  if (!(await deps.store.replaceSeatToken(next.id, newSeat, held, hashToken(fresh)))) throw problems.rematchSeatClaimed();
  deps.credentials.remember(hashToken(fresh));
  return { id: next.id, seat: newSeat, token: fresh };
}
