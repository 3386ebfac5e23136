/**
 * Listing matches: the filters of history search and "my turn" lists, their cursors, and the
 * Prisma where clause a filter and a cursor make (listMatches picks the page with it, the match
 * rows are read by id).
 */
import type { Prisma } from '../generated/prisma/client.js';
import { MATCH_ID_PATTERN } from '../core/ids.js';
import type { MatchRow } from './match-rows.js';
import type { MatchStatus, SeatName } from './shared.js';

export interface MatchListFilter {
  handle?: string;
  status?: MatchStatus;
  tokenHash?: string;
  /** Only matches where the seat of this handle is to move (correspondence: "my turn"). */
  toMoveHandle?: string;
  /** Only the match of this seat token, if that seat is to move. */
  toMoveTokenHash?: string;
  game?: string;
  /** A seat of this registered player. */
  playerId?: string;
  /** Only matches where this registered player's seat is to move. */
  toMovePlayerId?: string;
  /** A seat of this handle played against `handle`'s seat. */
  opponent?: string;
  /** Finished matches `handle` won, lost or drew (needs `handle`). */
  result?: 'won' | 'lost' | 'drawn';
  timeControl?: string;
  rated?: boolean;
  /** Created at or after `from`, before `to`. */
  from?: Date;
  to?: Date;
}

/** recent: newest first. deadline: soonest deadline first (no deadline last), then newest. */
export type MatchOrder = 'recent' | 'deadline';

export interface MatchPage {
  matches: MatchRow[];
  /** Opaque; pass back to get the next (older) page. Null on the last page. */
  nextCursor: string | null;
}

/** Thrown by listMatches for a cursor it did not issue (HTTP: 400). */
export class InvalidCursorError extends Error {
  constructor() {
    super('invalid cursor');
    this.name = 'InvalidCursorError';
  }
}

/** A page boundary: the last row's sort keys (its deadline only in deadline order). */
export interface Cursor {
  createdAt: Date;
  id: string;
  deadline?: Date | null;
}

export function encodeCursor(createdAt: Date, id: string, deadline?: Date | null): string {
  const keys: (string | null)[] = [createdAt.toISOString(), id];
  if (deadline !== undefined) keys.push(deadline?.toISOString() ?? null);
  return Buffer.from(JSON.stringify(keys)).toString('base64url');
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A timestamp the store could have written: ISO with milliseconds, 2000–9999, round-tripping exactly. */
function cursorDate(at: unknown): Date {
  if (typeof at !== 'string' || !ISO_MS.test(at)) throw new InvalidCursorError();
  const d = new Date(at);
  const year = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || d.toISOString() !== at || year < 2000 || year > 9999) throw new InvalidCursorError();
  return d;
}

/**
 * Cursors come back from clients, so they are checked as strictly as any input: a timestamp the
 * store could have written (ISO, 2000–9999, round-tripping exactly) and a match id of the shape
 * we issue (MATCH_ID_PATTERN). Anything else is an InvalidCursorError, never a query.
 */
export function decodeCursor(cursor: string, order: MatchOrder = 'recent'): Cursor {
  if (cursor.length > 200) throw new InvalidCursorError();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  // A cursor belongs to the order that issued it: two keys for recent, three for deadline.
  if (!Array.isArray(v) || v.length !== (order === 'deadline' ? 3 : 2)) throw new InvalidCursorError();
  const [at, id, deadline]: unknown[] = v;
  if (typeof id !== 'string' || !MATCH_ID_PATTERN.test(id)) throw new InvalidCursorError();
  const c: Cursor = { createdAt: cursorDate(at), id };
  if (order === 'deadline') c.deadline = deadline === null ? null : cursorDate(deadline);
  return c;
}

