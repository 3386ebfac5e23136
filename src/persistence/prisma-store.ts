/**
 * MatchStore over Prisma (PGlite or PostgreSQL through a driver adapter).
 *
 * Move path (appendEvents) = one small interactive transaction:
 *   UPDATE match SET version = version + n WHERE id = $id AND version = $expected  (0 rows → conflict)
 *   INSERT events seq expected+1 … expected+n (createMany)          (UNIQUE(match_id, seq) backstop)
 *   INSERT idempotency_key (if given)                               (UNIQUE(match_id, key) → conflict)
 * Invariant: match.version = number of events = seq of the last event.
 */
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { openDatabase, type Database, type DatabaseConfig } from './database.js';
import { migrate } from './migrate.js';
import {
  VersionConflictError,
  type AppendOptions,
  type IdempotencyRecord,
  type MatchListFilter,
  type MatchPage,
  type MatchRow,
  type MatchStatus,
  type MatchStore,
  type NewEvent,
  type NewMatch,
  type SeatName,
  type StoredEvent,
  type EventVisibility,
} from './types.js';

/** Thrown by listMatches for a cursor it did not issue (HTTP: 400). */
export class InvalidCursorError extends Error {
  constructor() {
    super('invalid cursor');
    this.name = 'InvalidCursorError';
  }
}

type MatchWithSeats = Prisma.MatchGetPayload<{ include: { seats: true } }>;

function json(value: unknown): Prisma.InputJsonValue | typeof Prisma.JsonNull {
  return value === null || value === undefined ? Prisma.JsonNull : (value as Prisma.InputJsonValue);
}

function toRow(m: MatchWithSeats): MatchRow {
  return {
    id: m.id,
    engineVersion: m.engineVersion,
    rulesHash: m.rulesHash,
    config: m.config,
    cardSetId: m.cardSetId,
    cardSetHash: m.cardSetHash,
    seed: m.seed,
    seedCommitment: m.seedCommitment,
    status: m.status as MatchStatus,
    winner: m.winner as SeatName | null,
    version: m.version,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    seats: [...m.seats]
      .sort((a, b) => a.seat.localeCompare(b.seat))
      .map((s) => ({ seat: s.seat as SeatName, tokenHash: s.tokenHash, handle: s.handle })),
  };
}

function eventRows(matchId: string, firstSeq: number, events: NewEvent[]): Prisma.EventCreateManyInput[] {
  return events.map((e, i) => ({
    matchId,
    seq: firstSeq + i,
    type: e.type,
    payload: json(e.payload),
    visibility: e.visibility,
    actingSeat: e.actingSeat,
  }));
}

/**
 * Unique violation, however it arrives: adapter-pg maps it to P2002; pglite-prisma-adapter 0.6
 * passes the raw error through as a DriverAdapterError with { kind: 'postgres', code: '23505' }.
 */
function isUniqueViolation(e: unknown): boolean {
  if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002') return true;
  for (let cur: unknown = e, depth = 0; cur && typeof cur === 'object' && depth < 4; depth++) {
    const o = cur as { code?: unknown; kind?: unknown; cause?: unknown };
    if (o.code === '23505' || o.kind === 'UniqueConstraintViolation') return true;
    cur = o.cause;
  }
  return false;
}

/** Internal signal: the conditional update matched no row. */
class StaleVersion extends Error {}

export function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') {
      const createdAt = new Date(v[0]);
      if (!Number.isNaN(createdAt.getTime())) return { createdAt, id: v[1] };
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError();
}

