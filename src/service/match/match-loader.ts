/**
 * Loading a match = replaying its stored events through its game's rules. The database is the
 * only source of truth; this keeps a bounded in-process cache of (row, state) by match id, and
 * every read checks the cached version against the stored one (one indexed lookup), so a cold
 * node and a warm one give the same answer. A cache that fell behind catches up with the newer
 * events.
 */
import { LRUCache } from 'lru-cache';
import type { AnyRuleset } from '../../core/ruleset.js';
import { rulesetOf } from '../../games/registry.js';
import type { MatchRow, MatchStore } from '../../persistence/types.js';
import { problems } from '../errors.js';
import { FREE, workCost, type ChargeWork } from '../work-costs.js';
import { NO_RECORDS, foldRecords, gameRecords, isOpening, openingOf, type MatchOpening, type MatchRecords } from './match-log.js';

/** A match as of one version: the stored row (seats, handles), its game, the game's state, and the match's own records (clock, ending). */
export interface MatchEntry extends MatchRecords {
  row: MatchRow;
  ruleset: AnyRuleset;
  version: number;
  /** Null while an open-seat match waits for its second player (nothing dealt yet). */
  state: unknown;
  sandbox: boolean;
}

/** The game a stored match is played by, or a 503 when this server does not host it. */
export function rulesetOfRow(row: MatchRow): AnyRuleset {
  const r = rulesetOf(row.game);
  if (!r) throw problems.gameUnavailable(row.game);
  return r;
}

/** A time-travel checkpoint: what a replay of the log up to event `seq` holds. */
interface Checkpoint {
  seq: number;
  state: unknown;
  records: MatchRecords;
  opening: MatchOpening | null;
  sandbox: boolean;
  /** When event `seq` was written (ms). */
  createdAt: number;
}

/** Events between two time-travel checkpoints of one match: a past read replays at most this many. */
export const CHECKPOINT_EVERY = 64;
/** Checkpoint states kept over all matches (TIME_TRAVEL_CHECKPOINTS). */
export const DEFAULT_TIME_TRAVEL_CHECKPOINTS = 2_000;

