/**
 * Loading a match = replaying its stored events through the engine. The database is the only
 * source of truth; this keeps a bounded in-process cache of (row, state) by match id, and every
 * read checks the cached version against the stored one (one indexed lookup), so a cold node and
 * a warm one give the same answer. A cache that fell behind catches up with the newer events.
 */
import { cloneState, evolve, replay, type CardSet, type GameEvent, type GameState } from '../games/evons/index.js';
import type { MatchRow, MatchStore } from '../persistence/types.js';
import { ServiceError, problems } from './errors.js';
import { LRUCache } from 'lru-cache';

/** A service-level event (not the engine's): the creation parameters of an open-seat match. */
export const MATCH_OPENED = 'MatchOpened';

/** A match as of one version: the stored row (seats, handles) and the engine state. */
export interface MatchEntry {
  row: MatchRow;
  version: number;
  /** Null while an open-seat match waits for its second player (nothing dealt yet). */
  state: GameState | null;
  sandbox: boolean;
}

export class MatchLoader {
  /** Null when caching is off (MATCH_CACHE_SIZE=0): every read replays. */
  private readonly cache: LRUCache<string, MatchEntry> | null;
  /** Counters for tests and metrics. */
  readonly stats = { replays: 0, cacheHits: 0, catchUps: 0 };

  constructor(
    private readonly store: MatchStore,
    private readonly cardSet: CardSet,
    cacheSize: number,
  ) {
    this.cache = cacheSize > 0 ? new LRUCache({ max: cacheSize }) : null;
  }

  /** The match as the database has it now. */
  async current(id: string): Promise<MatchEntry> {
    const cached = this.cache?.get(id);
    if (cached) {
      const version = await this.store.getVersion(id);
      if (version === null) throw problems.matchNotFound(id);
      if (version === cached.version) {
        this.stats.cacheHits++;
        return cached;
      }
    }
    const row = await this.store.getMatch(id);
    if (!row) throw problems.matchNotFound(id);
    return this.stateFor(row);
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
      if (newer.length > 0 && newer[0]!.seq === cached.version + 1 && newer.every((e) => e.type !== MATCH_OPENED)) {
        const state = cloneState(cached.state);
        for (const e of newer) evolve(state, e.payload as GameEvent);
        this.stats.catchUps++;
        const entry: MatchEntry = { row: { ...row, version: newer.at(-1)!.seq }, version: newer.at(-1)!.seq, state, sandbox: cached.sandbox };
        this.remember(entry);
        return entry;
      }
    }
    const stored = await this.store.loadEvents(row.id);
    const version = stored.at(-1)?.seq ?? 0;
    const engineEvents = stored.filter((e) => e.type !== MATCH_OPENED).map((e) => e.payload as GameEvent);
    const sandbox =
      engineEvents.some((e) => e.type === 'PositionLoaded') ||
      stored.some((e) => e.type === MATCH_OPENED && (e.payload as { position?: unknown }).position != null);
    let state: GameState | null = null;
    if (engineEvents.length > 0) {
      if (row.cardSetHash !== this.cardSet.hash) {
        throw new ServiceError({
          status: 503,
          code: 'card-set-unavailable',
          title: 'Card set unavailable',
          detail: `This match was played with card set ${row.cardSetId} (${row.cardSetHash.slice(0, 12)}), which this server does not have.`,
        });
      }
      state = replay(engineEvents, this.cardSet);
      this.stats.replays++;
    }
    const entry: MatchEntry = { row: { ...row, version }, version, state, sandbox };
    this.remember(entry);
    return entry;
  }
}