export class PrismaMatchStore implements MatchStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly onClose: () => Promise<void> = () => prisma.$disconnect(),
  ) {}

  async createMatch(match: NewMatch, events: NewEvent[]): Promise<MatchRow> {
    const created = await this.prisma.match.create({
      data: {
        id: match.id,
        engineVersion: match.engineVersion,
        rulesHash: match.rulesHash,
        config: json(match.config),
        cardSetId: match.cardSetId,
        cardSetHash: match.cardSetHash,
        seed: match.seed,
        seedCommitment: match.seedCommitment,
        status: match.status,
        version: events.length,
        seats: {
          create: match.seats.map((s) => ({
            seat: s.seat,
            tokenHash: s.tokenHash,
            handle: s.handle,
            joinedAt: s.tokenHash === null ? null : new Date(),
          })),
        },
        events: { createMany: { data: eventRows(match.id, 1, events).map(({ matchId: _, ...e }) => e) } },
      },
      include: { seats: true },
    });
    return toRow(created);
  }

  async getMatch(id: string): Promise<MatchRow | null> {
    const m = await this.prisma.match.findUnique({ where: { id }, include: { seats: true } });
    return m && toRow(m);
  }

  async loadEvents(id: string, opts: { afterSeq?: number; limit?: number } = {}): Promise<StoredEvent[]> {
    const rows = await this.prisma.event.findMany({
      where: { matchId: id, seq: { gt: opts.afterSeq ?? 0 } },
      orderBy: { seq: 'asc' },
      ...(opts.limit !== undefined ? { take: opts.limit } : {}),
    });
    return rows.map((r) => ({
      seq: r.seq,
      type: r.type,
      payload: r.payload,
      visibility: r.visibility as EventVisibility,
      actingSeat: r.actingSeat as SeatName | null,
      createdAt: r.createdAt,
    }));
  }

  async appendEvents(id: string, expectedVersion: number, events: NewEvent[], opts: AppendOptions = {}): Promise<number> {
    if (events.length === 0) throw new Error('appendEvents needs at least one event');
    const newVersion = expectedVersion + events.length;
    try {
      await this.prisma.$transaction(async (tx) => {
        const { count } = await tx.match.updateMany({
          where: { id, version: expectedVersion },
          data: {
            version: newVersion,
            ...(opts.status !== undefined ? { status: opts.status } : {}),
            ...(opts.winner !== undefined ? { winner: opts.winner } : {}),
          },
        });
        if (count === 0) throw new StaleVersion();
        await tx.event.createMany({ data: eventRows(id, expectedVersion + 1, events) });
        const idem = opts.idempotency;
        if (idem) {
          await tx.idempotencyKey.create({
            data: {
              matchId: id,
              key: idem.key,
              seat: idem.seat,
              requestHash: idem.requestHash,
              statusCode: idem.statusCode,
              response: json(idem.response),
            },
          });
        }
      });
    } catch (e) {
      if (e instanceof StaleVersion || isUniqueViolation(e)) throw await this.conflict(id);
      throw e;
    }
    return newVersion;
  }

  private async conflict(id: string): Promise<Error> {
    const m = await this.prisma.match.findUnique({ where: { id }, select: { version: true } });
    if (!m) return new Error(`match ${id} not found`);
    return new VersionConflictError(m.version);
  }

  async findIdempotency(matchId: string, key: string): Promise<IdempotencyRecord | null> {
    const r = await this.prisma.idempotencyKey.findUnique({ where: { matchId_key: { matchId, key } } });
    return (
      r && {
        key: r.key,
        seat: r.seat as SeatName,
        requestHash: r.requestHash,
        statusCode: r.statusCode,
        response: r.response,
      }
    );
  }

  async claimSeat(
    matchId: string,
    seat: SeatName,
    tokenHash: string,
    handle: string | null,
    status: MatchStatus,
  ): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.seat.updateMany({
        where: { matchId, seat, tokenHash: null },
        data: { tokenHash, handle, joinedAt: new Date() },
      });
      if (count === 0) return false;
      await tx.match.update({ where: { id: matchId }, data: { status } });
      return true;
    });
  }

  async listMatches(filter: MatchListFilter, opts: { cursor?: string | null; limit: number }): Promise<MatchPage> {
    const and: Prisma.MatchWhereInput[] = [];
    if (filter.status) and.push({ status: filter.status });
    if (filter.handle !== undefined) and.push({ seats: { some: { handle: filter.handle } } });
    if (filter.tokenHash !== undefined) and.push({ seats: { some: { tokenHash: filter.tokenHash } } });
    if (opts.cursor) {
      const c = decodeCursor(opts.cursor);
      and.push({ OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }] });
    }
    const limit = Math.max(1, Math.floor(opts.limit));
    const rows = await this.prisma.match.findMany({
      where: { AND: and },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      include: { seats: true },
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      matches: page.map(toRow),
      nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    };
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

export interface OpenedStore {
  store: MatchStore;
  db: Database;
  close(): Promise<void>;
}

/** Opens the database, applies pending migrations, returns the store. */
export async function openStore(config: DatabaseConfig): Promise<OpenedStore> {
  const db = await openDatabase(config);
  try {
    await migrate(db);
  } catch (e) {
    await db.close();
    throw e;
  }
  const store = new PrismaMatchStore(db.prisma, () => db.close());
  return { store, db, close: () => db.close() };
}
