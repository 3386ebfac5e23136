/**
 * Loading a match = replaying its stored events through its game's rules. The database is the
 * only source of truth; this keeps a bounded in-process cache of (row, state) by match id, and
 * every read checks the cached version against the stored one (one indexed lookup), so a cold
 * node and a warm one give the same answer. A cache that fell behind catches up with the newer
 * events.
 */
import { LRUCache } from 'lru-cache';
import type { AnyRuleset } from '../core/ruleset.js';
import { rulesetOf } from '../games/registry.js';
import type { MatchRow, MatchStore } from '../persistence/types.js';
import { problems } from './errors.js';
import { NO_RECORDS, foldRecords, gameRecords, isOpening, openingOf, type MatchRecords } from './match-log.js';

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

export class MatchLoader {
  /** Null when caching is off (MATCH_CACHE_SIZE=0): every read replays. */
  private readonly cache: LRUCache<string, MatchEntry> | null;
  /** Counters for tests and metrics. */
  readonly stats = { replays: 0, cacheHits: 0, catchUps: 0 };

  constructor(
    private readonly store: MatchStore,
    cacheSize: number,
  ) {
    this.cache = cacheSize > 0 ? new LRUCache({ max: cacheSize }) : null;
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
   * The match as it was right after event `seq` (time travel): its log up to there, replayed.
   * Not cached (a past version is read rarely); null when the match has no event `seq`.
   */
  async at(id: string, seq: number): Promise<{ entry: MatchEntry; at: number } | null> {
    const row = await this.store.getMatch(id);
    if (!row) throw problems.matchNotFound(id);
    if (seq < 1 || seq > row.version) return null;
    const ruleset = rulesetOfRow(row);
    const stored = await this.store.loadEvents(id, { limit: seq });
    const events = gameRecords(stored).map((e) => e.payload as { type: string });
    const opening = openingOf(stored);
    const sandbox = events[0]?.type === 'PositionLoaded' || (opening?.position ?? null) !== null;
    if (events.length > 0 && row.cardSetHash !== ruleset.cardSet.hash) throw problems.cardSetUnavailable(row.cardSetId, row.cardSetHash);
    const state = events.length > 0 ? ruleset.replay(events) : null;
    // Before the deal only the creator had sat down.
    const seats = state === null && opening ? row.seats.map((s) => (s.seat === opening.creatorSeat ? s : { ...s, tokenHash: null, handle: null })) : row.seats;
    const entry: MatchEntry = { ...foldRecords(NO_RECORDS, stored), row: { ...row, seats, version: seq }, ruleset, version: seq, state, sandbox };
    // The clocks read as they did when event `seq` was written.
    return { entry, at: stored.at(-1)!.createdAt.getTime() };
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
        const entry: MatchEntry = { ...foldRecords(cached, newer), row: { ...row, version }, ruleset: cached.ruleset, version, state, sandbox: cached.sandbox };
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