function findLast<T>(list: readonly T[], ok: (t: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (ok(list[i]!)) return list[i];
  return undefined;
}

export class MatchLoader {
  /** Null when caching is off (MATCH_CACHE_SIZE=0): every read replays. */
  private readonly cache: LRUCache<string, MatchEntry> | null;
  /** Counters for tests and metrics. */
  readonly stats = { replays: 0, cacheHits: 0, catchUps: 0 };

  /** Time-travel checkpoints by match id, at most `checkpointBudget` states in all; null when off. */
  private readonly checkpoints: LRUCache<string, Checkpoint[]> | null;

  constructor(
    private readonly store: MatchStore,
    cacheSize: number,
    private readonly checkpointBudget = DEFAULT_TIME_TRAVEL_CHECKPOINTS,
  ) {
    this.cache = cacheSize > 0 ? new LRUCache({ max: cacheSize }) : null;
    this.checkpoints =
      checkpointBudget > 0 ? new LRUCache({ maxSize: checkpointBudget, sizeCalculation: (list) => Math.max(1, list.length) }) : null;
  }

  /** The match as the database has it now. */
  async current(id: string): Promise<MatchEntry> {
    const cached = this.cache?.get(id);
    if (cached) {
      // The seat epoch too: a seat token replaced on any node must stop working here at once.
      const stamp = await this.store.getStamp(id);
      if (stamp === null) throw problems.matchNotFound(id);
      if (stamp.version === cached.version && stamp.seatEpoch === cached.row.seatEpoch) {
        this.stats.cacheHits++;
        return cached;
      }
    }
    const row = await this.store.getMatch(id);
    if (!row) throw problems.matchNotFound(id);
    return this.stateFor(row);
  }

  /**
   * The match as it was right after event `seq` (time travel). Past events never change, so the
   * game's state every CHECKPOINT_EVERY events is kept (a bounded LRU): a read replays at most
   * that many events from the nearest checkpoint, not the whole log (22–39 ms at the end of a
   * 2,566-event match before). Null when the match has no event `seq`.
   */
  async at(id: string, seq: number, charge: ChargeWork = FREE): Promise<{ entry: MatchEntry; at: number } | null> {
    const row = await this.store.getMatch(id);
    if (!row) throw problems.matchNotFound(id);
    if (seq < 1 || seq > row.version) return null;
    const ruleset = rulesetOfRow(row);
    const kept = this.checkpoints?.get(id) ?? [];
    const from = findLast(kept, (c) => c.seq <= seq) ?? null;
    // Charged by the events it will replay, before it reads them.
    charge(workCost.timeTravel(seq - (from?.seq ?? 0)));
    const stored = await this.store.loadEvents(id, from ? { afterSeq: from.seq, limit: seq - from.seq } : { limit: seq });
    const opening = from ? from.opening : openingOf(stored);
    let point: Checkpoint = from ?? {
      seq: 0,
      state: null,
      records: NO_RECORDS,
      opening,
      sandbox: (opening?.position ?? null) !== null,
      createdAt: 0,
    };
    // In slices that end on checkpoint boundaries, so the way there leaves checkpoints behind.
    for (let i = 0; i < stored.length;) {
      const boundary = (Math.floor(point.seq / CHECKPOINT_EVERY) + 1) * CHECKPOINT_EVERY;
      let j = i;
      while (j < stored.length && stored[j]!.seq <= boundary) j++;
      const slice = stored.slice(i, j);
      const events = gameRecords(slice).map((e) => e.payload as { type: string });
      let { state, sandbox } = point;
      if (events.length > 0) {
        if (row.cardSetHash !== ruleset.cardSet.hash) throw problems.cardSetUnavailable(row.cardSetId, row.cardSetHash);
        if (state === null) sandbox = events[0]!.type === 'PositionLoaded' || (opening?.position ?? null) !== null;
        state = state === null ? ruleset.replay(events) : ruleset.evolve(state, events);
      }
      const last = slice.at(-1)!;
      point = { seq: last.seq, state, records: foldRecords(point.records, slice), opening, sandbox, createdAt: last.createdAt.getTime() };
      if (point.seq % CHECKPOINT_EVERY === 0 && point.state !== null) this.keep(id, point);
      i = j;
    }
    const { state, records, sandbox } = point;
    // Before the deal only the creator had sat down.
    const seats =
      state === null && opening
        ? row.seats.map((s) => (s.seat === opening.creatorSeat ? s : { ...s, tokenHash: null, handle: null }))
        : row.seats;
    const entry: MatchEntry = { ...records, row: { ...row, seats, version: seq }, ruleset, version: seq, state, sandbox };
    // The clocks read as they did when event `seq` was written.
    return { entry, at: point.createdAt };
  }

  private keep(id: string, point: Checkpoint): void {
    if (!this.checkpoints) return;
    const list = this.checkpoints.get(id) ?? [];
    if (list.some((c) => c.seq === point.seq)) return;
    const next = [...list, point].sort((a, b) => a.seq - b.seq);
    // A single match never holds more than the whole budget.
    this.checkpoints.set(id, next.length > this.checkpointBudget ? next.slice(-this.checkpointBudget) : next);
  }

  /**
   * The cached entry without asking the database, for the move path: its append carries the
   * expected version, so the database still decides whether the entry was current.
   */
  peek(id: string): MatchEntry | undefined {
    return this.cache?.get(id);
  }

  remember(entry: MatchEntry): void {
    const current = this.cache?.get(entry.row.id);
    if (!current || current.version <= entry.version) this.cache?.set(entry.row.id, entry);
  }

  private async stateFor(row: MatchRow): Promise<MatchEntry> {
    const cached = this.cache?.get(row.id);
    if (cached && cached.version === row.version) {
      this.stats.cacheHits++;
      const entry = { ...cached, row };
      this.remember(entry);
      return entry;
    }
    // Another node moved the match on: catch up from the cached version instead of replaying all.
    if (cached?.state && cached.version < row.version) {
      const newer = await this.store.loadEvents(row.id, { afterSeq: cached.version });
      if (newer.length > 0 && newer[0]!.seq === cached.version + 1 && !newer.some(isOpening)) {
        const events = gameRecords(newer).map((e) => e.payload);
        const state: unknown = events.length > 0 ? cached.ruleset.evolve(cached.state, events) : cached.state;
        this.stats.catchUps++;
        const version = newer.at(-1)!.seq;
        const entry: MatchEntry = {
          ...foldRecords(cached, newer),
          row: { ...row, version },
          ruleset: cached.ruleset,
          version,
          state,
          sandbox: cached.sandbox,
        };
        this.remember(entry);
        return entry;
      }
    }
    const ruleset = rulesetOfRow(row);
    const stored = await this.store.loadEvents(row.id);
    const version = stored.at(-1)?.seq ?? 0;
    const events = gameRecords(stored).map((e) => e.payload as { type: string });
    const opening = openingOf(stored);
    const sandbox = events[0]?.type === 'PositionLoaded' || (opening?.position ?? null) !== null;
    let state: unknown = null;
    if (events.length > 0) {
      if (row.cardSetHash !== ruleset.cardSet.hash) throw problems.cardSetUnavailable(row.cardSetId, row.cardSetHash);
      state = ruleset.replay(events);
      this.stats.replays++;
    }
    const entry: MatchEntry = { ...foldRecords(NO_RECORDS, stored), row: { ...row, version }, ruleset, version, state, sandbox };
    this.remember(entry);
    return entry;
  }
}
