/**
 * Match history: newest first, cursor-paginated, by handle, status or seat token. Handles are
 * labels chosen at create/join, not accounts (see docs/api.md); only public data is listed.
 */
import type { MatchStatus, MatchStore, MatchRow } from '../persistence/types.js';
import type { Seat } from '../engine/index.js';
import { ServiceError, problems } from './errors.js';
import { hashToken } from './tokens.js';
import type { MatchListFilterInput, MatchPageDto, MatchSummary } from './types.js';

export async function listMatches(store: MatchStore, filter: MatchListFilterInput, cursor: string | undefined, limit: number): Promise<MatchPageDto> {
  const f: { handle?: string; status?: MatchStatus; tokenHash?: string } = {};
  if (filter.handle !== undefined) f.handle = filter.handle;
  if (filter.status !== undefined) f.status = filter.status;
  if (filter.tokenHash !== undefined) f.tokenHash = filter.tokenHash;
  let page;
  try {
    page = await store.listMatches(f, { cursor: cursor ?? null, limit });
  } catch (e) {
    if (isCursorError(e)) {
      throw new ServiceError({ status: 400, code: 'invalid-cursor', title: 'Invalid cursor', detail: 'Pass back a nextCursor value unchanged.' });
    }
    throw e;
  }
  return {
    matches: page.matches.map((r) => summary(r)),
    nextCursor: page.nextCursor,
  };
}

/** Matches of the holder of a seat token: every match of that seat's handle, or just that match. */
export async function myMatches(
store: MatchStore,
token: string | null | undefined,
handle: string | undefined,
status: MatchStatus | undefined,
cursor: string | undefined,
limit: number,
): Promise<MatchPageDto> {
  if (token === null) throw problems.invalidToken();
  if (token !== undefined) {
    const tokenHash = hashToken(token);
    const own = await store.listMatches({ tokenHash }, { cursor: null, limit: 1 });
    const row = own.matches[0];
    if (!row) throw problems.invalidToken();
    const seat = row.seats.find((s) => s.tokenHash === tokenHash);
    const h = seat?.handle ?? null;
    if (h === null) return listMatches(store, { tokenHash, status }, cursor, limit);
    return listMatches(store, { handle: h, status }, cursor, limit);
  }
  if (handle === undefined) throw problems.missingToken();
  return listMatches(store, { handle, status }, cursor, limit);
}

function summary(r: MatchRow): MatchSummary {
  return {
    id: r.id,
    status: r.status,
    winner: (r.winner as Seat | null) ?? null,
    version: r.version,
    seats: (['p1', 'p2'] as const).map((s) => {
      const x = r.seats.find((y) => y.seat === s);
      return { seat: s, handle: x?.handle ?? null, joined: !!x?.tokenHash };
    }),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function isCursorError(e: unknown): boolean {
  return e instanceof Error && (e.name === 'InvalidCursorError' || /cursor/i.test(e.message));
}