/** The where clause of a page: the filter's conditions and, after the first page, the cursor's. */
export function matchListWhere(filter: MatchListFilter, order: MatchOrder, cursor: string | null | undefined): Prisma.MatchWhereInput {
  const and: Prisma.MatchWhereInput[] = [];
  if (filter.status) and.push({ status: filter.status });
  if (filter.handle !== undefined) and.push({ seats: { some: { handle: filter.handle } } });
  if (filter.tokenHash !== undefined) and.push({ seats: { some: { tokenHash: filter.tokenHash } } });
  // "My turn": the match waits for the seat that has this handle (or token).
  const toMove = (seat: SeatName, who: Prisma.SeatWhereInput): Prisma.MatchWhereInput => ({
    toMove: seat,
    seats: { some: { seat, ...who } },
  });
  // The plain "has a seat of this handle" first: it lets the planner start from the seat index
  // (the OR of two correlated seat checks alone made it scan every match: 330 ms at 10⁵ matches).
  if (filter.toMoveHandle !== undefined) {
    and.push({ seats: { some: { handle: filter.toMoveHandle } } });
    and.push({ OR: [toMove('p1', { handle: filter.toMoveHandle }), toMove('p2', { handle: filter.toMoveHandle })] });
  }
  if (filter.toMoveTokenHash !== undefined) {
    and.push({ seats: { some: { tokenHash: filter.toMoveTokenHash } } });
    and.push({ OR: [toMove('p1', { tokenHash: filter.toMoveTokenHash }), toMove('p2', { tokenHash: filter.toMoveTokenHash })] });
  }
  if (filter.game !== undefined) and.push({ game: filter.game });
  if (filter.playerId !== undefined) and.push({ seats: { some: { playerId: filter.playerId } } });
  if (filter.toMovePlayerId !== undefined) {
    and.push({ seats: { some: { playerId: filter.toMovePlayerId } } });
    and.push({ OR: [toMove('p1', { playerId: filter.toMovePlayerId }), toMove('p2', { playerId: filter.toMovePlayerId })] });
  }
  if (filter.timeControl !== undefined) and.push({ timeControl: filter.timeControl });
  if (filter.rated !== undefined) and.push({ rated: filter.rated });
  if (filter.from !== undefined) and.push({ createdAt: { gte: filter.from } });
  if (filter.to !== undefined) and.push({ createdAt: { lt: filter.to } });
  // The opponent: the other seat of a seat that has `handle` (or any seat, without a handle).
  const seatOf = (seat: SeatName, handle: string): Prisma.MatchWhereInput => ({ seats: { some: { seat, handle } } });
  const other = (s: SeatName): SeatName => (s === 'p1' ? 'p2' : 'p1');
  if (filter.opponent !== undefined) {
    const opp = filter.opponent;
    and.push(
      filter.handle !== undefined
        ? { OR: (['p1', 'p2'] as const).map((s) => ({ AND: [seatOf(s, filter.handle!), seatOf(other(s), opp)] })) }
        : { seats: { some: { handle: opp } } },
    );
  }
  if (filter.result !== undefined && filter.handle !== undefined) {
    const h = filter.handle;
    // An aborted match has no winner either, but nobody drew it.
    if (filter.result === 'drawn')
      and.push({
        status: 'finished',
        winner: null,
        OR: [{ ending: null }, { ending: { not: 'aborted' } }],
        seats: { some: { handle: h } },
      });
    else {
      const mine = filter.result === 'won';
      and.push({ status: 'finished', OR: (['p1', 'p2'] as const).map((s) => ({ winner: mine ? s : other(s), ...seatOf(s, h) })) });
    }
  }
  if (cursor) {
    const c = decodeCursor(cursor, order);
    const older: Prisma.MatchWhereInput = { OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }] };
    if (order === 'recent') and.push(older);
    // Deadline order: later deadlines, then the same deadline and older, then (last) no deadline.
    else if (c.deadline)
      and.push({ OR: [{ deadline: { gt: c.deadline } }, { AND: [{ deadline: c.deadline }, older] }, { deadline: null }] });
    else and.push({ deadline: null }, older);
  }
  return { AND: and };
}

/** The order of a page (newest first, or soonest deadline first), the id breaking ties. */
export function matchListOrder(order: MatchOrder): Prisma.MatchOrderByWithRelationInput[] {
  return order === 'deadline'
    ? [{ deadline: { sort: 'asc', nulls: 'last' } }, { createdAt: 'desc' }, { id: 'desc' }]
    : [{ createdAt: 'desc' }, { id: 'desc' }];
}
