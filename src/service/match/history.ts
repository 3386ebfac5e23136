/**
 * Match history: newest first, cursor-paginated, by handle, status or seat token. Handles are
 * labels chosen at create/join, not accounts (see docs/api.md); only public data is listed.
 */
import type { MatchListFilter, MatchOrder, MatchRow, MatchStatus, MatchStore } from '../../persistence/types.js';
import type { Seat } from '../../core/ruleset.js';
import { problems } from '../errors.js';
import { hashToken } from '../accounts/tokens.js';
import type { MatchListFilterInput, MatchPageDto, MatchSummary } from './types.js';

export async function listMatches(
  store: MatchStore,
  filter: MatchListFilterInput,
  cursor: string | undefined,
  limit: number,
  now: number,
  order: MatchOrder = 'recent',
): Promise<MatchPageDto> {
  const f: MatchListFilter = {};
  if (filter.handle !== undefined) f.handle = filter.handle;
  if (filter.status !== undefined) f.status = filter.status;
  if (filter.tokenHash !== undefined) f.tokenHash = filter.tokenHash;
  if (filter.toMoveHandle !== undefined) f.toMoveHandle = filter.toMoveHandle;
  if (filter.toMoveTokenHash !== undefined) f.toMoveTokenHash = filter.toMoveTokenHash;
  if (filter.game !== undefined) f.game = filter.game;
  if (filter.playerId !== undefined) f.playerId = filter.playerId;
  if (filter.toMovePlayerId !== undefined) f.toMovePlayerId = filter.toMovePlayerId;
  if (filter.opponent !== undefined) f.opponent = filter.opponent;
  if (filter.timeControl !== undefined) f.timeControl = filter.timeControl;
  if (filter.rated !== undefined) f.rated = filter.rated;
  if (filter.from !== undefined) f.from = new Date(filter.from);
  if (filter.to !== undefined) f.to = new Date(filter.to);
  if (filter.result !== undefined) {
    if (filter.handle === undefined)
      throw problems.validation("result needs handle: won, lost and drawn are from that player's side.", ['result: needs handle']);
    f.result = filter.result;
  }
  let page;
  try {
    page = await store.listMatches(f, { cursor: cursor ?? null, limit, order });
  } catch (e) {
    if (isCursorError(e)) {
      throw problems.invalidCursor();
    }
    throw e;
  }
  return {
    matches: page.matches.map((r) => summary(r, now)),
    nextCursor: page.nextCursor,
  };
}

export interface MyMatchesQuery {
  /** undefined: no Authorization header; null: a malformed one. */
  token: string | null | undefined;
  handle: string | undefined;
  status: MatchStatus | undefined;
  /** 'mine': only matches waiting for the caller's decision (correspondence: "my turn"). */
  turn: 'mine' | 'any';
  cursor: string | undefined;
  limit: number;
}

/** Matches of the holder of a seat token: every match of that seat's handle, or just that match. */
export async function myMatches(store: MatchStore, q: MyMatchesQuery, now: number, playerId?: string): Promise<MatchPageDto> {
  const mine = q.turn === 'mine';
  // "My turn" is sorted by urgency: the soonest deadline first (lichess's urgent games).
  const list = (filter: MatchListFilterInput) => listMatches(store, filter, q.cursor, q.limit, now, mine ? 'deadline' : 'recent');
  // A registered player: the matches of its seats, by identity rather than by handle.
  if (playerId !== undefined) return list(mine ? { toMovePlayerId: playerId, status: q.status } : { playerId, status: q.status });
  if (q.token === null) throw problems.invalidToken();
  if (q.token !== undefined) {
    const tokenHash = hashToken(q.token);
    const own = await store.listMatches({ tokenHash }, { cursor: null, limit: 1 });
    const row = own.matches[0];
    if (!row) throw problems.invalidToken();
    const h = row.seats.find((s) => s.tokenHash === tokenHash)?.handle ?? null;
    if (h === null) return list(mine ? { toMoveTokenHash: tokenHash, status: q.status } : { tokenHash, status: q.status });
    return list(mine ? { toMoveHandle: h, status: q.status } : { handle: h, status: q.status });
  }
  if (q.handle === undefined) throw problems.missingToken();
  return list(mine ? { toMoveHandle: q.handle, status: q.status } : { handle: q.handle, status: q.status });
}

export function summary(r: MatchRow, now: number): MatchSummary {
  return {
    id: r.id,
    gameId: r.game,
    status: r.status,
    timeControl: r.timeControl as MatchSummary['timeControl'],
    rated: r.rated,
    winner: (r.winner as Seat | null) ?? null,
    toMove: r.toMove,
    deadline: r.deadline?.toISOString() ?? null,
    timeLeftMs: r.deadline ? Math.max(0, r.deadline.getTime() - now) : null,
    version: r.version,
    seats: (['p1', 'p2'] as const).map((s) => {
      const x = r.seats.find((y) => y.seat === s);
      return { seat: s, handle: x?.handle ?? null, joined: !!x?.tokenHash, verified: !!x?.playerId, bot: x?.bot ?? false };
    }),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function isCursorError(e: unknown): boolean {
  return e instanceof Error && (e.name === 'InvalidCursorError' || /cursor/i.test(e.message));
}
